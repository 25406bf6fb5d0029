import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../support/harness.js';
import { createJobWorker } from '../../src/jobs/worker.js';
import { registry } from '../../src/capabilities.js';

const header = 'type,name,email,siren,siret,vatNumber,line1,line2,postalCode,city,country';
const goodLine = (i: number) =>
  `company,Société ${i},c${i}@example.com,732829320,73282932000017,FR44732829320,${i} rue de la Paix,,75002,Paris,FR`;
const csvOf = (lines: string[]) => `${header}\n${lines.join('\n')}\n`;
const many = (count: number) => csvOf(Array.from({ length: count }, (_, i) => goodLine(i)));

async function importCsv(h: Harness, key: string, body: string, headers: Record<string, string> = {}) {
  return h.call('POST', '/v1/customers/import', { key, body, headers: { 'content-type': 'text/csv', ...headers } });
}

async function count(h: Harness, companyId: string, livemode = false): Promise<number> {
  const { rows } = await h.deps.pool.query(
    'select count(*)::int as n from customers where company_id = $1 and livemode = $2',
    [companyId, livemode],
  );
  return rows[0].n;
}

test('CSV import', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test(
    'a small file is imported at once (200): valid lines imported, each refused line reported with its line, code and param',
    async () => {
      const { key, companyId } = await h.tenant();
      const body = csvOf([
        goodLine(1),
        'individual,Camille Martin,camille@example.com,,,,8 place Bellecour,,69002,Lyon,FR',
        'company,Inconnue,,,73282932099902,,,,,,',
        'company,Mauvais code postal,,,,,,,7500,Paris,FR',
        'company,Pays inconnu,,,,,,,,,ZZ',
        ',,sans-nom@example.com,,,,,,,,',
        'company,Mauvaise TVA,,,,DE136695977,,,,,',
        'person,Type inconnu,,,,,,,,,',
        'company,Email,pas-un-email,,,,,,,,',
        'company,Adresse sans pays,,,,,1 rue,,,Paris,',
      ]);
      const response = await importCsv(h, key, body);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.data, {
        object: 'customer_import',
        livemode: false,
        lines: 10,
        imported: 2,
        refused: 8,
        refusals: [
          {
            line: 4,
            code: 'siret_not_found',
            param: 'siret',
            message: 'SIRET 73282932099902 is not in the company directory.',
          },
          {
            line: 5,
            code: 'validation_error',
            param: 'address.postalCode',
            message: response.data.refusals[1].message,
          },
          {
            line: 6,
            code: 'invalid_field_value',
            param: 'address.country',
            message: response.data.refusals[2].message,
          },
          { line: 7, code: 'missing_required_field', param: 'name', message: 'The field `name` is required.' },
          { line: 8, code: 'validation_error', param: 'vatNumber', message: response.data.refusals[4].message },
          { line: 9, code: 'validation_error', param: 'type', message: response.data.refusals[5].message },
          { line: 10, code: 'validation_error', param: 'email', message: response.data.refusals[6].message },
          {
            line: 11,
            code: 'missing_required_field',
            param: 'address.country',
            message: 'The field `address.country` is required.',
          },
        ],
      });
      assert.equal(await count(h, companyId), 2);
      const customers = (await h.call('GET', '/v1/customers', { key })).data.data;
      const camille = customers.find((c: { name: string }) => c.name === 'Camille Martin');
      assert.deepEqual(camille.address, {
        line1: '8 place Bellecour',
        line2: null,
        postalCode: '69002',
        city: 'Lyon',
        country: 'FR',
        territory: 'FR',
      });
      assert.equal((await h.call('GET', '/v1/events?type=customer.created', { key })).data.data.length, 2);
    },
  );

  await t.test(
    'the same line refused by the API and by the import carries the same code, param and message',
    async () => {
      const { key } = await h.tenant();
      const api = await h.call('POST', '/v1/customers', { key, body: { name: 'X', siret: '73282932000018' } });
      const csv = await importCsv(h, key, 'name,siret\nX,73282932000018\n');
      assert.deepEqual(csv.data.refusals[0], {
        line: 2,
        code: api.data.error.code,
        param: api.data.error.param,
        message: api.data.error.message,
      });
    },
  );

  await t.test('the same file with the same Idempotency-Key replays: no duplicate', async () => {
    const { key, companyId } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await importCsv(h, key, many(3), headers);
    const again = await importCsv(h, key, many(3), headers);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal(await count(h, companyId), 3);
    const other = await importCsv(h, key, many(4), headers);
    assert.equal(other.statusCode, 409, 'another file under the same key');
    assert.equal(other.data.error.code, 'conflict');
  });

  await t.test(
    'a file is refused whole for a bad header, an empty body, a JSON body or more than 10,000 lines',
    async () => {
      const { key, companyId } = await h.tenant();
      const unknown = await importCsv(h, key, 'name,telephone\nA,0102\n');
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.data.error.code, 'invalid_field_value');
      assert.match(unknown.data.error.message, /Unknown column "telephone"/);
      const empty = await importCsv(h, key, '');
      assert.equal(empty.statusCode, 400);
      assert.equal(empty.data.error.code, 'invalid_field_value');
      const noBody = await h.call('POST', '/v1/customers/import', { key });
      assert.equal(noBody.statusCode, 400);
      assert.equal(noBody.data.error.code, 'invalid_field_value');
      const json = await h.call('POST', '/v1/customers/import', { key, body: { name: 'A' } });
      assert.equal(json.statusCode, 400);
      assert.equal(json.data.error.code, 'invalid_content_type');
      const tooMany = await importCsv(h, key, `name\n${'A\n'.repeat(10_001)}`);
      assert.equal(tooMany.statusCode, 400);
      assert.equal(tooMany.data.error.code, 'payload_too_large');
      const tooBig = await importCsv(h, key, `name\n${'A'.repeat(17 * 1024 * 1024)}\n`);
      assert.equal(tooBig.statusCode, 400);
      assert.equal(tooBig.data.error.code, 'payload_too_large');
      assert.match(tooBig.data.error.message, /16777216 bytes/);
      const charset = await importCsv(h, key, 'name\nA\n', { 'content-type': 'text/csv; charset=utf-8' });
      assert.equal(charset.statusCode, 200);
      assert.equal(await count(h, companyId), 1);
    },
  );

  await t.test('live keys: 2 imports per hour per key, then 429 with Retry-After; test keys are exempt', async () => {
    const { key, companyId } = await h.tenant();
    const live = await h.key(companyId, { env: 'live' });
    assert.equal((await importCsv(h, live, 'name\nA\n')).statusCode, 200);
    assert.equal((await importCsv(h, live, 'name\nB\n')).statusCode, 200);
    const third = await importCsv(h, live, 'name\nC\n');
    assert.equal(third.statusCode, 429);
    assert.equal(third.data.error.code, 'rate_limit_exceeded');
    assert.ok(Number(third.headers['retry-after']) > 0);
    for (let i = 0; i < 3; i++) assert.equal((await importCsv(h, key, 'name\nT\n')).statusCode, 200);
    assert.equal(await count(h, companyId, true), 2);
  });

  await t.test('a large file becomes a job (202): its result once the worker ran is the same object', async () => {
    const { key, companyId } = await h.tenant();
    const lines = Array.from({ length: 1_200 }, (_, i) => (i === 700 ? 'company,,,,,,,,,,' : goodLine(i)));
    const response = await importCsv(h, key, csvOf(lines));
    assert.equal(response.statusCode, 202, response.body);
    const job = response.data;
    assert.match(job.id, /^job_/);
    assert.equal(job.object, 'job');
    assert.equal(job.kind, 'customers.import');
    assert.equal(job.status, 'queued');
    assert.deepEqual(job.progress, { total: 1_200, processed: 0 });
    assert.equal(await count(h, companyId), 0, 'nothing before the worker');
    const worker = createJobWorker(h.deps, { companies: [companyId], kinds: registry.jobKinds });
    assert.equal(await worker.drain(), 1);
    const done = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(done.progress, { total: 1_200, processed: 1_200 });
    assert.equal(done.result.object, 'customer_import');
    assert.equal(done.result.imported, 1_199);
    assert.equal(done.result.refused, 1);
    assert.deepEqual(done.result.refusals[0], {
      line: 702,
      code: 'missing_required_field',
      param: 'name',
      message: 'The field `name` is required.',
    });
    assert.ok(done.completedAt);
    assert.equal(await count(h, companyId), 1_199);
    const events = (await h.call('GET', '/v1/events?type=customer.created&limit=1', { key })).data.data;
    assert.equal(events[0].request.id, response.headers['x-request-id'], "the import's events carry its request");
  });

  await t.test('a job re-sent with the same Idempotency-Key is the same job; it imports once', async () => {
    const { key, companyId } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await importCsv(h, key, many(1_001), headers);
    const again = await importCsv(h, key, many(1_001), headers);
    assert.equal(first.statusCode, 202);
    assert.equal(again.data.id, first.data.id);
    await createJobWorker(h.deps, { companies: [companyId], kinds: registry.jobKinds }).drain();
    assert.equal(await count(h, companyId), 1_001);
  });

  await t.test(
    'GET /v1/jobs/:id needs the read scope of the job kind; another company or environment gets 404',
    async () => {
      const { key, companyId } = await h.tenant();
      const job = (await importCsv(h, key, many(1_001))).data;
      const reader = await h.key(companyId, { scopes: ['customers:read'] });
      const other = await h.key(companyId, { scopes: ['products:read'] });
      assert.equal((await h.call('GET', `/v1/jobs/${job.id}`, { key: reader })).statusCode, 200);
      const forbidden = await h.call('GET', `/v1/jobs/${job.id}`, { key: other });
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.data.error.code, 'scope_insufficient');
      const live = await h.key(companyId, { env: 'live' });
      const stranger = await h.tenant();
      for (const k of [live, stranger.key]) {
        const response = await h.call('GET', `/v1/jobs/${job.id}`, { key: k });
        assert.equal(response.statusCode, 404);
        assert.equal(response.data.error.code, 'not_found');
      }
    },
  );
});
