import { and, eq } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { pollEachReader, type ClaimedReader } from '../db/reader-claim.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { later } from '../kernel/clock.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { platformAccess } from '../establishments/platform-access.js';
import { getCompany } from '../companies/service.js';
import { readPushedFlow } from '../platform/afnor-connector.js';
import {
  failureSummary,
  isUnreadableFlowFailure,
  unreadableFlow,
  type LifecycleEvent,
  type UnreadableFlow,
} from '../platform/connector.js';
import { applyPlatformWord } from './einvoicing.js';
import { invoices } from './schema.js';
import { findAnyDocument } from './store.js';
import type { DocumentRow } from './document-record.js';
import {
  claimStatusReaders,
  renewStatusReaders,
  depositByTracking,
  latestDeposit,
  readerOf,
  receiveEvent,
  updateReader,
  type DepositRow,
} from './deposit-store.js';

/**
 * The statuses back from the platform: what it acknowledged of a deposit, and the CDAR life-cycle
 * statuses of the platforms and the buyer. Two ways in, one way to apply them:
 *
 * - polling: a pass over the establishments that deposited (`platform_readers`), each leased,
 *   reading the life cycle from its stored cursor; the cursor moves once a page is applied;
 * - the platform's callback (`/platform-callbacks/statuses/...`), signed with the key of the
 *   subscription the poll made for the connection; its flow's events are read and applied at once.
 *
 * Each event is tied to its document by the deposit's tracking id (else the invoice number) and
 * applied once, whatever the order and repetition of arrival (`platform_status_receipts` on the
 * event's key), through the same function as the sandbox's simulate route.
 */

const contextOf = (scope: Scope, now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

/** The document's deposit an event reports on. */
async function depositOfEvent(db: Executor, scope: Scope, event: LifecycleEvent): Promise<DepositRow | undefined> {
  const trackingId = event.kind === 'acknowledgement' ? event.flow.trackingId : event.trackingId;
  if (trackingId) {
    const found = await depositByTracking(db, scope, trackingId);
    if (found) return found;
  }
  if (event.kind !== 'status' || !event.status.invoiceNumber) return undefined;
  const [document] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, scope.companyId),
        eq(invoices.livemode, scope.livemode),
        eq(invoices.number, event.status.invoiceNumber),
      ),
    );
  return document ? latestDeposit(db, scope, document.id) : undefined;
}

/** Applies one event, once; answers whether it changed anything. */
export async function applyPlatformEvent(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  event: LifecycleEvent,
  now: Date,
): Promise<boolean> {
  if (event.kind === 'acknowledgement' && event.flow.ackStatus !== 'Error') return false;
  const ctx = contextOf(scope, now);
  return inTransaction(deps.db, ctx, async (tx) => {
    const deposit = await depositOfEvent(tx, scope, event);
    if (!(await receiveEvent(tx, scope, event.key, deposit?.documentId ?? null, now))) return false;
    if (!deposit) return false;
    const row = await findAnyDocument(tx, scope, deposit.documentId, true);
    if (!row) return false;
    // A late word on an earlier attempt does not move the current one.
    const latest = await latestDeposit(tx, scope, deposit.documentId);
    if (latest && latest.attempt !== deposit.attempt) return false;
    return (await applyPlatformWord(tx, ctx, row, event, deposit)).changed;
  });
}

/**
 * A life-cycle flow the platform gives unreadable for good (a hostile or broken CDAR, a file over
 * the bound, a flow gone): recorded once, as a receipt under its own `unreadable:` key (tied to
 * its deposit when the flow names one), and logged. The reader then moves past it: one such flow
 * never holds back the statuses after it.
 */
export async function recordUnreadableFlow(
  deps: Pick<Deps, 'db' | 'log'>,
  scope: Scope,
  establishmentId: string,
  unreadable: UnreadableFlow,
  now: Date,
): Promise<void> {
  const { flow, failure } = unreadable;
  const recorded = await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
    const deposit = flow.trackingId ? await depositByTracking(tx, scope, flow.trackingId) : undefined;
    return (await receiveEvent(tx, scope, unreadable.key, deposit?.documentId ?? null, now))
      ? { documentId: deposit?.documentId ?? null }
      : null;
  });
  if (recorded)
    deps.log.warn(
      {
        companyId: scope.companyId,
        establishmentId,
        flowId: flow.flowId,
        documentId: recorded.documentId,
        failure: failureSummary(failure),
        errorCode: failure.errorCode?.slice(0, 64) ?? null,
      },
      'platform life-cycle flow unreadable: recorded and skipped',
    );
}

/**
 * One event of the sandbox's platform applied to its document (locked by the caller, in its
 * transaction, once): the same as a live platform's (einvoicing.ts), without a deposit job to
 * follow a rejection up.
 */
export function applyEventToDocument(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  event: LifecycleEvent,
): Promise<{ row: DocumentRow; changed: boolean }> {
  return applyPlatformWord(tx, ctx, row, event, null);
}

export interface StatusPollOptions {
  /** Only these companies' establishments. */
  companyIds?: readonly string[];
  /** The callback base (`https://api.example.com`): a connection without a subscription gets one. */
  callbackBaseUrl?: string | null;
}

/** The callback URL of an establishment's statuses. */
export function statusCallbackUrl(base: string, scope: Scope, establishmentId: string): string {
  return `${base.replace(/\/$/, '')}/platform-callbacks/statuses/${encodeURIComponent(scope.companyId)}/${scope.livemode ? 'live' : 'test'}/${encodeURIComponent(establishmentId)}`;
}

/** The sandbox clock of a test scope, or real time. */
async function scopeNow(deps: Pick<Deps, 'db' | 'clock'>, scope: Scope): Promise<Date> {
  const now = deps.clock.now();
  if (scope.livemode) return now;
  const company = await getCompany(deps, scope.companyId);
  return new Date(now.getTime() + company.sandboxClockOffsetMs);
}

async function pollReader(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  reader: ClaimedReader,
  options: StatusPollOptions,
): Promise<number> {
  const scope: Scope = { companyId: reader.companyId, livemode: reader.livemode };
  const access = await platformAccess(deps, deps.db, scope, { establishmentId: reader.establishmentId });
  if (access.state !== 'connected') {
    await updateReader(deps.db, reader, { lastError: 'pa_not_configured', lastPolledAt: deps.clock.now() }, true);
    return 0;
  }
  const connector = access.connector;
  // A connection that changed reads its platform from the start (what was applied stays applied).
  let cursor = access.connectionKey === reader.connectionKey ? reader.cursor : null;
  if (options.callbackBaseUrl && !reader.webhookId) {
    const subscribed = await connector.subscribe(
      statusCallbackUrl(options.callbackBaseUrl, scope, reader.establishmentId),
      { retryBudgetMs: 0 },
    );
    if (subscribed.ok)
      await updateReader(deps.db, reader, {
        webhookId: subscribed.value.webhookId,
        signingKey: sealSecret(
          encryptionKeyOf(deps.config),
          subscribed.value.signingKey,
          sealContext(sealedColumns.platformReaderSigningKey, [
            reader.companyId,
            reader.livemode,
            reader.establishmentId,
          ]),
        ),
      });
  }
  let applied = 0;
  for (let page = 0; page < 50; page += 1) {
    const read = await connector.readLifecycle(cursor, { limit: 100, retryBudgetMs: 0 });
    if (!read.ok) {
      await updateReader(deps.db, reader, { lastError: failureSummary(read).slice(0, 500) });
      break;
    }
    const now = await scopeNow(deps, scope);
    // Each event a millisecond after the one before: the events they emit keep the platform's order.
    for (const [index, event] of read.value.events.entries())
      if (await applyPlatformEvent(deps, scope, event, later(now, index))) applied += 1;
    for (const unreadable of read.value.unreadable)
      await recordUnreadableFlow(deps, scope, reader.establishmentId, unreadable, now);
    cursor = read.value.cursor;
    // The cursor moves once the page is applied: a crash reads the page again, applied once anyway.
    if (!(await updateReader(deps.db, reader, { cursor, lastError: null }))) return applied;
    if (!read.value.hasMore) break;
  }
  await updateReader(deps.db, reader, { lastPolledAt: deps.clock.now() }, true);
  return applied;
}

/** The polling pass: every establishment that deposited (or these companies'); returns the events that changed a document. */
export async function pollPlatformStatuses(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  options: StatusPollOptions = {},
): Promise<number> {
  return pollEachReader(deps, {
    claim: (tx, lease, done) => claimStatusReaders(tx, lease, done, options.companyIds),
    renew: renewStatusReaders,
    poll: (reader) => pollReader(deps, reader, options),
    failed: async (reader, error) => {
      deps.log.warn({ err: error, establishment: reader.establishmentId }, 'platform statuses not polled');
      await updateReader(
        deps.db,
        reader,
        { lastError: String(error).slice(0, 500), lastPolledAt: deps.clock.now() },
        true,
      );
    },
  });
}

export type StatusCallbackOutcome =
  { kind: 'unknown' } | { kind: 'refused'; reason: string } | { kind: 'accepted'; applied: number };

/**
 * A callback of an establishment's platform: its signature checked with the subscription's key,
 * then the pushed flow's events read (a life-cycle flow's CDAR downloaded) and applied once.
 */
export async function statusCallback(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  scope: Scope,
  establishmentId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<StatusCallbackOutcome> {
  const reader = await readerOf(deps.db, scope, establishmentId);
  if (!reader?.signingKey) return { kind: 'unknown' };
  const access = await platformAccess(deps, deps.db, scope, { establishmentId });
  if (access.state !== 'connected') return { kind: 'unknown' };
  const signingKey = openSecret(
    encryptionKeyOf(deps.config),
    reader.signingKey,
    sealContext(sealedColumns.platformReaderSigningKey, [scope.companyId, scope.livemode, establishmentId]),
  );
  const pushed = readPushedFlow(rawBody, headers, signingKey, Math.floor(deps.clock.now().getTime() / 1000));
  if (!pushed.ok) return { kind: 'refused', reason: pushed.reason };
  const events = await access.connector.eventsOfFlow(pushed.value.flow, { retryBudgetMs: 0 });
  if (!events.ok && isUnreadableFlowFailure(events)) {
    // Pushed again, it would be as unreadable: recorded as the poll records it, and taken.
    const unreadable = unreadableFlow(pushed.value.flow, events);
    await recordUnreadableFlow(deps, scope, establishmentId, unreadable, await scopeNow(deps, scope));
    return { kind: 'accepted', applied: 0 };
  }
  if (!events.ok) throw new Error(`the platform did not give flow ${pushed.value.flow.flowId}: ${events.message}`);
  const now = await scopeNow(deps, scope);
  let applied = 0;
  for (const [index, event] of events.value.entries())
    if (await applyPlatformEvent(deps, scope, event, later(now, index))) applied += 1;
  return { kind: 'accepted', applied };
}
