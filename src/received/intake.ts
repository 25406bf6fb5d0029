import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { pollEachReader, type ClaimedReader } from '../db/reader-claim.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { connectedEstablishments } from '../establishments/service.js';
import { platformAccess } from '../establishments/platform-access.js';
import { readPushedFlow } from '../platform/afnor-connector.js';
import {
  failureSummary,
  isUnreadableFlowFailure,
  type PlatformConnector,
  type PlatformFlow,
} from '../platform/connector.js';
import {
  claimReceivedReaders,
  ensureReceivedReaders,
  receivedReaderOf,
  renewReceivedReaders,
  updateReceivedReader,
} from './reader-store.js';
import { ingestReceivedInvoice, platformContext, receivedFlowKnown } from './service.js';

/**
 * The two ways an invoice flow reaches the service from an establishment's platform connection
 * (live, or a test establishment pointed at a `pa-simulator`): the platform's signed callback,
 * and a polling pass from the establishment's stored cursor (`received_readers`). Either may see
 * a flow the other already took (or the same push twice): ingestion is keyed on the flow id, so
 * each invoice is made once. A test establishment without a connection is the sandbox's: its
 * invoices come by `POST /v1/received-invoices`.
 */

const isIncomingInvoice = (flow: PlatformFlow) => flow.flowDirection === 'In' && flow.flowType === 'CustomerInvoice';

interface Receiver {
  scope: Scope;
  establishmentId: string;
  connector: PlatformConnector;
}

async function takeFlow(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  receiver: Receiver,
  flow: PlatformFlow,
): Promise<boolean> {
  if (await receivedFlowKnown(deps, receiver.scope, flow.flowId)) return false;
  const download = await receiver.connector.downloadFlow(flow.flowId, { retryBudgetMs: 0 });
  // A passing failure is read again at the next pass; a permanent one (over the bound, gone) is
  // kept flagged, as an unreadable file is: it would otherwise hold the cursor forever.
  if (!download.ok && !isUnreadableFlowFailure(download))
    throw new Error(`the platform did not give flow ${flow.flowId}: ${download.message}`);
  const result = await ingestReceivedInvoice(deps, platformContext(receiver.scope, deps.clock.now()), {
    flowId: flow.flowId,
    bytes: download.ok ? download.value : new Uint8Array(0),
    name: flow.name || null,
    establishmentId: receiver.establishmentId,
    ...(download.ok ? {} : { notTaken: `the platform's file could not be taken: ${download.message}` }),
  });
  return result.created;
}

/** The callback URL of an establishment's received invoices. */
export function receivedCallbackUrl(base: string, scope: Scope, establishmentId: string): string {
  return `${base.replace(/\/$/, '')}/platform-callbacks/received/${encodeURIComponent(scope.companyId)}/${scope.livemode ? 'live' : 'test'}/${encodeURIComponent(establishmentId)}`;
}

export type CallbackOutcome =
  | { kind: 'unknown' }
  | { kind: 'refused'; reason: string }
  | { kind: 'accepted'; flow: PlatformFlow; taken: Promise<boolean> | null };

/**
 * A callback of an establishment's platform: its signature checked against the raw body with the
 * subscription's key, then, for an incoming invoice flow, the file fetched and ingested. The
 * ingestion is handed back unawaited: the platform gets its answer at once (it waits a few seconds
 * at most), and a callback whose ingestion fails is caught by the next polling pass.
 */
export async function platformCallback(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  scope: Scope,
  establishmentId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<CallbackOutcome> {
  const reader = await receivedReaderOf(deps.db, scope, establishmentId);
  if (!reader?.signingKey) return { kind: 'unknown' };
  const access = await platformAccess(deps, deps.db, scope, { establishmentId });
  if (access.state !== 'connected') return { kind: 'unknown' };
  const signingKey = openSecret(
    encryptionKeyOf(deps.config),
    reader.signingKey,
    sealContext(sealedColumns.receivedReaderSigningKey, [scope.companyId, scope.livemode, establishmentId]),
  );
  const pushed = readPushedFlow(rawBody, headers, signingKey, Math.floor(deps.clock.now().getTime() / 1000));
  if (!pushed.ok) return { kind: 'refused', reason: pushed.reason };
  const flow = pushed.value.flow;
  if (!isIncomingInvoice(flow)) return { kind: 'accepted', flow, taken: null };
  const taken = takeFlow(deps, { scope, establishmentId, connector: access.connector }, flow);
  taken.catch((error: unknown) =>
    deps.log.warn(
      { err: error, companyId: scope.companyId, establishmentId, flowId: flow.flowId },
      'received invoice callback not ingested; polling will',
    ),
  );
  return { kind: 'accepted', flow, taken };
}

export interface ReceivedPollOptions {
  /** Only these companies' establishments. */
  companyIds?: readonly string[] | undefined;
  /** The service's public base (`https://api.example.com`): a reader without a subscription gets one. */
  callbackBaseUrl?: string | null | undefined;
}

async function pollReader(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  reader: ClaimedReader,
  options: ReceivedPollOptions,
): Promise<number> {
  const scope: Scope = { companyId: reader.companyId, livemode: reader.livemode };
  const access = await platformAccess(deps, deps.db, scope, { establishmentId: reader.establishmentId });
  if (access.state !== 'connected') {
    await updateReceivedReader(
      deps.db,
      reader,
      { lastError: 'pa_not_configured', lastPolledAt: deps.clock.now() },
      true,
    );
    return 0;
  }
  let { cursor, webhookId } = reader;
  if (access.connectionKey !== reader.connectionKey) {
    // A new or changed connection reads its platform from the start (what was made stays made).
    cursor = null;
    webhookId = null;
    const moved = await updateReceivedReader(deps.db, reader, {
      connectionKey: access.connectionKey,
      cursor,
      webhookId,
      signingKey: null,
    });
    if (!moved) return 0;
  }
  if (options.callbackBaseUrl && !webhookId) {
    const subscribed = await access.connector.subscribe(
      receivedCallbackUrl(options.callbackBaseUrl, scope, reader.establishmentId),
      { flowTypes: ['CustomerInvoice'], flowDirection: 'In', retryBudgetMs: 0 },
    );
    if (subscribed.ok)
      await updateReceivedReader(deps.db, reader, {
        webhookId: subscribed.value.webhookId,
        signingKey: sealSecret(
          encryptionKeyOf(deps.config),
          subscribed.value.signingKey,
          sealContext(sealedColumns.receivedReaderSigningKey, [
            reader.companyId,
            reader.livemode,
            reader.establishmentId,
          ]),
        ),
      });
  }
  const receiver: Receiver = { scope, establishmentId: reader.establishmentId, connector: access.connector };
  let made = 0;
  for (let page = 0; page < 50; page += 1) {
    const listed = await access.connector.listIncoming(cursor, { retryBudgetMs: 0 });
    if (!listed.ok) {
      await updateReceivedReader(deps.db, reader, {
        lastError: failureSummary(listed).slice(0, 500),
      });
      break;
    }
    for (const flow of listed.value.flows.filter(isIncomingInvoice))
      if (await takeFlow(deps, receiver, flow)) made += 1;
    cursor = listed.value.cursor;
    // The cursor moves once the page is ingested: a failure reads the page again next time.
    if (!(await updateReceivedReader(deps.db, reader, { cursor, lastError: null }))) return made;
    if (!listed.value.hasMore) break;
  }
  await updateReceivedReader(deps.db, reader, { lastPolledAt: deps.clock.now() }, true);
  return made;
}

/**
 * The polling pass: every establishment connected to a platform (or these companies'), each
 * leased and read from its stored cursor. Returns how many invoices it made.
 */
export async function pollReceivedInvoices(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  options: ReceivedPollOptions = {},
): Promise<number> {
  await ensureReceivedReaders(deps.db, await connectedEstablishments(deps.db, options.companyIds), deps.clock.now());
  return pollEachReader(deps, {
    claim: (tx, lease, done) => claimReceivedReaders(tx, lease, done, options.companyIds),
    renew: renewReceivedReaders,
    poll: (reader) => pollReader(deps, reader, options),
    failed: async (reader, error) => {
      deps.log.warn({ err: error, establishment: reader.establishmentId }, 'received invoices not polled');
      await updateReceivedReader(
        deps.db,
        reader,
        { lastError: String(error).slice(0, 500), lastPolledAt: deps.clock.now() },
        true,
      );
    },
  });
}
