/**
 * The one inbox per connection (issue 34, rule 4): one reader row, one subscription for every flow
 * type, one cursor and one callback route; each event applied once however it comes (a poll, a
 * push, both), a status handed to the invoice that owns its flow and an incoming invoice to the
 * received invoices; the callback paths of the readers before it still answer; migration 0029
 * brings the wave-2 readers and receipts into it without loss.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase } from '../support/scratch-database.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { startCheckedSimulator, type CheckedSimulator } from './support.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../../src/kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../../src/db/sealed-columns.js';
import { signCallback, signatureHeader, signatureTimestampHeader } from '../../src/platform/callback-signature.js';
import { migrateDatabase } from '../../src/db/database.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { inboxOf, type IncomingHandler, type StatusHandler } from '../../src/platform/inbox.js';
import { ownFacturX } from '../received/support.js';
import {
  buyerSiren,
  connectedSeller,
  eventTypes,
  read,
  readyInvoice,
  send,
  startWorld,
  type ConnectedSeller,
  type World,
} from '../deposits/support.js';

let world: World;
let platform: CheckedSimulator;
let seller: ConnectedSeller;
const callbackBase = 'https://api.facteur.test';

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  seller = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
});

const poll = () =>
  pollInbox(world.h.deps, registry.inbox, { companyIds: [seller.companyId], callbackBaseUrl: callbackBase });
const rows = async (query: string) => (await world.h.deps.pool.query(query, [seller.companyId])).rows;
const newPath = () => `/platform-callbacks/${seller.companyId}/test/${seller.establishmentId}`;

/** The reader's signing key, opened. */
async function readerKey(): Promise<string> {
  const [reader] = await rows('select signing_key from platform_readers where company_id = $1');
  return openSecret(
    encryptionKeyOf(world.h.deps.config),
    reader.signing_key,
    sealContext(sealedColumns.platformReaderSigningKey, [seller.companyId, false, seller.establishmentId]),
  );
}

/** Posts a flow to a callback path, signed with `key` at the harness's time. */
function push(path: string, flow: unknown, key: string) {
  const body = JSON.stringify(flow);
  const timestamp = Math.floor(world.h.clock.now().getTime() / 1000);
  return world.h.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json',
      [signatureHeader]: signCallback(body, key, timestamp),
      [signatureTimestampHeader]: String(timestamp),
    },
    payload: body,
  });
}

/** The flows the simulator pushed to the connection's callback URL (unreachable from it here), as it pushed them. */
async function pushedFlows(match: (flow: any) => boolean, count: number): Promise<any[]> {
  let flows: any[] = [];
  for (let i = 0; i < 1200 && flows.length < count; i += 1) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    const pushed = platform.exchanges
      .filter((exchange) => exchange.service === 'callback' && exchange.path === `${callbackBase}${newPath()}`)
      .map((exchange) => exchange.requestBody as any)
      .filter(match);
    flows = [...new Map(pushed.map((flow) => [flow.flowId, flow])).values()];
  }
  return flows.sort((a, b) => Date.parse(a.submittedAt) - Date.parse(b.submittedAt));
}

async function receivedByFlow(flowId: string): Promise<any[]> {
  const listed = await world.h.call('GET', '/v1/received-invoices?limit=100', { key: seller.key });
  return (listed.data.data as any[]).filter((invoice) => invoice.flowId === flowId);
}

/** Up to a minute: the file is read and validated behind the callback's answer, slower on a loaded machine. */
async function untilReceived(flowId: string): Promise<any> {
  for (let i = 0; i < 2400; i += 1) {
    const [found] = await receivedByFlow(flowId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`${flowId} never received`);
}

let invoiceId: string;

test('one reader and one subscription per connection; a status goes to its invoice, an incoming invoice to received', async () => {
  const invoice = await readyInvoice(world, seller);
  invoiceId = invoice.id;
  await send(world, seller, invoice.id);
  await poll();
  await world.deposits.drain();
  const incomingFlow = platform.simulator.deliverIncoming(await ownFacturX({ number: 'F2026-INBOX-0001' }));
  // The platform's five statuses are there (it pushed them): the poll reads them with the incoming invoice.
  assert.equal((await pushedFlows((flow) => flow.flowType === 'CustomerInvoiceLC', 5)).length, 5);
  await pushedFlows((flow) => flow.flowId === incomingFlow, 1);
  await poll();
  const subscriptions = platform.exchanges.filter(
    (exchange) => exchange.method === 'POST' && exchange.path === '/flow-service/v1/webhooks',
  );
  assert.deepEqual(
    subscriptions.map((exchange) => exchange.requestBody),
    [{ callbackUrl: `${callbackBase}${newPath()}`, flowTypes: ['CustomerInvoice', 'CustomerInvoiceLC'] }],
    'one subscription, every flow type, the one callback URL',
  );
  const readers = await rows('select establishment_id, webhook_id, cursor from platform_readers where company_id = $1');
  assert.equal(readers.length, 1, 'one reader');
  assert.ok(readers[0].webhook_id && readers[0].cursor);
  assert.deepEqual(await rows('select * from received_readers where company_id = $1'), [], 'no second reader');
  const searches = platform.exchanges.filter(
    (exchange) => exchange.path === '/flow-service/v1/flows/search' && !(exchange.requestBody as any).where.trackingId,
  );
  assert.ok(
    searches.every((exchange) => !(exchange.requestBody as any).where.flowDirection),
    'one search for every flow, both directions: one cursor',
  );

  // The invoice's five statuses, by their tracking id, to the invoice.
  assert.equal((await read(world, seller, invoice.id)).status, 'approved');
  assert.deepEqual((await eventTypes(world, seller, invoice.id)).slice(-4), [
    'invoice.transmitted',
    'invoice.available',
    'invoice.received',
    'invoice.approved',
  ]);
  // The incoming invoice, once, to the received invoices; its receipt names it.
  const [received] = await receivedByFlow(incomingFlow);
  assert.ok(received, 'received');
  assert.equal(received.establishmentId, seller.establishmentId);
  const receipts = await rows(
    `select event_key, document_id from platform_status_receipts where company_id = $1 and event_key like 'incoming:%'`,
  );
  assert.deepEqual(receipts, [{ event_key: `incoming:${incomingFlow}`, document_id: received.id }]);
});

test('an event delivered by poll and by callback, in either order, is applied once', async () => {
  const key = await readerKey();
  // Polled, then pushed: the invoice's life-cycle flows change nothing more.
  const before = await eventTypes(world, seller, invoiceId);
  const lifecycle = await pushedFlows((flow) => flow.flowType === 'CustomerInvoiceLC', 5);
  assert.equal(lifecycle.length, 5);
  for (const flow of lifecycle) {
    const answer = await push(newPath(), flow, key);
    assert.equal(answer.statusCode, 202, answer.body);
    assert.equal(JSON.parse(answer.body).applied, 0);
  }
  assert.deepEqual(await eventTypes(world, seller, invoiceId), before);

  // Pushed, then pushed again and polled: made once.
  const flowId = platform.simulator.deliverIncoming(await ownFacturX({ number: 'F2026-INBOX-0002' }));
  const [flow] = await pushedFlows((pushed) => pushed.flowId === flowId, 1);
  assert.equal((await push(newPath(), flow, key)).statusCode, 202);
  const received = await untilReceived(flowId);
  assert.equal((await push(newPath(), flow, key)).statusCode, 202);
  assert.equal(await poll(), 0, 'nothing new for the poll');
  assert.equal((await receivedByFlow(flowId)).length, 1);
  const events = await world.h.call('GET', '/v1/events?type=invoice.incoming.received&limit=100', { key: seller.key });
  assert.equal((events.data.data as any[]).filter((event) => event.data.id === received.id).length, 1);

  // Read again from the start (a cursor taken back): every event already has its receipt, no owner is handed one again.
  const handed = { statuses: 0, incoming: 0 };
  const { statuses, incoming, connections } = registry.inbox;
  const countedStatuses: StatusHandler = {
    ownerOf: (db, scope, reference) => statuses[0]!.ownerOf(db, scope, reference),
    apply: async (tx, ctx, ownerId, event) => {
      handed.statuses += 1;
      return statuses[0]!.apply(tx, ctx, ownerId, event);
    },
  };
  const countedIncoming: IncomingHandler = {
    ...incoming!,
    take: async (...args) => {
      handed.incoming += 1;
      return incoming!.take(...args);
    },
  };
  const counted = inboxOf([{ statuses: countedStatuses, incoming: countedIncoming, connections: connections! }]);
  await world.h.deps.pool.query('update platform_readers set cursor = null where company_id = $1', [seller.companyId]);
  assert.equal(await pollInbox(world.h.deps, counted, { companyIds: [seller.companyId] }), 0);
  assert.deepEqual(handed, { statuses: 0, incoming: 0 });
  assert.deepEqual(await eventTypes(world, seller, invoiceId), before);
});

test('the callback paths of the readers before the inbox still answer, each with its subscription key', async () => {
  const key = await readerKey();
  const former = Buffer.alloc(32, 9).toString('base64');
  // A received invoices' subscription of wave 2, as its reader kept it.
  await world.h.deps.pool.query(
    `insert into received_readers (company_id, livemode, establishment_id, connection_key, webhook_id, signing_key, created)
       select company_id, livemode, establishment_id, connection_key, 'wave-2-webhook', $3, now()
       from platform_readers where company_id = $1 and establishment_id = $2`,
    [
      seller.companyId,
      seller.establishmentId,
      sealSecret(
        encryptionKeyOf(world.h.deps.config),
        former,
        sealContext(sealedColumns.receivedReaderSigningKey, [seller.companyId, false, seller.establishmentId]),
      ),
    ],
  );
  const statusesPath = `/platform-callbacks/statuses/${seller.companyId}/test/${seller.establishmentId}`;
  const receivedPath = `/platform-callbacks/received/${seller.companyId}/test/${seller.establishmentId}`;
  const [lifecycle] = await pushedFlows((flow) => flow.flowType === 'CustomerInvoiceLC', 1);
  const statuses = await push(statusesPath, lifecycle, key);
  assert.equal(statuses.statusCode, 202, statuses.body);

  const flowId = platform.simulator.deliverIncoming(await ownFacturX({ number: 'F2026-INBOX-0003' }));
  const [flow] = await pushedFlows((pushed) => pushed.flowId === flowId, 1);
  const forged = await push(receivedPath, flow, Buffer.alloc(32, 1).toString('base64'));
  assert.equal(forged.statusCode, 404, 'signed with no key of the connection');
  const answer = await push(receivedPath, flow, former);
  assert.equal(answer.statusCode, 202, answer.body);
  assert.equal((await untilReceived(flowId)).flowId, flowId);
  assert.equal(
    (await push(newPath(), flow, former)).statusCode,
    202,
    'the one route takes every key of the connection',
  );
  assert.equal((await receivedByFlow(flowId)).length, 1);

  const elsewhere = await push(
    `/platform-callbacks/received/${seller.companyId}/live/${seller.establishmentId}`,
    flow,
    former,
  );
  assert.equal(elsewhere.statusCode, 404, 'another environment has no such connection');
});

// ---- migration 0029 on a database holding wave-2 data -----------------------------------------

const drizzleFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
const cursorOf = (cursor: { after: string | null; page: string | null; latest: string | null }) =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url');
const decoded = (cursor: string | null) =>
  cursor === null ? null : JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));

/** The migrations of wave 2 (up to 0028) in a folder of their own. */
function wave2Migrations(): string {
  const folder = mkdtempSync(join(tmpdir(), 'facteur-wave2-'));
  cpSync(join(drizzleFolder, 'meta'), join(folder, 'meta'), { recursive: true });
  for (const name of readdirSync(drizzleFolder).filter((file) => /^00(0\d|1\d|2[0-8])_.*\.sql$/.test(file)))
    cpSync(join(drizzleFolder, name), join(folder, name));
  const journal = JSON.parse(readFileSync(join(drizzleFolder, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 28);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  return folder;
}

test('migration 0029 moves the wave-2 readers and receipts into the inbox: no cursor skipped, nothing applied twice', async () => {
  const scratch = await createScratchDatabase('facteur_inbox_migration');
  const { pool } = scratch;
  const folder = wave2Migrations();
  try {
    await migrate(drizzle(pool), { migrationsFolder: folder });
    const september = cursorOf({
      after: '2026-09-01T00:00:00.000Z',
      page: 'page-3',
      latest: '2026-09-02T00:00:00.000Z',
    });
    const october = cursorOf({ after: '2026-10-01T00:00:00.000Z', page: null, latest: '2026-10-01T00:00:00.000Z' });
    const november = cursorOf({ after: '2026-11-01T00:00:00.000Z', page: null, latest: '2026-11-01T00:00:00.000Z' });
    // est_both: read by both (the received cursor older); est_received: by the received invoices only;
    // est_deposits: by the deposits only; est_moved: by both, on two connections.
    await pool.query(
      `insert into platform_readers (company_id, livemode, establishment_id, connection_key, cursor, webhook_id, signing_key, created) values
        ('co_w2', true, 'est_both', 'conn-1', $1, 'wh-statuses', 'sealed-statuses', now()),
        ('co_w2', true, 'est_deposits', 'conn-2', $1, null, null, now()),
        ('co_w2', false, 'est_moved', 'conn-old', $2, null, null, now())`,
      [october, november],
    );
    await pool.query(
      `insert into received_readers (company_id, livemode, establishment_id, connection_key, cursor, webhook_id, signing_key, lock_token, locked_until, created) values
        ('co_w2', true, 'est_both', 'conn-1', $1, 'wh-received', 'sealed-received', 'a-pass', now(), now()),
        ('co_w2', true, 'est_received', 'conn-3', $2, 'wh-received-3', 'sealed-received-3', null, null, now()),
        ('co_w2', false, 'est_moved', 'conn-new', $2, null, null, null, null, now())`,
      [september, november],
    );
    await pool.query(
      `insert into platform_status_receipts (company_id, livemode, event_key, document_id, created)
       values ('co_w2', true, 'status:msg-1:F2026-0001:205', 'inv_1', now())`,
    );
    await pool.query(
      `insert into received_invoices (company_id, livemode, id, flow_id, establishment_id, pa_invoice_id, status, syntax,
         number, document, validation_errors, validation_error_count, validators, received_at, created, updated)
       values ('co_w2', true, 'rec_1', 'flow-in-1', 'est_received', 'pa_1', 'received', 'CII', 'A-1', '{}', '[]', 0, '[]', now(), now(), now())`,
    );

    await migrateDatabase(scratch.url);

    const readers = (
      await pool.query(
        `select establishment_id, connection_key, cursor, webhook_id, signing_key from platform_readers
         where company_id = 'co_w2' order by establishment_id`,
      )
    ).rows;
    assert.deepEqual(
      readers.map((row) => ({ ...row, cursor: decoded(row.cursor) })),
      [
        {
          // The older cursor, without the page of the other search: the traversal read again from its start.
          establishment_id: 'est_both',
          connection_key: 'conn-1',
          cursor: { after: '2026-09-01T00:00:00.000Z', page: null, latest: '2026-09-01T00:00:00.000Z' },
          webhook_id: 'wh-statuses',
          signing_key: 'sealed-statuses',
        },
        {
          establishment_id: 'est_deposits',
          connection_key: 'conn-2',
          cursor: decoded(october),
          webhook_id: null,
          signing_key: null,
        },
        {
          // Two connections between them: read from the start, on the latest one.
          establishment_id: 'est_moved',
          connection_key: 'conn-new',
          cursor: null,
          webhook_id: null,
          signing_key: null,
        },
        {
          establishment_id: 'est_received',
          connection_key: 'conn-3',
          cursor: decoded(november),
          webhook_id: null,
          signing_key: null,
        },
      ],
    );
    // The received invoices' subscriptions stay (their path still answers), read no more.
    assert.deepEqual(
      (
        await pool.query(
          `select establishment_id, cursor, webhook_id, signing_key, lock_token from received_readers
           where company_id = 'co_w2' and webhook_id is not null order by establishment_id`,
        )
      ).rows,
      [
        {
          establishment_id: 'est_both',
          cursor: null,
          webhook_id: 'wh-received',
          signing_key: 'sealed-received',
          lock_token: null,
        },
        {
          establishment_id: 'est_received',
          cursor: null,
          webhook_id: 'wh-received-3',
          signing_key: 'sealed-received-3',
          lock_token: null,
        },
      ],
    );
    assert.deepEqual(
      (
        await pool.query(
          `select event_key, document_id from platform_status_receipts where company_id = 'co_w2' order by event_key`,
        )
      ).rows,
      [
        { event_key: 'incoming:flow-in-1', document_id: 'rec_1' },
        { event_key: 'status:msg-1:F2026-0001:205', document_id: 'inv_1' },
      ],
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await scratch.drop();
  }
});
