import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { claimLeased, renewLeased } from '../db/leased-claim.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import { documentDeposits } from './schema.js';
import { depositSourceColumns, depositSourceOf, type DepositSource } from './files-store.js';
import { notifyOnCommit } from '../db/commit-notice.js';

/** The deposit jobs (the platform's readers and the receipts of its events are the inbox's: platform/inbox-store.ts). */

export type DepositRow = typeof documentDeposits.$inferSelect;

/** Wakes the deposit workers of every node once a send that queued a deposit commits. */
export const depositsChannel = 'facteur_document_deposits';

const row = { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') };

/** The tracking id of a document's attempt: stable, so a deposit run again finds the first one. */
export const trackingIdOf = (documentId: string, attempt: number) => `${documentId}-a${attempt}`;

/**
 * A new attempt's deposit job, in the send's transaction: the attempt after the last one; the
 * earlier attempt's job stops (a resubmission replaces a deposit that waits for the directory).
 */
export async function queueDeposit(
  db: Executor,
  scope: Scope,
  job: { documentId: string; documentKind: string; establishmentId: string; connectionKey: string },
  now: Date,
): Promise<DepositRow> {
  const [last] = await db
    .select({ attempt: documentDeposits.attempt })
    .from(documentDeposits)
    .where(and(ofScope(scope), eq(documentDeposits.documentId, job.documentId)))
    .orderBy(desc(documentDeposits.attempt))
    .limit(1);
  const attempt = (last?.attempt ?? 0) + 1;
  await db
    .update(documentDeposits)
    .set({ state: 'superseded', nextAttemptAt: null, updated: now })
    .where(
      and(
        ofScope(scope),
        eq(documentDeposits.documentId, job.documentId),
        inArray(documentDeposits.state, ['pending', 'waiting_directory']),
      ),
    );
  const [queued] = await db
    .insert(documentDeposits)
    .values({
      ...scope,
      documentId: job.documentId,
      documentKind: job.documentKind,
      establishmentId: job.establishmentId,
      attempt,
      state: 'pending',
      trackingId: trackingIdOf(job.documentId, attempt),
      nextAttemptAt: now,
      created: now,
      updated: now,
    })
    .returning();
  await notifyOnCommit(db, depositsChannel);
  return queued!;
}

const ofScope = (scope: Scope) =>
  and(eq(documentDeposits.companyId, scope.companyId), eq(documentDeposits.livemode, scope.livemode));

export interface ClaimedDeposit {
  companyId: string;
  livemode: boolean;
  documentId: string;
  attempt: number;
  documentKind: string;
  establishmentId: string;
  state: 'pending' | 'waiting_directory';
  trackingId: string;
  tries: number;
  duplicates: number;
  /** The company's sandbox offset (0 live): the scope's clock is the worker's plus it. */
  offsetMs: number;
  token: string;
  /** The document and its platform, read with the claim (null: the document is gone). */
  source: DepositSource | null;
}

/** The SQL of an establishment's platform fields, on SQL naming the company, mode and establishment. */
export type PlatformFieldsSql = (on: { companyId: SQL; livemode: SQL; establishmentId: SQL }) => SQL;

/**
 * Due deposit jobs (on their scope's clock), leased to `token`, each with its document and its
 * establishment's platform (`platformFields`); each claim counts a try.
 */
export async function claimDeposits(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  platformFields: PlatformFieldsSql,
  companyIds?: readonly string[],
): Promise<ClaimedDeposit[]> {
  const platform = platformFields({
    companyId: sql.raw('t.company_id'),
    livemode: sql.raw('t.livemode'),
    establishmentId: sql.raw('t.establishment_id'),
  });
  const rows = await claimLeased(
    db,
    {
      table: 'document_deposits',
      key: ['company_id', 'livemode', 'document_id', 'attempt'],
      due: sql`t.state in ('pending', 'waiting_directory') and ${dueOnScopeClock(sql.raw('t.next_attempt_at'), row, lease.now)}`,
      order: sql`t.next_attempt_at`,
      set: sql`tries = t.tries + 1`,
      returning: sql`t.company_id, t.livemode, t.document_id, t.attempt, t.document_kind, t.establishment_id, t.state,
        t.tracking_id, t.tries, t.duplicates, ${sandboxOffsetMs(row)} as offset_ms, ${depositSourceColumns(platform)}`,
      companyIds,
    },
    lease,
  );
  return rows.map((found) => ({
    companyId: found.company_id as string,
    livemode: found.livemode as boolean,
    documentId: found.document_id as string,
    attempt: Number(found.attempt),
    documentKind: found.document_kind as string,
    establishmentId: found.establishment_id as string,
    state: found.state as ClaimedDeposit['state'],
    trackingId: found.tracking_id as string,
    tries: Number(found.tries),
    duplicates: Number(found.duplicates),
    offsetMs: Number(found.offset_ms),
    token: lease.token,
    source: depositSourceOf(found),
  }));
}

/** The leases of deposit jobs in hand, renewed in one statement; returns the jobs still held. */
export const renewDeposits = (db: Executor, claims: readonly ClaimedDeposit[], lease: { now: Date; leaseMs: number }) =>
  renewLeased(
    db,
    { table: 'document_deposits', key: ['company_id', 'livemode', 'document_id', 'attempt'] },
    claims,
    (claim) => ({ key: [claim.companyId, claim.livemode, claim.documentId, claim.attempt], token: claim.token }),
    lease,
  );

const ofClaim = (claim: ClaimedDeposit) =>
  and(
    eq(documentDeposits.companyId, claim.companyId),
    eq(documentDeposits.livemode, claim.livemode),
    eq(documentDeposits.documentId, claim.documentId),
    eq(documentDeposits.attempt, claim.attempt),
    eq(documentDeposits.lockToken, claim.token),
  );

/**
 * The platform's word on the attempt, read while a worker held the job (an acknowledgement `Error`
 * on the flow it had just deposited), is the job's last word: `rejected`, or `waiting_directory`
 * with the time of its next look when the service follows the rejection up (einvoicing.ts). The
 * holder's own end never moves it; a job claimed while it watched the directory ends as its
 * holder says.
 */
const ruledByPlatform = (claim: ClaimedDeposit) =>
  claim.state === 'pending'
    ? sql`${documentDeposits.state} in ('rejected', 'waiting_directory')`
    : sql`${documentDeposits.state} = 'rejected'`;

/** Ends a claim: the job's next state; false when the lease was lost (another worker has the row). */
export async function settleDeposit(
  db: Executor,
  claim: ClaimedDeposit,
  changes: Partial<Pick<DepositRow, 'state' | 'nextAttemptAt' | 'flowId' | 'lastError' | 'duplicates'>>,
  now: Date,
): Promise<boolean> {
  const ruled = ruledByPlatform(claim);
  const rows = await db
    .update(documentDeposits)
    .set({
      ...changes,
      ...(changes.state
        ? { state: sql`case when ${ruled} then ${documentDeposits.state} else ${changes.state} end` }
        : {}),
      ...(changes.nextAttemptAt !== undefined
        ? {
            nextAttemptAt: sql`case when ${ruled} then ${documentDeposits.nextAttemptAt}
              else ${changes.nextAttemptAt?.toISOString() ?? null}::timestamptz end`,
          }
        : {}),
      lockedUntil: null,
      lockToken: null,
      updated: now,
    })
    .where(ofClaim(claim))
    .returning({ attempt: documentDeposits.attempt });
  return rows.length > 0;
}

/** The job of a tracking id. */
export async function depositByTracking(
  db: Executor,
  scope: Scope,
  trackingId: string,
): Promise<DepositRow | undefined> {
  const [found] = await db
    .select()
    .from(documentDeposits)
    .where(and(ofScope(scope), eq(documentDeposits.trackingId, trackingId)));
  return found;
}

/** The document's latest attempt. */
export async function latestDeposit(db: Executor, scope: Scope, documentId: string): Promise<DepositRow | undefined> {
  const [found] = await db
    .select()
    .from(documentDeposits)
    .where(and(ofScope(scope), eq(documentDeposits.documentId, documentId)))
    .orderBy(desc(documentDeposits.attempt))
    .limit(1);
  return found;
}

/** A job's state, outside a claim (the life cycle ends it: a rejection acknowledged). */
export async function markDeposit(
  db: Executor,
  scope: Scope,
  key: { documentId: string; attempt: number },
  changes: Partial<Pick<DepositRow, 'state' | 'flowId' | 'nextAttemptAt'>>,
  now: Date,
): Promise<void> {
  await db
    .update(documentDeposits)
    .set({ ...changes, updated: now })
    .where(
      and(ofScope(scope), eq(documentDeposits.documentId, key.documentId), eq(documentDeposits.attempt, key.attempt)),
    );
}

/** Sandbox reset: the scope's deposits go with its documents (its readers and receipts with the platform's). */
export async function deleteScopeDeposits(db: Executor, scope: Scope): Promise<void> {
  await db.delete(documentDeposits).where(ofScope(scope));
}

/** The deposit jobs of a scope in the order of their tracking id (the data-protection export). */
export async function depositRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return db
    .select()
    .from(documentDeposits)
    .where(and(ofScope(scope), after === null ? undefined : gt(documentDeposits.trackingId, after)))
    .orderBy(asc(documentDeposits.trackingId))
    .limit(limit);
}

/**
 * The receipts of the platform's events, in the order of their key (the data-protection export):
 * the inbox's table (platform/schema.ts `inboxReceipts`), read here by its name, as the export
 * has always listed it with the invoices' records.
 */
export async function statusReceiptsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  const result = await db.execute<{
    livemode: boolean;
    event_key: string;
    document_id: string | null;
    created: Date | string;
  }>(
    sql`select livemode, event_key, document_id, created from platform_status_receipts
      where company_id = ${scope.companyId} and livemode = ${scope.livemode}
        ${after === null ? sql`` : sql`and event_key > ${after}`}
      order by event_key limit ${limit}`,
  );
  return result.rows.map((found) => ({
    livemode: found.livemode,
    eventKey: found.event_key,
    documentId: found.document_id,
    created: new Date(found.created),
  }));
}

/** A deposit the platform accepted, to record: its claim, the flow id and the time on the scope's clock. */
export interface AcceptedDeposit {
  claim: ClaimedDeposit;
  flowId: string;
  at: Date;
}

/**
 * The common end of deposits, for many at once in one statement (atomic on its own, one round
 * trip): each job `deposited` under its lease (`rejected` or `waiting_directory` kept, as
 * `settleDeposit` keeps them) and the platform's flow id on its document, when
 * nothing else changes with it (the document on this attempt, no wait to end). Returns the
 * deposits settled; for the others nothing was written (the lease lost, or the document
 * elsewhere): the caller takes the general path. Committed without waiting for the disk by the
 * caller's pool (a lost result leaves the job leased: its next claim finds the flow on the platform).
 */
export async function settleDepositedQuietly(
  pool: pg.Pool,
  accepted: readonly AcceptedDeposit[],
): Promise<Set<AcceptedDeposit>> {
  const { rows } = await pool.query<{ document_id: string; attempt: number }>({
    // Prepared: one text whatever the number of deposits.
    name: 'facteur_settle_deposited',
    text: `with accepted as (
        select * from unnest($1::text[], $2::bool[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
          as a (company_id, livemode, document_id, attempt, token, tracking_id, flow_id, at)
      ), settled as (
        update document_deposits d
          set state = case when d.state in ('rejected', 'waiting_directory') then d.state else 'deposited' end,
          flow_id = a.flow_id, next_attempt_at = case when d.state = 'waiting_directory' then d.next_attempt_at end,
          last_error = null, locked_until = null, lock_token = null, updated = a.at
        from accepted a
        where d.company_id = a.company_id and d.livemode = a.livemode and d.document_id = a.document_id
          and d.attempt = a.attempt and d.lock_token = a.token
          and exists (select 1 from invoices i where i.company_id = a.company_id and i.livemode = a.livemode
            and i.id = a.document_id and i.einvoicing->>'paTrackingId' = a.tracking_id
            and coalesce(i.einvoicing->'depositWait', 'null'::jsonb) = 'null'::jsonb)
        returning d.company_id, d.livemode, d.document_id, d.attempt, a.tracking_id, a.flow_id
      ), recorded as (
        update invoices i set einvoicing = i.einvoicing || jsonb_build_object('paFlowId', s.flow_id)
        from settled s
        where i.company_id = s.company_id and i.livemode = s.livemode and i.id = s.document_id
          and i.einvoicing->>'paTrackingId' = s.tracking_id
        returning 1
      )
      select document_id, attempt from settled`,
    values: [
      accepted.map(({ claim }) => claim.companyId),
      accepted.map(({ claim }) => claim.livemode),
      accepted.map(({ claim }) => claim.documentId),
      accepted.map(({ claim }) => claim.attempt),
      accepted.map(({ claim }) => claim.token),
      accepted.map(({ claim }) => claim.trackingId),
      accepted.map(({ flowId }) => flowId),
      accepted.map(({ at }) => at),
    ],
  });
  // Only the lease holder moves the attempt's tracking id and wait: settled implies recorded.
  const settled = new Set(rows.map((row) => `${row.document_id}|${row.attempt}`));
  return new Set(accepted.filter(({ claim }) => settled.has(`${claim.documentId}|${claim.attempt}`)));
}
