import { inflateSync } from 'node:zlib';
import Big from 'big.js';
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
import type { PDFArray, PDFDict, PDFName, PDFObject, PDFRawStream, PDFStream } from 'pdf-lib';
import type {
  BuyerBlock,
  DocumentLineModel,
  DocumentModel,
  DocumentNote,
  DocumentTotals,
  PostalAddress,
  SellerBlock,
  VatBreakdownEntry,
} from './document-model.js';
import { ciiNamespaces } from './cii-writer.js';

/**
 * Reads a CII (UN/CEFACT Cross Industry Invoice: Factur-X / ZUGFeRD of any profile, EN 16931
 * CII) into the document model, for the received invoices and to check the service's own output.
 * It reads what the file says without judging it (validation is the official validators' job):
 * fields the model fixes for the documents the service issues (type 380/381, EUR, the French
 * frame...) are widened to what the file carries, and a received file may lack what ours always
 * have. Elements are known by namespace, not prefix, and a hostile XML is refused
 * (kernel/xml-reading.ts). Amounts become cents; quantities, prices and rates stay the decimal
 * strings of the file.
 */

/** The model of a document read from a file: the issued model's fields, widened where a file may differ. */
export interface ReadDocument extends Omit<
  DocumentModel,
  'typeCode' | 'currency' | 'billingFrame' | 'processing' | 'paymentMeansCode' | 'deliveryDate' | 'seller' | 'totals'
> {
  typeCode: string;
  currency: string;
  /** BT-23, or null. */
  billingFrame: string | null;
  /** The BAR note's content, or null. */
  processing: string | null;
  paymentMeansCode: string | null;
  deliveryDate: string | null;
  seller: Omit<SellerBlock, 'siren' | 'address'> & { siren: string | null; address: PostalAddress | null };
  totals: DocumentTotals & {
    /** BT-109. */
    taxBasis: number;
    /** BT-107, BT-108, BT-114 (0 when absent). */
    allowances: number;
    charges: number;
    rounding: number;
  };
  /** BT-24: the specification the file claims (`urn:cen.eu:en16931:2017`, a Factur-X profile...). */
  guideline: string | null;
  /** BT-33: the seller's additional legal information (legal form, capital, registration), as written. */
  sellerLegalInformation: string | null;
  /** BT-34 and BT-49 as written, whatever their scheme. */
  sellerEndpoint: { scheme: string | null; value: string } | null;
  buyerEndpoint: { scheme: string | null; value: string } | null;
  /** What the reader rounded or could not place (an amount with more than 2 decimals...). */
  warnings: string[];
  /**
   * BT-6 and BT-111: the VAT accounting currency, when it is not the invoice's, and the VAT total
   * in it (cents), as an invoice in another currency gives them; null when the file gives none
   * (absent from the documents read before it was read).
   */
  vatInTaxCurrency?: { currency: string; amount: number } | null;
}

/** BT-111: of the tax totals (each `[currency, text]`), the one in the VAT accounting currency BT-6, when it differs from the invoice's. */
export function vatInTaxCurrencyOf(
  taxCurrency: string | null,
  currency: string,
  totals: [string | null, string | null][],
  cents: (value: string | null, what: string) => number,
): ReadDocument['vatInTaxCurrency'] {
  if (taxCurrency === null || taxCurrency === '' || taxCurrency === currency) return null;
  const entry = totals.find(([code]) => code === taxCurrency);
  return entry === undefined || entry[1] === null ? null : { currency: taxCurrency, amount: cents(entry[1], 'BT-111') };
}

export class CiiReadError extends Error {}

/** CII elements by their D16B namespaces (the writer's); the repeated ones are always lists. */
const readCiiTree = xmlReader({
  namespaces: Object.values(ciiNamespaces),
  repeated: [
    'IncludedNote',
    'IncludedSupplyChainTradeLineItem',
    'ApplicableTradeTax',
    'GlobalID',
    'ID',
    'SpecifiedTaxRegistration',
    'SpecifiedTradeSettlementPaymentMeans',
    'InvoiceReferencedDocument',
    'TaxTotalAmount',
    'URIUniversalCommunication',
    'SpecifiedTradePaymentTerms',
    'DefinedTradeContact',
  ],
});

/** `20261124` (format 102) -> `2026-11-24`; other formats are returned as written. */
function isoDate(node: unknown): string | null {
  const value = textOf(child(node, 'DateTimeString')) ?? textOf(child(node, 'DateString'));
  if (value === null) return null;
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}

function readAddress(node: unknown): PostalAddress | null {
  if (node === undefined) return null;
  return {
    line1: text(node, 'LineOne'),
    line2: text(node, 'LineTwo'),
    postalCode: text(node, 'PostcodeCode'),
    city: text(node, 'CityName'),
    country: text(node, 'CountryID') ?? '',
  };
}

const endpointOf = (party: unknown) => {
  const uri = elements(child(party, 'URIUniversalCommunication'))
    .map((entry) => child(entry, 'URIID'))
    .find((value) => value !== undefined);
  const value = textOf(uri);
  return value === null ? null : { scheme: attributeOf(uri, 'schemeID'), value };
};

/** The first identifier of `party` (GlobalID, ID) whose scheme is one of `schemes`. */
function identifier(party: unknown, element: string, schemes: string[]): string | null {
  for (const entry of elements(child(party, element))) {
    const scheme = attributeOf(entry, 'schemeID');
    if (scheme !== null && schemes.includes(scheme)) return textOf(entry);
  }
  return null;
}

function taxRegistration(party: unknown, scheme: string): string | null {
  for (const registration of elements(child(party, 'SpecifiedTaxRegistration'))) {
    const id = child(registration, 'ID');
    if (attributeOf(id, 'schemeID') === scheme) return textOf(id);
  }
  return null;
}

/**
 * Each line without an exemption code takes its VAT group's, the group of its category and rate:
 * EN 16931 has the code (BT-121) on the VAT breakdown only, in CII as in UBL.
 */
export function takeGroupExemptions(lines: DocumentLineModel[], groups: readonly VatBreakdownEntry[]): void {
  for (const line of lines) {
    if (line.vatexCode !== null) continue;
    const group = groups.find(
      (entry) =>
        entry.vatCode === line.vatCode &&
        (entry.vatRate === null || line.vatRate === null
          ? entry.vatRate === line.vatRate
          : new Big(entry.vatRate).eq(line.vatRate)),
    );
    line.vatexCode = group?.vatexCode ?? null;
  }
}

export function readCii(xml: string): ReadDocument {
  let root: unknown;
  try {
    root = readCiiTree(xml)['CrossIndustryInvoice'];
  } catch (error) {
    throw error instanceof XmlReadingError ? new CiiReadError(error.message) : error;
  }
  if (!root || typeof root !== 'object') throw new CiiReadError('not a CII document: no CrossIndustryInvoice root');
  const warnings: string[] = [];

  const cents = (value: string | null, what: string) => amountInCents(value, what, warnings);

  const context = child(root, 'ExchangedDocumentContext');
  const exchanged = child(root, 'ExchangedDocument');
  const transaction = child(root, 'SupplyChainTradeTransaction');
  const agreement = child(transaction, 'ApplicableHeaderTradeAgreement');
  const delivery = child(transaction, 'ApplicableHeaderTradeDelivery');
  const settlement = child(transaction, 'ApplicableHeaderTradeSettlement');
  const currency = text(settlement, 'InvoiceCurrencyCode') ?? '';

  let processing: string | null = null;
  const notes: DocumentNote[] = [];
  for (const note of elements(child(exchanged, 'IncludedNote'))) {
    const subject = text(note, 'SubjectCode');
    const content = text(note, 'Content') ?? '';
    if (subject === 'BAR' && processing === null) processing = content;
    else notes.push({ subject: subject as DocumentNote['subject'], text: content });
  }

  const sellerParty = child(agreement, 'SellerTradeParty');
  const sellerContact = child(sellerParty, 'DefinedTradeContact');
  const means = elements(child(settlement, 'SpecifiedTradeSettlementPaymentMeans'));
  const transfer = means.find((entry) => child(entry, 'PayeePartyCreditorFinancialAccount') !== undefined) ?? means[0];
  const sellerEndpoint = endpointOf(sellerParty);
  const contact =
    sellerContact === undefined
      ? null
      : {
          name: text(sellerContact, 'PersonName'),
          email: text(sellerContact, 'EmailURIUniversalCommunication', 'URIID'),
          phone: text(sellerContact, 'TelephoneUniversalCommunication', 'CompleteNumber'),
        };
  const seller: ReadDocument['seller'] = {
    legalName: text(sellerParty, 'Name') ?? '',
    tradeName: text(sellerParty, 'SpecifiedLegalOrganization', 'TradingBusinessName'),
    legalForm: null,
    shareCapital: null,
    siren: identifier(child(sellerParty, 'SpecifiedLegalOrganization'), 'ID', ['0002']),
    siret: identifier(sellerParty, 'GlobalID', ['0009']),
    vatNumber: taxRegistration(sellerParty, 'VA'),
    registration: null,
    address: readAddress(child(sellerParty, 'PostalTradeAddress')),
    electronicAddress: sellerEndpoint?.scheme === '0225' ? sellerEndpoint.value : null,
    contact,
    iban: text(transfer, 'PayeePartyCreditorFinancialAccount', 'IBANID'),
    bic: text(transfer, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID'),
  };

  const buyerParty = child(agreement, 'BuyerTradeParty');
  const buyerEndpoint = endpointOf(buyerParty);
  const buyerSiren = identifier(child(buyerParty, 'SpecifiedLegalOrganization'), 'ID', ['0002']);
  const shipTo = child(delivery, 'ShipToTradeParty');
  const buyer: BuyerBlock = {
    type: buyerSiren || taxRegistration(buyerParty, 'VA') ? 'company' : processing === 'B2C' ? 'individual' : 'company',
    name: text(buyerParty, 'Name') ?? '',
    siren: buyerSiren,
    siret: identifier(buyerParty, 'GlobalID', ['0009']),
    vatNumber: taxRegistration(buyerParty, 'VA'),
    electronicAddress: buyerEndpoint?.scheme === '0225' ? buyerEndpoint.value : null,
    routingCode: text(agreement, 'BuyerReference'),
    email: buyerEndpoint?.scheme === 'EM' ? buyerEndpoint.value : null,
    address: readAddress(child(buyerParty, 'PostalTradeAddress')),
    deliveryAddress: readAddress(child(shipTo, 'PostalTradeAddress')),
  };

  const lines: DocumentLineModel[] = elements(child(transaction, 'IncludedSupplyChainTradeLineItem')).map(
    (item, index) => {
      const tax = child(item, 'SpecifiedLineTradeSettlement', 'ApplicableTradeTax');
      const quantity = child(item, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
      return {
        id: text(item, 'AssociatedDocumentLineDocument', 'LineID') ?? String(index + 1),
        description: text(item, 'SpecifiedTradeProduct', 'Name') ?? '',
        quantity: textOf(quantity) ?? '',
        unitCode: attributeOf(quantity, 'unitCode') ?? '',
        unitPrice: text(item, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount') ?? '',
        netAmount: cents(
          text(
            item,
            'SpecifiedLineTradeSettlement',
            'SpecifiedTradeSettlementLineMonetarySummation',
            'LineTotalAmount',
          ),
          `line ${index + 1} net amount`,
        ),
        vatCode: text(tax, 'CategoryCode') ?? '',
        vatRate: text(tax, 'RateApplicablePercent'),
        vatexCode: text(tax, 'ExemptionReasonCode'),
      };
    },
  );

  let dueDateCode: string | null = null;
  const vatBreakdown: VatBreakdownEntry[] = elements(child(settlement, 'ApplicableTradeTax')).map((group, index) => {
    dueDateCode ??= text(group, 'DueDateTypeCode');
    return {
      vatCode: text(group, 'CategoryCode') ?? '',
      vatRate: text(group, 'RateApplicablePercent'),
      vatexCode: text(group, 'ExemptionReasonCode'),
      exemptionReason: text(group, 'ExemptionReason'),
      taxableAmount: cents(text(group, 'BasisAmount'), `VAT group ${index + 1} base`),
      taxAmount: cents(text(group, 'CalculatedAmount'), `VAT group ${index + 1} amount`),
    };
  });
  takeGroupExemptions(lines, vatBreakdown);

  const sums = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const taxTotals = elements(child(sums, 'TaxTotalAmount'));
  const taxTotal =
    taxTotals.find((entry) => attributeOf(entry, 'currencyID') === currency) ??
    taxTotals.find((entry) => attributeOf(entry, 'currencyID') === null) ??
    (taxTotals.length === 1 ? taxTotals[0] : undefined);
  const totals: ReadDocument['totals'] = {
    net: cents(text(sums, 'LineTotalAmount'), 'BT-106'),
    vat: cents(textOf(taxTotal), 'BT-110'),
    gross: cents(text(sums, 'GrandTotalAmount'), 'BT-112'),
    paid: cents(text(sums, 'TotalPrepaidAmount'), 'BT-113'),
    due: cents(text(sums, 'DuePayableAmount'), 'BT-115'),
    taxBasis: cents(text(sums, 'TaxBasisTotalAmount'), 'BT-109'),
    allowances: cents(text(sums, 'AllowanceTotalAmount'), 'BT-107'),
    charges: cents(text(sums, 'ChargeTotalAmount'), 'BT-108'),
    rounding: cents(text(sums, 'RoundingAmount'), 'BT-114'),
  };
  const vatInTaxCurrency = vatInTaxCurrencyOf(
    text(settlement, 'TaxCurrencyCode'),
    currency,
    taxTotals.map((entry) => [attributeOf(entry, 'currencyID'), textOf(entry)]),
    cents,
  );

  const terms = elements(child(settlement, 'SpecifiedTradePaymentTerms'));
  const reference = elements(child(settlement, 'InvoiceReferencedDocument'))[0];
  const referenceNumber = text(reference, 'IssuerAssignedID');
  return {
    typeCode: text(exchanged, 'TypeCode') ?? '',
    number: textOf(elements(child(exchanged, 'ID'))[0]) ?? '',
    issueDate: isoDate(child(exchanged, 'IssueDateTime')) ?? '',
    dueDate: terms.map((entry) => isoDate(child(entry, 'DueDateDateTime'))).find((date) => date !== null) ?? null,
    deliveryDate: isoDate(child(delivery, 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime')),
    currency,
    precedingInvoice:
      referenceNumber === null
        ? null
        : { number: referenceNumber, issueDate: isoDate(child(reference, 'FormattedIssueDateTime')) ?? '' },
    billingFrame: textOf(elements(child(context, 'BusinessProcessSpecifiedDocumentContextParameter', 'ID'))[0]),
    vatOnDebits: dueDateCode === '5',
    processing,
    paymentTerms: terms.map((entry) => text(entry, 'Description')).find((value) => value !== null) ?? null,
    paymentMeansCode: text(transfer, 'TypeCode'),
    notes,
    seller,
    buyer,
    lines,
    vatBreakdown,
    totals,
    guideline: textOf(elements(child(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID'))[0]),
    sellerLegalInformation: text(sellerParty, 'Description'),
    sellerEndpoint,
    buyerEndpoint,
    warnings,
    vatInTaxCurrency,
  };
}

/** The file names a hybrid PDF carries its XML under: Factur-X, ZUGFeRD 2, XRechnung, ZUGFeRD 1. */
export const hybridXmlNames = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'ZUGFeRD-invoice.xml'];

export interface EmbeddedXml {
  name: string;
  xml: string;
  /** The file specification's /AFRelationship (`Data`, `Alternative`, `Source`), or null. */
  relationship: string | null;
}

/**
 * How far the embedded XML of an outside PDF may inflate: a few kilobytes of deflated zeros make
 * tens of megabytes (a decompression bomb), and a real invoice's XML, even of thousands of lines,
 * stays within a few megabytes and compresses some tens of times at most.
 */
export interface InflationLimits {
  maxBytes: number;
  /** Inflated over deflated, checked past `ratioFloorBytes`. */
  maxRatio: number;
}

export const defaultInflationLimits: InflationLimits = { maxBytes: 10 * 1024 * 1024, maxRatio: 200 };
const ratioFloorBytes = 1024 * 1024;

/** The embedded XML inflates beyond the limits: refused before it is parsed. */
export class InflationLimitError extends Error {}

/**
 * The decoded bytes of an embedded file's stream, never more than `limits.maxBytes`: a lone
 * FlateDecode (what every Factur-X writer uses) is inflated by zlib with that ceiling, so a bomb
 * stops at the ceiling instead of filling memory; another filter chain goes through pdf-lib's
 * decoders and is measured after.
 */
function decodeBounded(
  stream: PDFRawStream,
  limits: InflationLimits,
  pdfLib: { PDFName: typeof PDFName; decode: (stream: PDFRawStream) => Uint8Array },
): Uint8Array {
  const tooLarge = (what: string) =>
    new InflationLimitError(`the embedded XML ${what} (${stream.contents.length} bytes deflated)`);
  const { PDFName: Name } = pdfLib;
  const filter = stream.dict.lookup(Name.of('Filter'));
  const filters = filter === undefined ? [] : filter instanceof Name ? [filter] : (filter as PDFArray).asArray();
  let bytes: Uint8Array | null = null;
  if (filters.length === 0) bytes = stream.contents;
  else if (filters.length === 1 && filters[0] === Name.of('FlateDecode') && !stream.dict.has(Name.of('DecodeParms'))) {
    try {
      bytes = inflateSync(stream.contents, { maxOutputLength: limits.maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw tooLarge(`inflates beyond ${limits.maxBytes} bytes`);
      // A stream zlib finds damaged: pdf-lib's decoder is more forgiving.
    }
  }
  bytes ??= pdfLib.decode(stream);
  if (bytes.length > limits.maxBytes) throw tooLarge(`inflates beyond ${limits.maxBytes} bytes`);
  if (bytes.length > ratioFloorBytes && bytes.length > limits.maxRatio * Math.max(1, stream.contents.length))
    throw tooLarge(`inflates more than ${limits.maxRatio} times`);
  return bytes;
}

/**
 * The invoice XML of a Factur-X (or ZUGFeRD / XRechnung hybrid) PDF, or null when it carries none.
 * Its inflation is bounded (`InflationLimitError`); an outside PDF is read in a thread of its own
 * (received/incoming-file-thread.ts), where time and memory are bounded too.
 */
export async function extractFacturXml(
  pdf: Uint8Array,
  limits: InflationLimits = defaultInflationLimits,
): Promise<EmbeddedXml | null> {
  // Loaded with the first PDF read: a process that reads none does not hold it.
  const { decodePDFRawStream, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString } =
    await import('pdf-lib');
  const pdfText = (value: PDFObject | undefined) =>
    value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
  const document = await PDFDocument.load(pdf, {
    updateMetadata: false,
    ignoreEncryption: true,
    throwOnInvalidObject: false,
  });
  const lookup = <T extends PDFObject>(value: PDFObject | undefined): T | undefined =>
    (value instanceof PDFRef ? document.context.lookup(value) : value) as T | undefined;
  const files: { name: string; spec: PDFDict }[] = [];
  // The /EmbeddedFiles name tree: leaves hold [name, filespec, ...], intermediate nodes /Kids.
  const visit = (node: PDFDict | undefined, depth: number) => {
    if (!node || depth > 32) return;
    const names = lookup<PDFArray>(node.get(PDFName.of('Names')));
    if (names) {
      for (let index = 0; index + 1 < names.size(); index += 2) {
        const name = pdfText(lookup(names.get(index)));
        const spec = lookup<PDFDict>(names.get(index + 1));
        if (name !== null && spec instanceof PDFDict) files.push({ name, spec });
      }
    }
    const kids = lookup<PDFArray>(node.get(PDFName.of('Kids')));
    for (let index = 0; kids && index < kids.size(); index++) visit(lookup<PDFDict>(kids.get(index)), depth + 1);
  };
  visit(
    lookup<PDFDict>(lookup<PDFDict>(document.catalog.get(PDFName.of('Names')))?.get(PDFName.of('EmbeddedFiles'))),
    0,
  );
  // Files listed only in the catalog's /AF.
  const associated = lookup<PDFArray>(document.catalog.get(PDFName.of('AF')));
  for (let index = 0; associated && index < associated.size(); index++) {
    const spec = lookup<PDFDict>(associated.get(index));
    const name = spec && (pdfText(lookup(spec.get(PDFName.of('UF')))) ?? pdfText(lookup(spec.get(PDFName.of('F')))));
    if (spec && name && !files.some((file) => file.spec === spec)) files.push({ name, spec });
  }
  for (const wanted of hybridXmlNames) {
    const file = files.find((candidate) => candidate.name.toLowerCase() === wanted.toLowerCase());
    if (!file) continue;
    const stream = lookup<PDFStream>(lookup<PDFDict>(file.spec.get(PDFName.of('EF')))?.get(PDFName.of('F')));
    if (!stream) continue;
    const bytes =
      stream instanceof PDFRawStream
        ? decodeBounded(stream, limits, { PDFName, decode: (raw) => decodePDFRawStream(raw).decode() })
        : stream.getContents();
    const relationship = file.spec.get(PDFName.of('AFRelationship'));
    return {
      name: file.name,
      xml: new TextDecoder('utf-8').decode(bytes),
      relationship: relationship instanceof PDFName ? relationship.decodeText() : null,
    };
  }
  return null;
}
