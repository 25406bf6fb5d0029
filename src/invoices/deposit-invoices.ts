import { Type } from 'typebox';
import { refuse, type ApiError } from '../kernel/errors.js';
import { euros } from '../kernel/money.js';

/**
 * Deposit invoices ("factures d'acompte", BT-3 386) and the final invoice that deducts them
 * (billing frame B4/S4/M4, BR-FR-CO-08). A deposit invoice is an invoice for a share of an order,
 * with its own tax decision: VAT on a deposit is due when it is collected, for goods as for
 * services (CGI 269, research/eu-vat-domain.md), so the deposit carries its VAT. The final invoice
 * states the whole operation and its VAT, names the deposit invoices (BG-3) and deducts what they
 * totalled (BT-113): the buyer owes the rest. A deposit is deducted only once it is fully paid (the
 * contract's version 2026-09-01: "deposit fully paid before deduction"), and by one final invoice.
 * Pure: the finalization reads the deposits under their row locks and asks these rules.
 */

export const invoiceTypes = ['standard', 'deposit'] as const;
export type InvoiceType = (typeof invoiceTypes)[number];

/** A deposit a final invoice deducts: its id on a draft; its number, date and amount frozen at finalization. */
export interface DepositReference {
  invoiceId: string;
  number: string | null;
  issueDate: string | null;
  /** Cents deducted: the deposit's total (a credited deposit is not deducted). */
  amount: number | null;
}

/** At most this many deposits on one final invoice. */
export const maxDeposits = 20;

export const invoiceTypeField = Type.Unsafe<InvoiceType>({
  type: 'string',
  enum: [...invoiceTypes],
  description:
    '`deposit`: a deposit invoice (facture d’acompte, BT-3 386) for a share of an order or quote, taxed when it is collected. Default `standard`.',
});

export const depositsField = Type.Array(Type.String({ maxLength: 255 }), {
  maxItems: maxDeposits,
  uniqueItems: true,
  description:
    'The deposit invoices (`inv_`, `invoiceType: deposit`) this final invoice deducts: each finalized, of the same buyer, without a credit note, fully paid, and deducted by no other invoice when this one is finalized. The invoice then states the whole operation, and the buyer owes its total less the deposits (`amountDeducted`).',
});

export function depositReferencesOf(ids: readonly string[]): DepositReference[] {
  return ids.map((invoiceId) => ({ invoiceId, number: null, issueDate: null, amount: null }));
}

/** A deposit invoice never deducts deposits itself. */
export function checkDepositsOnDraft(invoiceType: InvoiceType, deposits: readonly DepositReference[]): void {
  if (invoiceType === 'deposit' && deposits.length > 0)
    throw refuse(
      'invalid_field_value',
      'A deposit invoice deducts no deposits: `deposits` belongs to the final invoice.',
      { param: 'deposits' },
    );
}

/** What the rules read of a deposit invoice. */
export interface DepositFacts {
  id: string;
  kind: string;
  invoiceType: InvoiceType;
  documentStatus: string;
  number: string | null;
  issueDate: string | null;
  customerId: string | null;
  buyerName: string | null;
  buyerSiren: string | null;
  total: number | null;
  amountPaid: number;
  amountRefunded: number;
  amountCredited: number;
  deductedBy: string | null;
}

/** What the rules read of the final invoice being finalized. */
export interface FinalInvoiceFacts {
  id: string;
  customerId: string | null;
  buyerName: string;
  buyerSiren: string | null;
}

const refused = (index: number, message: string): ApiError =>
  refuse('invalid_field_value', message, { param: `deposits[${index}]` });

/**
 * The reference the final invoice freezes for the deposit `deposits[index]`, or the refusal that
 * says what keeps it from being deducted. `deposit` null: no invoice of that id here.
 */
export function deductionOf(
  deposit: DepositFacts | null,
  final: FinalInvoiceFacts,
  index: number,
  id: string,
): DepositReference {
  if (!deposit || deposit.kind !== 'invoice') throw refused(index, `No invoice ${id}.`);
  if (deposit.id === final.id) throw refused(index, 'An invoice cannot deduct itself.');
  if (deposit.invoiceType !== 'deposit')
    throw refused(index, `Invoice ${id} is not a deposit invoice (\`invoiceType: deposit\`).`);
  if (
    deposit.documentStatus !== 'finalized' ||
    deposit.number === null ||
    deposit.issueDate === null ||
    deposit.total === null
  )
    throw refused(index, `Deposit invoice ${id} is not finalized: only an issued deposit can be deducted.`);
  if (deposit.deductedBy !== null && deposit.deductedBy !== final.id)
    throw refused(index, `Deposit invoice ${deposit.number} is already deducted by invoice ${deposit.deductedBy}.`);
  const sameBuyer =
    final.customerId !== null || deposit.customerId !== null
      ? deposit.customerId === final.customerId
      : deposit.buyerName === final.buyerName && deposit.buyerSiren === final.buyerSiren;
  if (!sameBuyer) throw refused(index, `Deposit invoice ${deposit.number} was issued to another buyer.`);
  // The books take back what the deposit invoiced (its net and VAT): a credited deposit would leave them wrong.
  if (deposit.amountCredited > 0)
    throw refused(
      index,
      `Deposit invoice ${deposit.number} has a credit note: a credited deposit is not deducted. Issue a new deposit invoice for what remains.`,
    );
  const amount = deposit.total;
  const collected = deposit.amountPaid - deposit.amountRefunded;
  if (collected < amount)
    throw refused(
      index,
      `Deposit invoice ${deposit.number} is not fully paid (${euros(collected)} of ${euros(amount)} EUR collected): a deposit is deducted once it is fully paid. Record its payment first.`,
    );
  return { invoiceId: deposit.id, number: deposit.number, issueDate: deposit.issueDate, amount };
}

/** The sum the final invoice deducts (BT-113); never more than its own total. */
export function amountDeductedOf(references: readonly DepositReference[], total: number): number {
  const sum = references.reduce((acc, reference) => acc + (reference.amount ?? 0), 0);
  if (sum > total)
    throw refuse(
      'invalid_field_value',
      `The deposits total ${euros(sum)} EUR, more than this invoice's ${euros(total)} EUR: a final invoice states the whole operation, its deposits included.`,
      { param: 'deposits' },
    );
  return sum;
}
