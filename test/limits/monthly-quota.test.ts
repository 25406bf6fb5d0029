import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';
import { consumeMonthlyQuota } from '../../src/limits/service.js';
import { ApiError } from '../../src/kernel/errors.js';

test('monthly quota', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes, clockStart: '2026-11-30T23:59:00.000Z' });
  t.after(() => h.close());

  async function fill(companyId: string, period: string, count: number): Promise<void> {
    await h.deps.pool.query(`insert into usage_counters values ($1, $2, 'documents', $3)`, [companyId, period, count]);
  }

  await t.test(
    'live documents count; at the plan quota the next is 402 quota_exceeded and nothing is done',
    async () => {
      h.clock.set('2026-11-30T23:59:00.000Z');
      const companyId = await h.company({ plan: 'free' });
      const key = await h.key(companyId, { env: 'live' });
      await fill(companyId, '2026-11', 999);
      assert.equal((await h.call('POST', '/v1/probe/documents', { key })).statusCode, 201);
      const refused = await h.call('POST', '/v1/probe/documents', { key });
      assert.equal(refused.statusCode, 402);
      assert.equal(refused.data.error.type, 'plan_limit_error');
      assert.equal(refused.data.error.code, 'quota_exceeded');
      assert.equal(
        (await h.call('GET', '/v1/events?type=probe.document', { key })).data.data.length,
        1,
        'the refused operation left no event',
      );
      assert.equal((await h.call('GET', '/v1/subscription', { key })).data.usage.documents, 1000);
    },
  );

  await t.test('the quota is per calendar month (UTC)', async () => {
    h.clock.set('2026-11-30T23:59:00.000Z');
    const companyId = await h.company({ plan: 'free' });
    const key = await h.key(companyId, { env: 'live' });
    await fill(companyId, '2026-11', 1000);
    assert.equal((await h.call('POST', '/v1/probe/documents', { key })).statusCode, 402);
    h.clock.set('2026-12-01T00:00:00.000Z');
    assert.equal((await h.call('POST', '/v1/probe/documents', { key })).statusCode, 201);
  });

  await t.test('test documents never count', async () => {
    const companyId = await h.company({ plan: 'free' });
    const key = await h.key(companyId, { env: 'test' });
    await fill(companyId, h.clock.now().toISOString().slice(0, 7), 1000);
    assert.equal((await h.call('POST', '/v1/probe/documents', { key })).statusCode, 201);
  });

  await t.test('concurrent consumption never passes the quota', async () => {
    const companyId = await h.company({ plan: 'free' });
    const key = await h.key(companyId, { env: 'live' });
    await fill(companyId, h.clock.now().toISOString().slice(0, 7), 990);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => h.call('POST', '/v1/probe/documents', { key })),
    );
    assert.equal(responses.filter((r) => r.statusCode === 201).length, 10);
    assert.equal(responses.filter((r) => r.statusCode === 402).length, 20);
  });

  await t.test('a rolled-back operation gives its quota back', async () => {
    const companyId = await h.company({ plan: 'free' });
    const scope = { companyId, livemode: true };
    await assert.rejects(
      h.deps.db.transaction(async (tx) => {
        await consumeMonthlyQuota(tx, scope, 'free', 'documents', h.clock.now());
        throw new Error('the document failed');
      }),
      /the document failed/,
    );
    const { rows } = await h.deps.pool.query('select count(*)::int as n from usage_counters where company_id = $1', [
      companyId,
    ]);
    assert.equal(rows[0].n, 0);
    await h.deps.db.transaction((tx) => consumeMonthlyQuota(tx, scope, 'free', 'documents', h.clock.now()));
    const error = await h.deps.db
      .transaction((tx) => consumeMonthlyQuota(tx, scope, 'free', 'documents', h.clock.now(), 1000))
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError && error.code === 'quota_exceeded');
  });
});
