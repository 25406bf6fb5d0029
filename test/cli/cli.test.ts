/**
 * The command line, as an operator runs it: `node bin/facteur.js ...` in a child process, against
 * the suite's database (DATABASE_URL), every command printing one JSON document on stdout, or a
 * JSON error on stderr with a non-zero exit.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { cleanEnv, runFacteur, type Finished } from '../support/processes.js';
import { startHarness } from '../support/harness.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('run the suite with `npm test`: it provides the database');
const env = cleanEnv({ DATABASE_URL: databaseUrl });

const secretPattern = /^svc_(test|live)_[0-9A-Za-z]{32}$/;
// Spawning `node bin/facteur.js` loads the compiled service (bin/build.js): a second or two each.
const timeout = 120_000;

async function facteur(...args: string[]): Promise<Finished> {
  return runFacteur(args, env);
}

function describeRun(run: Finished): string {
  return `exit ${run.code ?? run.signal}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
}

/** A successful command: exit 0, stdout exactly one JSON document. */
async function succeed(...args: string[]): Promise<any> {
  const run = await facteur(...args);
  assert.equal(run.code, 0, `facteur ${args.join(' ')} failed\n${describeRun(run)}`);
  return JSON.parse(run.stdout);
}

/** A refused command: non-zero exit, nothing on stdout, a JSON error on stderr. */
async function refused(...args: string[]): Promise<{ type: string; code: string; message: string; param?: string }> {
  const run = await facteur(...args);
  assert.notEqual(run.code, 0, `facteur ${args.join(' ')} should have been refused\n${describeRun(run)}`);
  assert.equal(run.stdout, '', describeRun(run));
  let parsed: any;
  assert.doesNotThrow(
    () => {
      parsed = JSON.parse(run.stderr);
    },
    `stderr is not one JSON document\n${describeRun(run)}`,
  );
  assert.equal(typeof parsed.error?.code, 'string', describeRun(run));
  assert.equal(typeof parsed.error?.message, 'string', describeRun(run));
  return parsed.error;
}

let shared: Promise<string> | undefined;
/** One company for the tests that only need some company to hang keys on (each spawn costs seconds). */
function sharedCompany(): Promise<string> {
  shared ??= newCompany();
  return shared;
}

async function newCompany(plan?: string): Promise<string> {
  const company = await succeed(
    'company',
    'create',
    '--name',
    'CLI SARL',
    '--siren',
    '732829320',
    ...(plan ? ['--plan', plan] : []),
  );
  return company.id as string;
}

async function apiKeyRow(id: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select * from api_keys where id = $1', [id]);
    assert.equal(rows.length, 1, `api_keys has no row ${id}`);
    return rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

// Each command is a process that loads the sources through tsx: a few at a time keep the file short.
describe('facteur company create', { concurrency: 4, timeout }, () => {
  test('creates a company and prints it as JSON with a co_ id', async () => {
    const company = await succeed(
      'company',
      'create',
      '--name',
      'Boulangerie Martin',
      '--siren',
      '552100554',
      '--plan',
      'essential',
    );
    assert.match(company.id, /^co_[0-9a-z]{26}$/);
    assert.equal(company.object, 'company');
    assert.equal(company.name, 'Boulangerie Martin');
    assert.equal(company.siren, '552100554');
    assert.equal(company.plan, 'essential');
    assert.ok(Math.abs(Date.parse(company.created) - Date.now()) < 120_000, `created ${company.created}`);
  });

  test('defaults to the free plan; --email sets where operational alerts go', async () => {
    const company = await succeed(
      'company',
      'create',
      '--name',
      'Sans Plan',
      '--siren',
      '123456782',
      '--email',
      'ops@sans-plan.fr',
    );
    assert.equal(company.plan, 'free');
    assert.equal(company.email, 'ops@sans-plan.fr');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query('select email from companies where id = $1', [company.id]);
    await client.end();
    assert.equal(rows[0].email, 'ops@sans-plan.fr');
  });

  test('refuses a SIREN with a bad check digit (validation_error)', async () => {
    const error = await refused('company', 'create', '--name', 'Mauvais SIREN', '--siren', '123456789');
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'siren');
  });

  test('refuses a missing --name (missing_required_field)', async () => {
    const error = await refused('company', 'create', '--siren', '732829320');
    assert.equal(error.code, 'missing_required_field');
    assert.equal(error.param, 'name');
  });

  test('refuses an unknown plan', async () => {
    const error = await refused(
      'company',
      'create',
      '--name',
      'Plan Inconnu',
      '--siren',
      '732829320',
      '--plan',
      'platinum',
    );
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'plan');
  });

  test('refuses an unknown option rather than ignoring it', async () => {
    const error = await refused('company', 'create', '--name', 'Option', '--siren', '732829320', '--colour', 'blue');
    assert.equal(error.code, 'invalid_field_value');
  });
});

describe('facteur company list', { concurrency: 4, timeout }, () => {
  test('lists every company as JSON: id, name, SIREN, plan, creation date, oldest first', async () => {
    const first = await succeed('company', 'create', '--name', 'Liste Un', '--siren', '552100554', '--plan', 'pro');
    const second = await succeed('company', 'create', '--name', 'Liste Deux', '--siren', '732829320');
    const list = await succeed('company', 'list');
    assert.equal(list.object, 'list');
    const listed = (id: string) => list.data.find((company: { id: string }) => company.id === id);
    assert.deepEqual(listed(first.id), {
      id: first.id,
      object: 'company',
      name: 'Liste Un',
      siren: '552100554',
      plan: 'pro',
      created: first.created,
    });
    assert.equal(listed(second.id)?.plan, 'free');
    const ids = list.data.map((company: { id: string }) => company.id);
    assert.ok(ids.indexOf(first.id) < ids.indexOf(second.id), 'not in creation order');
  });

  test('refuses an argument it does not take', async () => {
    const error = await refused('company', 'list', 'co_x');
    assert.equal(error.code, 'invalid_field_value');
  });
});

describe('facteur company plan', { concurrency: 4, timeout }, () => {
  test("sets the plan of the company's subscription, at once on a running service", async (t) => {
    const h = await startHarness();
    t.after(() => h.close());
    const companyId = await newCompany('free');
    const key = await succeed('key', 'create', '--company', companyId, '--env', 'live');
    assert.equal((await h.call('GET', '/v1/account', { key: key.secret })).data.plan, 'free');

    const subscription = await succeed('company', 'plan', '--id', companyId, '--plan', 'pro');
    assert.equal(subscription.object, 'subscription');
    assert.equal(subscription.plan, 'pro');
    assert.equal(subscription.status, 'active');
    assert.equal(subscription.limits.monthlyQuota, 50_000);

    // The service that cached the company hears of the change (PostgreSQL NOTIFY).
    const deadline = Date.now() + 2000;
    let plan = 'free';
    while (plan !== 'pro' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      plan = (await h.call('GET', '/v1/account', { key: key.secret })).data.plan;
    }
    assert.equal(plan, 'pro');
    const events = await h.call('GET', '/v1/events?type=subscription.renewed', { key: key.secret });
    assert.deepEqual(
      events.data.data.map((event: any) => [event.data.plan, event.data.reason, event.request]),
      [['pro', 'plan_changed', null]],
    );
  });

  test('refuses an unknown plan, an unknown company, a missing --plan', async () => {
    const companyId = await sharedCompany();
    const [plan, company, missing] = await Promise.all([
      refused('company', 'plan', '--id', companyId, '--plan', 'gold'),
      refused('company', 'plan', '--id', 'co_00000000000000000000000000', '--plan', 'pro'),
      refused('company', 'plan', '--id', companyId),
    ]);
    assert.deepEqual([plan.code, plan.param], ['validation_error', 'plan']);
    assert.equal(company.code, 'not_found');
    assert.deepEqual([missing.code, missing.param], ['missing_required_field', 'plan']);
  });
});

describe('facteur key create', { concurrency: 4, timeout }, () => {
  test('creates a test key: key_ id and a svc_test_ secret, stored only as its SHA-256', async () => {
    const companyId = await sharedCompany();
    const key = await succeed('key', 'create', '--company', companyId, '--env', 'test');
    assert.match(key.id, /^key_[0-9a-z]{26}$/);
    assert.match(key.secret, secretPattern);
    assert.ok(key.secret.startsWith('svc_test_'));
    assert.equal(key.company, companyId);
    assert.equal(key.livemode, false);
    assert.equal(key.scopes, null);
    assert.equal(key.expiresAt, null);
    assert.equal(key.revokedAt, null);
    assert.equal(key.secretHint, `svc_test_…${key.secret.slice(-4)}`);

    const row = await apiKeyRow(key.id);
    for (const [column, value] of Object.entries(row)) {
      assert.ok(!JSON.stringify(value ?? null).includes(key.secret), `column ${column} holds the secret`);
    }
    assert.equal(row.secret_hash, createHash('sha256').update(key.secret).digest('hex'));
    assert.equal(row.company_id, companyId);
    assert.equal(row.livemode, false);
  });

  test('creates a live key with scopes and an expiry', async () => {
    const companyId = await newCompany('pro');
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const key = await succeed(
      'key',
      'create',
      '--company',
      companyId,
      '--env',
      'live',
      '--scopes',
      'invoices:read,customers:write',
      '--expires-at',
      expiresAt,
    );
    assert.match(key.id, /^key_/);
    assert.match(key.secret, secretPattern);
    assert.ok(key.secret.startsWith('svc_live_'));
    assert.equal(key.livemode, true);
    assert.deepEqual(key.scopes, ['invoices:read', 'customers:write']);
    assert.equal(key.expiresAt, expiresAt);

    const row = await apiKeyRow(key.id);
    assert.equal(row.secret_hash, createHash('sha256').update(key.secret).digest('hex'));
    assert.deepEqual(row.scopes, ['invoices:read', 'customers:write']);
    assert.equal((row.expires_at as Date).toISOString(), expiresAt);
  });

  test('refuses an unknown scope', async () => {
    const companyId = await sharedCompany();
    const error = await refused(
      'key',
      'create',
      '--company',
      companyId,
      '--env',
      'test',
      '--scopes',
      'invoices:read,invoices:delete',
    );
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'scopes');
    assert.match(error.message, /invoices:delete/);
  });

  test('refuses an expiry in the past', async () => {
    const companyId = await sharedCompany();
    const error = await refused(
      'key',
      'create',
      '--company',
      companyId,
      '--env',
      'test',
      '--expires-at',
      new Date(Date.now() - 60_000).toISOString(),
    );
    assert.equal(error.code, 'invalid_field_value');
    assert.equal(error.param, 'expiresAt');
  });

  test('refuses an expiry that is not a date', async () => {
    const companyId = await sharedCompany();
    const error = await refused(
      'key',
      'create',
      '--company',
      companyId,
      '--env',
      'test',
      '--expires-at',
      'next tuesday',
    );
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'expiresAt');
  });

  // 2030-02-31 once rolled over to 2030-03-03 (new Date() is lenient): an expiry the operator never wrote.
  test('refuses an impossible calendar date as expiry', async () => {
    const companyId = await sharedCompany();
    const error = await refused('key', 'create', '--company', companyId, '--env', 'test', '--expires-at', '2030-02-31');
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'expiresAt');
  });

  test('refuses an unknown environment', async () => {
    const companyId = await sharedCompany();
    const error = await refused('key', 'create', '--company', companyId, '--env', 'staging');
    assert.equal(error.code, 'validation_error');
    assert.equal(error.param, 'env');
  });

  test('refuses an unknown company (not_found)', async () => {
    const error = await refused('key', 'create', '--company', 'co_00000000000000000000000000', '--env', 'test');
    assert.equal(error.code, 'not_found');
    assert.equal(error.type, 'not_found_error');
  });

  test('refuses a missing --company (missing_required_field)', async () => {
    const error = await refused('key', 'create', '--env', 'test');
    assert.equal(error.code, 'missing_required_field');
    assert.equal(error.param, 'company');
  });
});

describe('facteur key list and key revoke', { concurrency: 4, timeout }, () => {
  test('key list shows the company keys, never a secret nor a hash', async () => {
    const companyId = await newCompany();
    const first = await succeed('key', 'create', '--company', companyId, '--env', 'test');
    const second = await succeed('key', 'create', '--company', companyId, '--env', 'live', '--scopes', 'invoices:read');
    const other = await succeed('key', 'create', '--company', await sharedCompany(), '--env', 'test');

    const run = await facteur('key', 'list', '--company', companyId);
    assert.equal(run.code, 0, describeRun(run));
    const list = JSON.parse(run.stdout);
    assert.equal(list.object, 'list');
    assert.deepEqual(list.data.map((key: { id: string }) => key.id).sort(), [first.id, second.id].sort());
    assert.ok(!list.data.some((key: { id: string }) => key.id === other.id), 'another company key is listed');
    for (const key of list.data) {
      assert.equal(key.company, companyId);
      assert.ok(
        !('secret' in key) && !('secretHash' in key) && !('secret_hash' in key),
        `key ${key.id} exposes a secret field`,
      );
    }
    for (const created of [first, second]) {
      assert.ok(!run.stdout.includes(created.secret), 'the list prints a secret');
      const hash = createHash('sha256').update(created.secret).digest('hex');
      assert.ok(!run.stdout.includes(hash), 'the list prints a secret hash');
      assert.ok(run.stdout.includes(created.secretHint), 'the list lacks the secret hint');
    }
  });

  test('key list refuses an unknown company', async () => {
    const error = await refused('key', 'list', '--company', 'co_00000000000000000000000000');
    assert.equal(error.code, 'not_found');
  });

  test('key revoke takes effect on a running service as soon as it hears of it', async (t) => {
    const h = await startHarness();
    t.after(() => h.close());
    const companyId = await sharedCompany();
    const key = await succeed('key', 'create', '--company', companyId, '--env', 'test');

    const before = await h.call('GET', '/v1/account', { key: key.secret });
    assert.equal(before.statusCode, 200, before.body);
    assert.equal(before.data.id, companyId);
    assert.equal(before.data.apiKey.id, key.id);

    const revokedAt = Date.now();
    const revoked = await succeed('key', 'revoke', key.id);
    assert.equal(revoked.id, key.id);
    assert.equal(revoked.object, 'api_key');
    assert.ok(!('secret' in revoked), 'revoke prints the secret');
    assert.equal(typeof revoked.revokedAt, 'string');
    assert.ok(Math.abs(Date.parse(revoked.revokedAt) - revokedAt) < 60_000, `revokedAt ${revoked.revokedAt}`);

    // The running service hears of it (PostgreSQL NOTIFY, delivered apart from the command's exit).
    const deadline = Date.now() + 2000;
    let after = await h.call('GET', '/v1/account', { key: key.secret });
    while (after.statusCode === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      after = await h.call('GET', '/v1/account', { key: key.secret });
    }
    assert.equal(after.statusCode, 401, after.body);
    assert.equal(after.data.error.code, 'api_key_revoked');
    assert.equal(after.data.error.type, 'authentication_error');

    // A second revocation keeps the first date; the list shows the key revoked.
    const again = await succeed('key', 'revoke', key.id);
    assert.equal(again.revokedAt, revoked.revokedAt);
    const list = await succeed('key', 'list', '--company', companyId);
    assert.equal(list.data.find((k: { id: string }) => k.id === key.id)?.revokedAt, revoked.revokedAt);
  });

  test('key revoke refuses an unknown key and a missing id', async () => {
    const [unknown, missing] = await Promise.all([
      refused('key', 'revoke', 'key_00000000000000000000000000'),
      refused('key', 'revoke'),
    ]);
    assert.equal(unknown.code, 'not_found');
    assert.equal(missing.code, 'missing_required_field');
  });
});

describe('facteur migrate and unknown commands', { concurrency: 4, timeout }, () => {
  test('migrate prints JSON, exits 0, and can run again', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const count = async () =>
        (await client.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n as number;
      const applied = await count();
      assert.deepEqual(await succeed('migrate'), { migrated: true });
      assert.deepEqual(await succeed('migrate'), { migrated: true });
      assert.equal(await count(), applied, 'running migrate again applied migrations twice');
    } finally {
      await client.end();
    }
  });

  test('an unknown command exits non-zero and prints nothing on stdout', async () => {
    const run = await facteur('frobnicate');
    assert.notEqual(run.code, 0, describeRun(run));
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /facteur serve/, 'stderr shows the usage');
  });

  test('an unknown subcommand is refused with a JSON error', async () => {
    const [company, key] = await Promise.all([refused('company', 'delete', 'co_x'), refused('key', 'rotate')]);
    assert.equal(company.code, 'invalid_field_value');
    assert.equal(key.code, 'invalid_field_value');
  });
});
