import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

test('customers: scopes, companies and environments', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test('customers:read reads, customers:write writes, other scopes get 403 scope_insufficient', async () => {
    const companyId = await h.company();
    const writer = await h.key(companyId, { scopes: ['customers:write'] });
    const reader = await h.key(companyId, { scopes: ['customers:read'] });
    const other = await h.key(companyId, { scopes: ['products:write', 'invoices:write'] });
    const created = await h.call('POST', '/v1/customers', { key: writer, body: { name: 'A' } });
    assert.equal(created.statusCode, 201);
    const id = created.data.id;
    assert.equal((await h.call('GET', `/v1/customers/${id}`, { key: writer })).statusCode, 200, 'write includes read');
    assert.equal((await h.call('GET', '/v1/customers', { key: reader })).statusCode, 200);
    const attempts: [string, string, unknown][] = [
      ['POST', '/v1/customers', { name: 'B' }],
      ['POST', `/v1/customers/${id}`, { name: 'B' }],
      ['DELETE', `/v1/customers/${id}`, undefined],
    ];
    for (const [method, url, body] of attempts) {
      const response = await h.call(method as 'POST', url, { key: reader, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(response.data.error.code, 'scope_insufficient');
    }
    const csv = await h.call('POST', '/v1/customers/import', {
      key: reader,
      body: 'name\nA\n',
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(csv.statusCode, 403);
    for (const url of ['/v1/customers', `/v1/customers/${id}`]) {
      const response = await h.call('GET', url, { key: other });
      assert.equal(response.statusCode, 403, url);
      assert.equal(response.data.error.code, 'scope_insufficient');
    }
  });

  await t.test(
    "another company's customer, or the other environment's, is 404 not_found everywhere and never listed",
    async () => {
      const a = await h.tenant();
      const aLive = await h.key(a.companyId, { env: 'live' });
      const b = await h.tenant();
      const mine = (
        await h.call('POST', '/v1/customers', {
          key: a.key,
          body: { name: 'A test', email: 'same@example.com', siren: '732829320' },
        })
      ).data;
      const mineLive = (
        await h.call('POST', '/v1/customers', {
          key: aLive,
          body: { name: 'A live', email: 'same@example.com', siren: '732829320' },
        })
      ).data;
      for (const [key, id] of [
        [b.key, mine.id],
        [aLive, mine.id],
        [a.key, mineLive.id],
      ] as const) {
        for (const [method, body] of [
          ['GET', undefined],
          ['POST', { name: 'X' }],
          ['DELETE', undefined],
        ] as const) {
          const response = await h.call(method, `/v1/customers/${id}`, { key, ...(body ? { body } : {}) });
          assert.equal(response.statusCode, 404, `${method} ${id}`);
          assert.equal(response.data.error.code, 'not_found');
        }
      }
      const listed = async (key: string, query = '') =>
        (await h.call('GET', `/v1/customers${query}`, { key })).data.data.map((c: { id: string }) => c.id);
      assert.deepEqual(await listed(a.key, '?email=same@example.com'), [mine.id]);
      assert.deepEqual(await listed(aLive, '?siren=732829320'), [mineLive.id]);
      assert.deepEqual(await listed(b.key, '?email=same@example.com'), []);
      const foreignCursor = await h.call('GET', `/v1/customers?starting_after=${mine.id}`, { key: b.key });
      assert.equal(foreignCursor.statusCode, 400);
      assert.equal(foreignCursor.data.error.param, 'starting_after');
      assert.equal((await h.call('GET', `/v1/customers/${mine.id}`, { key: a.key })).data.name, 'A test', 'untouched');
    },
  );
});
