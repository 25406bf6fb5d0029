import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { carriedSupportingDocument, writeCii } from '../../src/einvoice/cii-writer.js';
import {
  centsToDecimal,
  discountClauseOf,
  documentModelOf,
  decimalToCents,
  type DocumentSource,
} from '../../src/einvoice/document-model.js';
import { buyers, engineDocument, sampleInvoice, sellers } from './support.js';

/** The CII writer: each field of the model lands in its business term, as the norms place it. */

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: false });
type Node = Record<string, unknown>;
const parse = (xml: string) => (parser.parse(xml) as Node)['rsm:CrossIndustryInvoice'] as Node;
const at = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => (value as Node | undefined)?.[key], node);
const list = (value: unknown): Node[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]) as Node[];

test('amounts in cents are written as two-decimal euros, and back', () => {
  assert.equal(centsToDecimal(123456), '1234.56');
  assert.equal(centsToDecimal(5), '0.05');
  assert.equal(centsToDecimal(-5), '-0.05');
  assert.equal(centsToDecimal(0), '0.00');
  assert.equal(decimalToCents('1234.5'), 123450);
  assert.equal(decimalToCents('-0.05'), -5);
  assert.throws(() => decimalToCents('1.234'));
});

test('the header: BT-23 frame, EN 16931 guideline, number, type, date, BAR and the payment notes', () => {
  const invoice = parse(writeCii(sampleInvoice()));
  assert.equal(
    at(invoice, 'rsm:ExchangedDocumentContext', 'ram:BusinessProcessSpecifiedDocumentContextParameter', 'ram:ID'),
    'M1',
  );
  assert.equal(
    at(invoice, 'rsm:ExchangedDocumentContext', 'ram:GuidelineSpecifiedDocumentContextParameter', 'ram:ID'),
    'urn:cen.eu:en16931:2017',
  );
  const document = at(invoice, 'rsm:ExchangedDocument') as Node;
  assert.equal(document['ram:ID'], 'F2026-000001');
  assert.equal(document['ram:TypeCode'], '380');
  assert.equal(at(document, 'ram:IssueDateTime', 'udt:DateTimeString', '#text'), '20261124');
  const notes = list(document['ram:IncludedNote']).map((note) => [note['ram:SubjectCode'], note['ram:Content']]);
  assert.deepEqual(notes[0], ['BAR', 'B2B']);
  for (const subject of ['PMT', 'PMD', 'AAB']) assert.equal(notes.filter(([code]) => code === subject).length, 1);
  assert.match(String(notes.find(([code]) => code === 'PMT')![1]), /40 €/);
});

test('seller and buyer: SIREN scheme 0002, SIRET 0009, 0225 addresses, VAT numbers, legal form and capital, routing code', () => {
  const agreement = at(
    parse(writeCii(sampleInvoice())),
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeAgreement',
  ) as Node;
  assert.equal(agreement['ram:BuyerReference'], 'SERVICE-ACHATS');
  const seller = agreement['ram:SellerTradeParty'] as Node;
  assert.deepEqual(seller['ram:GlobalID'], { '#text': '73282932000074', '@_schemeID': '0009' });
  assert.equal(seller['ram:Name'], 'Atelier Dupont & Fils');
  assert.equal(seller['ram:Description'], 'SAS au capital de 10\u00a0000\u00a0€ – RCS Paris 732 829 320');
  assert.deepEqual(at(seller, 'ram:SpecifiedLegalOrganization', 'ram:ID'), {
    '#text': '732829320',
    '@_schemeID': '0002',
  });
  assert.equal(at(seller, 'ram:SpecifiedLegalOrganization', 'ram:TradingBusinessName'), 'Dupont <Ateliers>');
  assert.deepEqual(at(seller, 'ram:URIUniversalCommunication', 'ram:URIID'), {
    '#text': '732829320_FACTURES',
    '@_schemeID': '0225',
  });
  assert.deepEqual(at(seller, 'ram:SpecifiedTaxRegistration', 'ram:ID'), {
    '#text': 'FR44732829320',
    '@_schemeID': 'VA',
  });
  const buyer = agreement['ram:BuyerTradeParty'] as Node;
  assert.deepEqual(at(buyer, 'ram:SpecifiedLegalOrganization', 'ram:ID'), {
    '#text': '552120222',
    '@_schemeID': '0002',
  });
  assert.deepEqual(buyer['ram:GlobalID'], { '#text': '55212022200013', '@_schemeID': '0009' });
  assert.deepEqual(at(buyer, 'ram:URIUniversalCommunication', 'ram:URIID'), {
    '#text': '552120222',
    '@_schemeID': '0225',
  });
  assert.equal(at(buyer, 'ram:PostalTradeAddress', 'ram:LineTwo'), 'Bâtiment B');
});

test('escaping: markup characters in names survive as text', () => {
  const xml = writeCii(sampleInvoice());
  assert.match(xml, /Atelier Dupont &amp; Fils/);
  assert.match(xml, /Dupont &lt;Ateliers&gt;/);
});

test('delivery, VAT breakdown with BT-8, totals, payment means and due date', () => {
  const transaction = at(parse(writeCii(sampleInvoice())), 'rsm:SupplyChainTradeTransaction') as Node;
  const delivery = transaction['ram:ApplicableHeaderTradeDelivery'] as Node;
  assert.equal(at(delivery, 'ram:ShipToTradeParty', 'ram:PostalTradeAddress', 'ram:CityName'), 'Saint-Denis');
  assert.equal(
    at(delivery, 'ram:ActualDeliverySupplyChainEvent', 'ram:OccurrenceDateTime', 'udt:DateTimeString', '#text'),
    '20261120',
  );
  const settlement = transaction['ram:ApplicableHeaderTradeSettlement'] as Node;
  const groups = list(settlement['ram:ApplicableTradeTax']);
  assert.deepEqual(
    groups.map((group) => [
      group['ram:CategoryCode'],
      group['ram:RateApplicablePercent'],
      group['ram:BasisAmount'],
      group['ram:CalculatedAmount'],
      group['ram:DueDateTypeCode'],
    ]),
    [
      ['S', '20.00', '2150.00', '430.00', '5'],
      ['S', '5.50', '37.04', '2.04', '5'],
    ],
  );
  const sums = settlement['ram:SpecifiedTradeSettlementHeaderMonetarySummation'] as Node;
  assert.equal(sums['ram:LineTotalAmount'], '2187.04');
  assert.equal(sums['ram:TaxBasisTotalAmount'], '2187.04');
  assert.deepEqual(sums['ram:TaxTotalAmount'], { '#text': '432.04', '@_currencyID': 'EUR' });
  assert.equal(sums['ram:GrandTotalAmount'], '2619.08');
  assert.equal(sums['ram:DuePayableAmount'], '2619.08');
  assert.equal(sums['ram:TotalPrepaidAmount'], undefined);
  const means = settlement['ram:SpecifiedTradeSettlementPaymentMeans'] as Node;
  assert.equal(means['ram:TypeCode'], '58');
  assert.equal(at(means, 'ram:PayeePartyCreditorFinancialAccount', 'ram:IBANID'), 'FR7630006000011234567890189');
  assert.equal(at(means, 'ram:PayeeSpecifiedCreditorFinancialInstitution', 'ram:BICID'), 'AGRIFRPP');
  assert.equal(
    at(settlement, 'ram:SpecifiedTradePaymentTerms', 'ram:DueDateDateTime', 'udt:DateTimeString', '#text'),
    '20261224',
  );
  const lines = list(transaction['ram:IncludedSupplyChainTradeLineItem']);
  assert.equal(lines.length, 3);
  assert.deepEqual(at(lines[1], 'ram:SpecifiedLineTradeDelivery', 'ram:BilledQuantity'), {
    '#text': '3',
    '@_unitCode': 'C62',
  });
  assert.equal(
    at(lines[1], 'ram:SpecifiedLineTradeAgreement', 'ram:NetPriceProductTradePrice', 'ram:ChargeAmount'),
    '12.345',
  );
  assert.equal(
    at(
      lines[1],
      'ram:SpecifiedLineTradeSettlement',
      'ram:SpecifiedTradeSettlementLineMonetarySummation',
      'ram:LineTotalAmount',
    ),
    '37.04',
  );
});

test('a credit note names the invoice it corrects (BT-25, BT-26) and has payment terms', () => {
  const model = engineDocument({
    kind: 'credit_note',
    number: 'A2026-000003',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: [{ description: 'Audit', quantity: '1', unitPrice: '100', unit: 'C62', nature: 'services' }],
  });
  assert.equal(model.typeCode, '381');
  const settlement = at(
    parse(writeCii(model)),
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeSettlement',
  ) as Node;
  assert.equal(at(settlement, 'ram:InvoiceReferencedDocument', 'ram:IssuerAssignedID'), 'F2026-000001');
  assert.deepEqual(
    at(settlement, 'ram:InvoiceReferencedDocument', 'ram:FormattedIssueDateTime', 'qdt:DateTimeString'),
    {
      '#text': '20260115',
      '@_format': '102',
    },
  );
  assert.match(String(at(settlement, 'ram:SpecifiedTradePaymentTerms', 'ram:Description')), /F2026-000001/);
});

test('a credit note asks for no payment: no due date, no seller account, no remittance reference; the notes say so', () => {
  const model = engineDocument({
    kind: 'credit_note',
    number: 'A2026-000005',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: [{ description: 'Audit', quantity: '1', unitPrice: '100', unit: 'C62', nature: 'services' }],
  });
  // Even a due date stored by an older version is not the credit note's.
  const stale = documentModelOf({ ...creditNoteSource(), dueDate: '2026-11-14' });
  assert.equal(stale.dueDate, null);
  const cii = parse(writeCii(model));
  const settlement = at(cii, 'rsm:SupplyChainTradeTransaction', 'ram:ApplicableHeaderTradeSettlement') as Node;
  assert.equal(settlement['ram:SpecifiedTradeSettlementPaymentMeans'], undefined, 'no IBAN to pay into (BG-16)');
  assert.equal(settlement['ram:PaymentReference'], undefined, 'no remittance information (BT-83)');
  assert.equal(at(settlement, 'ram:SpecifiedTradePaymentTerms', 'ram:DueDateDateTime'), undefined);
  assert.equal(
    at(settlement, 'ram:SpecifiedTradePaymentTerms', 'ram:Description'),
    'Avoir en faveur du client : à déduire de la facture F2026-000001 du 15/01/2026, ou remboursé si elle est déjà réglée.',
  );
  // BR-FR-05 wants the three notes on every document: on a credit note they say there is nothing to pay late.
  const notes = list(at(cii, 'rsm:ExchangedDocument', 'ram:IncludedNote')).map((note): [string, string] => [
    String(note['ram:SubjectCode']),
    String(note['ram:Content']),
  ]);
  for (const subject of ['PMT', 'PMD', 'AAB'])
    assert.match(notes.find(([code]) => code === subject)![1], /sans objet \(avoir/, subject);
  assert.ok(!notes.some(([, text]) => /40 €|trois fois/.test(text)), 'no late-payment clause');
});

test('BT-72 without a delivery date: the operation date of the tax decision, not the issue date', () => {
  const model = documentModelOf({ ...creditNoteSource(), kind: 'invoice', operationDate: '2026-10-01' });
  assert.equal(model.deliveryDate, '2026-10-01');
  const delivery = at(
    parse(writeCii(model)),
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeDelivery',
    'ram:ActualDeliverySupplyChainEvent',
    'ram:OccurrenceDateTime',
    'udt:DateTimeString',
    '#text',
  );
  assert.equal(delivery, '20261001');
  // A delivery date given on the document wins; with neither, the issue date.
  assert.equal(
    documentModelOf({ ...creditNoteSource(), deliveryDate: '2026-09-30', operationDate: '2026-10-01' }).deliveryDate,
    '2026-09-30',
  );
  assert.equal(documentModelOf(creditNoteSource()).deliveryDate, '2026-10-15');
});

test("one source for the early-payment discount: the seller's own clause in its terms is the AAB note", () => {
  const terms = 'Paiement à 30 jours. Escompte de 2 % pour paiement sous 8 jours.';
  const model = documentModelOf({ ...creditNoteSource(), kind: 'invoice', paymentTerms: terms });
  const aab = model.notes.filter((note) => note.subject === 'AAB');
  assert.deepEqual(aab, [{ subject: 'AAB', text: 'Escompte de 2 % pour paiement sous 8 jours.' }]);
  assert.equal(discountClauseOf('Paiement à réception.'), null);
  const plain = documentModelOf({ ...creditNoteSource(), kind: 'invoice', paymentTerms: 'Paiement à réception.' });
  assert.equal(plain.notes.find((note) => note.subject === 'AAB')!.text, 'Escompte pour paiement anticipé : néant.');
});

test('the VAT-on-debits option: BT-8 5 with it; 72 for services without it; nothing for goods', () => {
  const line = { description: 'x', quantity: '1', unitPrice: '100', unit: 'C62' } as const;
  const dueCode = (model: ReturnType<typeof engineDocument>) =>
    at(
      parse(writeCii(model)),
      'rsm:SupplyChainTradeTransaction',
      'ram:ApplicableHeaderTradeSettlement',
      'ram:ApplicableTradeTax',
      'ram:DueDateTypeCode',
    );
  const base = { kind: 'invoice' as const, number: 'F1', issueDate: '2026-10-15', buyer: buyers.domestic };
  const debits = engineDocument({ ...base, seller: sellers.parisDebits, lines: [{ ...line, nature: 'services' }] });
  assert.equal(debits.vatOnDebits, true);
  assert.equal(dueCode(debits), '5');
  assert.equal(
    dueCode(engineDocument({ ...base, seller: sellers.paris, lines: [{ ...line, nature: 'services' }] })),
    '72',
  );
  assert.equal(
    dueCode(engineDocument({ ...base, seller: sellers.paris, lines: [{ ...line, nature: 'goods' }] })),
    undefined,
  );
});

test('exemptions: the VATEX code and the legal text of the decision in each group; franchise with the SIREN as tax registration', () => {
  const line = { description: 'x', quantity: '1', unitPrice: '100', unit: 'C62' } as const;
  const base = { kind: 'invoice' as const, number: 'F1', issueDate: '2026-10-15' };
  const group = (model: ReturnType<typeof engineDocument>) =>
    at(
      parse(writeCii(model)),
      'rsm:SupplyChainTradeTransaction',
      'ram:ApplicableHeaderTradeSettlement',
      'ram:ApplicableTradeTax',
    ) as Node;
  const franchise = engineDocument({
    ...base,
    seller: sellers.franchise,
    buyer: buyers.domestic,
    lines: [{ ...line, nature: 'services' }],
  });
  assert.equal(group(franchise)['ram:ExemptionReasonCode'], 'VATEX-FR-FRANCHISE');
  assert.equal(group(franchise)['ram:ExemptionReason'], 'TVA non applicable, art. 293 B du CGI');
  const sellerTax = at(
    parse(writeCii(franchise)),
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeAgreement',
    'ram:SellerTradeParty',
    'ram:SpecifiedTaxRegistration',
    'ram:ID',
  );
  assert.deepEqual(sellerTax, { '#text': '732829320', '@_schemeID': 'FC' });
  const intraEu = engineDocument({
    ...base,
    seller: sellers.paris,
    buyer: buyers.germany,
    lines: [{ ...line, nature: 'goods' }],
  });
  assert.equal(group(intraEu)['ram:CategoryCode'], 'K');
  assert.equal(group(intraEu)['ram:ExemptionReason'], 'Exonération de TVA, article 262 ter I du CGI');
  // BR-IC-12: the country of delivery, from the buyer's address when there is no delivery address.
  const shipTo = at(
    parse(writeCii(intraEu)),
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeDelivery',
    'ram:ShipToTradeParty',
    'ram:PostalTradeAddress',
    'ram:CountryID',
  );
  assert.equal(shipTo, 'DE');
});

test('a document not subject to VAT (O) names no VAT identifier (BR-O-02)', () => {
  const model = engineDocument({
    kind: 'invoice',
    number: 'F1',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.swiss,
    lines: [{ description: 'Conseil', quantity: '1', unitPrice: '100', unit: 'C62', nature: 'services' }],
  });
  assert.equal(model.vatBreakdown[0]!.vatCode, 'O');
  const xml = writeCii(model);
  assert.doesNotMatch(xml, /SpecifiedTaxRegistration/);
  assert.doesNotMatch(xml, /RateApplicablePercent/);
});

test('B2C: BAR B2C, the buyer e-mail as electronic address (scheme EM), the consumer PMT text', () => {
  const model = engineDocument({
    kind: 'invoice',
    number: 'F1',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.consumer,
    lines: [{ description: 'Livre', quantity: '1', unitPrice: '20', unit: 'C62', nature: 'goods' }],
  });
  assert.equal(model.processing, 'B2C');
  const xml = writeCii(model);
  assert.match(xml, /<ram:URIID schemeID="EM">zoe@example.org<\/ram:URIID>/);
  assert.match(xml, /<ram:Content>B2C<\/ram:Content><ram:SubjectCode>BAR<\/ram:SubjectCode>/);
  assert.match(xml, /client non professionnel/);
});

test('optional text that is only blanks is left out (an empty element fails PEPPOL-EN16931-R008)', () => {
  const model = sampleInvoice();
  model.buyer.address = { ...model.buyer.address!, line2: '   ' };
  model.seller.tradeName = '';
  const xml = writeCii(model);
  assert.doesNotMatch(xml, /<ram:LineTwo>\s*<\/ram:LineTwo>/);
  assert.doesNotMatch(xml, /TradingBusinessName/);
});

test('characters XML 1.0 cannot carry are replaced, so the document stays well formed', () => {
  const model = sampleInvoice();
  model.lines[0]!.description = 'Bell\u0007 and \uD800 lone';
  const xml = writeCii(model);
  assert.match(xml, /Bell\uFFFD and \uFFFD lone/);
  assert.doesNotThrow(() => parser.parse(xml));
});

test('documentModelOf: lines numbered, frame from the natures, debits from the mention, totals from the groups', () => {
  const model = documentModelOf({
    kind: 'invoice',
    number: 'F2026-000009',
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    deliveryDate: null,
    paymentTerms: null,
    notes: 'Merci de votre confiance.',
    amountPaid: 1000,
    precedingInvoice: null,
    seller: sampleInvoice().seller,
    buyer: { ...sampleInvoice().buyer, routingCode: undefined },
    lines: [
      {
        description: 'A',
        quantity: '1',
        unitPrice: '100',
        unit: 'C62',
        nature: 'services',
        netAmount: 10000,
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
      },
      {
        description: 'B',
        quantity: '1',
        unitPrice: '50',
        unit: 'C62',
        nature: 'goods',
        netAmount: 5000,
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
      },
    ],
    tax: {
      vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', vatexCode: null, taxableAmount: 15000, taxAmount: 3000 }],
      mentions: [
        { code: 'vat_on_debits', text: "Option pour le paiement de la taxe d'après les débits", lines: [0, 1] },
        { code: 'operation_category', text: 'Opération mixte', lines: [0, 1] },
      ],
      obligations: { einvoicing: { state: 'due', reason: 'domestic_b2b' } },
    },
  });
  assert.deepEqual(
    model.lines.map((line) => line.id),
    ['1', '2'],
  );
  assert.equal(model.billingFrame, 'M1');
  assert.equal(model.vatOnDebits, true);
  assert.equal(model.processing, 'B2B');
  assert.equal(model.deliveryDate, '2026-03-01');
  assert.deepEqual(model.totals, { net: 15000, vat: 3000, gross: 18000, paid: 1000, due: 17000 });
  assert.equal(model.vatBreakdown[0]!.exemptionReason, null);
  assert.deepEqual(
    model.notes.map((note) => note.subject),
    ['PMD', 'PMT', 'AAB', 'REG', 'REG', null],
  );
  assert.match(writeCii(model), /<ram:TotalPrepaidAmount>10.00<\/ram:TotalPrepaidAmount>/);
});

/** A finalized credit note of one 20 % service line, as the invoices capability hands it over. */
function creditNoteSource(): DocumentSource {
  return {
    kind: 'credit_note',
    number: 'A2026-000006',
    issueDate: '2026-10-15',
    dueDate: null,
    deliveryDate: null,
    paymentTerms: null,
    notes: null,
    amountPaid: 0,
    precedingInvoice: { number: 'F2026-000001', issueDate: '2026-01-15' },
    seller: sampleInvoice().seller,
    buyer: { ...sampleInvoice().buyer, routingCode: undefined },
    lines: [
      {
        description: 'Audit',
        quantity: '1',
        unitPrice: '100',
        unit: 'C62',
        nature: 'services',
        netAmount: 10000,
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
      },
    ],
    tax: {
      vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', vatexCode: null, taxableAmount: 10000, taxAmount: 2000 }],
      mentions: [],
      obligations: { einvoicing: { state: 'due', reason: 'domestic_b2b' } },
    },
  };
}

test('the CII carries one supporting document whole (Factur-X 1.09.2), the readable one first', () => {
  const attachment = (filename: string, code: string) => ({
    filename,
    mimeCode: 'application/pdf',
    code,
    description: null,
    content: Buffer.from(filename),
  });
  const annex = attachment('annexe.pdf', 'DOCUMENT_ANNEXE');
  const readable = attachment('lisible.pdf', 'LISIBLE');
  assert.equal(carriedSupportingDocument([annex, readable]), readable);
  assert.equal(carriedSupportingDocument([annex, attachment('bl.pdf', 'BON_LIVRAISON')]), annex);
  assert.equal(carriedSupportingDocument([]), null);
  const xml = writeCii(sampleInvoice({ attachments: [annex, readable] }));
  assert.equal(xml.match(/<ram:AttachmentBinaryObject /g)?.length, 1);
  assert.equal(xml.match(/<ram:TypeCode>916<\/ram:TypeCode><ram:Name>/g)?.length, 1);
  assert.match(
    xml,
    /<ram:IssuerAssignedID>annexe\.pdf<\/ram:IssuerAssignedID><ram:TypeCode>916<\/ram:TypeCode><\/ram:AdditionalReferencedDocument>/,
  );
});
