import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { pollEachReader, type ClaimedReader } from '../db/reader-claim.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../kernel/sealed-secret.js';
import type { PeriodicPass } from '../workers/periodic-passes.js';
import { readPushedFlow } from './afnor-connector.js';
import { failureSummary, type PlatformFlow } from './connector.js';
import type { Inbox, InboxConnection } from './inbox.js';
import { handlePage, handlePushedFlow, type InboxSource } from './inbox-dispatch.js';
import {
  claimInboxReaders,
  ensureInboxReaders,
  inboxReaderOf,
  renewInboxReaders,
  updateInboxReader,
} from './inbox-store.js';

/**
 * The inbox's reader of each connection: one cursor over every flow the service reads (its
 * deposits' acknowledgements and life cycle, the invoices addressed to it), one subscription for
 * all of them, one callback route. Polling reads from the stored cursor, which moves once a page
 * is handed on; a callback hands its flow on at once; both through inbox-dispatch.ts, where an
 * event applies once however often it comes.
 */

type InboxDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'log'>;

export interface InboxPollOptions {
  /** Only these companies' connections. */
  companyIds?: readonly string[] | undefined;
  /** The service's public base (`https://api.example.com`): a reader without a subscription gets one. */
  callbackBaseUrl?: string | null | undefined;
}

/** The one callback URL of a connection (every flow type its subscription pushes). */
export function inboxCallbackUrl(base: string, scope: Scope, establishmentId: string): string {
  return `${base.replace(/\/$/, '')}/platform-callbacks/${encodeURIComponent(scope.companyId)}/${scope.livemode ? 'live' : 'test'}/${encodeURIComponent(establishmentId)}`;
}

const signingKeyContext = (scope: Scope, establishmentId: string) =>
  sealContext(sealedColumns.platformReaderSigningKey, [scope.companyId, scope.livemode, establishmentId]);

const scopeOf = (reader: ClaimedReader): Scope => ({ companyId: reader.companyId, livemode: reader.livemode });

/**
 * The reader on its connection as it is now: a new or changed connection reads its platform from
 * the start, without the subscription of the one before (what was applied stays applied). Null
 * when the lease was lost meanwhile.
 */
async function onConnection(
  deps: InboxDeps,
  inbox: Inbox,
  reader: ClaimedReader,
  connection: InboxConnection,
): Promise<Pick<ClaimedReader, 'cursor' | 'webhookId'> | null> {
  if (connection.connectionKey === reader.connectionKey) return reader;
  const moved = await updateInboxReader(deps.db, reader, {
    connectionKey: connection.connectionKey,
    cursor: null,
    webhookId: null,
    signingKey: null,
  });
  // A connection read before (not a first one) leaves its former subscriptions with it.
  if (moved && reader.connectionKey !== null)
    for (const former of inbox.formerSubscriptions)
      await former.forget(deps.db, scopeOf(reader), reader.establishmentId);
  return moved ? { cursor: null, webhookId: null } : null;
}

/** The connection's one subscription: every flow type the inbox reads, pushed to its one callback URL. */
async function subscribe(deps: InboxDeps, reader: ClaimedReader, connection: InboxConnection, base: string) {
  const scope = scopeOf(reader);
  const subscribed = await connection.connector.subscribe(inboxCallbackUrl(base, scope, reader.establishmentId), {
    retryBudgetMs: 0,
  });
  if (!subscribed.ok) return;
  await updateInboxReader(deps.db, reader, {
    webhookId: subscribed.value.webhookId,
    signingKey: sealSecret(
      encryptionKeyOf(deps.config),
      subscribed.value.signingKey,
      signingKeyContext(scope, reader.establishmentId),
    ),
  });
}

/** One reader polled from its cursor, page by page; what it made or changed. */
async function pollReader(deps: Deps, inbox: Inbox, reader: ClaimedReader, options: InboxPollOptions): Promise<number> {
  const scope = scopeOf(reader);
  const connection = await inbox.connections!.connectionOf(deps, scope, reader.establishmentId);
  if (!connection) {
    await updateInboxReader(deps.db, reader, { lastError: 'pa_not_configured', lastPolledAt: deps.clock.now() }, true);
    return 0;
  }
  const at = await onConnection(deps, inbox, reader, connection);
  if (!at) return 0;
  if (options.callbackBaseUrl && !at.webhookId) await subscribe(deps, reader, connection, options.callbackBaseUrl);
  const source: InboxSource = { scope, establishmentId: reader.establishmentId, connector: connection.connector };
  let { cursor } = at;
  let handled = 0;
  for (let page = 0; page < 50; page += 1) {
    const read = await connection.connector.readLifecycle(cursor, { limit: 100, retryBudgetMs: 0 });
    if (!read.ok) {
      await updateInboxReader(deps.db, reader, { lastError: failureSummary(read).slice(0, 500) });
      break;
    }
    handled += await handlePage(deps, inbox, source, read.value);
    cursor = read.value.cursor;
    // The cursor moves once the page is handed on: a crash reads the page again, applied once anyway.
    if (!(await updateInboxReader(deps.db, reader, { cursor, lastError: null }))) return handled;
    if (!read.value.hasMore) break;
  }
  await updateInboxReader(deps.db, reader, { lastPolledAt: deps.clock.now() }, true);
  return handled;
}

/**
 * The polling pass: every connection (or these companies'), its reader made on its first pass,
 * each leased and read from its cursor. Returns how many events made or changed something.
 */
export async function pollInbox(deps: Deps, inbox: Inbox, options: InboxPollOptions = {}): Promise<number> {
  if (!inbox.connections) return 0;
  await ensureInboxReaders(deps.db, await inbox.connections.connected(deps.db, options.companyIds), deps.clock.now());
  return pollEachReader(deps, {
    claim: (tx, lease, done) => claimInboxReaders(tx, lease, done, options.companyIds),
    renew: renewInboxReaders,
    poll: (reader) => pollReader(deps, inbox, reader, options),
    failed: async (reader, error) => {
      deps.log.warn({ err: error, establishment: reader.establishmentId }, 'platform inbox not polled');
      await updateInboxReader(
        deps.db,
        reader,
        { lastError: String(error).slice(0, 500), lastPolledAt: deps.clock.now() },
        true,
      );
    },
  });
}

/** The pass that reads every connection's inbox (callbacks come at once). */
export function inboxPass(inbox: Inbox): PeriodicPass {
  return {
    name: 'platform.inbox',
    everyMs: 60_000,
    followsSandboxClock: true,
    run: (deps, companyIds) =>
      pollInbox(deps, inbox, {
        companyIds,
        callbackBaseUrl: deps.config.publicUrlSet ? deps.config.publicUrl : null,
      }),
  };
}

/** The keys that sign a connection's callbacks: its one subscription's, and any kept from before. */
async function signingKeysOf(deps: InboxDeps, inbox: Inbox, scope: Scope, establishmentId: string): Promise<string[]> {
  const reader = await inboxReaderOf(deps.db, scope, establishmentId);
  const keys = reader?.signingKey
    ? [openSecret(encryptionKeyOf(deps.config), reader.signingKey, signingKeyContext(scope, establishmentId))]
    : [];
  for (const former of inbox.formerSubscriptions) {
    const key = await former.signingKey(deps, scope, establishmentId);
    if (key) keys.push(key);
  }
  return keys;
}

export type InboxCallbackOutcome =
  | { kind: 'unknown' }
  | { kind: 'refused'; reason: string }
  | { kind: 'accepted'; flow: PlatformFlow; applied: number; taken: Promise<boolean> | null };

/**
 * A callback of a connection's platform: its signature checked against the raw body with the key
 * of a subscription the service made for the connection, then its flow handed on as a poll would.
 */
export async function inboxCallback(
  deps: Deps,
  inbox: Inbox,
  scope: Scope,
  establishmentId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<InboxCallbackOutcome> {
  const keys = await signingKeysOf(deps, inbox, scope, establishmentId);
  if (keys.length === 0 || !inbox.connections) return { kind: 'unknown' };
  const connection = await inbox.connections.connectionOf(deps, scope, establishmentId);
  if (!connection) return { kind: 'unknown' };
  const signedAt = Math.floor(deps.clock.now().getTime() / 1000);
  let pushed = readPushedFlow(rawBody, headers, keys[0]!, signedAt);
  for (const key of keys.slice(1)) if (!pushed.ok) pushed = readPushedFlow(rawBody, headers, key, signedAt);
  if (!pushed.ok) return { kind: 'refused', reason: pushed.reason };
  const flow = pushed.value.flow;
  const source: InboxSource = { scope, establishmentId, connector: connection.connector };
  const outcome = await handlePushedFlow(deps, inbox, source, flow);
  return { kind: 'accepted', flow, ...outcome };
}
