import { documentModelOf, type DocumentSource, type SellerBlock } from '../einvoice/document-model.js';
import { checkDraftConformance, type ConformanceIssue } from '../einvoice/draft-conformance.js';
import { refuse, type ApiError } from '../kernel/errors.js';
import type { BuyerSnapshot } from './buyer.js';
import type { TaxSnapshot } from './document-record.js';
import type { DocumentLine } from './lines.js';
import type { DocumentAdjustment } from '../kernel/document-adjustments.js';
import type { DepositReference } from './deposit-invoices.js';

/**
 * The own checks of a finalization: the document as it would be issued (its number, dates,
 * frozen seller and buyer, decided lines), checked by the rules of the official validators that
 * its data can break, before the number is taken. No XML is built: microseconds.
 */

/** What a finalized (or about to be) document holds, as the invoices table keeps it. */
export interface IssuedDocument {
  kind: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  paymentTerms: string | null;
  notes: string | null;
  /** `deposit`: a deposit invoice (386). Absent: standard. */
  invoiceType?: string;
  /** On a final invoice, the deposits it deducted, frozen at finalization; their sum is BT-113. */
  deposits?: DepositReference[];
  amountDeducted?: number;
  seller: SellerBlock;
  buyer: BuyerSnapshot;
  lines: DocumentLine[];
  /** BG-20 / BG-21 as stated; absent: none. */
  allowances?: DocumentAdjustment[];
  charges?: DocumentAdjustment[];
  tax: TaxSnapshot;
}

const address = (value: BuyerSnapshot['address']) =>
  value
    ? {
        line1: value.line1,
        line2: value.line2,
        postalCode: value.postalCode,
        city: value.city,
        country: value.country,
      }
    : null;

/**
 * BT-49: the buyer's own electronic address, else its SIREN, the address every French company
 * has in the directory (scheme 0225), which a domestic B2B document needs (BR-FR-21).
 */
export function buyerElectronicAddress(buyer: BuyerSnapshot): string | null {
  if (buyer.electronicAddress) return buyer.electronicAddress;
  const french = buyer.address === null || buyer.address.country === 'FR';
  return buyer.type === 'company' && buyer.siren && french ? buyer.siren : null;
}

/** A deposit reference as the finalization froze it (the number, date and amount are set by then). */
function frozenDeposit(reference: DepositReference): { number: string; issueDate: string; amount: number } {
  if (reference.number === null || reference.issueDate === null || reference.amount === null)
    throw new Error(`deposit ${reference.invoiceId} is not frozen on the final invoice`);
  return { number: reference.number, issueDate: reference.issueDate, amount: reference.amount };
}

/** The documents capability's source of a finalized document (the generation job reads the same). */
export function documentSourceOf(
  document: IssuedDocument,
  precedingInvoice: { number: string; issueDate: string } | null,
): DocumentSource {
  return {
    kind: document.kind === 'credit_note' ? 'credit_note' : 'invoice',
    number: document.number,
    issueDate: document.issueDate,
    dueDate: document.dueDate,
    deliveryDate: document.deliveryDate,
    paymentTerms: document.paymentTerms,
    notes: document.notes,
    // BT-113 is what the document itself deducts (its deposits), never the payments recorded since.
    amountPaid: document.kind === 'credit_note' ? 0 : (document.amountDeducted ?? 0),
    precedingInvoice,
    ...(document.kind !== 'credit_note' && document.invoiceType === 'deposit' ? { deposit: true } : {}),
    ...(document.kind !== 'credit_note' && document.deposits && document.deposits.length > 0
      ? { deductedDeposits: document.deposits.map(frozenDeposit) }
      : {}),
    seller: document.seller,
    buyer: {
      type: document.buyer.type,
      name: document.buyer.name,
      siren: document.buyer.siren,
      siret: document.buyer.siret,
      vatNumber: document.buyer.vatNumber,
      electronicAddress: buyerElectronicAddress(document.buyer),
      email: document.buyer.email,
      address: address(document.buyer.address),
      deliveryAddress: address(document.buyer.deliveryAddress),
    },
    lines: document.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      unit: line.unit,
      nature: line.nature,
      netAmount: line.netAmount,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
      allowances: line.allowances ?? [],
      charges: line.charges ?? [],
    })),
    allowances: document.allowances ?? [],
    charges: document.charges ?? [],
    tax: {
      vatBreakdown: document.tax.vatBreakdown,
      mentions: document.tax.mentions,
      obligations: document.tax.obligations,
    },
  };
}

/**
 * The issues of the document about to be issued: what the seller is missing first (it says where
 * to fill it), then the rules its model breaks; a seller without establishment is not reported
 * again field by field.
 */
export function issueConformance(source: DocumentSource, missing: ConformanceIssue[]): ConformanceIssue[] {
  const noEstablishment = missing.some((issue) => issue.field === 'seller.address');
  const found = checkDraftConformance(documentModelOf(source)).filter(
    (issue) =>
      !(noEstablishment && (issue.field.startsWith('seller.address') || issue.field === 'seller.electronicAddress')) &&
      !missing.some((known) => known.field === issue.field),
  );
  return [...missing, ...found.map(withWhereToFix)];
}

/** Where an integrator fixes a seller field: the account's identity or the establishment. */
function withWhereToFix(issue: ConformanceIssue): ConformanceIssue {
  const field = issue.field;
  if (field.startsWith('seller.address') || field === 'seller.siret' || field === 'seller.electronicAddress')
    return { ...issue, message: `${issue.message} Fix the establishment with \`POST /v1/establishments/:id\`.` };
  if (field.startsWith('seller.'))
    return { ...issue, message: `${issue.message} Fix \`${field.slice(7)}\` with \`POST /v1/account\`.` };
  return issue;
}

/** At most this many rules are quoted in the message; the count says how many there were. */
const quoted = 20;

/**
 * `schematron_validation_failed`: the rule ids and messages in the message (the contract keeps
 * `issues` for tax decisions), `param` naming the first field in cause.
 */
export function conformanceRefusal(kind: string, issues: ConformanceIssue[]): ApiError {
  const list = issues
    .slice(0, quoted)
    .map((issue) => `${issue.rule} (${issue.field}): ${issue.message}`)
    .join(' ');
  const more = issues.length > quoted ? ` And ${issues.length - quoted} more.` : '';
  return refuse(
    'schematron_validation_failed',
    `The ${kind === 'credit_note' ? 'credit note' : 'invoice'} would break ${issues.length} EN 16931 / CIUS-FR rule${issues.length === 1 ? '' : 's'}; nothing was numbered. ${list}${more}`,
    { param: issues[0]!.field },
  );
}
