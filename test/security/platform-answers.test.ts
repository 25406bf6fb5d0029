/**
 * Issue #35, follow-up of the hostile received files: what the platform answers is untrusted too.
 * A life-cycle message (CDAR) that declares a DOCTYPE (an entity bomb, an external DTD) is refused
 * before any parser, as `CDAR_UNREADABLE`; an answer over its bound is cut off and fails for good;
 * one unreadable life-cycle flow is recorded and skipped, never holding back the statuses after it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AfnorConnector, maxFlowFileBytes, maxJsonAnswerBytes } from '../../src/platform/afnor-connector.js';
import { buildCdarMessage, CdarParseError, parseCdarMessage } from '../../src/platform/cdar.js';
import type { LifecyclePage, PlatformFailure, PlatformResult } from '../../src/platform/connector.js';
import { maxIncomingPdfBytes } from '../../src/received/incoming-file.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { ciiFile, invoiceNumber, startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import {
  buyerSiren,
  connectedSeller,
  read,
  readyInvoice,
  send,
  startWorld,
  type ConnectedSeller,
  type World,
} from '../deposits/support.js';

/** A valid CDAR (status 204 of invoice F-1) with `doctype` before its root element, and this note. */
function cdarWith(doctype: string, note = 'vu'): string {
  const cdar = buildCdarMessage({
    messageId: `LC-hostile-${Math.random()}`,
    issuedAt: new Date('2026-10-15T10:00:00Z'),
    status: '204',
    invoice: { number: 'F-1', issueDate: '2026-10-01', sellerSiren: '100000009' },
    issuer: { role: 'BY', siren: buyerSiren },
    recipient: { siren: '100000009', electronicAddress: '100000009' },
    notes: [note],
  });
  return cdar.replace('?>', `?>${doctype}`);
}

/** The billion laughs: nine levels of ten, a note that would expand to a gigabyte. */
const entityBomb = cdarWith(
  `<!DOCTYPE rsm:CrossDomainAcknowledgementAndResponse [<!ENTITY lol0 "lol">${Array.from(
    { length: 9 },
    (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
  ).join('')}]>`,
  'PLACEHOLDER',
).replace('PLACEHOLDER', '&lol9;');

/** An external DTD: a file (or a URL) a parser would fetch. */
const externalDtd = cdarWith('<!DOCTYPE rsm:CrossDomainAcknowledgementAndResponse SYSTEM "file:///etc/passwd">');

const refusedDoctype = /DOCTYPE \(entities or an external DTD\): refused, never expanded/;

function failed<T>(result: PlatformResult<T>): PlatformFailure {
  if (result.ok) assert.fail(`the call succeeded: ${JSON.stringify(result.value).slice(0, 200)}`);
  return result;
}

function ok<T>(result: PlatformResult<T>): T {
  if (!result.ok) assert.fail(`the call failed: ${JSON.stringify(result)}`);
  return result.value;
}

describe('a CDAR that declares a DOCTYPE is refused before any parser', () => {
  let platform: CheckedSimulator;
  before(async () => {
    platform = await startCheckedSimulator();
  });
  after(() => platform.stop());

  test('the reader refuses the entity bomb and the external DTD; the same message without them reads', () => {
    assert.equal(parseCdarMessage(cdarWith(''))[0]!.statusCode, '204', 'the message itself is valid');
    for (const hostile of [entityBomb, externalDtd])
      assert.throws(
        () => parseCdarMessage(hostile),
        (error: unknown) => error instanceof CdarParseError && refusedDoctype.test(error.message),
      );
  });

  test('a life-cycle flow carrying either fails as CDAR_UNREADABLE, permanent; the poll skips it', async () => {
    const connector = platform.connector();
    const number = invoiceNumber();
    const trackingId = `trk-${number}`;
    platform.simulator.script(number, { outcome: 'deposited' });
    ok(await connector.deposit({ file: ciiFile(number), name: `${number}.xml`, syntax: 'CII', trackingId }));
    const clientId = platform.simulator.clients[0]!.clientId;
    for (const hostile of [entityBomb, externalDtd]) {
      const flowId = platform.simulator.reportRaw(clientId, trackingId, Buffer.from(hostile));
      const flow = ok(await connector.getFlow(flowId));
      const failure = failed(await connector.eventsOfFlow(flow));
      assert.deepEqual(
        [failure.errorCode, failure.rule, failure.retryAt, failure.category],
        ['CDAR_UNREADABLE', 'permanent', null, 'platform_unavailable'],
      );
      assert.match(failure.message, refusedDoctype, 'refused before the parser: never expanded nor fetched');
    }
    // Read by polling: the hostile flows are set aside, the page (and its cursor) still comes.
    let cursor: string | null = null;
    const unreadable: string[] = [];
    for (;;) {
      const page: LifecyclePage = ok(await connector.readLifecycle(cursor, { limit: 100 }));
      unreadable.push(...page.unreadable.filter((entry) => entry.flow.trackingId === trackingId).map((e) => e.key));
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    assert.equal(unreadable.length, 2);
  });
});

/**
 * A platform that answers its token, then `answer` for every other call; for each answer, whether
 * the client hung up before the whole of it was written.
 */
async function answeringPlatform(
  answer: (res: ServerResponse) => Promise<void>,
): Promise<{ url: string; server: Server; cutOff: () => boolean[] }> {
  const cutOff: boolean[] = [];
  const server = createServer(
    {
      cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
      key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      req.on('error', () => {});
      res.on('error', () => {});
      req.resume();
      if (req.url?.includes('/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      res.on('close', () => cutOff.push(!res.writableFinished));
      void answer(res);
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `https://localhost:${(server.address() as AddressInfo).port}`, server, cutOff: () => cutOff };
}

/** Writes `total` bytes in 1 MiB chunks, as fast as the client reads; stops when it hangs up. Does not end. */
async function writeUpTo(res: ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  for (let written = 0; written < total && !res.destroyed;) {
    const part = chunk.subarray(0, Math.min(chunk.length, total - written));
    written += part.length;
    if (!res.write(part)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
}

const connection = (url: string) => ({ baseUrl: url, clientId: 'erp', clientSecret: 'secret' });

describe('an answer over its bound is cut off and fails for good', () => {
  test('the receiving side keeps the received-invoice PDF limit', () => {
    assert.equal(maxFlowFileBytes, maxIncomingPdfBytes);
    assert.ok(maxJsonAnswerBytes < maxFlowFileBytes);
  });

  test('a JSON answer streamed past its bound: reading stops there, the call fails as classified', async () => {
    const total = 16 * maxJsonAnswerBytes;
    const platformAt = await answeringPlatform(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeUpTo(res, total);
      if (!res.destroyed) res.end();
    });
    const connector = new AfnorConnector({ connection: connection(platformAt.url), sleep: async () => {} });
    try {
      const failure = failed(await connector.findDeposit('trk-any'));
      assert.deepEqual(
        [failure.errorCode, failure.rule, failure.retryAt, failure.attempts, failure.category],
        ['ANSWER_TOO_LARGE', 'permanent', null, 1, 'platform_unavailable'],
      );
      assert.equal(failure.message, `the platform's answer is over ${maxJsonAnswerBytes} bytes`);
      // The server saw the connection closed before it had written its answer: nothing more was read.
      await waitFor(() => platformAt.cutOff().length === 1);
      assert.deepEqual(platformAt.cutOff(), [true]);
    } finally {
      await connector.close();
      platformAt.server.closeAllConnections();
      platformAt.server.close();
    }
  });

  test('a flow file declared over its bound (Content-Length) is refused before its body is read', async () => {
    const declared = maxFlowFileBytes + 1;
    // A header, a first kilobyte, then nothing: only the header can tell (a read would wait for the rest).
    const platformAt = await answeringPlatform(async (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(declared) });
      await writeUpTo(res, 1024);
    });
    const connector = new AfnorConnector({
      connection: connection(platformAt.url),
      sleep: async () => {},
      requestTimeoutMs: 1_000,
    });
    try {
      const failure = failed(await connector.downloadFlow('flow-1'));
      assert.deepEqual(
        [failure.errorCode, failure.rule, failure.retryAt, failure.attempts],
        ['ANSWER_TOO_LARGE', 'permanent', null, 1],
      );
      assert.equal(failure.message, `the platform's answer is over ${maxFlowFileBytes} bytes`);
      await waitFor(() => platformAt.cutOff().length === 1);
      assert.deepEqual(platformAt.cutOff(), [true]);
    } finally {
      await connector.close();
      platformAt.server.closeAllConnections();
      platformAt.server.close();
    }
  });
});

/** Polls a condition the other side reaches on its own (its socket's close): at most 10 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) assert.fail('the condition was not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the status reader moves past an unreadable life-cycle flow', () => {
  let platform: CheckedSimulator;
  let world: World;
  let seller: ConnectedSeller;
  before(async () => {
    platform = await startCheckedSimulator();
    world = await startWorld();
    seller = await connectedSeller(world, platform);
    platform.simulator.seedDirectory([{ siren: buyerSiren }]);
  });
  after(async () => {
    await platform.stop();
    await world.close();
  });

  test('the hostile flow is recorded once (receipt, log), the valid status after it applied, the cursor moved', async () => {
    const invoice = await readyInvoice(world, seller);
    platform.simulator.script(invoice.number, { outcome: 'deposited' });
    await send(world, seller, invoice.id);
    assert.equal(await world.deposits.drain(), 1);
    await world.poll();
    assert.notEqual((await read(world, seller, invoice.id)).status, 'approved');

    const clientId = platform.simulator.clients[0]!.clientId;
    const trackingId = `${invoice.id}-a1`;
    const hostile = platform.simulator.reportRaw(clientId, trackingId, Buffer.from(entityBomb));
    platform.simulator.report(clientId, trackingId, { status: '205' });

    const warnings: { flowId?: string; errorCode?: string }[] = [];
    const log = world.h.deps.log;
    const warn = log.warn.bind(log);
    log.warn = ((object: unknown, ...rest: unknown[]) => {
      if (typeof object === 'object' && object && 'flowId' in object) warnings.push(object as never);
      return (warn as (...args: unknown[]) => void)(object, ...rest);
    }) as typeof log.warn;
    try {
      assert.ok((await world.poll()) > 0, 'the status after the hostile flow is applied');
      assert.equal((await read(world, seller, invoice.id)).status, 'approved');
      const { rows: readers } = await world.h.deps.pool.query(
        'select cursor, last_error from platform_readers where company_id = $1',
        [seller.companyId],
      );
      assert.deepEqual(
        readers.map((row) => row.last_error),
        [null],
      );
      const receipts = async () =>
        (
          await world.h.deps.pool.query(
            "select event_key, document_id from platform_status_receipts where company_id = $1 and event_key like 'unreadable:%'",
            [seller.companyId],
          )
        ).rows;
      assert.deepEqual(
        (await receipts()).map((row) => [row.event_key.split(':')[1], row.document_id]),
        [[hostile, invoice.id]],
      );
      assert.deepEqual(
        warnings.map((entry) => [entry.flowId, entry.errorCode]),
        [[hostile, 'CDAR_UNREADABLE']],
      );

      assert.equal(await world.poll(), 0, 'read again: nothing applied twice');
      assert.equal((await receipts()).length, 1);
      assert.equal(warnings.length, 1, 'recorded once');
    } finally {
      log.warn = warn;
    }
  });

  test('the received-invoice reader keeps a file over the bound flagged, and takes the one after it', async () => {
    const huge = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(maxFlowFileBytes)]);
    const oversized = platform.simulator.deliverIncoming(huge, { name: 'huge.pdf' });
    const next = platform.simulator.deliverIncoming(ciiFile(invoiceNumber()), { name: 'next.xml' });
    assert.equal(await pollInbox(world.h.deps, registry.inbox, { companyIds: [seller.companyId] }), 2);
    const listed = await world.h.call('GET', '/v1/received-invoices?limit=100', { key: seller.key });
    const byFlow = new Map((listed.data.data as any[]).map((invoice) => [invoice.flowId, invoice]));
    assert.ok(byFlow.get(next), 'the flow after the oversized one is taken');
    const kept = byFlow.get(oversized);
    assert.deepEqual([kept?.syntax, kept?.conformant], ['unknown', false]);
    assert.match(JSON.stringify(kept.validationErrors), /over 52428800 bytes/);
    // No empty original stands in for the file never taken: its download says why.
    const original = await world.h.call('GET', `/v1/received-invoices/${kept.id}/files/original`, { key: seller.key });
    assert.equal(original.statusCode, 400, original.body);
    assert.equal(original.data.error.code, 'not_supported');
  });
});
