/**
 * `npx facteur pa-simulator --port P` as an integrator runs it: it prints its URL, credentials and
 * how to script it; a connector deposits through it; the admin route scripts and counts; a
 * stop signal ends it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { AfnorConnector } from '../../src/platform/afnor-connector.js';
import { cleanEnv, freePorts, startFacteur } from '../support/processes.js';
import { ciiFile, invoiceNumber } from './support.js';

test('facteur pa-simulator: prints how to use it, serves the AFNOR APIs, is scripted and counts, stops on SIGTERM', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'pa-simulator-'));
  const [port] = await freePorts(1);
  const number = invoiceNumber();
  const scenarios = join(scratch, 'scenarios.json');
  await writeFile(scenarios, JSON.stringify({ [number]: { outcome: 'refuse' } }));
  const child = startFacteur(
    [
      'pa-simulator',
      '--port',
      String(port),
      '--client-id',
      'erp-demo',
      '--client-secret',
      'demo-secret',
      '--scenarios',
      scenarios,
      '--cert',
      process.env.FACTEUR_TEST_RECEIVER_CERT!,
      '--key',
      process.env.FACTEUR_TEST_RECEIVER_KEY!,
    ],
    cleanEnv({ FACTEUR_DATA_DIR: scratch, NODE_EXTRA_CA_CERTS: process.env.FACTEUR_TEST_RECEIVER_CERT }),
  );
  try {
    await child.waitForStdout(/Stop with Ctrl-C/, 60_000);
    const url = `https://localhost:${port}`;
    assert.match(child.stdout, new RegExp(`base URL .*${url}`));
    assert.match(child.stdout, /client id \/ secret\s+erp-demo \/ demo-secret/);
    assert.match(child.stdout, new RegExp(`${url}/auth-service/erp-demo/token`));
    const admin = /admin bearer: ([A-Za-z0-9_-]+)/.exec(child.stdout)![1]!;

    const connector = new AfnorConnector({
      connection: { baseUrl: url, clientId: 'erp-demo', clientSecret: 'demo-secret' },
    });
    try {
      const receipt = await connector.deposit({
        file: ciiFile(number),
        name: 'a.xml',
        syntax: 'CII',
        trackingId: `cli-${number}`,
      });
      assert.ok(receipt.ok, JSON.stringify(receipt));
      const page = await connector.readLifecycle(null);
      assert.ok(page.ok);
      if (page.ok)
        assert.deepEqual(
          page.value.events.flatMap((event) => (event.kind === 'status' ? [event.status.statusCode] : [])),
          ['200', '202', '203', '204', '210'],
          'the scenario file applied',
        );
      // A status reported now through the admin route, as the buyer: one more life-cycle flow.
      const post = async (path: string, body: unknown) => {
        const answer = await request(`${url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
      };
      const reported = await post('/simulator/statuses', {
        trackingId: `cli-${number}`,
        status: 'fr:207',
        reason: { code: 'MONTANTTOTAL_ERR', text: 'Total erroné' },
      });
      assert.equal(reported.status, 201, JSON.stringify(reported.body));
      const next = await connector.readLifecycle(page.ok ? page.value.cursor : null);
      assert.ok(next.ok);
      if (next.ok)
        assert.deepEqual(
          next.value.events.flatMap((event) =>
            event.kind === 'status' ? [[event.status.statusCode, event.status.reasons[0]?.code, event.flowId]] : [],
          ),
          [['207', 'MONTANTTOTAL_ERR', reported.body.flowId]],
        );
      const badReason = await post('/simulator/statuses', {
        trackingId: `cli-${number}`,
        status: '210',
        reason: { code: 'REJ_SEMAN' },
      });
      assert.equal(badReason.status, 400);
      assert.match(String(badReason.body.errorMessage), /BR-FR-CDV-CL-09/);
      const unknown = await post('/simulator/statuses', { trackingId: 'nothing-deposited', status: '205' });
      assert.equal(unknown.status, 404);
      // Scripted through the admin route: the next deposit of this number answers 503.
      const later = invoiceNumber();
      const scripted = await request(`${url}/simulator/scenarios`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ invoiceNumber: later, scenario: { depositAnswers: [{ status: 503 }] } }),
      });
      assert.equal(scripted.statusCode, 201);
      await scripted.body.dump();
      const unavailable = await connector.deposit(
        { file: ciiFile(later), name: 'b.xml', syntax: 'CII', trackingId: `cli-${later}` },
        { retryBudgetMs: 0 },
      );
      assert.equal(unavailable.ok, false);
      if (!unavailable.ok) assert.equal(unavailable.category, 'platform_unavailable');
      const stats = await request(`${url}/simulator/stats`, { headers: { authorization: `Bearer ${admin}` } });
      const counted = (await stats.body.json()) as { deposits: number; depositRequests: number };
      assert.deepEqual([counted.deposits, counted.depositRequests], [1, 2]);
      const refused = await request(`${url}/simulator/stats`);
      assert.equal(refused.statusCode, 401, 'the admin routes need the admin bearer');
      await refused.body.dump();
    } finally {
      await connector.close();
    }
    child.kill('SIGTERM');
    const exit = await child.waitForExit(10_000);
    assert.equal(exit.code, 0, child.describe());
  } finally {
    child.kill('SIGKILL');
    await rm(scratch, { recursive: true, force: true });
  }
});
