import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { BuyerSnapshot } from './buyer.js';
import type { DocumentRow } from './document-record.js';
import { amountDeductedOf, deductionOf, type DepositReference } from './deposit-invoices.js';
import { findDocument, updateDocument } from './store.js';

/**
 * The finalization of a final invoice deducts its deposits, in its transaction: each deposit row is
 * locked (in id order, so two final invoices naming the same deposits wait instead of deadlocking),
 * checked (deposit-invoices.ts), marked deducted by this invoice, and the references and their sum
 * are frozen on the invoice. Two final invoices racing for one deposit: the second reads, once the
 * first commits, the deposit it deducted and is refused.
 */
export async function deductDeposits(
  tx: Tx,
  scope: Scope,
  draft: DocumentRow,
  buyer: BuyerSnapshot,
  total: number,
  now: Date,
): Promise<{ deposits: DepositReference[]; amountDeducted: number }> {
  if (draft.deposits.length === 0) return { deposits: [], amountDeducted: 0 };
  const ids = draft.deposits.map((reference) => reference.invoiceId);
  const locked = new Map<string, DocumentRow | undefined>();
  for (const id of [...ids].sort()) locked.set(id, await findDocument(tx, scope, 'invoice', id, true));
  const final = { id: draft.id, customerId: draft.customerId, buyerName: buyer.name, buyerSiren: buyer.siren };
  const deposits = ids.map((id, index) => {
    const row = locked.get(id);
    return deductionOf(
      row
        ? {
            ...row,
            invoiceType: row.invoiceType,
            buyerName: row.buyer?.name ?? null,
            buyerSiren: row.buyer?.siren ?? null,
          }
        : null,
      final,
      index,
      id,
    );
  });
  const amountDeducted = amountDeductedOf(deposits, total);
  for (const id of ids) await updateDocument(tx, scope, id, { deductedBy: draft.id, updated: now });
  await updateDocument(tx, scope, draft.id, { deposits, amountDeducted });
  return { deposits, amountDeducted };
}
