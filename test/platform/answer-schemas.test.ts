/**
 * What the platform answers is read through the AFNOR response schemas: an answer that is not
 * JSON, or breaks its operation's schema (a field missing, of the wrong type, an empty id), is a
 * classified failure naming the operation and the first problem, retried as a gateway's 502;
 * never an empty id further on, and never the body echoed back. Each call of the connector against
 * a fake platform over HTTPS that answers one malformed body.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AfnorConnector } from '../../src/platform/afnor-connector.js';
import { readAnswer } from '../../src/platform/answer-schemas.js';
import type { PlatformFailure, PlatformResult } from '../../src/platform/connector.js';
import { serverErrorDelaysMs } from '../../src/platform/retry-policy.js';

interface Reply {
  status: number;
  /** Default `application/json`. */
  type?: string;
  /** Sent as is when a string, else as JSON. */
  body: unknown;
}

/** What the platform says of itself in a malformed answer: it must never reach a failure's message. */
const banner = 'BANNER-nginx-admin-console';
const html = (status: number): Reply => ({
  status,
  type: 'text/html; charset=utf-8',
  body: `<html><body>${banner}</body></html>`,
});

/** A `Flow` as the Flow Service document requires it. */
const flow = (overrides: Record<string, unknown> = {}) => ({
  flowId: 'flow-1',
  trackingId: 'trk-1',
  name: 'F-1.xml',
  flowSyntax: 'CII',
  flowProfile: 'Extended-CTC-FR',
  processingRule: 'B2B',
  processingRuleSource: 'Input',
  flowType: 'CustomerInvoice',
  flowDirection: 'Out',
  submittedAt: '2026-10-01T10:00:00Z',
  updatedAt: '2026-10-01T10:00:00Z',
  acknowledgement: { status: 'Pending' },
  ...overrides,
});
const receipt = { flowId: 'flow-1', submittedAt: '2026-10-01T10:00:00Z', name: 'F-1.xml', flowSyntax: 'CII' };
const tokenAnswer: Reply = { status: 200, body: { access_token: 'token', token_type: 'Bearer', expires_in: 3600 } };

/** A platform whose every answer is `answer(request line)`; the request lines it was sent, in order. */
interface FakePlatform {
  url: string;
  answer: (line: string) => Reply;
  lines: string[];
  server: Server;
}

async function fakePlatform(): Promise<FakePlatform> {
  const platform: FakePlatform = {
    url: '',
    lines: [],
    answer: () => ({ status: 500, body: { errorCode: 'UNSET' } }),
    server: createServer({
      cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
      key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
    }),
  };
  platform.server.on('request', (req, res) => {
    req.resume().on('end', () => {
      const line = `${req.method} ${req.url!.split('?')[0]}`;
      platform.lines.push(line);
      const reply = platform.answer(line);
      res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  platform.server.listen(0, '127.0.0.1');
  await once(platform.server, 'listening');
  platform.url = `https://localhost:${(platform.server.address() as AddressInfo).port}`;
  return platform;
}

const deposit = 'POST /flow-service/v1/flows';
const search = 'POST /flow-service/v1/flows/search';
const token = 'POST /auth-service/erp/token';

/** The platform's answers: the token and an empty search, unless `replies` says otherwise. */
const answering =
  (replies: Record<string, Reply>) =>
  (line: string): Reply =>
    replies[line] ??
    (line === token ? tokenAnswer : line === search ? { status: 200, body: { results: [] } } : html(500));

function failed<T>(result: PlatformResult<T>): PlatformFailure {
  if (result.ok) assert.fail(`the call succeeded: ${JSON.stringify(result.value).slice(0, 200)}`);
  return result;
}

function ok<T>(result: PlatformResult<T>): T {
  if (!result.ok) assert.fail(`the call failed: ${JSON.stringify(result)}`);
  return result.value;
}

let platform: FakePlatform;
let sleeps: number[];
let connector: AfnorConnector;

before(async () => {
  platform = await fakePlatform();
});
after(async () => {
  await connector?.close();
  platform.server.closeAllConnections();
  platform.server.close();
});

/** A new connector (no token kept), its waits recorded, not slept. */
async function fresh(): Promise<AfnorConnector> {
  await connector?.close();
  sleeps = [];
  platform.lines.length = 0;
  connector = new AfnorConnector({
    connection: { baseUrl: platform.url, clientId: 'erp', clientSecret: 'secret' },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return connector;
}

const depositRequest = {
  file: Buffer.from('<Invoice/>'),
  name: 'F-1.xml',
  syntax: 'CII' as const,
  trackingId: 'trk-1',
};

interface MalformedCase {
  name: string;
  /** The request line whose answer is malformed. */
  line: string;
  reply: Reply;
  call: (connector: AfnorConnector) => Promise<PlatformResult<unknown>>;
  /** The connector's operation, and what its message says. */
  operation: string;
  problem: RegExp;
}

const cases: MalformedCase[] = [
  {
    name: 'deposit: a 202 without its flowId',
    line: deposit,
    reply: {
      status: 202,
      body: { submittedAt: receipt.submittedAt, name: 'F-1.xml', flowSyntax: 'CII', note: banner },
    },
    call: (c) => c.deposit(depositRequest),
    operation: 'deposit',
    problem: /^the answer to createFlow does not follow the AFNOR document: body must have required property 'flowId'$/,
  },
  {
    name: 'deposit: a flowId of the wrong type',
    line: deposit,
    reply: { status: 202, body: { ...receipt, flowId: 42, note: banner } },
    call: (c) => c.deposit(depositRequest),
    operation: 'deposit',
    problem: /createFlow .*body\/flowId must be string/,
  },
  {
    name: 'deposit: an empty flowId',
    line: deposit,
    reply: { status: 202, body: { ...receipt, flowId: '' } },
    call: (c) => c.deposit(depositRequest),
    operation: 'deposit',
    problem: /createFlow .*body\/flowId must NOT have fewer than 1 characters/,
  },
  {
    name: 'deposit: a web page with 202',
    line: deposit,
    reply: html(202),
    call: (c) => c.deposit(depositRequest),
    operation: 'deposit',
    problem: /^the answer to createFlow is not JSON \(HTTP 202, content type text\/html\)$/,
  },
  {
    name: 'search: a flow without what the document requires',
    line: search,
    reply: { status: 200, body: { results: [{ flowId: 'flow-1', note: banner }] } },
    call: (c) => c.findDeposit('trk-1'),
    operation: 'findDeposit',
    problem: /searchFlows .*body\/results\/0 must have required property/,
  },
  {
    name: 'get flow: a web page with 200',
    line: 'GET /flow-service/v1/flows/flow-1',
    reply: html(200),
    call: (c) => c.getFlow('flow-1'),
    operation: 'getFlow',
    problem: /getFlow is not JSON/,
  },
  {
    name: 'life cycle: an array where the document says an object',
    line: search,
    reply: { status: 200, body: [flow(), banner] },
    call: (c) => c.readLifecycle(null),
    operation: 'readLifecycle',
    problem: /searchFlows .*body must be object/,
  },
  {
    name: 'incoming flows: a direction the document does not list',
    line: search,
    reply: { status: 200, body: { results: [flow({ flowDirection: banner })] } },
    call: (c) => c.listIncoming(null),
    operation: 'listIncoming',
    problem: /searchFlows .*body\/results\/0\/flowDirection must be equal to one of the allowed values/,
  },
  {
    name: 'webhook subscription: no signing key',
    line: 'POST /flow-service/v1/webhooks',
    reply: { status: 201, body: { webhookId: '0b6c2f4e-8a55-4d6f-9a53-1c7d3b0e9f21', note: banner } },
    call: (c) => c.subscribe('https://erp.example.com/callback'),
    operation: 'subscribe',
    problem: /createWebhook .*required property 'signingKey'/,
  },
  {
    name: 'directory: a line without its electronic address',
    line: 'POST /directory-service/v1/directory-line/search',
    reply: { status: 200, body: { results: [{ siren: '123456789', directoryLineStatus: 'Enabled', note: banner }] } },
    call: (c) => c.lookupDirectory({ by: 'siren', siren: '123456789' }),
    operation: 'lookupDirectory',
    problem: /searchDirectoryLine .*body\/results\/0 must have required property 'addressingIdentifier'/,
  },
  {
    name: 'facility: no SIRET',
    line: 'GET /directory-service/v1/siret/code-insee:12345678900011',
    reply: { status: 200, body: { name: banner } },
    call: (c) => c.lookupFacility('12345678900011'),
    operation: 'lookupFacility',
    problem: /getFacilityBySiret .*required property 'siret'/,
  },
  {
    name: 'facility: a SIRET off its pattern',
    line: 'GET /directory-service/v1/siret/code-insee:12345678900011',
    reply: { status: 200, body: { siret: banner } },
    call: (c) => c.lookupFacility('12345678900011'),
    operation: 'lookupFacility',
    problem: /getFacilityBySiret .*body\/siret must/,
  },
  {
    name: 'token: a web page with 200',
    line: token,
    reply: html(200),
    call: (c) => c.lookupFacility('12345678900011'),
    operation: 'lookupFacility',
    problem: /^the answer to token is not JSON \(HTTP 200, content type text\/html\)$/,
  },
  {
    name: 'token: JSON without the token',
    line: token,
    reply: { status: 200, body: { token_type: 'Bearer', note: banner } },
    call: (c) => c.getFlow('flow-1'),
    operation: 'getFlow',
    problem: /token .*required property 'access_token'/,
  },
];

describe('a malformed answer is a classified failure, retried as a 502', () => {
  for (const malformed of cases)
    test(malformed.name, async () => {
      platform.answer = answering({ [malformed.line]: malformed.reply });
      const failure = failed(await malformed.call(await fresh()));
      assert.deepEqual(
        [failure.operation, failure.errorCode, failure.category, failure.paErrorCode, failure.httpStatus],
        [malformed.operation, 'NOT_AN_AFNOR_ANSWER', 'platform_unavailable', 'pa_unavailable', 502],
      );
      assert.match(failure.message, malformed.problem);
      assert.ok(!failure.message.includes(banner), `the body is not echoed: ${failure.message}`);
      assert.ok(failure.message.length <= 200, 'a few words');
      // The 5xx schedule: 1, 2, 4, 8 s, five attempts, each one sent again.
      assert.deepEqual([failure.rule, failure.attempts, failure.next.action], ['server_error', 5, 'retry']);
      assert.deepEqual(sleeps, [...serverErrorDelaysMs]);
      assert.equal(platform.lines.filter((line) => line === malformed.line).length, 5);
    });

  test('a deposit answered off its schema is searched for before it is sent again: never two deposits', async () => {
    platform.answer = answering({ [deposit]: html(202) });
    failed(await (await fresh()).deposit(depositRequest));
    assert.deepEqual(
      platform.lines.filter((line) => line !== token),
      [deposit, search, deposit, search, deposit, search, deposit, search, deposit],
    );
  });

  test('the platform held the flow: the search after the malformed answer gives its id (reconciled)', async () => {
    platform.answer = answering({
      [deposit]: html(202),
      [search]: { status: 200, body: { results: [flow({ flowId: 'flow-held' })] } },
    });
    const receipt = ok(await (await fresh()).deposit(depositRequest));
    assert.deepEqual([receipt.flowId, receipt.reconciled], ['flow-held', true]);
    assert.equal(platform.lines.filter((line) => line === deposit).length, 1);
  });

  test('within a call budget: one attempt, handed back with the time to come back', async () => {
    platform.answer = answering({ 'POST /directory-service/v1/directory-line/search': html(200) });
    const before = Date.now();
    const failure = failed(
      await (await fresh()).lookupDirectory({ by: 'siren', siren: '123456789' }, { retryBudgetMs: 0 }),
    );
    assert.deepEqual([failure.attempts, failure.rule, sleeps], [1, 'server_error', []]);
    assert.ok(failure.retryAt && failure.retryAt.getTime() >= before + serverErrorDelaysMs[0]);
  });
});

describe('what the documents allow is read', () => {
  test('a deposit answered 200 where the document says 202: its receipt, by the same schema', async () => {
    platform.answer = answering({ [deposit]: { status: 200, body: { ...receipt, flowId: 'flow-200' } } });
    const value = ok(await (await fresh()).deposit(depositRequest));
    assert.deepEqual([value.flowId, value.submittedAt, value.reconciled], ['flow-200', receipt.submittedAt, false]);
  });

  test("an Upcoming directory line (the document's erratum: its enum against its maxLength)", async () => {
    platform.answer = answering({
      'POST /directory-service/v1/directory-line/search': {
        status: 200,
        body: { results: [{ addressingIdentifier: '123456789', siren: '123456789', directoryLineStatus: 'Upcoming' }] },
      },
    });
    const answer = ok(await (await fresh()).lookupDirectory({ by: 'siren', siren: '123456789' }));
    assert.deepEqual(
      [answer.address?.electronicAddress, answer.address?.status, answer.address?.active],
      ['123456789', 'Upcoming', false],
    );
  });

  test('a token without token_type, unknown fields anywhere (consumers tolerate them)', async () => {
    platform.answer = answering({
      [token]: { status: 200, body: { access_token: 'token', expires_in: 600, scope: 'flows' } },
      'GET /flow-service/v1/flows/flow-1': { status: 200, body: flow({ extension: { any: 'thing' } }) },
    });
    assert.equal(ok(await (await fresh()).getFlow('flow-1')).flowId, 'flow-1');
    assert.equal(connector.tokensFetched, 1);
  });
});

describe('the problem is said in a few words', () => {
  test('never the body: a long value, a value the enum does not list, an unknown field', () => {
    const leak = 'LEAK'.repeat(10_000);
    const rows = [
      { ...receipt, flowId: leak },
      { ...receipt, flowSyntax: leak },
      { ...receipt, [leak]: leak, flowId: undefined },
    ];
    for (const body of rows) {
      const read = readAnswer('createFlow', 202, 'application/json', Buffer.from(JSON.stringify(body)));
      assert.equal(read.ok, false);
      if (!read.ok) {
        assert.ok(!read.problem.includes('LEAK'), read.problem);
        assert.ok(read.problem.length <= 240, read.problem);
      }
    }
  });

  test('a content type that is not one is not repeated', () => {
    const read = readAnswer('getFlow', 200, `text/html${'x'.repeat(500)}; ${banner}`, Buffer.from('<html>'));
    assert.deepEqual(read, {
      ok: false,
      problem: 'the answer to getFlow is not JSON (HTTP 200, content type unreadable)',
    });
  });
});
