import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { readPushedFlow } from '../platform/afnor-connector.js';
import type { PlatformFlow } from '../platform/connector.js';
import { platformFor, polledCompanies, type AttachedPlatform } from './platform-link.js';
import { ingestReceivedInvoice, platformContext, receivedFlowKnown } from './service.js';

/**
 * The two ways an invoice flow reaches the service: the platform's signed callback, and a polling
 * pass over the flows received since the last one. Either may see a flow the other already took
 * (or the same push twice): ingestion is keyed on the flow id, so each invoice is made once.
 */

const isIncomingInvoice = (flow: PlatformFlow) => flow.flowDirection === 'In' && flow.flowType === 'CustomerInvoice';

async function takeFlow(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  scope: Scope,
  attached: AttachedPlatform,
  flow: PlatformFlow,
): Promise<boolean> {
  if (await receivedFlowKnown(deps, scope, flow.flowId)) return false;
  const file = await attachedDownload(attached, flow.flowId);
  const result = await ingestReceivedInvoice(deps, platformContext(scope, deps.clock.now()), {
    flowId: flow.flowId,
    bytes: file,
    name: flow.name || null,
  });
  return result.created;
}

async function attachedDownload(attached: AttachedPlatform, flowId: string): Promise<Buffer> {
  const download = await attached.platform.downloadFlow(flowId);
  if (!download.ok) throw new Error(`the platform did not give flow ${flowId}: ${download.message}`);
  return download.value;
}

export type CallbackOutcome =
  | { kind: 'unknown' }
  | { kind: 'refused'; reason: string }
  | { kind: 'accepted'; flow: PlatformFlow; taken: Promise<boolean> | null };

/**
 * A callback of a test company's platform: its signature checked against the raw body, then, for an
 * incoming invoice flow, the file fetched and ingested. The ingestion is handed back unawaited: the
 * platform gets its answer at once (it waits a few seconds at most), and a callback whose ingestion
 * fails is caught by the next polling pass.
 */
export function platformCallback(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  companyId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): CallbackOutcome {
  const scope: Scope = { companyId, livemode: false };
  const link = platformFor(scope);
  if (link.kind !== 'platform' || !link.attached.signingKey) return { kind: 'unknown' };
  const pushed = readPushedFlow(
    rawBody,
    headers,
    link.attached.signingKey,
    Math.floor(deps.clock.now().getTime() / 1000),
  );
  if (!pushed.ok) return { kind: 'refused', reason: pushed.reason };
  const flow = pushed.value.flow;
  if (!isIncomingInvoice(flow)) return { kind: 'accepted', flow, taken: null };
  const taken = takeFlow(deps, scope, link.attached, flow);
  taken.catch((error: unknown) =>
    deps.log.warn(
      { err: error, companyId, flowId: flow.flowId },
      'received invoice callback not ingested; polling will',
    ),
  );
  return { kind: 'accepted', flow, taken };
}

/**
 * The polling pass: for each test company with an attached platform (live connections come with
 * issue 15), the invoice flows received since its cursor, each ingested once. Returns how many
 * invoices it made.
 */
export async function pollReceivedInvoices(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>,
  companyIds?: string[],
): Promise<number> {
  let made = 0;
  for (const companyId of polledCompanies()) {
    if (companyIds && !companyIds.includes(companyId)) continue;
    const scope: Scope = { companyId, livemode: false };
    const link = platformFor(scope);
    if (link.kind !== 'platform') continue;
    const attached = link.attached;
    for (let page = 0; page < 100; page += 1) {
      const listed = await attached.platform.listIncoming(attached.cursor);
      if (!listed.ok) {
        deps.log.warn({ companyId, error: listed.message }, 'received invoices not polled: the platform failed');
        break;
      }
      for (const flow of listed.value.flows.filter(isIncomingInvoice))
        if (await takeFlow(deps, scope, attached, flow)) made += 1;
      // The cursor moves once the page is ingested: a failure reads the page again next time.
      attached.cursor = listed.value.cursor;
      if (!listed.value.hasMore) break;
    }
  }
  return made;
}
