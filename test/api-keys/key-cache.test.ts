import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { KeyCache, authChannel } from '../../src/api-keys/key-cache.js';
import { revokeApiKey } from '../../src/api-keys/service.js';
import { hashSecret } from '../../src/api-keys/key-secret.js';
import type { KeyWithCompany } from '../../src/api-keys/store.js';
import { startHarness, untilKeyCached } from '../support/harness.js';

const entry = (keyId: string, companyId: string): KeyWithCompany => ({
  key: {
    id: keyId,
    companyId,
    livemode: false,
    secretHash: 'h',
    secretLast4: 'abcd',
    scopes: null,
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    created: new Date(),
  },
  company: {
    id: companyId,
    name: 'n',
    siren: '732829320',
    plan: 'free',
    subscriptionStatus: 'active',
    created: new Date(),
    sandboxClockOffsetMs: 0,
    identity: {
      legalName: 'n',
      tradeName: null,
      legalForm: null,
      shareCapital: null,
      registration: null,
      vatNumber: null,
      iban: null,
      bic: null,
      contact: null,
    },
  },
});

/** Two nodes of the service on one database, each with its own key cache and listener. */
async function twoNodes(t: TestContext) {
  const nodes = [await startHarness(), await startHarness()] as const;
  t.after(async () => {
    for (const node of nodes) await node.close();
  });
  return nodes;
}

test('the key cache: off without a listener, 30-second entries, forgets by key and by company', () => {
  const cache = new KeyCache();
  cache.set('h1', entry('key_1', 'co_1'), 0, cache.epoch);
  assert.equal(cache.get('h1', 0), undefined, 'no listener: no cache');
  cache.setListening(true);
  cache.set('h1', entry('key_1', 'co_1'), 0, cache.epoch);
  cache.set('h2', entry('key_2', 'co_1'), 0, cache.epoch);
  cache.set('h3', entry('key_3', 'co_2'), 0, cache.epoch);
  assert.equal(cache.get('h1', 29_999)?.key.id, 'key_1');
  assert.equal(cache.get('h1', 30_001), undefined, 'expired');
  cache.forget('key:key_2');
  assert.equal(cache.get('h2', 1), undefined);
  assert.equal(cache.get('h3', 1)?.key.id, 'key_3');
  cache.forget('company:co_2');
  assert.equal(cache.get('h3', 1), undefined);
});

test('a read that started before a change of its key or company is not cached after it', () => {
  const cache = new KeyCache();
  cache.setListening(true);
  let epoch = cache.epoch;
  cache.forget('key:key_1'); // the revocation lands while the read is in flight
  cache.set('h1', entry('key_1', 'co_1'), 0, epoch);
  assert.equal(cache.get('h1', 0), undefined, 'its key changed');
  epoch = cache.epoch;
  cache.forget('company:co_1');
  cache.set('h1', entry('key_1', 'co_1'), 0, epoch);
  assert.equal(cache.get('h1', 0), undefined, 'its company changed');
  epoch = cache.epoch;
  cache.forget('*');
  cache.set('h1', entry('key_1', 'co_1'), 0, epoch);
  assert.equal(cache.get('h1', 0), undefined, 'everything changed');
  epoch = cache.epoch;
  cache.setListening(true); // the listener reconnected: what happened meanwhile is unknown
  cache.set('h1', entry('key_1', 'co_1'), 0, epoch);
  assert.equal(cache.get('h1', 0), undefined, 'the listener came back');
  // After the change, a read that starts anew is cached.
  cache.set('h1', entry('key_1', 'co_1'), 0, cache.epoch);
  assert.equal(cache.get('h1', 0)?.key.id, 'key_1');
});

test('the changes of other keys and companies do not keep a read out of the cache, however many', () => {
  const cache = new KeyCache();
  cache.setListening(true);
  const epoch = cache.epoch;
  cache.forget('key:key_2');
  cache.forget('company:co_2');
  cache.set('h1', entry('key_1', 'co_1'), 0, epoch);
  assert.equal(cache.get('h1', 0)?.key.id, 'key_1', 'other changes: cached');
  // Past the changes it keeps, the oldest fold into one for every read that started before them.
  const early = cache.epoch;
  cache.forget('key:key_1');
  const late = cache.epoch;
  for (let i = 0; i < 10_000; i++) cache.forget(`company:co_${i + 10}`);
  cache.set('h2', entry('key_1', 'co_1'), 0, early);
  assert.equal(cache.get('h2', 0), undefined, 'its revocation, folded, still keeps the earlier read out');
  cache.set('h3', entry('key_3', 'co_3'), 0, late);
  assert.equal(cache.get('h3', 0)?.key.id, 'key_3', 'a read after the folded change is cached');
});

test('a revocation on one node is refused on every node', async (t) => {
  const [nodeA, nodeB] = await twoNodes(t);
  const { key } = await nodeA.tenant();
  for (const node of [nodeA, nodeB])
    assert.ok(await untilKeyCached(node, key, () => node.call('GET', '/v1/account', { key })), 'served from memory');
  const { rows } = await nodeA.deps.pool.query('select id from api_keys where secret_hash = $1', [hashSecret(key)]);
  // Revoked by a third party (the command line, the dashboard of another node): only the notification tells A and B.
  await nodeA.deps.db.transaction(async (tx) => {
    await tx.execute(`update api_keys set revoked_at = now() where id = '${rows[0].id}'`);
    await tx.execute(`select pg_notify('facteur_auth', 'key:${rows[0].id}')`);
  });
  for (const node of [nodeA, nodeB]) {
    const deadline = Date.now() + 2000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      // Injected requests served from memory never yield to I/O: let the notification be read.
      await new Promise((r) => setTimeout(r, 5));
      status = (await node.call('GET', '/v1/account', { key })).statusCode;
    }
    assert.equal(status, 401);
  }
  const other = await nodeB.tenant();
  await nodeB.call('GET', '/v1/account', { key: other.key });
  const [row] = (await nodeB.deps.pool.query('select id from api_keys where secret_hash = $1', [hashSecret(other.key)]))
    .rows;
  await revokeApiKey(nodeB.deps, row.id);
  assert.equal(
    (await nodeB.call('GET', '/v1/account', { key: other.key })).data.error.code,
    'api_key_revoked',
    'on the revoking node, at once',
  );
});

test('a sandbox clock move reaches cached authentications', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { key } = await h.tenant();
  const before = Date.parse((await h.call('GET', '/v1/sandbox/clock', { key })).data.now);
  await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 3600 } });
  const after = Date.parse((await h.call('GET', '/v1/sandbox/clock', { key })).data.now);
  assert.ok(after - before >= 3_600_000, `${after - before}`);
});

test('a change of the legal identity on one node shows on every node, though the account is served from memory', async (t) => {
  const [nodeA, nodeB] = await twoNodes(t);
  const { key, companyId } = await nodeA.tenant();
  // The harness's nodes share a process, so the changing node's local forget clears both caches: only a
  // client listening on its own proves that every other process is told.
  const listener = new pg.Client({ connectionString: nodeA.deps.pool.options.connectionString });
  await listener.connect();
  t.after(() => listener.end());
  const heard: string[] = [];
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`listen ${authChannel}`);
  for (const node of [nodeA, nodeB]) {
    const read = () => node.call('GET', '/v1/account', { key });
    assert.ok(await untilKeyCached(node, key, read), 'the key, and the identity, are served from memory');
  }
  const changed = await nodeA.call('POST', '/v1/account', { key, body: { tradeName: 'Enseigne', legalForm: 'SAS' } });
  assert.equal(changed.statusCode, 200, changed.body);
  const onA = (await nodeA.call('GET', '/v1/account', { key })).data.company;
  assert.equal(onA.tradeName, 'Enseigne', 'on the changing node, at once');
  assert.equal(onA.legalForm, 'SAS');
  const deadline = Date.now() + 2000;
  let onB = (await nodeB.call('GET', '/v1/account', { key })).data.company;
  while (onB.tradeName !== 'Enseigne' && Date.now() < deadline) {
    // Injected requests served from memory never yield to I/O: let the notification be read.
    await new Promise((r) => setTimeout(r, 5));
    onB = (await nodeB.call('GET', '/v1/account', { key })).data.company;
  }
  assert.deepEqual(onB, onA, 'the other node, once it hears of the change');
  const announced = Date.now() + 2000;
  while (!heard.includes(`company:${companyId}`) && Date.now() < announced) await new Promise((r) => setTimeout(r, 5));
  assert.ok(heard.includes(`company:${companyId}`), `announced on ${authChannel}: ${heard.join(', ')}`);
});

test('a revocation scoped to a company cannot revoke another company’s key', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const mine = await h.tenant();
  const theirs = await h.tenant();
  const [row] = (await h.deps.pool.query('select id from api_keys where secret_hash = $1', [hashSecret(theirs.key)]))
    .rows;
  await assert.rejects(
    revokeApiKey(h.deps, row.id, { companyId: mine.companyId }),
    (error: { code?: string }) => error.code === 'not_found',
  );
  assert.equal((await h.call('GET', '/v1/account', { key: theirs.key })).statusCode, 200);
});
