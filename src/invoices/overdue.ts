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

export interface PeriodicPass {
  /** Runs the pass now and waits for it (tests, the sandbox clock). */
  runOnce(): Promise<number>;
  stop(): void;
}

/** Runs `pass` every `everyMs` (one run at a time); failures are logged and retried next time. */
export function startPeriodicPass(
  deps: Pick<Deps, 'log'>,
  name: string,
  pass: () => Promise<number>,
  everyMs: number,
): PeriodicPass {
  let running: Promise<number> | null = null;
  const runOnce = () => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => deps.log.warn({ err: error, pass: name }, 'periodic pass failed'));
  }, everyMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}

export const overduePassEveryMs = 60_000;

export function startOverduePass(deps: Pick<Deps, 'db' | 'clock' | 'log'>, everyMs = overduePassEveryMs): PeriodicPass {
  return startPeriodicPass(deps, 'invoice-overdue', () => markOverdueInvoices(deps), everyMs);
}
