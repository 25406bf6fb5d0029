import type { Db, Tx } from './database.js';
import type { Scope } from './scope.js';

/**
 * Who asks, in which scope, on behalf of which request. A service receives it with its input;
 * the HTTP layer builds it, the command line builds one without a request.
 */
export interface CallContext {
  scope: Scope;
  requestId: string | null;
  idempotencyKey: string | null;
  apiVersion: string;
  /** The time of the scope: real time in live, the company's sandbox clock in test. */
  now: Date;
  /** Work the HTTP layer adds to the transaction that commits the effect (the idempotency mark). */
  beforeCommit?: (tx: Tx) => Promise<void>;
}

/** A use case is one transaction: its rows, its events and the idempotency mark commit together. */
export async function inTransaction<T>(db: Db, ctx: CallContext | null, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await work(tx);
    if (ctx?.beforeCommit) await ctx.beforeCommit(tx);
    return result;
  });
}
