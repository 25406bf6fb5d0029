import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';

async function countEvents(h: Harness, companyId: string, type = 'probe.created'): Promise<number> {
  const { rows } = await h.deps.pool.query(
    'select count(*)::int as n from events where company_id = $1 and type = $2',
    [companyId, type],
  );
  return rows[0].n;
}

test('idempotency', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes, poolSize: 20 });
  t.after(() => h.close());
  const body = { name: 'first', kind: 'goods' };

  await t.test(
    'the same key and content replays the first response: status, body and Idempotent-Replayed',
    async () => {
      const { companyId, key } = await h.tenant();
      const headers = { 'idempotency-key': randomUUID() };
      const first = await h.call('POST', '/v1/probe/items', { key, body, headers });
      assert.equal(first.statusCode, 201);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await h.call('POST', '/v1/probe/items', { key, body: { kind: 'goods', name: 'first' }, headers });
      assert.equal(again.statusCode, 201);
      assert.equal(again.body, first.body, 'byte for byte, whatever the key order of the JSON');
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.match(String(again.headers['content-type']), /application\/json/);
      assert.equal(await countEvents(h, companyId), 1);
    },
  );

  await t.test('a refusal after execution began is replayed identically too', async () => {
    const { key } = await h.tenant({ env: 'live', plan: 'free' });
    const headers = { 'idempotency-key': randomUUID() };
    await h.deps.pool.query(
      `insert into usage_counters values ((select company_id from api_keys where secret_hash = encode(sha256($1::bytea), 'hex')), $2, 'documents', 1000)`,
      [key, h.clock.now().toISOString().slice(0, 7)],
    );
    const first = await h.call('POST', '/v1/probe/documents', { key, headers });
    assert.equal(first.statusCode, 402);
    const again = await h.call('POST', '/v1/probe/documents', { key, headers });
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
  });

  await t.test('the same key with other content is 409 conflict', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    assert.equal((await h.call('POST', '/v1/probe/items', { key, body, headers })).statusCode, 201);
    for (const [url, other] of [
      ['/v1/probe/items', { ...body, name: 'second' }],
      ['/v1/probe/items?waitMs=0', body],
      ['/v1/sandbox/reset', undefined],
    ] as const) {
      const response = await h.call('POST', url, { key, headers, ...(other ? { body: other } : {}) });
      assert.equal(response.statusCode, 409, url);
      assert.equal(response.data.error.type, 'conflict_error');
      assert.equal(response.data.error.code, 'conflict');
    }
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test('the same key while the first request still runs is 409 conflict', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const slow = h.call('POST', '/v1/probe/items?waitMs=2000', { key, body, headers });
    // The second request comes once the first holds the key (its record committed as started).
    const held = async () =>
      (
        await h.deps.pool.query(
          `select 1 from idempotency_keys where company_id = $1 and key = $2 and state = 'started'`,
          [companyId, headers['idempotency-key']],
        )
      ).rowCount === 1;
    for (let tries = 0; !(await held()); tries++) {
      assert.ok(tries < 1000, 'the first request never took the key');
      await new Promise((r) => setTimeout(r, 5));
    }
    const during = await h.call('POST', '/v1/probe/items?waitMs=2000', { key, body, headers });
    assert.equal(during.statusCode, 409);
    assert.match(during.data.error.message, /still in progress/);
    assert.equal((await slow).statusCode, 201);
    const after = await h.call('POST', '/v1/probe/items?waitMs=2000', { key, body, headers });
    assert.equal(after.headers['idempotent-replayed'], 'true');
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test('fifty concurrent requests with one key produce exactly one effect', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => h.call('POST', '/v1/probe/items?waitMs=20', { key, body, headers })),
    );
    const created = responses.filter((r) => r.statusCode === 201);
    const conflicts = responses.filter((r) => r.statusCode === 409);
    assert.equal(created.length + conflicts.length, 50);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((r) => r.body)).size, 1, 'every 201 is the same response');
    assert.equal(
      created.filter((r) => r.headers['idempotent-replayed'] !== 'true').length,
      1,
      'one executed, the others replayed',
    );
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test('keys are scoped to the company and the environment', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const aLive = await h.key(a.companyId, { env: 'live' });
    const headers = { 'idempotency-key': `shared-${randomUUID()}` };
    const first = await h.call('POST', '/v1/probe/items', { key: a.key, body, headers });
    const other = await h.call('POST', '/v1/probe/items', { key: b.key, body, headers });
    const live = await h.call('POST', '/v1/probe/items', { key: aLive, body, headers });
    for (const response of [other, live]) {
      assert.equal(response.statusCode, 201);
      assert.equal(response.headers['idempotent-replayed'], undefined);
      assert.notEqual(response.data.id, first.data.id);
    }
    assert.equal(await countEvents(h, b.companyId), 1);
  });

  await t.test('another key of the same company and environment shares the idempotency keys', async () => {
    const a = await h.tenant();
    const second = await h.key(a.companyId);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await h.call('POST', '/v1/probe/items', { key: a.key, body, headers });
    const again = await h.call('POST', '/v1/probe/items', { key: second, body, headers });
    assert.equal(again.body, first.body);
  });

  await t.test('a key is kept 24 hours, then a request with it runs anew', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    await h.call('POST', '/v1/probe/items', { key, body, headers });
    h.clock.advance(23 * 3_600_000);
    assert.equal(
      (await h.call('POST', '/v1/probe/items', { key, body, headers })).headers['idempotent-replayed'],
      'true',
    );
    h.clock.advance(3_600_000);
    const fresh = await h.call('POST', '/v1/probe/items', { key, body: { ...body, name: 'new' }, headers });
    assert.equal(fresh.statusCode, 201);
    assert.equal(fresh.headers['idempotent-replayed'], undefined);
    assert.equal(await countEvents(h, companyId), 2);
    h.clock.advance(-24 * 3_600_000);
  });

  await t.test('a server error before any effect gives the key back: the retry runs', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const failed = await h.call('POST', '/v1/probe/items?explode=before', { key, body, headers });
    assert.equal(failed.statusCode, 500);
    const retried = await h.call('POST', '/v1/probe/items?explode=before', { key, body, headers });
    assert.equal(retried.statusCode, 500);
    assert.equal(retried.headers['idempotent-replayed'], undefined, 'executed again, not replayed');
    assert.notEqual(retried.data.error.request_id, failed.data.error.request_id);
    // The key is free: even other content may now use it.
    assert.equal((await h.call('POST', '/v1/probe/items', { key, body, headers })).statusCode, 201);
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test('a server error after the effect committed is replayed, never executed twice', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const failed = await h.call('POST', '/v1/probe/items?explode=after', { key, body, headers });
    assert.equal(failed.statusCode, 500);
    const again = await h.call('POST', '/v1/probe/items?explode=after', { key, body, headers });
    assert.equal(again.statusCode, 500);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test(
    'a crash after the effect and before the response: 409 until verified, never a second effect',
    async () => {
      const { companyId, key } = await h.tenant();
      const idempotencyKey = randomUUID();
      await h.call('POST', '/v1/probe/items', { key, body, headers: { 'idempotency-key': idempotencyKey } });
      // What a crash between the commit and the stored response leaves behind:
      await h.deps.pool.query(
        `update idempotency_keys set state = 'started', response_status = null, response_body = null, locked_at = locked_at - interval '1 hour' where key = $1`,
        [idempotencyKey],
      );
      const retry = await h.call('POST', '/v1/probe/items', {
        key,
        body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      assert.equal(retry.statusCode, 409);
      assert.match(retry.data.error.message, /took effect/);
      assert.equal(await countEvents(h, companyId), 1);
    },
  );

  await t.test('a crash before any effect: once the lock is stale, the retry runs', async () => {
    const { companyId, key } = await h.tenant();
    const idempotencyKey = randomUUID();
    const scope = await h.deps.pool.query(
      `select company_id from api_keys where secret_hash = encode(sha256($1::bytea), 'hex')`,
      [key],
    );
    const { fingerprintOf } = await import('../../src/idempotency/service.js');
    await h.deps.pool.query(
      `insert into idempotency_keys (company_id, livemode, key, fingerprint, lock_token, state, locked_at, created) values ($1, false, $2, $3, 'dead', 'started', $4, $4)`,
      [
        scope.rows[0].company_id,
        idempotencyKey,
        fingerprintOf('POST', '/v1/probe/items', body),
        new Date(h.clock.now().getTime() - 5_000),
      ],
    );
    const early = await h.call('POST', '/v1/probe/items', {
      key,
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });
    assert.equal(early.statusCode, 409, 'within the lock time it may still be running');
    h.clock.advance(60_000);
    const late = await h.call('POST', '/v1/probe/items', { key, body, headers: { 'idempotency-key': idempotencyKey } });
    assert.equal(late.statusCode, 201);
    assert.equal(await countEvents(h, companyId), 1);
    h.clock.advance(-60_000);
  });

  await t.test('a malformed key is refused', async () => {
    const { key } = await h.tenant();
    for (const bad of ['x'.repeat(256), 'with space', 'é']) {
      const response = await h.call('POST', '/v1/probe/items', { key, body, headers: { 'idempotency-key': bad } });
      assert.equal(response.statusCode, 400, bad);
      assert.equal(response.data.error.code, 'invalid_field_value');
      assert.equal(response.data.error.param, 'Idempotency-Key');
    }
  });

  await t.test('a request refused by validation stores nothing: the corrected retry runs', async () => {
    const { companyId, key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    assert.equal(
      (await h.call('POST', '/v1/probe/items', { key, body: { ...body, kind: 'bad' }, headers })).statusCode,
      422,
    );
    assert.equal((await h.call('POST', '/v1/probe/items', { key, body, headers })).statusCode, 201);
    assert.equal(await countEvents(h, companyId), 1);
  });

  await t.test('without the header, every POST runs', async () => {
    const { companyId, key } = await h.tenant();
    await h.call('POST', '/v1/probe/items', { key, body });
    await h.call('POST', '/v1/probe/items', { key, body });
    assert.equal(await countEvents(h, companyId), 2);
  });
});
