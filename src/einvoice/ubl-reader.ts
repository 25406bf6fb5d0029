import {
  amountInCents,
  attributeOf,
  child,
  elements,
  text,
  textOf,
  XmlReadingError,
  xmlReader,
} from '../kernel/xml-reading.js';
import { takeGroupExemptions, vatInTaxCurrencyOf, type ReadDocument } from './cii-reader.js';
import type { DocumentLineModel, DocumentNote, PostalAddress, VatBreakdownEntry } from './document-model.js';

/**
 * Reads a UBL 2.1 Invoice or CreditNote (EN 16931, CIUS or EXTENDED-CTC-FR) into the same model
 * as the CII reader: what the file says, not judged (the official UBL validators judge it apart:
 * received/official-validation.ts). Elements are known by namespace, not prefix, and a hostile XML
 * is refused (kernel/xml-reading.ts); amounts become cents.
 */

export class UblReadError extends Error {}

/** UBL 2.1: the two documents and the common components they are made of. */
const ublNamespaces = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

/** UBL elements by namespace; the repeated ones are always lists. */
const readUblTree = xmlReader({
  namespaces: Object.values(ublNamespaces),
  repeated: [
    'Note',
    'InvoiceLine',
    'CreditNoteLine',
    'TaxSubtotal',
    'TaxTotal',
    'PartyIdentification',
    'PartyTaxScheme',
    'PaymentMeans',
    'PaymentTerms',
    'BillingReference',
  ],
});

function readAddress(node: unknown): PostalAddress | null {
  if (node === undefined) return null;
  return {
    line1: text(node, 'StreetName'),
    line2: text(node, 'AdditionalStreetName'),
    postalCode: text(node, 'PostalZone'),
    city: text(node, 'CityName'),
    country: text(node, 'Country', 'IdentificationCode') ?? '',
  };
}

function partyIdentifier(party: unknown, scheme: string): string | null {
  for (const entry of elements(child(party, 'PartyIdentification'))) {
    const id = child(entry, 'ID');
    if (attributeOf(id, 'schemeID') === scheme) return textOf(id);
  }
  return null;
}

function vatNumber(party: unknown): string | null {
  for (const entry of elements(child(party, 'PartyTaxScheme'))) {
    if (text(entry, 'TaxScheme', 'ID') === 'VAT') return text(entry, 'CompanyID');
  }
  return null;
}

function legalId(party: unknown, scheme: string): string | null {
  const id = child(party, 'PartyLegalEntity', 'CompanyID');
  return attributeOf(id, 'schemeID') === scheme ? textOf(id) : null;
}

function endpoint(party: unknown): { scheme: string | null; value: string } | null {
  const node = child(party, 'EndpointID');
  const value = textOf(node);
  return value === null ? null : { scheme: attributeOf(node, 'schemeID'), value };
}

/** `#PMT#text` (the French CIUS writes the subject this way) -> subject and text. */
function noteOf(raw: string): { subject: string | null; text: string } {
  const match = /^#([A-Z]{3})#([\s\S]*)$/.exec(raw);
  return match ? { subject: match[1]!, text: match[2]! } : { subject: null, text: raw };
}

export function readUbl(xml: string): ReadDocument {
  let parsed: Record<string, unknown>;
  try {
    parsed = readUblTree(xml);
  } catch (error) {
    throw error instanceof XmlReadingError ? new UblReadError(error.message) : error;
  }
  const credit = parsed['CreditNote'] !== undefined;
  const root = parsed['Invoice'] ?? parsed['CreditNote'];
  if (!root || typeof root !== 'object') throw new UblReadError('not a UBL document: no Invoice or CreditNote root');
  const warnings: string[] = [];
  const currency = text(root, 'DocumentCurrencyCode') ?? '';

  const cents = (value: string | null, what: string) => amountInCents(value, what, warnings);

  let processing: string | null = null;
  const notes: DocumentNote[] = [];
  for (const raw of elements(child(root, 'Note'))) {
    const note = noteOf(textOf(raw) ?? '');
    if (note.subject === 'BAR' && processing === null) processing = note.text;
    else notes.push({ subject: note.subject as DocumentNote['subject'], text: note.text });
  }

  const sellerParty = child(root, 'AccountingSupplierParty', 'Party');
  const sellerEndpoint = endpoint(sellerParty);
  const means = elements(child(root, 'PaymentMeans'));
  const transfer = means.find((entry) => child(entry, 'PayeeFinancialAccount') !== undefined) ?? means[0];
  const contact = child(sellerParty, 'Contact');
  const seller: ReadDocument['seller'] = {
    legalName:
      text(sellerParty, 'PartyLegalEntity', 'RegistrationName') ?? text(sellerParty, 'PartyName', 'Name') ?? '',
    tradeName: text(sellerParty, 'PartyName', 'Name'),
    legalForm: null,
    shareCapital: null,
    siren: legalId(sellerParty, '0002'),
    siret: partyIdentifier(sellerParty, '0009'),
    vatNumber: vatNumber(sellerParty),
    registration: null,
    address: readAddress(child(sellerParty, 'PostalAddress')),
    electronicAddress: sellerEndpoint?.scheme === '0225' ? sellerEndpoint.value : null,
    contact:
      contact === undefined
        ? null
        : { name: text(contact, 'Name'), email: text(contact, 'ElectronicMail'), phone: text(contact, 'Telephone') },
    iban: text(transfer, 'PayeeFinancialAccount', 'ID'),
    bic: text(transfer, 'PayeeFinancialAccount', 'FinancialInstitutionBranch', 'ID'),
  };

  const buyerParty = child(root, 'AccountingCustomerParty', 'Party');
  const buyerEndpoint = endpoint(buyerParty);
  const buyerSiren = legalId(buyerParty, '0002');
  const buyer: ReadDocument['buyer'] = {
    type: buyerSiren || vatNumber(buyerParty) ? 'company' : processing === 'B2C' ? 'individual' : 'company',
    name: text(buyerParty, 'PartyLegalEntity', 'RegistrationName') ?? text(buyerParty, 'PartyName', 'Name') ?? '',
    siren: buyerSiren,
    siret: partyIdentifier(buyerParty, '0009'),
    vatNumber: vatNumber(buyerParty),
    electronicAddress: buyerEndpoint?.scheme === '0225' ? buyerEndpoint.value : null,
    routingCode: text(root, 'BuyerReference'),
    email: buyerEndpoint?.scheme === 'EM' ? buyerEndpoint.value : null,
    address: readAddress(child(buyerParty, 'PostalAddress')),
    deliveryAddress: readAddress(child(root, 'Delivery', 'DeliveryLocation', 'Address')),
  };

  const lineTag = credit ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityTag = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
  const lines: DocumentLineModel[] = elements(child(root, lineTag)).map((item, index) => {
    const quantity = child(item, quantityTag);
    const tax = child(item, 'Item', 'ClassifiedTaxCategory');
    return {
      id: text(item, 'ID') ?? String(index + 1),
      description: text(item, 'Item', 'Name') ?? '',
      quantity: textOf(quantity) ?? '',
      unitCode: attributeOf(quantity, 'unitCode') ?? '',
      unitPrice: text(item, 'Price', 'PriceAmount') ?? '',
      netAmount: cents(text(item, 'LineExtensionAmount'), `line ${index + 1} net amount`),
      vatCode: text(tax, 'ID') ?? '',
      vatRate: text(tax, 'Percent'),
      vatexCode: null,
    };
  });

  // BT-110 is the TaxTotal in the document's currency (a second one may give it in the VAT currency).
  const taxTotals = elements(child(root, 'TaxTotal'));
  const taxTotal =
    taxTotals.find((entry) => attributeOf(child(entry, 'TaxAmount'), 'currencyID') === currency) ?? taxTotals[0];
  const vatBreakdown: VatBreakdownEntry[] = elements(child(taxTotal, 'TaxSubtotal')).map((group, index) => ({
    vatCode: text(group, 'TaxCategory', 'ID') ?? '',
    vatRate: text(group, 'TaxCategory', 'Percent'),
    vatexCode: text(group, 'TaxCategory', 'TaxExemptionReasonCode'),
    exemptionReason: text(group, 'TaxCategory', 'TaxExemptionReason'),
    taxableAmount: cents(text(group, 'TaxableAmount'), `VAT group ${index + 1} base`),
    taxAmount: cents(text(group, 'TaxAmount'), `VAT group ${index + 1} amount`),
  }));
  takeGroupExemptions(lines, vatBreakdown);

  const sums = child(root, 'LegalMonetaryTotal');
  const totals: ReadDocument['totals'] = {
    net: cents(text(sums, 'LineExtensionAmount'), 'BT-106'),
    vat: cents(text(taxTotal, 'TaxAmount'), 'BT-110'),
    gross: cents(text(sums, 'TaxInclusiveAmount'), 'BT-112'),
    paid: cents(text(sums, 'PrepaidAmount'), 'BT-113'),
    due: cents(text(sums, 'PayableAmount'), 'BT-115'),
    taxBasis: cents(text(sums, 'TaxExclusiveAmount'), 'BT-109'),
    allowances: cents(text(sums, 'AllowanceTotalAmount'), 'BT-107'),
    charges: cents(text(sums, 'ChargeTotalAmount'), 'BT-108'),
    rounding: cents(text(sums, 'PayableRoundingAmount'), 'BT-114'),
  };

  const preceding = child(elements(child(root, 'BillingReference'))[0], 'InvoiceDocumentReference');
  const terms = elements(child(root, 'PaymentTerms'));
  return {
    typeCode: text(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? (credit ? '381' : '380'),
    number: text(root, 'ID') ?? '',
    issueDate: text(root, 'IssueDate') ?? '',
    dueDate: text(root, 'DueDate') ?? text(means[0], 'PaymentDueDate'),
    deliveryDate: text(root, 'Delivery', 'ActualDeliveryDate'),
    currency,
    precedingInvoice:
      preceding === undefined
        ? null
        : { number: text(preceding, 'ID') ?? '', issueDate: text(preceding, 'IssueDate') ?? '' },
    billingFrame: text(root, 'ProfileID'),
    // BT-8 in UBL is UNTDID 2005: 3, the invoice date (VAT on debits).
    vatOnDebits: text(root, 'InvoicePeriod', 'DescriptionCode') === '3',
    processing,
    paymentTerms: terms.map((entry) => text(entry, 'Note')).find((value) => value !== null) ?? null,
    paymentMeansCode: text(transfer, 'PaymentMeansCode'),
    notes,
    seller,
    buyer,
    lines,
    vatBreakdown,
    totals,
    guideline: text(root, 'CustomizationID'),
    sellerLegalInformation: text(sellerParty, 'PartyLegalEntity', 'CompanyLegalForm'),
    sellerEndpoint,
    buyerEndpoint,
    warnings,
    // BT-111 is a second TaxTotal, in the VAT accounting currency BT-6.
    vatInTaxCurrency: vatInTaxCurrencyOf(
      text(root, 'TaxCurrencyCode'),
      currency,
      taxTotals.map((entry) => [attributeOf(child(entry, 'TaxAmount'), 'currencyID'), text(entry, 'TaxAmount')]),
      cents,
    ),
  };
}
