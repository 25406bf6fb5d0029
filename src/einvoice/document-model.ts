import Big from 'big.js';
import { frenchDate, frenchDecimal, groupedIdentifier } from './french-format.js';
import { splitDocumentAdjustments, type DocumentAdjustment } from '../kernel/document-adjustments.js';

/**
 * The document model: everything the e-invoice writers (CII, PDF, Factur-X), the service's own
 * conformance checks and the CII reader share. A plain object, filled once from a finalized invoice
 * or credit note, its frozen tax snapshot and its frozen seller block; nothing here is recomputed
 * by the writers (amounts are the tax decision's, in cents).
 *
 * Business terms (BT-n) are those of EN 16931; French rules (BR-FR-n) those of the FNFE-MPE
 * schematron (research/fr-einvoicing-domain.md sections 4, 5, 7 and 8).
 */

/** BT-3: 380 commercial invoice, 386 deposit invoice (prepayment), 381 credit note. */
export type DocumentTypeCode = '380' | '386' | '381';

/**
 * BT-23, the French "cadre de facturation" (BR-FR-08): a letter for the category of operation
 * (B goods, S services, M mixed) and a digit for the case (1 plain invoice, 2 already paid,
 * 4 final invoice after a prepayment, 8/9 multi-vendor and bidirectional...).
 */
export const billingFrames = [
  'B1',
  'S1',
  'M1',
  'B2',
  'S2',
  'M2',
  'S3',
  'B4',
  'S4',
  'M4',
  'S5',
  'S6',
  'B7',
  'S7',
  'B8',
  'S8',
  'M8',
  'B9',
  'S9',
  'M9',
] as const;
export type BillingFrame = (typeof billingFrames)[number];

export type OperationCategory = 'goods' | 'services' | 'mixed';

/**
 * The frame of a document from the tax decision's category of operation: case 1 for a plain
 * invoice, a deposit invoice or a credit note; case 4 for the final invoice that deducts deposits
 * (BR-FR-CO-08 keeps 386 out of it).
 */
export function billingFrameOf(category: OperationCategory, finalAfterDeposits = false): BillingFrame {
  const letter = category === 'goods' ? 'B' : category === 'services' ? 'S' : 'M';
  return `${letter}${finalAfterDeposits ? '4' : '1'}` as BillingFrame;
}

/** The category of operation a frame's letter states. */
export function categoryOfFrame(frame: string): OperationCategory | null {
  const letter = frame.charAt(0);
  return letter === 'B' ? 'goods' : letter === 'S' ? 'services' : letter === 'M' ? 'mixed' : null;
}

/**
 * The processing note (BT-21 `BAR`, BR-FR-20): which flow the document belongs to. B2B domestic
 * e-invoicing, B2BINT international B2B, B2C consumers, OUTOFSCOPE (e.g. exempt under CGI 261).
 */
export type Processing = 'B2B' | 'B2BINT' | 'B2C' | 'OUTOFSCOPE' | 'ARCHIVEONLY';

/**
 * The processing of a document from its tax decision's e-invoicing axis (API.md): due for a
 * domestic business buyer; otherwise by the buyer's type; all-exempt operations are out of scope.
 */
export function processingOf(
  einvoicingAxis: { state: string; reason: string } | null,
  buyerType: 'company' | 'individual',
): Processing {
  if (einvoicingAxis?.state === 'due') return 'B2B';
  if (einvoicingAxis?.reason === 'exempt_operation') return 'OUTOFSCOPE';
  return buyerType === 'company' ? 'B2BINT' : 'B2C';
}

/** BT-21 subject codes (UNTDID 4451) the documents write. */
export type NoteSubject = 'PMT' | 'PMD' | 'AAB' | 'BAR' | 'REG' | 'AAI' | 'TXD' | 'ABL';

/** BG-1: a note and its subject code. */
export interface DocumentNote {
  subject: NoteSubject | null;
  text: string;
}

export interface PostalAddress {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/**
 * The seller, frozen at finalization: the company's legal identity and the establishment that
 * issues the document. `shareCapital` is a decimal string in euros ("10000", "1500.50").
 */
export interface SellerBlock {
  legalName: string;
  tradeName: string | null;
  legalForm: string | null;
  shareCapital: string | null;
  /** BT-30, scheme 0002. */
  siren: string;
  /** BT-29, scheme 0009: the establishment's. */
  siret: string | null;
  /** BT-31. */
  vatNumber: string | null;
  registration: { kind: 'RCS' | 'RM'; place: string } | null;
  address: { line1: string; line2: string | null; postalCode: string; city: string; country: string };
  /** BT-34, scheme 0225. */
  electronicAddress: string | null;
  contact: { name: string | null; email: string | null; phone: string | null } | null;
  iban: string | null;
  bic: string | null;
}

/** The buyer as frozen on the document (BuyerSnapshot) plus its routing code. */
export interface BuyerBlock {
  type: 'company' | 'individual';
  name: string;
  /** BT-47, scheme 0002. */
  siren: string | null;
  /** BT-46, scheme 0009. */
  siret: string | null;
  /** BT-48. */
  vatNumber: string | null;
  /** BT-49, scheme 0225. */
  electronicAddress: string | null;
  /** The directory's routing code (BT-46, private scheme 0224). */
  routingCode: string | null;
  /** Written as BT-49 with scheme EM when there is no electronic address (BR-FR-12 wants one). */
  email: string | null;
  address: PostalAddress | null;
  /** BG-15: where the goods go or the service is done, when it differs from the address. */
  deliveryAddress: PostalAddress | null;
}

export interface DocumentLineModel {
  /** BT-126: "1", "2"... */
  id: string;
  /** BT-153. */
  description: string;
  /** BT-129, a decimal string of at most 4 decimals. */
  quantity: string;
  /** BT-130, UN/ECE Recommendation 20. */
  unitCode: string;
  /** BT-146 (net price, excluding VAT), a decimal string of at most 6 decimals. */
  unitPrice: string;
  /** BT-131, cents. */
  netAmount: number;
  /** BT-151: S, E, AE, K, G, O, Z. */
  vatCode: string;
  /** BT-152 as the decision shows it ("20.00"); null for category O. */
  vatRate: string | null;
  /** The exemption code of the line's group (BT-121). */
  vatexCode: string | null;
  /** BG-27, line allowances; absent or empty when the line has none. */
  allowances?: LineAllowanceCharge[];
  /** BG-28, line charges; absent or empty when the line has none. */
  charges?: LineAllowanceCharge[];
}

/** A line allowance (BG-27: BT-136 to BT-140) or charge (BG-28: BT-141 to BT-145), in cents. */
export interface LineAllowanceCharge {
  /** BT-136 / BT-141. */
  amount: number;
  /** BT-138 / BT-143, a decimal string ("10"), or null for a fixed amount. */
  percentage: string | null;
  /** BT-137 / BT-142: the line's quantity x unit price, given with a percentage. */
  baseAmount: number | null;
  /** BT-139 / BT-144. */
  reason: string | null;
  /** BT-140 (UNTDID 5189) / BT-145 (UNTDID 7161). */
  reasonCode: string | null;
}

/**
 * A document-level allowance (BG-20: BT-92, BT-95 to BT-98) or charge (BG-21: BT-99, BT-102 to
 * BT-105), in cents: the part of one stated allowance or charge that falls on one VAT group.
 */
export interface DocumentAllowanceCharge {
  amount: number;
  /** BT-95 / BT-102. */
  vatCode: string;
  /** BT-96 / BT-103 as the decision shows it ("20.00"); null for category O. */
  vatRate: string | null;
  reason: string | null;
  reasonCode: string | null;
}

/** BG-23: one group of the decision's VAT breakdown, in cents. */
export interface VatBreakdownEntry {
  vatCode: string;
  vatRate: string | null;
  vatexCode: string | null;
  /** BT-120: the legal text of the exemption (the decision's mention), or null. */
  exemptionReason: string | null;
  /** BT-116. */
  taxableAmount: number;
  /** BT-117. */
  taxAmount: number;
}

/** BG-22, in cents, as the tax decision computed them. */
export interface DocumentTotals {
  /** BT-109, the sum of the VAT bases: BT-106 - BT-107 + BT-108 (BT-106 when there is no document allowance or charge). */
  net: number;
  /** BT-106, the sum of the line nets; absent: equal to `net`. */
  lineTotal?: number;
  /** BT-107, the sum of the document allowances; absent: 0. */
  allowanceTotal?: number;
  /** BT-108, the sum of the document charges; absent: 0. */
  chargeTotal?: number;
  /** BT-110. */
  vat: number;
  /** BT-112. */
  gross: number;
  /** BT-113. */
  paid: number;
  /** BT-115. */
  due: number;
}

export interface DocumentModel {
  typeCode: DocumentTypeCode;
  /** BT-1. */
  number: string;
  /** BT-2, `YYYY-MM-DD`. */
  issueDate: string;
  /** BT-9; none on a credit note (nothing is due from the buyer). */
  dueDate: string | null;
  /**
   * BT-72, the date of supply: the document's delivery date, else the operation date its tax
   * decision states (the tax point), else its issue date.
   */
  deliveryDate: string;
  /** BT-5 (the API invoices in euros). */
  currency: 'EUR';
  /** BT-25 / BT-26: the invoice a credit note corrects. */
  precedingInvoice: { number: string; issueDate: string } | null;
  /**
   * A final invoice's deposit invoices (BG-3 each, after `precedingInvoice`), with the cents each
   * deducted: their sum is BT-113. Absent or empty on any other document.
   */
  deductedDeposits?: DeductedDeposit[];
  /** BT-23. */
  billingFrame: BillingFrame;
  /** The seller opted for VAT on debits (BT-8 = 5 in every group), else VAT is due on collection. */
  vatOnDebits: boolean;
  /** The BAR note. */
  processing: Processing;
  /** BT-20. */
  paymentTerms: string | null;
  /** BT-81 when the seller has an IBAN: 30 credit transfer, 58 SEPA credit transfer. */
  paymentMeansCode: '30' | '58';
  /** BG-1: PMT, PMD, AAB (BR-FR-05), the legal mentions, free notes. The BAR note is `processing`. */
  notes: DocumentNote[];
  seller: SellerBlock;
  buyer: BuyerBlock;
  lines: DocumentLineModel[];
  /** BG-20, split by VAT group; absent or empty when there is none. */
  allowances?: DocumentAllowanceCharge[];
  /** BG-21, split by VAT group; absent or empty when there is none. */
  charges?: DocumentAllowanceCharge[];
  vatBreakdown: VatBreakdownEntry[];
  totals: DocumentTotals;
  /** BG-24, in the order they were added; absent or empty when the document has none. */
  attachments?: DocumentAttachment[];
}

/**
 * BG-24, a supporting document: BT-122 is its file name (unique in the document, the name of the
 * file the Factur-X embeds), BT-123 its BR-FR-17 code, BT-125 its bytes with their MIME code and
 * file name. The description is the embedded file's in the Factur-X (BT-123 holds the code).
 */
export interface DocumentAttachment {
  filename: string;
  mimeCode: string;
  code: string;
  description: string | null;
  content: Buffer;
}

/** What the document is, in French: its title on the PDF and in the Factur-X description. */
export function documentNameOf(typeCode: DocumentTypeCode): 'Facture' | 'Facture d’acompte' | 'Avoir' {
  return typeCode === '381' ? 'Avoir' : typeCode === '386' ? 'Facture d’acompte' : 'Facture';
}

/** BG-3, every preceding invoice the document names: the invoice a credit note corrects, then a final invoice's deposits. */
export function precedingInvoicesOf(model: DocumentModel): { number: string; issueDate: string }[] {
  return [
    ...(model.precedingInvoice ? [model.precedingInvoice] : []),
    ...(model.deductedDeposits ?? []).map(({ number, issueDate }) => ({ number, issueDate })),
  ];
}

/** Cents as an XML decimal with two places: 123456 -> "1234.56", -5 -> "-0.05". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an amount in cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}${units}.${rest < 10 ? '0' : ''}${rest}`;
}

/** A decimal string of euros as cents: "1234.5" -> 123450. Refuses more than two decimals. */
export function decimalToCents(value: string): number {
  const text = value.trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) throw new RangeError(`not an amount with at most 2 decimals: "${value}"`);
  return Number(new Big(text).times(100).toFixed(0));
}

/** A rate as written in the XML: two decimals, as the decision shows it ("20.00", "5.50"). */
export function rateDecimal(rate: string): string {
  return new Big(rate).toFixed(2);
}

/**
 * The seller's own clause on the discount for early payment, when its payment terms state one: the
 * sentence naming the "escompte" ("Escompte de 2 % pour paiement sous 8 jours."). It is then the
 * document's AAB note, so the terms and the note never say two things.
 */
export function discountClauseOf(terms: string | null): string | null {
  if (!terms) return null;
  const sentence = terms.split(/(?<=[.;!?])\s+|\n+/).find((part) => /escompte/i.test(part));
  return sentence?.trim() || null;
}

/**
 * The late-payment notes BR-FR-05 requires (PMT, PMD, AAB), with the usual legal texts
 * (Code de commerce L441-10 and D441-5). Between professionals the penalty is at least three times
 * the legal interest rate and the fixed recovery indemnity is EUR 40; neither applies to a consumer.
 * A credit note is money owed to the buyer: the rules still want the three notes, which say so.
 */
export function paymentNotes(options: {
  buyerType: 'company' | 'individual';
  kind?: 'invoice' | 'credit_note';
  /** The penalty clause, when the seller sets its own rate. */
  latePenalty?: string | null;
  /** The discount for early payment, when the seller grants one. */
  earlyPaymentDiscount?: string | null;
}): DocumentNote[] {
  if (options.kind === 'credit_note')
    return [
      { subject: 'PMD', text: 'Pénalités de retard : sans objet (avoir, aucune somme n’est due par le client).' },
      { subject: 'PMT', text: 'Indemnité forfaitaire pour frais de recouvrement : sans objet (avoir).' },
      { subject: 'AAB', text: 'Escompte pour paiement anticipé : sans objet (avoir).' },
    ];
  const business = options.buyerType === 'company';
  return [
    {
      subject: 'PMD',
      text:
        options.latePenalty ??
        (business
          ? "Pénalités de retard : trois fois le taux d'intérêt légal, exigibles dès le lendemain de la date d'échéance (art. L441-10 du Code de commerce)."
          : "Pénalités de retard : au taux d'intérêt légal, à compter de la mise en demeure."),
    },
    {
      subject: 'PMT',
      text: business
        ? 'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 € (art. L441-10 et D441-5 du Code de commerce).'
        : 'Indemnité forfaitaire pour frais de recouvrement : sans objet (client non professionnel).',
    },
    {
      subject: 'AAB',
      text: options.earlyPaymentDiscount ?? 'Escompte pour paiement anticipé : néant.',
    },
  ];
}

/** BT-20 of a credit note: what the buyer is owed, and how it is settled. */
export function creditNoteTerms(precedingInvoice: { number: string; issueDate: string } | null): string {
  return precedingInvoice
    ? `Avoir en faveur du client : à déduire de la facture ${precedingInvoice.number} du ${frenchDate(precedingInvoice.issueDate)}, ou remboursé si elle est déjà réglée.`
    : 'Avoir en faveur du client : à déduire d’un prochain règlement, ou remboursé.';
}

/** A deposit invoice a final invoice deducts. */
export interface DeductedDeposit {
  number: string;
  issueDate: string;
  /** Cents, VAT included. */
  amount: number;
}

/**
 * What a finalized invoice or credit note holds, as the invoices capability stores it (structurally
 * its DocumentLine, BuyerSnapshot and TaxSnapshot), plus the frozen seller block.
 */
export interface DocumentSource {
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  /** The operation date of the tax decision (its tax point): BT-72 when there is no delivery date. */
  operationDate?: string | null;
  paymentTerms: string | null;
  /** Free notes of the document (`notes`), printed and written as a note without subject. */
  notes: string | null;
  /**
   * Cents the document itself states as paid before issue (BT-113); 0 for a credit note. Never
   * the payments recorded on the resource: they come after the document is issued.
   */
  amountPaid: number;
  /** For a credit note: the invoice it corrects. */
  precedingInvoice: { number: string; issueDate: string } | null;
  /** A deposit invoice (386). */
  deposit?: boolean;
  /** A final invoice: the deposits it deducted (their sum is `amountPaid`). */
  deductedDeposits?: DeductedDeposit[];
  seller: SellerBlock;
  buyer: Omit<BuyerBlock, 'routingCode'> & { routingCode?: string | null };
  lines: {
    description: string;
    quantity: string;
    unitPrice: string;
    unit: string;
    nature: 'goods' | 'services' | 'electronic_service';
    netAmount: number;
    vatCode: string | null;
    vatRate: string | null;
    vatexCode: string | null;
    allowances?: LineAllowanceCharge[];
    charges?: LineAllowanceCharge[];
  }[];
  /** BG-20 / BG-21 as the document states them, before their split over the VAT groups. */
  allowances?: DocumentAdjustment[];
  charges?: DocumentAdjustment[];
  tax: {
    vatBreakdown: {
      vatCode: string;
      vatRate: string | null;
      vatexCode: string | null;
      taxableAmount: number;
      taxAmount: number;
    }[];
    mentions: { code: string; text: string; lines: number[] }[];
    obligations: Record<string, { state: string; reason: string }> | null;
  };
  /** The seller's own late-payment clause and early-payment discount, when it sets them. */
  latePenalty?: string | null;
  earlyPaymentDiscount?: string | null;
  paymentMeansCode?: '30' | '58';
  /** BG-24, as frozen with the document, with their bytes. */
  attachments?: DocumentAttachment[];
}

/** Mentions that are about the whole document rather than a VAT group's exemption. */
const documentMentions = new Set(['vat_on_debits', 'operation_category']);

/** BG-22 from the groups the decision fixed; BT-106 to BT-108 only when the document has allowances or charges of its own. */
function totalsOf(
  lines: readonly DocumentLineModel[],
  adjustments: { allowances: readonly DocumentAllowanceCharge[]; charges: readonly DocumentAllowanceCharge[] },
  vatBreakdown: readonly VatBreakdownEntry[],
  paid: number,
): DocumentTotals {
  const net = vatBreakdown.reduce((sum, group) => sum + group.taxableAmount, 0);
  const vat = vatBreakdown.reduce((sum, group) => sum + group.taxAmount, 0);
  const sum = (entries: readonly { amount: number }[]) => entries.reduce((total, entry) => total + entry.amount, 0);
  const adjusted = adjustments.allowances.length > 0 || adjustments.charges.length > 0;
  return {
    net,
    ...(adjusted
      ? {
          lineTotal: sum(lines.map((line) => ({ amount: line.netAmount }))),
          allowanceTotal: sum(adjustments.allowances),
          chargeTotal: sum(adjustments.charges),
        }
      : {}),
    vat,
    gross: net + vat,
    paid,
    due: net + vat - paid,
  };
}

/** A line's BG-27 / BG-28, present only when it has some. */
function lineAllowanceCharges(line: {
  allowances?: LineAllowanceCharge[];
  charges?: LineAllowanceCharge[];
}): Pick<DocumentLineModel, 'allowances' | 'charges'> {
  const allowances = line.allowances ?? [];
  const charges = line.charges ?? [];
  return allowances.length > 0 || charges.length > 0 ? { allowances, charges } : {};
}

const sameGroup = (
  line: { vatCode: string | null; vatRate: string | null; vatexCode: string | null },
  group: { vatCode: string; vatRate: string | null; vatexCode: string | null },
) =>
  line.vatCode === group.vatCode &&
  (line.vatexCode ?? null) === (group.vatexCode ?? null) &&
  (line.vatRate === null || group.vatRate === null
    ? line.vatRate === group.vatRate
    : new Big(line.vatRate).eq(group.vatRate));

/** BG-20 / BG-21: each stated allowance and charge split over the VAT groups by their line nets, as the decision did. */
function documentAllowanceCharges(
  source: DocumentSource,
  vatBreakdown: readonly VatBreakdownEntry[],
): { allowances: DocumentAllowanceCharge[]; charges: DocumentAllowanceCharge[] } {
  const parts = splitDocumentAdjustments(
    vatBreakdown.map((group) => ({
      key: group,
      base: source.lines.reduce((sum, line) => sum + (sameGroup(line, group) ? line.netAmount : 0), 0),
    })),
    { allowances: source.allowances ?? [], charges: source.charges ?? [] },
  );
  const of = (charge: boolean) =>
    parts
      .filter((part) => part.charge === charge)
      .map((part) => ({
        amount: part.amount,
        vatCode: part.key.vatCode,
        vatRate: part.key.vatRate,
        reason: part.reason,
        reasonCode: part.reasonCode,
      }));
  return { allowances: of(false), charges: of(true) };
}

/**
 * The model of a finalized document: the lines, VAT breakdown and mentions as the tax decision
 * fixed them, the totals summed from them (the decision's own totals), the BT-23 frame from the
 * lines' natures, the VAT-on-debits option from the decision's mention, the exemption reason of each
 * group from the mention covering its lines, and the PMT / PMD / AAB notes.
 */
export function documentModelOf(source: DocumentSource): DocumentModel {
  const lines: DocumentLineModel[] = source.lines.map((line, index) => {
    if (line.vatCode === null) throw new Error(`line ${index} has no VAT category: the document is not finalized`);
    return {
      id: String(index + 1),
      description: line.description,
      quantity: line.quantity,
      unitCode: line.unit,
      unitPrice: line.unitPrice,
      netAmount: line.netAmount,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
      ...lineAllowanceCharges(line),
    };
  });
  const vatBreakdown: VatBreakdownEntry[] = source.tax.vatBreakdown.map((group) => {
    const members = source.lines.flatMap((line, index) => (sameGroup(line, group) ? [index] : []));
    const mention = source.tax.mentions.find(
      (candidate) => !documentMentions.has(candidate.code) && candidate.lines.some((line) => members.includes(line)),
    );
    return {
      vatCode: group.vatCode,
      vatRate: group.vatRate,
      vatexCode: group.vatexCode,
      exemptionReason: group.vatCode === 'S' || group.vatCode === 'Z' ? null : (mention?.text ?? null),
      taxableAmount: group.taxableAmount,
      taxAmount: group.taxAmount,
    };
  });
  const { allowances, charges } = documentAllowanceCharges(source, vatBreakdown);
  const goods = source.lines.some((line) => line.nature === 'goods');
  const services = source.lines.some((line) => line.nature !== 'goods');
  const category: OperationCategory = goods && services ? 'mixed' : goods ? 'goods' : 'services';
  const creditNote = source.kind === 'credit_note';
  const notes: DocumentNote[] = [
    ...paymentNotes({
      buyerType: source.buyer.type,
      kind: source.kind,
      latePenalty: source.latePenalty ?? null,
      earlyPaymentDiscount: source.earlyPaymentDiscount ?? discountClauseOf(source.paymentTerms),
    }),
    ...source.tax.mentions.map((mention) => ({ subject: 'REG' as const, text: mention.text })),
    ...(source.notes && source.notes.trim() !== '' ? [{ subject: null, text: source.notes }] : []),
  ];
  const deductedDeposits = creditNote ? [] : (source.deductedDeposits ?? []);
  return {
    typeCode: creditNote ? '381' : source.deposit ? '386' : '380',
    number: source.number,
    issueDate: source.issueDate,
    // A credit note has no due date, even one stored by an older version.
    dueDate: creditNote ? null : source.dueDate,
    deliveryDate: source.deliveryDate ?? source.operationDate ?? source.issueDate,
    currency: 'EUR',
    precedingInvoice: source.precedingInvoice,
    ...(deductedDeposits.length > 0 ? { deductedDeposits } : {}),
    billingFrame: billingFrameOf(category, deductedDeposits.length > 0),
    vatOnDebits: source.tax.mentions.some((mention) => mention.code === 'vat_on_debits'),
    processing: processingOf(source.tax.obligations?.einvoicing ?? null, source.buyer.type),
    // A credit note is an amount due to the buyer: EN 16931 (BR-CO-25) wants terms or a due date.
    paymentTerms: source.paymentTerms ?? (creditNote ? creditNoteTerms(source.precedingInvoice) : null),
    paymentMeansCode: source.paymentMeansCode ?? '58',
    notes,
    seller: source.seller,
    buyer: { ...source.buyer, routingCode: source.buyer.routingCode ?? null },
    lines,
    // Present only when the document has them: a model without is what it always was.
    ...(allowances.length > 0 || charges.length > 0 ? { allowances, charges } : {}),
    vatBreakdown,
    totals: totalsOf(lines, { allowances, charges }, vatBreakdown, source.amountPaid),
    ...((source.attachments ?? []).length > 0 ? { attachments: source.attachments } : {}),
  };
}

/** The seller's legal identity in one line (BT-33, and the PDF's footer): `SAS au capital de 10 000 € – RCS Paris 732 829 320`. */
export function sellerLegalLine(seller: SellerBlock): string {
  const parts: string[] = [];
  const capital = seller.shareCapital
    ? `${frenchDecimal(seller.shareCapital, new Big(seller.shareCapital).mod(1).eq(0) ? 0 : 2, 2)}\u00a0€`
    : null;
  if (seller.legalForm && capital) parts.push(`${seller.legalForm} au capital de ${capital}`);
  else if (seller.legalForm) parts.push(seller.legalForm);
  else if (capital) parts.push(`Capital de ${capital}`);
  if (seller.registration)
    parts.push(`${seller.registration.kind} ${seller.registration.place} ${groupedIdentifier(seller.siren)}`);
  return parts.join(' – ');
}
