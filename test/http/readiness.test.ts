import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { startPostgresProxy } from '../support/postgres-proxy.js';
import { createReadiness } from '../../src/http/readiness.js';

const databaseUrl = process.env.DATABASE_URL!;

test('readiness and liveness', async (t) => {
  await t.test(
    'a node whose database answers is ready; both checks need no key and stay out of the OpenAPI',
    async (st) => {
      const h = await startHarness();
      st.after(() => h.close());
      const ready = await h.call('GET', '/readyz');
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.data, { status: 'ready' });
      const live = await h.call('GET', '/healthz');
      assert.equal(live.statusCode, 200);
      assert.deepEqual(live.data, { status: 'ok' });
      const tenant = await h.tenant();
      const openapi = await h.call('GET', '/v1/openapi.json', { key: tenant.key });
      assert.equal(openapi.statusCode, 200);
      const paths = Object.keys((openapi.data as { paths: Record<string, unknown> }).paths);
      assert.ok(!paths.some((path) => /readyz|healthz/.test(path)), paths.join(' '));
    },
  );

  await t.test(
    'a node that lost its database is not ready (503 database_unreachable) but alive, and ready again once it is back',
    async (st) => {
      const proxy = await startPostgresProxy(databaseUrl);
      const h = await startHarness({ config: { databaseUrl: proxy.url } });
      st.after(async () => {
        await proxy.start().catch(() => undefined);
        await h.close();
        await proxy.stop();
      });
      assert.equal((await h.call('GET', '/readyz')).statusCode, 200);

      await proxy.stop();
      const started = Date.now();
      const lost = await h.call('GET', '/readyz');
      assert.equal(lost.statusCode, 503);
      assert.deepEqual(lost.data, { status: 'not_ready', reason: 'database_unreachable' });
      assert.ok(Date.now() - started < 3000, 'answered within the check timeout');
      const live = await h.call('GET', '/healthz');
      assert.equal(live.statusCode, 200, 'liveness does not touch the database');

      await proxy.start();
      const back = await h.call('GET', '/readyz');
      assert.equal(back.statusCode, 200);
      assert.deepEqual(back.data, { status: 'ready' });
    },
  );

  await t.test(
    'a draining node answers 503 draining, keeps serving, and closes each connection after its answer',
    async (st) => {
      const readiness = createReadiness();
      const h = await startHarness({ readiness });
      st.after(() => h.close());
      const { key } = await h.tenant();
      assert.equal((await h.call('GET', '/readyz')).statusCode, 200);
      readiness.drain();
      const draining = await h.call('GET', '/readyz');
      assert.equal(draining.statusCode, 503);
      assert.deepEqual(draining.data, { status: 'not_ready', reason: 'draining' });
      const served = await h.call('GET', '/v1/account', { key });
      assert.equal(served.statusCode, 200, 'requests are still served while draining');
      assert.equal(served.headers.connection, 'close');
      assert.equal((await h.call('GET', '/healthz')).statusCode, 200);
    },
  );
});
