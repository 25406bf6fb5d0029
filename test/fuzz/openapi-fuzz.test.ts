import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startHarness, randomIp, type Harness } from '../support/harness.js';
import {
  chair,
  customer,
  decision,
  finalizedInvoice,
  frenchBuyer,
  readyDraft,
  seller,
  sellerProfile,
} from '../invoices/support.js';
import { isErrorCode } from '../../src/kernel/errors.js';
import {
  operationsOf,
  requestOf,
  writeRequest,
  type GeneratedRequest,
  type IdPools,
  type Operation,
} from './openapi-requests.js';
import { tenantFingerprint, type Fingerprint } from './tenant-rows.js';

/**
 * Requests generated from `/v1/openapi.json` (and the public pages), valid-ish and hostile, sent to
 * an app built as every test builds it. Each answer must be:
 * - never a 5xx;
 * - when >= 400, the contract's envelope (one `error` with type, code of the catalogue, message and
 *   a `req_` request id equal to `X-Request-Id`);
 * - when refused, without effect: the calling company's tenant rows are unchanged;
 * - isolated: a path naming another company's id never answers 2xx, and no 2xx answer carries one;
 * - a body with a server-owned or prototype key (mass assignment) is refused.
 * Every answer carries `X-Request-Id` and `X-Content-Type-Options: nosniff`.
 *
 * Fixed seed, bounded: FACTEUR_FUZZ_REQUESTS (default 20,000) and FACTEUR_FUZZ_SECONDS (default 60
 * in `npm test`; unbounded when FACTEUR_FUZZ_REQUESTS is given alone) stop it, whichever comes
 * first. FACTEUR_FUZZ_SEED changes the seed. The long run:
 *   FACTEUR_FUZZ_REQUESTS=50000 npm test -- test/fuzz/openapi-fuzz.test.ts
 */

const seed = Number(process.env.FACTEUR_FUZZ_SEED ?? 20260901);
const maxRequests = Number(process.env.FACTEUR_FUZZ_REQUESTS ?? 20_000);
const maxSeconds = Number(
  process.env.FACTEUR_FUZZ_SECONDS ?? (process.env.FACTEUR_FUZZ_REQUESTS ? Number.POSITIVE_INFINITY : 60),
);
const examplesPerBreach = Number(process.env.FACTEUR_FUZZ_EXAMPLES ?? 10);
const workers = 4;
const batch = 200;

/** The public pages, outside the OpenAPI document but as exposed. */
const publicOperations: Operation[] = ['/pay/{token}', '/quote/{token}'].map((path) => ({
  method: 'GET',
  path,
  params: [{ name: 'token', required: true, schema: { type: 'string', maxLength: 100 } }],
  query: [],
  body: null,
}));

// Left out: the reset wipes the company's documents, which the other operations need to exist.
const leftOut = new Set(['POST /v1/sandbox/reset']);

const idPattern = /\b(?:cus|prod|inv|cn|qt|pay|evt|we|job|txp|txd|ledg|eul|ref|rinv|co)_[0-9a-z]{26}\b/g;

function harvest(pool: Map<string, string[]>, text: string): void {
  for (const id of text.match(idPattern) ?? []) {
    const prefix = id.slice(0, id.indexOf('_') + 1);
    const ids = pool.get(prefix) ?? [];
    if (!ids.includes(id)) {
      ids.push(id);
      if (ids.length > 40) ids.shift();
      pool.set(prefix, ids);
    }
  }
}

/** A seller with documents of every kind, so that generated ids name real resources. */
async function furnishedTenant(
  h: Harness,
  marker: string,
): Promise<{ companyId: string; key: string; ids: Map<string, string[]> }> {
  const { companyId, key } = await seller(h);
  const ids = new Map<string, string[]>();
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await h.call(method, url, { key, ...(body !== undefined ? { body } : {}) });
    harvest(ids, response.body);
    return response;
  };
  // The reset brings the fixtures (customers, products) and purges the tax profile: declared again.
  await call('POST', '/v1/sandbox/reset');
  await call('POST', '/v1/tax-profiles', sellerProfile);
  // The marker names the company's own data: another company's answers must never show it.
  const customerId = await customer(h, key, { ...frenchBuyer, name: marker, metadata: { marker } });
  const invoice = await finalizedInvoice(h, key, { customerId });
  const draft = await readyDraft(h, key, { customerId });
  harvest(ids, JSON.stringify([invoice, draft]));
  await call('POST', '/v1/payments', { invoiceId: invoice.id, amount: 100 });
  const forNote = await decision(h, key, { customerId }, [chair]);
  harvest(ids, JSON.stringify(forNote));
  const note = await call('POST', '/v1/credit-notes', { relatedInvoiceId: invoice.id, taxDecisionId: forNote.id });
  if (note.statusCode === 201) await call('POST', `/v1/credit-notes/${note.data.id}/finalize`);
  await call('POST', '/v1/quotes', { customerId, lines: [chair] });
  await call('POST', '/v1/recurring-invoices', { interval: 'monthly', customerId, lines: [chair] });
  await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/facteur' });
  await call('POST', '/v1/eu-threshold-ledgers', { year: Number(h.clock.now().toISOString().slice(0, 4)) });
  for (const list of [
    'events',
    'customers',
    'products',
    'tax-profiles',
    'tax-decisions',
    'payments',
    'recurring-invoices',
  ])
    await call('GET', `/v1/${list}?limit=100`);
  harvest(ids, companyId);
  return { companyId, key, ids };
}

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  byCode: Map<string, number>;
  succeeded: Set<string>;
  serverErrors: number;
  notEnvelope: number;
  missingHeaders: number;
  storedWhenRefused: number;
  isolation: number;
  massAssignment: number;
  failures: string[];
}

function payloadText(payload: string | Buffer | undefined): string {
  return payload === undefined ? '' : Buffer.isBuffer(payload) ? payload.toString('latin1') : payload;
}

function describe(written: ReturnType<typeof writeRequest>, status: number, body: string): string {
  const payload =
    written.payload === undefined
      ? ''
      : ` body=${JSON.stringify(String(Buffer.isBuffer(written.payload) ? written.payload.toString('latin1') : written.payload).slice(0, 300))}`;
  return `${written.method} ${written.url.slice(0, 200)}${payload} -> ${status} ${body.slice(0, 300)}`;
}

type Breach = 'serverErrors' | 'notEnvelope' | 'missingHeaders' | 'storedWhenRefused' | 'isolation' | 'massAssignment';

/** Counts a breach; the first of each kind (FACTEUR_FUZZ_EXAMPLES, 10) are kept as examples. */
function record(tally: Tally, kind: Breach, detail: string): void {
  tally[kind] += 1;
  if (tally[kind] <= examplesPerBreach) tally.failures.push(`${kind}: ${detail}`);
}

/** Checks one answer; the counters of the tally say what broke. */
function judge(
  tally: Tally,
  generated: GeneratedRequest,
  written: ReturnType<typeof writeRequest>,
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  other: { ids: string[]; marker: string; sent: Set<string> },
): void {
  const { statusCode: status, headers, body } = response;
  const sent = `${written.url} ${payloadText(written.payload)}`;
  for (const id of other.ids) if (sent.includes(id)) other.sent.add(id);
  const said = () => describe(written, status, body);
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  // A platform URL the request named that does not answer is the contract's 503 `pa_unavailable`
  // (the establishment's connection is checked against its platform), not a fault of ours.
  const upstream = status === 503 && /"code":"pa_unavailable"/.test(body) && sent.includes('baseUrl');
  if (status >= 500 && !upstream) record(tally, 'serverErrors', said());
  const requestId = headers['x-request-id'];
  if (typeof requestId !== 'string' || !requestId.startsWith('req_') || headers['x-content-type-options'] !== 'nosniff')
    record(tally, 'missingHeaders', said());
  if (status >= 400 && written.method !== 'HEAD') {
    let envelope: any = null;
    try {
      envelope = JSON.parse(body);
    } catch {
      envelope = null;
    }
    const error = envelope?.error;
    const ok =
      String(headers['content-type'] ?? '').startsWith('application/json') &&
      envelope !== null &&
      Object.keys(envelope).length === 1 &&
      typeof error?.type === 'string' &&
      typeof error.code === 'string' &&
      isErrorCode(error.code) &&
      typeof error.message === 'string' &&
      error.request_id === requestId;
    if (!ok) record(tally, 'notEnvelope', said());
    else tally.byCode.set(error.code, (tally.byCode.get(error.code) ?? 0) + 1);
  }
  if (status < 400) {
    tally.succeeded.add(`${generated.operation.method} ${generated.operation.path}`);
    // A path naming another company's resource never succeeds; no answer shows that company's
    // data, nor one of its ids the caller never sent (a draft keeps a reference it was given, such
    // as `taxDecisionId`, unresolved until finalization, which reads it in the caller's scope:
    // a foreign id is then treated exactly as a missing one).
    if (written.pathIds.some((id) => other.ids.includes(id))) record(tally, 'isolation', said());
    else if (body.includes(other.marker)) record(tally, 'isolation', said());
    else if (other.ids.some((id) => body.includes(id) && !other.sent.has(id))) record(tally, 'isolation', said());
    if (generated.body.kind === 'value' && generated.body.injected !== null && written.method === 'POST')
      record(tally, 'massAssignment', said());
  }
}

test('requests generated from the OpenAPI document: no 5xx, the envelope, no effect when refused, isolation', async (t) => {
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    // Webhook URLs resolve to a public address without any DNS traffic.
    deps: { resolveHost: async () => ['93.184.216.34'] },
  });
  t.after(() => h.close());
  const document = (await h.call('GET', '/v1/openapi.json')).data;
  const operations = [...operationsOf(document), ...publicOperations].filter(
    (operation) => !leftOut.has(`${operation.method} ${operation.path}`),
  );
  assert.ok(operations.length > 60, `only ${operations.length} operations in the document`);
  const anyRequest = fc.constantFrom(...operations).chain(requestOf);

  const otherMarker = 'Other Tenant Confidential SARL';
  const other = await furnishedTenant(h, otherMarker);
  const otherIds = [...other.ids.values()].flat().filter((id) => !id.startsWith('co_') || id === other.companyId);
  const otherSide = { ids: otherIds, marker: otherMarker, sent: new Set<string>() };
  const fingerprint: Fingerprint = await tenantFingerprint(h.deps.pool);
  const otherBefore = await fingerprint(other.companyId);

  const tally: Tally = {
    requests: 0,
    byStatus: new Map(),
    byCode: new Map(),
    succeeded: new Set(),
    serverErrors: 0,
    notEnvelope: 0,
    missingHeaders: 0,
    storedWhenRefused: 0,
    isolation: 0,
    massAssignment: 0,
    failures: [],
  };
  const started = Date.now();
  const deadline = started + maxSeconds * 1000;
  const perWorker = Math.ceil(maxRequests / workers);

  const run = async (worker: number) => {
    const own = await furnishedTenant(h, `Own Tenant ${worker} SAS`);
    const pools: IdPools = { own: own.ids, other: other.ids };
    let before = await fingerprint(own.companyId);
    for (let round = 0, sent = 0; sent < perWorker && Date.now() < deadline; round++) {
      const requests = fc.sample(anyRequest, { seed: seed + worker * 1_000_003 + round, numRuns: batch });
      for (const generated of requests) {
        if (sent >= perWorker || Date.now() >= deadline) break;
        sent++;
        tally.requests++;
        h.clock.advance(250);
        const written = writeRequest(generated, pools, { own: own.key });
        const response = await h.app.inject({
          method: written.method as 'GET',
          url: written.url,
          headers: written.headers,
          ...(written.payload !== undefined ? { payload: written.payload } : {}),
          remoteAddress: generated.auth === 'bad' ? randomIp() : h.ip,
        });
        judge(tally, generated, written, response, otherSide);
        if (response.statusCode < 400) harvest(own.ids, response.body);
        const after = await fingerprint(own.companyId);
        if (response.statusCode >= 400 && after !== before)
          record(
            tally,
            'storedWhenRefused',
            `${describe(written, response.statusCode, response.body)}\n  ${before}\n  ${after}`,
          );
        before = after;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => run(worker)));

  if ((await fingerprint(other.companyId)) !== otherBefore)
    record(tally, 'isolation', "the other company's rows changed during the run");
  const seconds = (Date.now() - started) / 1000;
  const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  const never = operations
    .map((operation) => `${operation.method} ${operation.path}`)
    .filter((name) => !tally.succeeded.has(name));
  const codes = [...tally.byCode.entries()].sort(([, a], [, b]) => b - a).map(([c, n]) => `${c}:${n}`);
  t.diagnostic(
    `fuzz: ${tally.requests} requests in ${seconds.toFixed(1)} s (seed ${seed}); 5xx ${tally.serverErrors}, ` +
      `not the envelope ${tally.notEnvelope}, missing headers ${tally.missingHeaders}, stored when refused ` +
      `${tally.storedWhenRefused}, isolation ${tally.isolation}, mass assignment ${tally.massAssignment}; statuses ${statuses.join(' ')}; ` +
      `operations answered 2xx ${tally.succeeded.size}/${operations.length} (never: ${never.join(', ')}); codes ${codes.join(' ')}`,
  );
  assert.deepEqual(tally.failures, [], tally.failures.join('\n'));
  assert.ok(tally.requests >= Math.min(maxRequests, 1000), `only ${tally.requests} requests were sent`);
});
