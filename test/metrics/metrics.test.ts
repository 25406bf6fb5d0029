import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

const token = 'metrics-token-of-the-tests';
const scrape = async (h: Awaited<ReturnType<typeof startHarness>>, authorization?: string) =>
  h.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line of the text format (`name{labels} value`), or 0 when absent. */
function sample(text: string, line: RegExp): number {
  const found = text.split('\n').find((candidate) => line.test(candidate));
  return found ? Number(found.split(' ').at(-1)) : 0;
}

test('GET /metrics is off without FACTEUR_METRICS_TOKEN', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  assert.equal((await scrape(h, `Bearer ${token}`)).statusCode, 404);
});

test('GET /metrics needs its token, and reports requests, refusals, queues and numbering', async (t) => {
  const h = await startHarness({ config: { metricsToken: token }, clockStart: '2026-11-24T10:00:05.000Z' });
  t.after(() => h.close());
  assert.equal((await scrape(h)).statusCode, 401);
  assert.equal((await scrape(h, 'Bearer wrong-token-wrong-token')).statusCode, 401);
  const before = (await scrape(h, `Bearer ${token}`)).body;

  // Requests by route and status, and rate-limit refusals (a free live key past its 100 a minute).
  const { key } = await h.tenant({ env: 'live', plan: 'free' });
  for (let i = 0; i < 101; i++) await h.call('GET', '/v1/account', { key });
  // A job waiting in the queue (no worker runs here): a large import.
  const test = await h.tenant();
  const lines = ['name,email', ...Array.from({ length: 1_001 }, (_, i) => `Client ${i},c${i}@example.com`)];
  const queued = await h.call('POST', '/v1/customers/import', {
    key: test.key,
    body: lines.join('\n'),
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(queued.statusCode, 202);

  const answer = await scrape(h, `Bearer ${token}`);
  assert.equal(answer.statusCode, 200);
  assert.match(String(answer.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = answer.body;
  const okLine = /^facteur_http_request_duration_seconds_count\{method="GET",route="\/v1\/account",status="200"\}/;
  const refusedLine = /^facteur_http_request_duration_seconds_count\{method="GET",route="\/v1\/account",status="429"\}/;
  assert.equal(sample(text, okLine) - sample(before, okLine), 100);
  assert.equal(sample(text, refusedLine) - sample(before, refusedLine), 1);
  const refusals = /^facteur_rate_limit_refusals_total\{limit="key_minute"\}/;
  assert.equal(sample(text, refusals) - sample(before, refusals), 1);
  assert.ok(sample(text, /^facteur_queue_due_items\{queue="jobs"\}/) >= 1, 'the queued import is due');
  assert.match(text, /^facteur_queue_due_items\{queue="deliveries"\} \d+/m);
  assert.match(text, /^facteur_queue_oldest_due_seconds\{queue="jobs"\} [\d.e+-]+/m);
  assert.match(text, /^# TYPE facteur_numbering_statement_seconds histogram/m);
  assert.match(text, /^# TYPE facteur_webhook_delivery_attempts_total counter/m);
  assert.match(text, /^facteur_process_cpu_seconds_total /m);
});
