/**
 * Secrets at rest (issue #35): webhook signing secrets sealed like the platform secrets, every
 * sealed value bound to its table, column and row (AES-GCM associated data), the legacy forms
 * (v1 values, clear webhook secrets) sealed by the start, and `facteur encryption-key rotate`.
 * The file runs on a database of its own: the start step and the rotation walk every row.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Stripe from 'stripe';
import { startHarness, type Harness } from '../support/harness.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import { startReceiver, stubResolver, type Receiver } from '../support/webhook-receiver.js';
import { cleanEnv, runFacteur } from '../support/processes.js';
import { migrateDatabase } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { sealContext, sealedColumns } from '../../src/db/sealed-columns.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { encryptionKeyWarning, openSecret, sealSecret } from '../../src/kernel/sealed-secret.js';
import { ApiError } from '../../src/kernel/errors.js';
import { connectionOf } from '../../src/establishments/platform-access.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createDeliveryClient } from '../../src/webhooks/delivery-client.js';
import { endpointRecords } from '../../src/webhooks/data-export.js';
import { revealEndpointSecret } from '../../src/webhooks/service.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { rotateEncryptionKey, sealStoredSecrets } from '../../src/cli/encryption-key.js';

const stripe = new Stripe('sk_test_unused');
const resolver = stubResolver({ localhost: ['127.0.0.1'] });
const firstKey = randomBytes(32);

let h: Harness;
let receiver: Receiver;
/** The database as its owner: the rows read and written directly, past the service's role. */
let sql: pg.Pool;
let databaseUrl: string;
const cleanups: (() => Promise<unknown>)[] = [];

async function harness(key: Buffer): Promise<Harness> {
  const started = await startHarness({
    config: { databaseUrl, encryptionKey: key, allowPrivateWebhooks: true },
    deps: { resolveHost: resolver },
  });
  cleanups.push(() => started.close());
  return started;
}

before(async () => {
  const scratch = await createScratchDatabase('facteur_secrets');
  databaseUrl = scratch.url;
  sql = scratch.pool;
  cleanups.push(() => scratch.drop());
  await migrateDatabase(databaseUrl);
  h = await harness(firstKey);
  receiver = await startReceiver();
  cleanups.push(() => receiver.close());
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A value sealed as the service did before v2: AES-256-GCM without associated data. */
function sealV1(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** An establishment's stored connection columns, as the platform access reads them. */
async function establishmentFields(companyId: string, id: string) {
  const { rows } = await sql.query(
    `select id, siret, platform_base_url as "platformBaseUrl", platform_client_id as "platformClientId",
      platform_client_secret as "platformClientSecret", null as "platformTokenUrl", deposit_enabled as "depositEnabled",
      ereporting_enabled as "ereportingEnabled" from establishments where company_id = $1 and id = $2`,
    [companyId, id],
  );
  return rows[0];
}

async function endpointRow(id: string) {
  const { rows } = await sql.query(
    'select company_id, secret, secret_hint, previous_secret from webhook_endpoints where id = $1',
    [id],
  );
  return rows[0] as { company_id: string; secret: string; secret_hint: string; previous_secret: string | null };
}

/** Pings an endpoint through `on`'s worker; the request the receiver got. */
async function deliveredPing(on: Harness, companyId: string, key: string, endpointId: string) {
  const client = createDeliveryClient({ resolve: resolver, allowPrivate: true }, 5000);
  const worker = createDeliveryWorker(on.deps, { client, companies: [companyId] });
  try {
    const before = receiver.received.length;
    const ping = await on.call('POST', `/v1/webhook-endpoints/${endpointId}/ping`, { key });
    assert.equal(ping.statusCode, 200, ping.body);
    await worker.drain();
    return { request: receiver.received[before], event: ping.data };
  } finally {
    await worker.stop();
    await client.close();
  }
}

async function newEndpoint(on: Harness, key: string) {
  const created = await on.call('POST', '/v1/webhook-endpoints', { key, body: { url: receiver.url } });
  assert.equal(created.statusCode, 201, created.body);
  return created.data as { id: string; secret: string };
}

test('the webhook secret column holds no clear secret; deliveries still verify with the secret the API returned', async () => {
  const { companyId, key } = await h.tenant();
  const endpoint = await newEndpoint(h, key);
  assert.match(endpoint.secret, /^whsec_[\w-]{32}$/);
  const row = await endpointRow(endpoint.id);
  assert.match(row.secret, /^v2\./);
  assert.ok(!row.secret.includes(endpoint.secret.slice(6)), 'the stored value is not the secret');
  const masked = `whsec_…${endpoint.secret.slice(-4)}`;
  assert.equal((await h.call('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key })).data.secret, masked);

  const { request } = await deliveredPing(h, companyId, key, endpoint.id);
  assert.ok(request, 'delivered');
  const header = String(request.headers['service-signature']);
  // Byte for byte the header the clear secret gives: the HMAC is computed as before.
  assert.equal(header, signatureHeader([endpoint.secret], Number(/^t=(\d+)/.exec(header)![1]), request.body));
  assert.equal(stripe.webhooks.constructEvent(request.body, header, endpoint.secret).type, 'ping');

  // A rotation keeps the old secret signing for a day, sealed too, in its own slot.
  const rotated = await h.call('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key });
  assert.equal(rotated.statusCode, 200, rotated.body);
  const afterRotation = await endpointRow(endpoint.id);
  assert.match(afterRotation.previous_secret!, /^v2\./);
  assert.ok(!afterRotation.previous_secret!.includes(endpoint.secret.slice(6)));
  const second = (await deliveredPing(h, companyId, key, endpoint.id)).request!;
  const signed = String(second.headers['service-signature']);
  assert.equal(signed.split(',v1=').length, 3, 'two signatures during the overlap');
  assert.ok(stripe.webhooks.constructEvent(second.body, signed, rotated.data.secret));
  assert.ok(stripe.webhooks.constructEvent(second.body, signed, endpoint.secret));
  assert.equal(await revealEndpointSecret(h.deps, { companyId, livemode: false }, endpoint.id), rotated.data.secret);

  // The data-protection export shows the mask, never the sealed value nor the secret.
  const records = await inTransaction(h.deps.db, null, (tx) =>
    endpointRecords(tx, { companyId, livemode: false }, null, 10),
  );
  const exported = JSON.stringify(records);
  assert.equal((records[0]!.record as { secret: string }).secret, `whsec_…${rotated.data.secret.slice(-4)}`);
  assert.ok(
    !exported.includes('v2.') && !exported.includes(rotated.data.secret) && !exported.includes(endpoint.secret),
  );
});

test('a sealed value moved to another row or column does not open', async () => {
  const { companyId, key } = await h.tenant();
  const scope = { companyId, livemode: false };
  const a = await newEndpoint(h, key);
  const b = await newEndpoint(h, key);
  const rowA = await endpointRow(a.id);
  const context = sealContext(sealedColumns.webhookSecret, [companyId, a.id]);
  assert.equal(openSecret(firstKey, rowA.secret, context), a.secret);
  assert.throws(() => openSecret(firstKey, rowA.secret, sealContext(sealedColumns.webhookSecret, [companyId, b.id])));
  assert.throws(() =>
    openSecret(firstKey, rowA.secret, sealContext(sealedColumns.webhookPreviousSecret, [companyId, a.id])),
  );

  // A's sealed secret copied into B's row: B's deliveries are not signed with A's secret.
  await sql.query('update webhook_endpoints set secret = $1 where id = $2', [rowA.secret, b.id]);
  await assert.rejects(revealEndpointSecret(h.deps, scope, b.id), /cannot be opened/);
  const { request } = await deliveredPing(h, companyId, key, b.id);
  assert.equal(request, undefined, 'nothing sent');
  const attempts = await sql.query('select error from webhook_attempts where endpoint_id = $1', [b.id]);
  assert.match(String(attempts.rows[0]?.error), /signing secret cannot be opened/);
  // Put back for the rotation below, which refuses to run over a value no key opens.
  await sql.query('update webhook_endpoints set secret = $1 where id = $2', [
    sealSecret(firstKey, b.secret, sealContext(sealedColumns.webhookSecret, [companyId, b.id])),
    b.id,
  ]);
});

test('v1 values still open, and the start seals them again as v2 bound to their row', async () => {
  const { companyId, key } = await h.tenant();
  const live = await h.key(companyId, { env: 'live' });
  const head = (await h.call('GET', '/v1/establishments', { key: live })).data.data[0];
  const scope = { companyId, livemode: true };
  await sql.query(
    `update establishments set platform_base_url = 'https://pa.example.test', platform_client_id = 'client',
      platform_client_secret = $1 where company_id = $2 and id = $3`,
    [sealV1(firstKey, 'platform-s3cret'), companyId, head.id],
  );
  const fields = () => establishmentFields(companyId, head.id);
  assert.equal(connectionOf(h.deps, scope, await fields())?.clientSecret, 'platform-s3cret', 'a v1 value opens');
  await sealStoredSecrets(h.deps);
  const resealed = await fields();
  assert.match(resealed.platformClientSecret, /^v2\./);
  assert.equal(connectionOf(h.deps, scope, resealed)?.clientSecret, 'platform-s3cret');
  assert.equal(
    openSecret(
      firstKey,
      resealed.platformClientSecret,
      sealContext(sealedColumns.platformClientSecret, [companyId, head.id]),
    ),
    'platform-s3cret',
  );
  void key;
});

test('a webhook secret stored in clear (before migration 0025) is sealed at start, its signatures unchanged', async () => {
  const { companyId, key } = await h.tenant();
  const id = `we_legacy${randomBytes(8).toString('hex')}`;
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const previous = `whsec_${randomBytes(24).toString('base64url')}`;
  const now = new Date();
  await sql.query(
    `insert into webhook_endpoints (company_id, livemode, id, url, events, secret, secret_hint, previous_secret,
      previous_secret_expires_at, status, created, updated)
     values ($1, false, $2, $3, '{*}', $4, $5, $6, $7, 'enabled', $8, $8)`,
    [companyId, id, receiver.url, secret, secret.slice(-4), previous, new Date(now.getTime() + 3_600_000), now],
  );
  // Until the start seals it, the clear row still signs.
  const before = (await deliveredPing(h, companyId, key, id)).request!;
  assert.ok(stripe.webhooks.constructEvent(before.body, String(before.headers['service-signature']), secret));

  await sealStoredSecrets(h.deps);
  const row = await endpointRow(id);
  assert.match(row.secret, /^v2\./);
  assert.match(row.previous_secret!, /^v2\./);
  assert.ok(!row.secret.includes(secret.slice(6)) && !row.previous_secret!.includes(previous.slice(6)));
  assert.equal((await h.call('GET', `/v1/webhook-endpoints/${id}`, { key })).data.secret, `whsec_…${secret.slice(-4)}`);
  const afterSealing = (await deliveredPing(h, companyId, key, id)).request!;
  const header = String(afterSealing.headers['service-signature']);
  assert.equal(header, signatureHeader([secret, previous], Number(/^t=(\d+)/.exec(header)![1]), afterSealing.body));
  assert.ok(stripe.webhooks.constructEvent(afterSealing.body, header, secret));
});

test('facteur encryption-key rotate re-seals every sealed column; the service then works with the new key', async () => {
  const { companyId, key } = await h.tenant();
  const scope = { companyId, livemode: true };
  const endpoint = await newEndpoint(h, key);
  const rotated = (await h.call('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key })).data;
  const live = await h.key(companyId, { env: 'live' });
  const head = (await h.call('GET', '/v1/establishments', { key: live })).data.data[0];
  const platformContext = sealContext(sealedColumns.platformClientSecret, [companyId, head.id]);
  await sql.query(
    `update establishments set platform_base_url = 'https://pa.example.test', platform_client_id = 'client',
      platform_client_secret = $1 where company_id = $2 and id = $3`,
    [sealSecret(firstKey, 'platform-s3cret', platformContext), companyId, head.id],
  );
  for (const column of [sealedColumns.platformReaderSigningKey, sealedColumns.receivedReaderSigningKey])
    await sql.query(
      `insert into ${column.table} (company_id, livemode, establishment_id, signing_key, created) values ($1, true, $2, $3, now())`,
      [
        companyId,
        head.id,
        sealSecret(firstKey, `signing-${column.table}`, sealContext(column, [companyId, true, head.id])),
      ],
    );
  const stored = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.values(sealedColumns).map(async (column) => {
          const { rows } = await sql.query(
            `select count(*)::int as n from ${column.table} where ${column.column} is not null`,
          );
          return [`${column.table}.${column.column}`, rows[0].n as number] as const;
        }),
      ),
    );
  const counts = await stored();
  const previousKeyFile = join(mkdtempSync(join(tmpdir(), 'facteur-key-')), 'previous.key');
  writeFileSync(previousKeyFile, `${firstKey.toString('base64')}\n`, { mode: 0o600 });
  const newKey = randomBytes(32);

  // A value that neither key opens stops the rotation before anything changes.
  const stranger = await newEndpoint(h, key);
  await sql.query('update webhook_endpoints set secret = $1 where id = $2', [
    sealSecret(randomBytes(32), 'x', 'elsewhere'),
    stranger.id,
  ]);
  const refused = await rotateEncryptionKey(
    { db: h.deps.db, config: { ...h.deps.config, encryptionKey: newKey } },
    previousKeyFile,
  ).then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ApiError && refused.code === 'invalid_field_value', String(refused));
  assert.match(refused.message, /1 value\(s\) of webhook_endpoints\.secret/);
  assert.equal(
    await revealEndpointSecret(h.deps, { companyId, livemode: false }, endpoint.id),
    rotated.secret,
    'unchanged',
  );
  await sql.query('delete from webhook_endpoints where id = $1', [stranger.id]);

  const env = cleanEnv({
    DATABASE_URL: databaseUrl,
    FACTEUR_ENCRYPTION_KEY: newKey.toString('base64'),
    FACTEUR_DATA_DIR: mkdtempSync(join(tmpdir(), 'facteur-data-')),
  });
  const run = await runFacteur(['encryption-key', 'rotate', '--previous-key-file', previousKeyFile], env, 120_000);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout);
  assert.equal(report.object, 'encryption_key_rotation');
  for (const [column, n] of Object.entries(counts))
    assert.deepEqual(report.columns[column], { resealed: n, unchanged: 0 }, column);
  assert.ok(counts['webhook_endpoints.previous_secret']! >= 1 && counts['received_readers.signing_key']! >= 1);

  // Run again: everything is already under the new key.
  const again = JSON.parse(
    (await runFacteur(['encryption-key', 'rotate', '--previous-key-file', previousKeyFile], env, 120_000)).stdout,
  );
  for (const [column, n] of Object.entries(counts))
    assert.deepEqual(again.columns[column], { resealed: 0, unchanged: n }, column);

  // The old key opens nothing any more; the new one opens the platform secret and the webhook secret.
  await assert.rejects(revealEndpointSecret(h.deps, { companyId, livemode: false }, endpoint.id), /cannot be opened/);
  const next = await harness(newKey);
  const fields = await establishmentFields(companyId, head.id);
  assert.equal(connectionOf(next.deps, scope, fields)?.clientSecret, 'platform-s3cret');
  const { request } = await deliveredPing(next, companyId, key, endpoint.id);
  const header = String(request!.headers['service-signature']);
  assert.ok(stripe.webhooks.constructEvent(request!.body, header, rotated.secret));
  assert.ok(stripe.webhooks.constructEvent(request!.body, header, endpoint.secret), 'the previous secret too');
});

test('the key beside the data: a warning in production, a key file setting, both settings refused', () => {
  assert.match(String(encryptionKeyWarning({ encryptionKey: null, production: true })), /FACTEUR_ENCRYPTION_KEY/);
  assert.equal(encryptionKeyWarning({ encryptionKey: randomBytes(32), production: true }), null);
  assert.equal(encryptionKeyWarning({ encryptionKey: null, production: false }), null);
  const key = randomBytes(32);
  const file = join(mkdtempSync(join(tmpdir(), 'facteur-key-')), 'key');
  writeFileSync(file, key.toString('hex'));
  assert.deepEqual(loadConfig({ FACTEUR_ENCRYPTION_KEY_FILE: file }).encryptionKey, key);
  assert.throws(
    () => loadConfig({ FACTEUR_ENCRYPTION_KEY_FILE: file, FACTEUR_ENCRYPTION_KEY: key.toString('base64') }),
    ConfigError,
  );
  assert.throws(() => loadConfig({ FACTEUR_ENCRYPTION_KEY_FILE: `${file}.missing` }), ConfigError);
});
