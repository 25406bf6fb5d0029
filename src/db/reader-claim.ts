import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from './columns.js';
import type { Db, Executor } from './database.js';
import { leaseHeartbeat } from './lease-heartbeat.js';
import { claimLeased, renewLeased } from './leased-claim.js';
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

/**
 * How long a poll leases a reader, renewed every third of it while the pass holds the reader:
 * shorter than a periodic pass's lease (workers/periodic-passes.ts), so that the first run of a
 * pass whose node died finds that node's readers free already.
 */
export const readerLeaseMs = 20_000;

/** The leases of claimed readers of `table`, renewed (see db/leased-claim.ts `renewLeased`). */
export const renewReaders = (
  db: Executor,
  table: string,
  readers: readonly ClaimedReader[],
  lease: { now: Date; leaseMs: number },
) =>
  renewLeased(
    db,
    { table, key: ['company_id', 'livemode', 'establishment_id'] },
    readers,
    (reader) => ({ key: [reader.companyId, reader.livemode, reader.establishmentId], token: reader.token }),
    lease,
  );

export interface ReaderPass {
  /** Claims the next readers (the store's `claimReaders` on its table). */
  claim: (
    tx: Executor,
    lease: { now: Date; limit: number; leaseMs: number; token: string },
    done: readonly string[],
  ) => Promise<ClaimedReader[]>;
  /** Renews the leases of readers in hand (the store's `renewReaders` on its table); returns those still held. */
  renew: (
    db: Executor,
    readers: readonly ClaimedReader[],
    lease: { now: Date; leaseMs: number },
  ) => Promise<ClaimedReader[]>;
  /** Polls one claimed reader and releases it; returns what it made or applied. */
  poll: (reader: ClaimedReader) => Promise<number>;
  /** Records a poll that threw, and releases the reader. */
  failed: (reader: ClaimedReader, error: unknown) => Promise<void>;
  /** How long a reader is leased (ms, default `readerLeaseMs`; tests shorten it). */
  leaseMs?: number;
}

/**
 * A polling pass: every due reader once, ten at a time, each leased `readerLeaseMs` and renewed
 * while the pass holds it (a reader lost meanwhile is not polled; one lost while polled stops at
 * its next step, its lease checked there); the sum of the polls.
 */
export async function pollEachReader(
  deps: { db: Db; clock: { now(): Date }; log: { warn(fields: object, message: string): void } },
  pass: ReaderPass,
): Promise<number> {
  const leaseMs = pass.leaseMs ?? readerLeaseMs;
  const heartbeat = leaseHeartbeat<ClaimedReader>(
    { leaseMs, renew: (readers) => pass.renew(deps.db, readers, { now: deps.clock.now(), leaseMs }) },
    deps.log,
  );
  let total = 0;
  const done: string[] = [];
  for (;;) {
    const readers = await inTransaction(deps.db, null, (tx) =>
      pass.claim(tx, { now: deps.clock.now(), limit: 10, leaseMs, token: randomUUID() }, done),
    );
    if (readers.length === 0) return total;
    const leases = readers.map((reader) => heartbeat.hold(reader));
    try {
      for (const [index, reader] of readers.entries()) {
        done.push(readerKey(reader));
        try {
          if (!leases[index]!.aborted) total += await pass.poll(reader);
        } catch (error) {
          await pass.failed(reader, error);
        }
        heartbeat.release(reader);
      }
    } finally {
      // A pass that ends on an error renews nothing more: what it left leased lapses.
      for (const reader of readers) heartbeat.release(reader);
    }
  }
}
