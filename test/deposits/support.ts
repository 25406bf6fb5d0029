import assert from 'node:assert/strict';
import { startHarness, type Harness, type HarnessOptions } from '../support/harness.js';
import { customer, finalizedInvoice, frenchBuyer, seller } from '../invoices/support.js';
import { createFileWorker, type FileWorker } from '../../src/invoices/generation.js';
import type { OutboxWorker } from '../../src/platform/service.js';
import { depositWorkerOf, type DepositWorkerOptions } from './support/deposit-worker.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { testCacheDir } from '../einvoice/support.js';
import type { CheckedSimulator } from '../platform/support.js';

/**
 * The deposit tests' world: a harness whose calls move its clock a second each (as the document
 * tests'), one file worker and one deposit worker for the test's companies, and a company whose
 * head office is connected to a pa-simulator over HTTPS.
 */

/** A buyer the French rules accept as a B2B recipient: its electronic address starts with its SIREN (BR-FR-21). */
export const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };
export const buyerSiren = '732829320';
export const sellerSiret = '10000000900017';

export interface World {
  h: Harness;
  companyIds: string[];
  files: FileWorker;
  deposits: OutboxWorker;
  /** Another deposit worker (its own options) for the same companies. */
  depositWorker(options?: DepositWorkerOptions): OutboxWorker;
  poll(): Promise<number>;
  close(): Promise<void>;
}

export async function startWorld(options: HarnessOptions = {}): Promise<World> {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z', ...options });
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };
  const companyIds: string[] = [];
  const files = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  const depositWorker = (options: DepositWorkerOptions = {}) =>
    depositWorkerOf(h.deps, { companyIds, retryBudgetMs: 0, filesWaitMs: 60_000, ...options });
  const deposits = depositWorker();
  return {
    h,
    companyIds,
    files,
    deposits,
    depositWorker,
    poll: () => pollInbox(h.deps, registry.inbox, { companyIds }),
    async close() {
      await files.stop();
      await h.close();
    },
  };
}

export interface ConnectedSeller {
  companyId: string;
  key: string;
  establishmentId: string;
  customerId: string;
}

/**
 * A test company whose head office deposits on the simulator (or has it connected, deposits off),
 * connected through the API (`POST /v1/establishments/:id` with `platform`, tried against it: the
 * seller's SIRET is listed in its directory first).
 */
export async function connectedSeller(
  world: World,
  platform: CheckedSimulator,
  options: { depositEnabled?: boolean } = {},
): Promise<ConnectedSeller> {
  const { h } = world;
  const { companyId, key } = await seller(h);
  world.companyIds.push(companyId);
  const establishmentId = await connectHeadOffice(h, key, platform, options);
  return { companyId, key, establishmentId, customerId: await customer(h, key, addressedBuyer) };
}

/**
 * Connects the seller's head office (its key's environment) to the simulator through the API, the
 * SIRET listed in the simulator's directory first (the connection is tried against it).
 */
export async function connectHeadOffice(
  h: Harness,
  key: string,
  platform: CheckedSimulator,
  options: { depositEnabled?: boolean } = {},
): Promise<string> {
  const listed = await h.call('GET', '/v1/establishments', { key });
  const head = (listed.data.data as any[]).find((establishment) => establishment.siret === sellerSiret);
  assert.ok(head, 'the head office exists');
  platform.simulator.seedDirectory([{ siren: sellerSiret.slice(0, 9), siret: sellerSiret }]);
  const connected = await h.call('POST', `/v1/establishments/${head.id}`, {
    key,
    body: {
      platform: { baseUrl: platform.url, ...platform.simulator.clients[0]! },
      depositEnabled: options.depositEnabled ?? true,
    },
  });
  assert.equal(connected.statusCode, 200, connected.body);
  return head.id as string;
}

/** A finalized invoice of that seller to the addressed buyer, its files generated. */
export async function readyInvoice(world: World, seller: ConnectedSeller): Promise<any> {
  const invoice = await finalizedInvoice(world.h, seller.key, { customerId: seller.customerId });
  await world.files.drain();
  return invoice;
}

export async function send(world: World, seller: ConnectedSeller, id: string): Promise<any> {
  const response = await world.h.call('POST', `/v1/invoices/${id}/send`, { key: seller.key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

export async function read(world: World, seller: ConnectedSeller, id: string): Promise<any> {
  const response = await world.h.call('GET', `/v1/invoices/${id}`, { key: seller.key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

/** The document's events, oldest first: type and summary. */
/** The events of a document after its finalization, oldest first. */
export async function documentEvents(world: World, seller: ConnectedSeller, id: string): Promise<any[]> {
  const response = await world.h.call('GET', '/v1/events?limit=100', { key: seller.key });
  return (response.data.data as any[])
    .filter((event) => event.data.id === id && event.type !== 'invoice.created' && event.type !== 'invoice.finalized')
    .reverse();
}

export async function eventTypes(world: World, seller: ConnectedSeller, id: string): Promise<string[]> {
  return (await documentEvents(world, seller, id)).map((event) => event.type);
}

/**
 * The deposit flows of a document, by attempt (the outbox's `invoices.deposit` flows), in the
 * states the deposit jobs had: a pending flow whose document watches the directory is
 * `waiting_directory`, a failed one `rejected`; one withdrawn for a newer attempt is `abandoned`.
 */
export async function depositRows(world: World, companyId: string, documentId: string) {
  const { rows } = await world.h.deps.pool.query(
    `select (f.detail->>'attempt')::int as attempt,
        case f.state when 'failed' then 'rejected'
          when 'pending' then case when i.transmission_status = 'rejected' and i.einvoicing->>'paTrackingId' = f.tracking_id
            and coalesce(i.einvoicing->'depositWait', 'null'::jsonb) <> 'null'::jsonb then 'waiting_directory' else 'pending' end
          else f.state end as state,
        f.tries, f.tracking_id, f.flow_id, f.last_error,
        case when f.state = 'pending' then f.next_attempt_at end as next_attempt_at
      from platform_flows f
      left join invoices i on i.company_id = f.company_id and i.livemode = f.livemode and i.id = f.owner_id
      where f.company_id = $1 and f.owner_id = $2 and f.kind = 'invoices.deposit' order by 1`,
    [companyId, documentId],
  );
  return rows as {
    attempt: number;
    state: string;
    tries: number;
    tracking_id: string;
    flow_id: string | null;
    last_error: string | null;
    next_attempt_at: Date | null;
  }[];
}
