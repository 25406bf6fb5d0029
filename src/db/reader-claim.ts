import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from './columns.js';
import type { Db, Executor } from './database.js';
import { claimLeased } from './leased-claim.js';
import { inTransaction } from './transaction.js';

/**
 * The claim of an establishment's reader of its platform (the statuses of its deposits, its
 * received invoices): rows keyed by company, environment and establishment, with a cursor and a
 * webhook subscription, leased so that one poll at a time moves a cursor, each once per pass.
 */
/** A reader table's columns (its primary key is company, environment and establishment). */
export const readerColumns = () => ({
  ...tenantColumns(),
  establishmentId: text('establishment_id').notNull(),
  connectionKey: text('connection_key'),
  cursor: text('cursor'),
  webhookId: text('webhook_id'),
  /** The key the platform signs its callbacks with, sealed (kernel/sealed-secret.ts). */
  signingKey: text('signing_key'),
  lockedUntil: instant('locked_until'),
  lockToken: text('lock_token'),
  lastPolledAt: instant('last_polled_at'),
  lastError: text('last_error'),
  created: instant('created').notNull(),
});

export interface ClaimedReader {
  companyId: string;
  livemode: boolean;
  establishmentId: string;
  /** The connection the cursor was read on; null: none yet. */
  connectionKey: string | null;
  cursor: string | null;
  webhookId: string | null;
  token: string;
}

/** A reader's key within a pass (`company|livemode|establishment`), as the claim compares it. */
export const readerKey = (reader: Pick<ClaimedReader, 'companyId' | 'livemode' | 'establishmentId'>) =>
  `${reader.companyId}|${reader.livemode}|${reader.establishmentId}`;

/** The readers of `table` to poll (all, or these companies'), least recently polled first, none in `done`. */
export async function claimReaders(
  db: Executor,
  table: string,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  done: readonly string[],
  companyIds?: readonly string[],
): Promise<ClaimedReader[]> {
  const rows = await claimLeased(
    db,
    {
      table,
      key: ['company_id', 'livemode', 'establishment_id'],
      due:
        done.length === 0
          ? sql`true`
          : sql`(t.company_id || '|' || t.livemode::text || '|' || t.establishment_id) not in (${sql.join(
              done.map((key) => sql`${key}`),
              sql`, `,
            )})`,
      order: sql`t.last_polled_at nulls first`,
      returning: sql`t.company_id, t.livemode, t.establishment_id, t.connection_key, t.cursor, t.webhook_id`,
      companyIds,
    },
    lease,
  );
  return rows.map((found) => ({
    companyId: found.company_id as string,
    livemode: found.livemode as boolean,
    establishmentId: found.establishment_id as string,
    connectionKey: (found.connection_key as string | null) ?? null,
    cursor: (found.cursor as string | null) ?? null,
    webhookId: (found.webhook_id as string | null) ?? null,
    token: lease.token,
  }));
}

export interface ReaderPass {
  /** Claims the next readers (the store's `claimReaders` on its table). */
  claim: (
    tx: Executor,
    lease: { now: Date; limit: number; leaseMs: number; token: string },
    done: readonly string[],
  ) => Promise<ClaimedReader[]>;
  /** Polls one claimed reader and releases it; returns what it made or applied. */
  poll: (reader: ClaimedReader) => Promise<number>;
  /** Records a poll that threw, and releases the reader. */
  failed: (reader: ClaimedReader, error: unknown) => Promise<void>;
}

/** A polling pass: every due reader once, ten at a time, each leased 5 minutes; the sum of the polls. */
export async function pollEachReader(db: Db, now: () => Date, pass: ReaderPass): Promise<number> {
  let total = 0;
  const done: string[] = [];
  for (;;) {
    const readers = await inTransaction(db, null, (tx) =>
      pass.claim(tx, { now: now(), limit: 10, leaseMs: 300_000, token: randomUUID() }, done),
    );
    if (readers.length === 0) return total;
    for (const reader of readers) {
      done.push(readerKey(reader));
      try {
        total += await pass.poll(reader);
      } catch (error) {
        await pass.failed(reader, error);
      }
    }
  }
}
