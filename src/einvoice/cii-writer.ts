import Big from 'big.js';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import {
  centsToDecimal,
  rateDecimal,
  sellerLegalLine,
  type BuyerBlock,
  type DocumentAllowanceCharge,
  type DocumentAttachment,
  type DocumentModel,
  type LineAllowanceCharge,
  type PostalAddress,
  type VatBreakdownEntry,
  precedingInvoicesOf,
} from './document-model.js';

/**
 * The CII (UN/CEFACT Cross Industry Invoice D16B) of a document, Factur-X 1.09 profile EN 16931
 * (BT-24 `urn:cen.eu:en16931:2017`): every field the document model carries fits that profile, so
 * EXTENDED is never needed. Element order follows the Factur-X EN16931 XSD; amounts are written
 * from the model's cents, never recomputed.
 *
 * Choices where the norms leave room (each checked against the official schematrons):
 * - BT-34 / BT-49 (BR-FR-12/13, unconditional today): the electronic address with scheme 0225,
 *   else the contact or buyer e-mail with scheme EM.
 * - The routing code of the buyer's directory line: BT-10, the buyer reference "used for internal
 *   routing" (the profile allows one buyer GlobalID, which the SIRET takes).
 * - BT-8 in every VAT group: 5 when the seller opted for VAT on debits; otherwise 72 (VAT due on
 *   collection) for services, nothing for goods and mixed supplies (VAT due on delivery).
 * - A seller without VAT number (franchise en base) states its SIREN as tax registration (BT-32,
 *   scheme FC), which BR-E-02 asks of an exempt invoice.
 * - A document with a line not subject to VAT (O) carries no VAT identifier (BR-O-02): the PDF
 *   still prints the seller's.
 * - BG-24: each attachment with its bytes (BT-125), its file name as BT-122 and its BR-FR-17 code
 *   as BT-123 (the rules read the code there); this CII is also the Factur-X's, which embeds each
 *   attachment again as a file of its own (facturx.ts).
 * - A credit note (381) carries no payment instructions (BG-16, BT-83): the money goes to the
 *   buyer; BT-20 says how (BR-CO-25), and it has no due date (BT-9).
 */

export const ciiNamespaces = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

/** BT-24 of the Factur-X EN 16931 profile. */
export const en16931Guideline = 'urn:cen.eu:en16931:2017';

/** Characters XML 1.0 cannot carry (control characters, lone surrogates) become U+FFFD. */
const forbiddenXmlChars =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const xmlSafe = (text: string): string => text.replace(forbiddenXmlChars, '\uFFFD');

const compactDate = (isoDate: string): string => isoDate.replace(/-/g, '');

/** An optional value worth an element: an empty element is a failure (PEPPOL-EN16931-R008). */
const present = (value: string | null | undefined): value is string => value != null && value.trim() !== '';

function text(parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>): XMLBuilder {
  return parent.ele(name, attributes).txt(xmlSafe(value)).up();
}

/** BG-27 (ChargeIndicator false) or BG-28 (true) in a line's settlement, in the order of the CII schema. */
function lineAllowanceCharge(settlement: XMLBuilder, entry: LineAllowanceCharge, charge: boolean): void {
  const element = settlement.ele('ram:SpecifiedTradeAllowanceCharge');
  text(element.ele('ram:ChargeIndicator'), 'udt:Indicator', charge ? 'true' : 'false');
  if (entry.percentage !== null) text(element, 'ram:CalculationPercent', new Big(entry.percentage).toFixed(2));
  if (entry.baseAmount !== null) text(element, 'ram:BasisAmount', centsToDecimal(entry.baseAmount));
  text(element, 'ram:ActualAmount', centsToDecimal(entry.amount));
  if (entry.reasonCode !== null) text(element, 'ram:ReasonCode', entry.reasonCode);
  if (entry.reason !== null) text(element, 'ram:Reason', entry.reason);
}

/** BG-20 (ChargeIndicator false) or BG-21 (true) in the header settlement, with its VAT category and rate. */
function documentAllowanceCharge(settlement: XMLBuilder, entry: DocumentAllowanceCharge, charge: boolean): void {
  const element = settlement.ele('ram:SpecifiedTradeAllowanceCharge');
  text(element.ele('ram:ChargeIndicator'), 'udt:Indicator', charge ? 'true' : 'false');
  text(element, 'ram:ActualAmount', centsToDecimal(entry.amount));
  if (entry.reasonCode !== null) text(element, 'ram:ReasonCode', entry.reasonCode);
  if (entry.reason !== null) text(element, 'ram:Reason', entry.reason);
  const tax = element.ele('ram:CategoryTradeTax');
  text(tax, 'ram:TypeCode', 'VAT');
  text(tax, 'ram:CategoryCode', entry.vatCode);
  if (entry.vatRate !== null) text(tax, 'ram:RateApplicablePercent', rateDecimal(entry.vatRate));
}

function dateTime(parent: XMLBuilder, name: string, isoDate: string, prefix: 'udt' | 'qdt' = 'udt'): void {
  parent.ele(name).ele(`${prefix}:DateTimeString`, { format: '102' }).txt(compactDate(isoDate));
}

function address(parent: XMLBuilder, value: PostalAddress): void {
  const node = parent.ele('ram:PostalTradeAddress');
  if (present(value.postalCode)) text(node, 'ram:PostcodeCode', value.postalCode);
  if (present(value.line1)) text(node, 'ram:LineOne', value.line1);
  if (present(value.line2)) text(node, 'ram:LineTwo', value.line2);
  if (present(value.city)) text(node, 'ram:CityName', value.city);
  text(node, 'ram:CountryID', value.country);
}

/** BT-8 of a group: see the module comment. */
function dueDateTypeCode(model: DocumentModel): string | null {
  if (model.vatOnDebits) return '5';
  return model.billingFrame.startsWith('S') ? '72' : null;
}

function tradeTax(parent: XMLBuilder, entry: VatBreakdownEntry, dueCode: string | null): void {
  const node = parent.ele('ram:ApplicableTradeTax');
  text(node, 'ram:CalculatedAmount', centsToDecimal(entry.taxAmount));
  text(node, 'ram:TypeCode', 'VAT');
  if (present(entry.exemptionReason)) text(node, 'ram:ExemptionReason', entry.exemptionReason);
  text(node, 'ram:BasisAmount', centsToDecimal(entry.taxableAmount));
  text(node, 'ram:CategoryCode', entry.vatCode);
  if (present(entry.vatexCode)) text(node, 'ram:ExemptionReasonCode', entry.vatexCode);
  if (dueCode) text(node, 'ram:DueDateTypeCode', dueCode);
  if (entry.vatRate !== null) text(node, 'ram:RateApplicablePercent', rateDecimal(entry.vatRate));
}

/** BT-49: the 0225 electronic address, else the buyer's e-mail (scheme EM). */
export function buyerEndpoint(buyer: BuyerBlock): { scheme: string; value: string } | null {
  if (present(buyer.electronicAddress)) return { scheme: '0225', value: buyer.electronicAddress };
  if (present(buyer.email)) return { scheme: 'EM', value: buyer.email };
  return null;
}

/** BT-34: the 0225 electronic address, else the contact's e-mail (scheme EM). */
export function sellerEndpoint(seller: DocumentModel['seller']): { scheme: string; value: string } | null {
  if (present(seller.electronicAddress)) return { scheme: '0225', value: seller.electronicAddress };
  if (present(seller.contact?.email)) return { scheme: 'EM', value: seller.contact.email };
  return null;
}

/** Whether the document may name VAT identifiers (BR-O-02: not when a line is outside the scope of VAT). */
export const namesVatIdentifiers = (model: DocumentModel): boolean =>
  !model.lines.some((line) => line.vatCode === 'O') && !model.vatBreakdown.some((entry) => entry.vatCode === 'O');

function sellerParty(parent: XMLBuilder, model: DocumentModel): void {
  const seller = model.seller;
  const node = parent.ele('ram:SellerTradeParty');
  if (present(seller.siret)) text(node, 'ram:GlobalID', seller.siret, { schemeID: '0009' });
  text(node, 'ram:Name', seller.legalName);
  const legal = sellerLegalLine(seller);
  if (present(legal)) text(node, 'ram:Description', legal);
  const organization = node.ele('ram:SpecifiedLegalOrganization');
  text(organization, 'ram:ID', seller.siren, { schemeID: '0002' });
  if (present(seller.tradeName)) text(organization, 'ram:TradingBusinessName', seller.tradeName);
  const contact = seller.contact;
  if (contact && (present(contact.name) || present(contact.email) || present(contact.phone))) {
    const contactNode = node.ele('ram:DefinedTradeContact');
    if (present(contact.name)) text(contactNode, 'ram:PersonName', contact.name);
    if (present(contact.phone))
      text(contactNode.ele('ram:TelephoneUniversalCommunication'), 'ram:CompleteNumber', contact.phone);
    if (present(contact.email)) text(contactNode.ele('ram:EmailURIUniversalCommunication'), 'ram:URIID', contact.email);
  }
  address(node, seller.address);
  const endpoint = sellerEndpoint(seller);
  if (endpoint)
    text(node.ele('ram:URIUniversalCommunication'), 'ram:URIID', endpoint.value, { schemeID: endpoint.scheme });
  if (namesVatIdentifiers(model)) {
    if (present(seller.vatNumber))
      text(node.ele('ram:SpecifiedTaxRegistration'), 'ram:ID', seller.vatNumber, { schemeID: 'VA' });
    else text(node.ele('ram:SpecifiedTaxRegistration'), 'ram:ID', seller.siren, { schemeID: 'FC' });
  }
}

function buyerParty(parent: XMLBuilder, model: DocumentModel): void {
  const buyer = model.buyer;
  const node = parent.ele('ram:BuyerTradeParty');
  if (present(buyer.siret)) text(node, 'ram:GlobalID', buyer.siret, { schemeID: '0009' });
  text(node, 'ram:Name', buyer.name);
  if (present(buyer.siren))
    text(node.ele('ram:SpecifiedLegalOrganization'), 'ram:ID', buyer.siren, { schemeID: '0002' });
  if (buyer.address) address(node, buyer.address);
  const endpoint = buyerEndpoint(buyer);
  if (endpoint)
    text(node.ele('ram:URIUniversalCommunication'), 'ram:URIID', endpoint.value, { schemeID: endpoint.scheme });
  if (present(buyer.vatNumber) && namesVatIdentifiers(model))
    text(node.ele('ram:SpecifiedTaxRegistration'), 'ram:ID', buyer.vatNumber, { schemeID: 'VA' });
}

/**
 * The supporting document the CII carries whole: Factur-X 1.09.2 allows one 916 document with a
 * name and bytes (CII-SR-475, CII-SR-476), so the readable one (`LISIBLE`) if any, else the first.
 */
export function carriedSupportingDocument(attachments: readonly DocumentAttachment[]): DocumentAttachment | null {
  return attachments.find((attachment) => attachment.code === 'LISIBLE') ?? attachments[0] ?? null;
}

/**
 * BG-24 (TypeCode 916, "related document"), in the order of the ReferencedDocument schema: whole
 * (its code and bytes) when `carried`, else its reference alone (BT-122), its bytes in the
 * Factur-X's own embedded file and in the UBL.
 */
function additionalDocument(agreement: XMLBuilder, attachment: DocumentAttachment, carried: boolean): void {
  const node = agreement.ele('ram:AdditionalReferencedDocument');
  text(node, 'ram:IssuerAssignedID', attachment.filename);
  text(node, 'ram:TypeCode', '916');
  if (!carried) return;
  text(node, 'ram:Name', attachment.code);
  text(node, 'ram:AttachmentBinaryObject', attachment.content.toString('base64'), {
    mimeCode: attachment.mimeCode,
    filename: attachment.filename,
  });
}

/** The ship-to address (BG-15): the delivery address, else for an intra-EU supply the buyer's (BR-IC-12 needs a country). */
export function shipToAddress(model: DocumentModel): PostalAddress | null {
  if (model.buyer.deliveryAddress) return model.buyer.deliveryAddress;
  if (model.vatBreakdown.some((entry) => entry.vatCode === 'K')) return model.buyer.address;
  return null;
}

/** The CII XML of a document, UTF-8, no indentation. */
export function writeCii(model: DocumentModel): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ciiNamespaces.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:qdt': ciiNamespaces.qdt,
    'xmlns:ram': ciiNamespaces.ram,
    'xmlns:udt': ciiNamespaces.udt,
  });

  const context = root.ele('rsm:ExchangedDocumentContext');
  text(context.ele('ram:BusinessProcessSpecifiedDocumentContextParameter'), 'ram:ID', model.billingFrame);
  text(context.ele('ram:GuidelineSpecifiedDocumentContextParameter'), 'ram:ID', en16931Guideline);

  const document = root.ele('rsm:ExchangedDocument');
  text(document, 'ram:ID', model.number);
  text(document, 'ram:TypeCode', model.typeCode);
  dateTime(document, 'ram:IssueDateTime', model.issueDate);
  const note = (content: string, subject: string | null) => {
    const node = document.ele('ram:IncludedNote');
    text(node, 'ram:Content', content);
    if (subject) text(node, 'ram:SubjectCode', subject);
  };
  note(model.processing, 'BAR');
  for (const entry of model.notes) note(entry.text, entry.subject);

  const transaction = root.ele('rsm:SupplyChainTradeTransaction');
  for (const line of model.lines) {
    const item = transaction.ele('ram:IncludedSupplyChainTradeLineItem');
    text(item.ele('ram:AssociatedDocumentLineDocument'), 'ram:LineID', line.id);
    text(item.ele('ram:SpecifiedTradeProduct'), 'ram:Name', line.description);
    text(
      item.ele('ram:SpecifiedLineTradeAgreement').ele('ram:NetPriceProductTradePrice'),
      'ram:ChargeAmount',
      line.unitPrice,
    );
    text(item.ele('ram:SpecifiedLineTradeDelivery'), 'ram:BilledQuantity', line.quantity, { unitCode: line.unitCode });
    const settlement = item.ele('ram:SpecifiedLineTradeSettlement');
    const tax = settlement.ele('ram:ApplicableTradeTax');
    text(tax, 'ram:TypeCode', 'VAT');
    text(tax, 'ram:CategoryCode', line.vatCode);
    if (line.vatRate !== null) text(tax, 'ram:RateApplicablePercent', rateDecimal(line.vatRate));
    for (const allowance of line.allowances ?? []) lineAllowanceCharge(settlement, allowance, false);
    for (const charge of line.charges ?? []) lineAllowanceCharge(settlement, charge, true);
    text(
      settlement.ele('ram:SpecifiedTradeSettlementLineMonetarySummation'),
      'ram:LineTotalAmount',
      centsToDecimal(line.netAmount),
    );
  }

  const agreement = transaction.ele('ram:ApplicableHeaderTradeAgreement');
  if (present(model.buyer.routingCode)) text(agreement, 'ram:BuyerReference', model.buyer.routingCode);
  sellerParty(agreement, model);
  buyerParty(agreement, model);
  const carried = carriedSupportingDocument(model.attachments ?? []);
  for (const attachment of model.attachments ?? []) additionalDocument(agreement, attachment, attachment === carried);

  const delivery = transaction.ele('ram:ApplicableHeaderTradeDelivery');
  const shipTo = shipToAddress(model);
  if (shipTo) {
    const party = delivery.ele('ram:ShipToTradeParty');
    text(party, 'ram:Name', model.buyer.name);
    address(party, shipTo);
  }
  dateTime(delivery.ele('ram:ActualDeliverySupplyChainEvent'), 'ram:OccurrenceDateTime', model.deliveryDate);

  const settlement = transaction.ele('ram:ApplicableHeaderTradeSettlement');
  // A credit note asks the buyer for no payment: no remittance reference, no seller account (BG-16).
  const paymentInstructions = model.typeCode !== '381';
  if (paymentInstructions) text(settlement, 'ram:PaymentReference', model.number);
  text(settlement, 'ram:InvoiceCurrencyCode', model.currency);
  if (paymentInstructions && present(model.seller.iban)) {
    const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
    text(means, 'ram:TypeCode', model.paymentMeansCode);
    text(means.ele('ram:PayeePartyCreditorFinancialAccount'), 'ram:IBANID', model.seller.iban);
    if (present(model.seller.bic))
      text(means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution'), 'ram:BICID', model.seller.bic);
  }
  const dueCode = dueDateTypeCode(model);
  for (const entry of model.vatBreakdown) tradeTax(settlement, entry, dueCode);
  for (const entry of model.allowances ?? []) documentAllowanceCharge(settlement, entry, false);
  for (const entry of model.charges ?? []) documentAllowanceCharge(settlement, entry, true);
  if (present(model.paymentTerms) || model.dueDate) {
    const terms = settlement.ele('ram:SpecifiedTradePaymentTerms');
    if (present(model.paymentTerms)) text(terms, 'ram:Description', model.paymentTerms);
    if (model.dueDate) dateTime(terms, 'ram:DueDateDateTime', model.dueDate);
  }
  const sums = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  // BT-106 is BT-109 unless the document has allowances or charges of its own.
  const adjusted = (model.allowances ?? []).length > 0 || (model.charges ?? []).length > 0;
  text(
    sums,
    'ram:LineTotalAmount',
    centsToDecimal(adjusted ? (model.totals.lineTotal ?? model.totals.net) : model.totals.net),
  );
  if ((model.charges ?? []).length > 0)
    text(sums, 'ram:ChargeTotalAmount', centsToDecimal(model.totals.chargeTotal ?? 0));
  if ((model.allowances ?? []).length > 0)
    text(sums, 'ram:AllowanceTotalAmount', centsToDecimal(model.totals.allowanceTotal ?? 0));
  text(sums, 'ram:TaxBasisTotalAmount', centsToDecimal(model.totals.net));
  text(sums, 'ram:TaxTotalAmount', centsToDecimal(model.totals.vat), { currencyID: model.currency });
  text(sums, 'ram:GrandTotalAmount', centsToDecimal(model.totals.gross));
  if (model.totals.paid !== 0) text(sums, 'ram:TotalPrepaidAmount', centsToDecimal(model.totals.paid));
  text(sums, 'ram:DuePayableAmount', centsToDecimal(model.totals.due));
  for (const preceding of precedingInvoicesOf(model)) {
    const reference = settlement.ele('ram:InvoiceReferencedDocument');
    text(reference, 'ram:IssuerAssignedID', preceding.number);
    dateTime(reference, 'ram:FormattedIssueDateTime', preceding.issueDate, 'qdt');
  }
  return root.end({ prettyPrint: false });
}
