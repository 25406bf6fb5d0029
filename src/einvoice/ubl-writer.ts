import Big from 'big.js';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import {
  buyerEndpoint,
  en16931Guideline,
  namesVatIdentifiers,
  sellerEndpoint,
  shipToAddress,
  xmlSafe,
} from './cii-writer.js';
import {
  centsToDecimal,
  rateDecimal,
  sellerLegalLine,
  type DocumentAllowanceCharge,
  type DocumentModel,
  type LineAllowanceCharge,
  type PostalAddress,
  type VatBreakdownEntry,
  precedingInvoicesOf,
} from './document-model.js';
import { ublCreditNoteNamespace, ublInvoiceNamespace } from './standards.js';

/**
 * The UBL 2.1 Invoice (380) or CreditNote (381) of a document, EN 16931 (BT-24
 * `urn:cen.eu:en16931:2017`), from the same model as the CII writer and with the same choices
 * (cii-writer.ts): what differs is the syntax. Element order follows the OASIS UBL 2.1 XSD;
 * amounts are the model's cents, each with its currency (UBL wants `currencyID` on every amount).
 *
 * UBL-specific choices (each checked against the EN 16931 UBL and BR-FR UBL schematrons):
 * - BT-21 notes are written `#SUBJ#text` (the French CIUS for UBL, which has no subject element);
 *   the BAR note first, as in the CII.
 * - BT-23 is `cbc:ProfileID`; BT-8 is `cac:InvoicePeriod/cbc:DescriptionCode` in UNTDID 2005
 *   (3 invoice date for VAT on debits, 432 paid to date for services; BR-CL-06), where the CII
 *   writes 5 and 72 of UNTDID 2475.
 * - BT-32 (the SIREN of a seller without VAT number) is a `PartyTaxScheme` whose scheme is not VAT.
 * - BT-72 is `cac:Delivery/cbc:ActualDeliveryDate`, with the ship-to address (BG-15) beside it.
 * - Allowances and charges (BG-20/21 of the document, BG-27/28 of a line) as the CII has them.
 */

const cac = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const cbc = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** An optional value worth an element: an empty element is a failure (PEPPOL-EN16931-R008). */
const present = (value: string | null | undefined): value is string => value != null && value.trim() !== '';

function text(parent: XMLBuilder, name: string, value: string, attributes?: Record<string, string>): XMLBuilder {
  return parent.ele(name, attributes).txt(xmlSafe(value)).up();
}

function writer(model: DocumentModel) {
  const amount = (parent: XMLBuilder, name: string, cents: number) =>
    text(parent, name, centsToDecimal(cents), { currencyID: model.currency });
  return { amount };
}

function postalAddress(parent: XMLBuilder, name: string, value: PostalAddress): void {
  const node = parent.ele(name);
  if (present(value.line1)) text(node, 'cbc:StreetName', value.line1);
  if (present(value.line2)) text(node, 'cbc:AdditionalStreetName', value.line2);
  if (present(value.city)) text(node, 'cbc:CityName', value.city);
  if (present(value.postalCode)) text(node, 'cbc:PostalZone', value.postalCode);
  text(node.ele('cac:Country'), 'cbc:IdentificationCode', value.country);
}

function taxScheme(parent: XMLBuilder, id: string): void {
  text(parent.ele('cac:TaxScheme'), 'cbc:ID', id);
}

function sellerParty(parent: XMLBuilder, model: DocumentModel): void {
  const seller = model.seller;
  const party = parent.ele('cac:AccountingSupplierParty').ele('cac:Party');
  const endpoint = sellerEndpoint(seller);
  if (endpoint) text(party, 'cbc:EndpointID', endpoint.value, { schemeID: endpoint.scheme });
  if (present(seller.siret)) text(party.ele('cac:PartyIdentification'), 'cbc:ID', seller.siret, { schemeID: '0009' });
  if (present(seller.tradeName)) text(party.ele('cac:PartyName'), 'cbc:Name', seller.tradeName);
  postalAddress(party, 'cac:PostalAddress', { ...seller.address, line2: seller.address.line2 });
  if (namesVatIdentifiers(model)) {
    const scheme = party.ele('cac:PartyTaxScheme');
    if (present(seller.vatNumber)) {
      text(scheme, 'cbc:CompanyID', seller.vatNumber);
      taxScheme(scheme, 'VAT');
    } else {
      text(scheme, 'cbc:CompanyID', seller.siren);
      taxScheme(scheme, 'FC');
    }
  }
  const legal = party.ele('cac:PartyLegalEntity');
  text(legal, 'cbc:RegistrationName', seller.legalName);
  text(legal, 'cbc:CompanyID', seller.siren, { schemeID: '0002' });
  const legalLine = sellerLegalLine(seller);
  if (present(legalLine)) text(legal, 'cbc:CompanyLegalForm', legalLine);
  const contact = seller.contact;
  if (contact && (present(contact.name) || present(contact.email) || present(contact.phone))) {
    const node = party.ele('cac:Contact');
    if (present(contact.name)) text(node, 'cbc:Name', contact.name);
    if (present(contact.phone)) text(node, 'cbc:Telephone', contact.phone);
    if (present(contact.email)) text(node, 'cbc:ElectronicMail', contact.email);
  }
}

function buyerParty(parent: XMLBuilder, model: DocumentModel): void {
  const buyer = model.buyer;
  const party = parent.ele('cac:AccountingCustomerParty').ele('cac:Party');
  const endpoint = buyerEndpoint(buyer);
  if (endpoint) text(party, 'cbc:EndpointID', endpoint.value, { schemeID: endpoint.scheme });
  if (present(buyer.siret)) text(party.ele('cac:PartyIdentification'), 'cbc:ID', buyer.siret, { schemeID: '0009' });
  // BG-8 is mandatory in UBL's EN 16931 (BR-10): a country at least, when the model has no address.
  postalAddress(party, 'cac:PostalAddress', buyer.address ?? emptyAddress(model.seller.address.country));
  if (present(buyer.vatNumber) && namesVatIdentifiers(model)) {
    const scheme = party.ele('cac:PartyTaxScheme');
    text(scheme, 'cbc:CompanyID', buyer.vatNumber);
    taxScheme(scheme, 'VAT');
  }
  const legal = party.ele('cac:PartyLegalEntity');
  text(legal, 'cbc:RegistrationName', buyer.name);
  if (present(buyer.siren)) text(legal, 'cbc:CompanyID', buyer.siren, { schemeID: '0002' });
}

const emptyAddress = (country: string): PostalAddress => ({
  line1: null,
  line2: null,
  postalCode: null,
  city: null,
  country,
});

/** BT-8 in UNTDID 2005: see the module comment. */
function taxPointCode(model: DocumentModel): string | null {
  if (model.vatOnDebits) return '3';
  return model.billingFrame.startsWith('S') ? '432' : null;
}

function taxCategory(parent: XMLBuilder, name: string, entry: Pick<VatBreakdownEntry, 'vatCode' | 'vatRate'>) {
  const node = parent.ele(name);
  text(node, 'cbc:ID', entry.vatCode);
  if (entry.vatRate !== null) text(node, 'cbc:Percent', rateDecimal(entry.vatRate));
  return node;
}

/** BG-27 (ChargeIndicator false) or BG-28 (true) of a line, in the order of the UBL schema. */
function allowanceCharge(
  parent: XMLBuilder,
  entry: LineAllowanceCharge,
  charge: boolean,
  amount: ReturnType<typeof writer>['amount'],
) {
  const node = parent.ele('cac:AllowanceCharge');
  text(node, 'cbc:ChargeIndicator', charge ? 'true' : 'false');
  if (entry.reasonCode !== null) text(node, 'cbc:AllowanceChargeReasonCode', entry.reasonCode);
  if (entry.reason !== null) text(node, 'cbc:AllowanceChargeReason', entry.reason);
  if (entry.percentage !== null) text(node, 'cbc:MultiplierFactorNumeric', new Big(entry.percentage).toFixed(2));
  amount(node, 'cbc:Amount', entry.amount);
  if (entry.baseAmount !== null) amount(node, 'cbc:BaseAmount', entry.baseAmount);
}

/** BG-20 (ChargeIndicator false) or BG-21 (true) of the document, with its VAT category (BT-95 / BT-102). */
function documentAllowanceCharge(
  parent: XMLBuilder,
  entry: DocumentAllowanceCharge,
  charge: boolean,
  amount: ReturnType<typeof writer>['amount'],
) {
  const node = parent.ele('cac:AllowanceCharge');
  text(node, 'cbc:ChargeIndicator', charge ? 'true' : 'false');
  if (entry.reasonCode !== null) text(node, 'cbc:AllowanceChargeReasonCode', entry.reasonCode);
  if (entry.reason !== null) text(node, 'cbc:AllowanceChargeReason', entry.reason);
  amount(node, 'cbc:Amount', entry.amount);
  taxScheme(taxCategory(node, 'cac:TaxCategory', entry), 'VAT');
}

function header(root: XMLBuilder, model: DocumentModel, credit: boolean): void {
  text(root, 'cbc:CustomizationID', en16931Guideline);
  text(root, 'cbc:ProfileID', model.billingFrame);
  text(root, 'cbc:ID', model.number);
  text(root, 'cbc:IssueDate', model.issueDate);
  if (!credit && model.dueDate) text(root, 'cbc:DueDate', model.dueDate);
  text(root, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', model.typeCode);
  text(root, 'cbc:Note', `#BAR#${model.processing}`);
  for (const note of model.notes) text(root, 'cbc:Note', note.subject ? `#${note.subject}#${note.text}` : note.text);
  text(root, 'cbc:DocumentCurrencyCode', model.currency);
  if (present(model.buyer.routingCode)) text(root, 'cbc:BuyerReference', model.buyer.routingCode);
  const pointCode = taxPointCode(model);
  if (pointCode) text(root.ele('cac:InvoicePeriod'), 'cbc:DescriptionCode', pointCode);
  for (const preceding of precedingInvoicesOf(model)) {
    const reference = root.ele('cac:BillingReference').ele('cac:InvoiceDocumentReference');
    text(reference, 'cbc:ID', preceding.number);
    text(reference, 'cbc:IssueDate', preceding.issueDate);
  }
  // BG-24: after the billing references, before the parties, in both the Invoice and the CreditNote schema.
  for (const attachment of model.attachments ?? []) {
    const reference = root.ele('cac:AdditionalDocumentReference');
    text(reference, 'cbc:ID', attachment.filename);
    text(reference, 'cbc:DocumentDescription', attachment.code);
    text(reference.ele('cac:Attachment'), 'cbc:EmbeddedDocumentBinaryObject', attachment.content.toString('base64'), {
      mimeCode: attachment.mimeCode,
      filename: attachment.filename,
    });
  }
}

function settlement(root: XMLBuilder, model: DocumentModel, credit: boolean): void {
  const { amount } = writer(model);
  const delivery = root.ele('cac:Delivery');
  text(delivery, 'cbc:ActualDeliveryDate', model.deliveryDate);
  const shipTo = shipToAddress(model);
  if (shipTo) {
    postalAddress(delivery.ele('cac:DeliveryLocation'), 'cac:Address', shipTo);
    text(delivery.ele('cac:DeliveryParty').ele('cac:PartyName'), 'cbc:Name', model.buyer.name);
  }
  // A credit note asks the buyer for no payment: no remittance reference, no seller account (BG-16).
  if (!credit && present(model.seller.iban)) {
    const means = root.ele('cac:PaymentMeans');
    text(means, 'cbc:PaymentMeansCode', model.paymentMeansCode);
    text(means, 'cbc:PaymentID', model.number);
    const account = means.ele('cac:PayeeFinancialAccount');
    text(account, 'cbc:ID', model.seller.iban);
    if (present(model.seller.bic)) text(account.ele('cac:FinancialInstitutionBranch'), 'cbc:ID', model.seller.bic);
  }
  if (present(model.paymentTerms)) text(root.ele('cac:PaymentTerms'), 'cbc:Note', model.paymentTerms);
  // Right before the TaxTotal: its place in both the Invoice and the CreditNote schema.
  for (const allowance of model.allowances ?? []) documentAllowanceCharge(root, allowance, false, amount);
  for (const charge of model.charges ?? []) documentAllowanceCharge(root, charge, true, amount);
  const taxTotal = root.ele('cac:TaxTotal');
  amount(taxTotal, 'cbc:TaxAmount', model.totals.vat);
  for (const entry of model.vatBreakdown) {
    const subtotal = taxTotal.ele('cac:TaxSubtotal');
    amount(subtotal, 'cbc:TaxableAmount', entry.taxableAmount);
    amount(subtotal, 'cbc:TaxAmount', entry.taxAmount);
    const category = taxCategory(subtotal, 'cac:TaxCategory', entry);
    if (present(entry.vatexCode)) text(category, 'cbc:TaxExemptionReasonCode', entry.vatexCode);
    if (present(entry.exemptionReason)) text(category, 'cbc:TaxExemptionReason', entry.exemptionReason);
    taxScheme(category, 'VAT');
  }
  const sums = root.ele('cac:LegalMonetaryTotal');
  // BT-106 is BT-109 unless the document has allowances or charges of its own (as in the CII).
  const allowances = (model.allowances ?? []).length > 0;
  const charges = (model.charges ?? []).length > 0;
  const lineTotal = allowances || charges ? (model.totals.lineTotal ?? model.totals.net) : model.totals.net;
  amount(sums, 'cbc:LineExtensionAmount', lineTotal);
  amount(sums, 'cbc:TaxExclusiveAmount', model.totals.net);
  amount(sums, 'cbc:TaxInclusiveAmount', model.totals.gross);
  if (allowances) amount(sums, 'cbc:AllowanceTotalAmount', model.totals.allowanceTotal ?? 0);
  if (charges) amount(sums, 'cbc:ChargeTotalAmount', model.totals.chargeTotal ?? 0);
  if (model.totals.paid !== 0) amount(sums, 'cbc:PrepaidAmount', model.totals.paid);
  amount(sums, 'cbc:PayableAmount', model.totals.due);
}

function lines(root: XMLBuilder, model: DocumentModel, credit: boolean): void {
  const { amount } = writer(model);
  for (const line of model.lines) {
    const node = root.ele(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
    text(node, 'cbc:ID', line.id);
    text(node, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity, { unitCode: line.unitCode });
    amount(node, 'cbc:LineExtensionAmount', line.netAmount);
    for (const allowance of line.allowances ?? []) allowanceCharge(node, allowance, false, amount);
    for (const charge of line.charges ?? []) allowanceCharge(node, charge, true, amount);
    const item = node.ele('cac:Item');
    text(item, 'cbc:Name', line.description);
    taxScheme(taxCategory(item, 'cac:ClassifiedTaxCategory', line), 'VAT');
    text(node.ele('cac:Price'), 'cbc:PriceAmount', line.unitPrice, { currencyID: model.currency });
  }
}

/** The UBL 2.1 XML of a document (Invoice, or CreditNote for a 381), UTF-8, no indentation. */
export function writeUbl(model: DocumentModel): string {
  const credit = model.typeCode === '381';
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    credit ? ublCreditNoteNamespace : ublInvoiceNamespace,
    credit ? 'CreditNote' : 'Invoice',
    { 'xmlns:cac': cac, 'xmlns:cbc': cbc },
  );
  header(root, model, credit);
  sellerParty(root, model);
  buyerParty(root, model);
  settlement(root, model, credit);
  lines(root, model, credit);
  return root.end({ prettyPrint: false });
}
