/**
 * @facteur/sdk against a real `facteur serve` (test/sdk/support.ts): typed resources, the
 * error classes with the contract's code, auto-pagination, the Idempotency-Key reused by the
 * retries of the contract's schedule (faults scripted by a local proxy in front of the service),
 * webhooks.verify against the service's own signer, and the committed types equal to those
 * generated from the served OpenAPI document.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  AuthenticationError,
  ConflictError,
  Facteur,
  FacteurError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  SignatureVerificationError,
  ValidationError,
} from '../../packages/sdk/src/index.js';
import { typesFile, typesOfOpenApi } from '../../packages/sdk/scripts/openapi-types.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { startFaultyProxy, startServe, type FaultyProxy, type Served } from './support.js';

const timeout = 240_000;

describe('@facteur/sdk against facteur serve', { timeout }, () => {
  let served: Served;
  let proxy: FaultyProxy;
  let facteur: Facteur;
  /** Through the proxy, with the waits recorded instead of waited. */
  let waits: number[];
  let proxied: Facteur;
  before(async () => {
    served = await startServe();
    proxy = await startFaultyProxy(served.url);
    facteur = new Facteur({ apiKey: served.key, baseUrl: served.url });
    waits = [];
    proxied = new Facteur({
      apiKey: served.key,
      baseUrl: proxy.url,
      sleep: async (ms) => void waits.push(ms),
    });
  });
  after(async () => {
    await proxy?.close();
    await served?.stop();
  });

  test('the committed types are those generated from the served OpenAPI document (npm run sdk:types)', async () => {
    const document = await (await fetch(`${served.url}/v1/openapi.json`)).json();
    const committed = await readFile(typesFile, 'utf8');
    assert.ok(
      committed === (await typesOfOpenApi(document)),
      'packages/sdk/src/openapi.ts is stale: run npm run sdk:types',
    );
  });

  test('resources create, read, update, delete; every item of a list through its pages', async () => {
    const account = await facteur.account.retrieve();
    assert.equal(account.livemode, false);
    const created = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) created.push(await facteur.customers.create({ name }));
    assert.match(created[0]!.id, /^cus_/);
    assert.equal((await facteur.customers.retrieve(created[1]!.id)).name, 'Beta');
    const updated = await facteur.customers.update(created[2]!.id, { name: 'Gamma 2' });
    assert.equal(updated.name, 'Gamma 2');
    const first = await facteur.customers.list({ limit: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    const all: string[] = [];
    for await (const customer of facteur.customers.list({ limit: 2 })) all.push(customer.id);
    assert.deepEqual([...all].sort(), created.map((customer) => customer.id).sort(), 'three customers over two pages');
    await facteur.customers.del(created[0]!.id);
    const product = await facteur.products.create({ name: 'Chaise', unitPrice: '120.00', nature: 'goods' });
    assert.equal((await facteur.products.retrieve(product.id)).name, 'Chaise');
  });

  test('metadata is typed as a free object: `{ a: "b" }` compiles for every resource that takes it, and comes back', async () => {
    // Compile check (tsc covers this file): with the request schemas' old `Record<string, never>`,
    // none of these bodies would type-check.
    const metadata = { a: 'b', order: 'PO-7' };
    const customer = await facteur.customers.create({ name: 'Metadata', metadata });
    assert.deepEqual(customer.metadata, metadata);
    const updated = await facteur.customers.update(customer.id, { metadata: { a: 'c' } });
    assert.deepEqual(updated.metadata, { a: 'c' });
    const product = await facteur.products.create({ name: 'Tabouret', unitPrice: '40.00', nature: 'goods', metadata });
    assert.deepEqual(product.metadata, metadata);
  });

  test('a refusal is the error class of its type, with the code, param and request id', async () => {
    await assert.rejects(facteur.customers.retrieve('cus_00000000000000000000000000'), (error: unknown) => {
      assert.ok(error instanceof NotFoundError && error instanceof FacteurError);
      assert.equal(error.status, 404);
      assert.match(error.requestId ?? '', /^req_/);
      return typeof error.code === 'string' && error.docUrl !== undefined;
    });
    await assert.rejects(
      new Facteur({ apiKey: 'svc_test_notakeynotakeynotakeynotakey00', baseUrl: served.url }).account.retrieve(),
      (error: unknown) => error instanceof AuthenticationError && error.code === 'invalid_api_key',
    );
    await assert.rejects(
      facteur.customers.create({ name: '' }),
      (error: unknown) =>
        (error instanceof InvalidRequestError || error instanceof ValidationError) && error.param === 'name',
    );
    await assert.rejects(
      facteur.customers.list({ starting_after: 'cus_00000000000000000000000000' }),
      (error: unknown) =>
        error instanceof InvalidRequestError &&
        error.code === 'invalid_field_value' &&
        error.param === 'starting_after',
    );
  });

  test('a POST carries an Idempotency-Key, the same on its retries: an answer lost after a 500 creates nothing twice', async () => {
    waits.length = 0;
    proxy.seen.length = 0;
    proxy.fail({ status: 500, afterForwarding: true }, { status: 502, afterForwarding: true });
    const customer = await proxied.customers.create({ name: 'Once' });
    assert.deepEqual(waits, [1000, 2000], 'backoff 1 s then 2 s');
    assert.equal(proxy.seen.length, 3);
    const keys = new Set(proxy.seen.map((request) => request.idempotencyKey));
    assert.equal(keys.size, 1);
    assert.match([...keys][0] ?? '', /^[0-9a-f-]{36}$/);
    let named = 0;
    for await (const listed of facteur.customers.list({ limit: 100 })) if (listed.name === 'Once') named += 1;
    assert.equal(named, 1, `one customer for three attempts (${customer.id})`);
    // Another POST, another key.
    await proxied.customers.create({ name: 'Twice' });
    assert.notEqual(proxy.seen.at(-1)!.idempotencyKey, [...keys][0]);
  });

  test('the contract schedule: 500 backs off 1, 2, 4, 8 s (five attempts); 503 30, 60, 120 s; 429 waits Retry-After', async () => {
    waits.length = 0;
    proxy.fail(...Array.from({ length: 5 }, () => ({ status: 500 })));
    await assert.rejects(
      proxied.account.retrieve(),
      (error: unknown) => error instanceof FacteurError && error.status === 500,
    );
    assert.deepEqual(waits, [1000, 2000, 4000, 8000]);

    waits.length = 0;
    proxy.fail({ status: 503 }, { status: 503 }, { status: 503 });
    assert.equal((await proxied.account.retrieve()).livemode, false, 'the fourth attempt answers');
    assert.deepEqual(waits, [30_000, 60_000, 120_000]);

    waits.length = 0;
    proxy.fail({ status: 429, headers: { 'retry-after': '7' } });
    await proxied.account.retrieve();
    assert.deepEqual(waits, [7000], 'exactly the seconds of Retry-After');

    waits.length = 0;
    proxy.fail(...Array.from({ length: 4 }, () => ({ status: 429, headers: { 'retry-after': '1' } })));
    await assert.rejects(
      proxied.account.retrieve(),
      (error: unknown) =>
        error instanceof RateLimitError && error.code === 'rate_limit_exceeded' && error.retryAfter === 1,
    );
    assert.deepEqual(waits, [1000, 1000, 1000]);
  });

  test('a 4xx is final: a 409 of another payload under the same key is not retried', async () => {
    waits.length = 0;
    const idempotencyKey = `sdk-${Date.now()}`;
    await proxied.customers.create({ name: 'First payload' }, { idempotencyKey });
    const before = proxy.seen.length;
    await assert.rejects(
      proxied.customers.create({ name: 'Other payload' }, { idempotencyKey }),
      (error: unknown) => error instanceof ConflictError && error.code === 'conflict',
    );
    assert.equal(proxy.seen.length, before + 1);
    assert.deepEqual(waits, []);
  });

  test('webhooks.verify accepts what the service signs, and refuses another secret, body or a stale time', () => {
    const secret = 'whsec_sdktestsecret';
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', livemode: false, data: {} });
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([secret], now, body);
    assert.equal(facteur.webhooks.verify(body, header, secret).id, 'evt_1');
    // During a rotation the header has two v1= values: either secret verifies.
    assert.equal(facteur.webhooks.verify(body, signatureHeader(['whsec_new', secret], now, body), secret).type, 'ping');
    assert.equal(facteur.webhooks.verify(Buffer.from(body), header, secret, 300).id, 'evt_1');
    const refused = (run: () => unknown) => assert.throws(run, SignatureVerificationError);
    refused(() => facteur.webhooks.verify(body, header, 'whsec_other'));
    refused(() => facteur.webhooks.verify(`${body} `, header, secret));
    refused(() => facteur.webhooks.verify(body, signatureHeader([secret], now - 301, body), secret));
    assert.equal(facteur.webhooks.verify(body, signatureHeader([secret], now - 301, body), secret, 600).id, 'evt_1');
    refused(() => facteur.webhooks.verify(body, undefined, secret));
    refused(() => facteur.webhooks.verify(body, 'v1=abc', secret));
  });
});
