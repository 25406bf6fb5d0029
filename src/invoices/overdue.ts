import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { recordEvent } from '../webhooks/service.js';
import { currentVersion } from '../kernel/api-version.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { documentEventData } from './document-record.js';
import { claimOverdue, updateDocument } from './store.js';

/**
 * `invoice.overdue`: a finalized invoice whose due date has passed without full payment, once.
 * Test invoices follow their company's sandbox clock. The pass claims a batch at a time with
 * `FOR UPDATE SKIP LOCKED`, so several workers share the work and none emits an event twice.
 */
export async function markOverdueInvoices(
  deps: Pick<Deps, 'db' | 'clock'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? 200;
  let total = 0;
  for (;;) {
    const marked = await inTransaction(deps.db, null, async (tx) => {
      const realNow = deps.clock.now();
      const due = await claimOverdue(tx, realNow, batch, options.companyIds);
      for (const { row, sandboxClockOffsetMs } of due) {
        const now = scopeTime(realNow, row.livemode, sandboxClockOffsetMs);
        const ctx: CallContext = {
          scope: { companyId: row.companyId, livemode: row.livemode },
          requestId: null,
          idempotencyKey: null,
          apiVersion: currentVersion,
          now,
        };
        const updated = await updateDocument(tx, ctx.scope, row.id, { overdueAt: now, updated: now });
        await recordEvent(tx, ctx, 'invoice.overdue', documentEventData(updated, row.status), now);
      }
      return due.length;
    });
    total += marked;
    if (marked < batch) return total;
  }
}
