import type pg from 'pg';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './database.js';
import type { Scope } from './scope.js';
import { isRetryableConflict } from './errors.js';
import { openNotices, sendNotices, takeNotices } from './commit-notice.js';
import { markedAsTransaction } from '../kernel/transaction-mark.js';

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
 * The second fence (row-level security, migration 0008): a transaction of a tenant runs as
 * `facteur_tenant` with its company and environment set, so a query that forgets its scope sees
 * nothing of another tenant; a transaction of no tenant (a worker's claim, a pass over every
 * company) runs as `facteur_worker`. Role and scope go in the same round trip as BEGIN.
 */
function beginStatement(client: pg.PoolClient, scope: Scope | null): string {
  if (!scope) return 'begin; set local role facteur_worker';
  const company = client.escapeLiteral(scope.companyId);
  return `begin; set local role facteur_tenant; select set_config('facteur.company_id', ${company}, true), set_config('facteur.livemode', '${scope.livemode}', true)`;
}

/** Drizzle's transaction, with our BEGIN: the connection's own client runs it, then a Drizzle transaction on it. */
async function fencedTransaction<T>(db: Db, scope: Scope | null, work: (tx: Tx) => Promise<T>): Promise<T> {
  const internals = db as unknown as { dialect: PgDialect; session: { client: pg.Pool } };
  const client = await internals.session.client.connect();
  const session = new NodePgSession(client, internals.dialect, undefined);
  const tx = new NodePgTransaction(internals.dialect, session, undefined) as unknown as Tx;
  let broken: Error | undefined;
  openNotices(tx);
  try {
    await client.query(beginStatement(client, scope));
    const result = await markedAsTransaction(() => work(tx));
    await client.query('commit');
    sendNotices(internals.session.client, takeNotices(tx));
    return result;
  } catch (error) {
    takeNotices(tx);
    await client.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    // A connection that could not even roll back is dropped, not given back to the pool.
    client.release(broken);
  }
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
      return await fencedTransaction(db, ctx?.scope ?? null, async (tx) => {
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
