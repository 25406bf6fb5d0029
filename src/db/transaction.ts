import type { Db, Tx } from './database.js';
import type { Scope } from './scope.js';
import { isRetryableConflict } from './errors.js';

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
  /**
   * Work the HTTP layer adds to the transaction that commits the effect (the idempotency mark):
   * it runs last, unless the use case runs it earlier through `Effect.mark`.
   */
  markEffect?: (tx: Tx) => Promise<void>;
}

const maxAttempts = 3;

/**
 * Lets a use case run the idempotency mark where it chooses: before it takes a lock held until
 * the commit (a series' counter), so the lock is not held through the mark too. The mark locks
 * the idempotency record until the commit, so it stays as late as the use case allows: a
 * concurrent request with the same key waits on it no longer than that.
 */
export interface Effect {
  mark(): Promise<void>;
}

/**
 * A use case is one transaction: its rows, its events and the idempotency mark commit together.
 * A transaction that loses a deadlock or a serialization race runs again (its work touches only
 * the database, so running it again is safe), at most three times.
 */
export async function inTransaction<T>(
  db: Db,
  ctx: CallContext | null,
  work: (tx: Tx, effect: Effect) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        let marked = false;
        const effect: Effect = {
          mark: async () => {
            if (marked || !ctx?.markEffect) return;
            marked = true;
            await ctx.markEffect(tx);
          },
        };
        const result = await work(tx, effect);
        await effect.mark();
        return result;
      });
    } catch (error) {
      if (attempt >= maxAttempts || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}
