/** `facteur user create`, as an operator runs it: a child process on the suite's database. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanEnv, runFacteur } from '../support/processes.js';
import { startHarness } from '../support/harness.js';
import { PageClient } from '../dashboard/support.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('run the suite with `npm test`: it provides the database');

test('facteur user create', { timeout: 180_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const env = cleanEnv({ DATABASE_URL: databaseUrl, FACTEUR_PUBLIC_URL: 'https://facteur.example.com' });
  const companyId = await h.company();
  const email = `Operator.${Date.now()}@Example.com`;

  const run = await runFacteur(['user', 'create', '--company', companyId, '--email', email], env);
  assert.equal(run.code, 0, run.stderr);
  const user = JSON.parse(run.stdout);
  assert.match(user.id, /^usr_/);
  assert.equal(user.object, 'user');
  assert.equal(user.company, companyId);
  assert.equal(user.email, email.toLowerCase());
  assert.equal(user.passwordSet, false);
  assert.match(user.passwordLink.url, /^https:\/\/facteur\.example\.com\/dashboard\/password\/[A-Za-z0-9_-]{43}$/);
  assert.ok(Date.parse(user.passwordLink.expiresAt) > Date.now() + 6 * 86_400_000, 'good for 7 days');
  const token = user.passwordLink.url.split('/').pop();
  const { rows } = await h.deps.pool.query('select token_hash from password_links where user_id = $1', [user.id]);
  assert.equal(rows.length, 1);
  assert.notEqual(rows[0].token_hash, token, 'only the hash of the link is stored');

  const client = new PageClient(h);
  await client.get(`/dashboard/password/${token}`);
  assert.equal(
    (
      await client.post(`/dashboard/password/${token}`, {
        password: 'set from the link',
        confirmation: 'set from the link',
      })
    ).statusCode,
    303,
  );
  assert.equal(
    (await client.logIn(email, 'set from the link')).statusCode,
    303,
    'the address is matched whatever its case',
  );

  const again = await runFacteur(['user', 'create', '--company', companyId, '--email', email], env);
  assert.notEqual(again.code, 0);
  assert.match(JSON.parse(again.stderr).error.message, /already exists/);
  const noCompany = await runFacteur(['user', 'create', '--company', 'co_nope', '--email', 'x@example.com'], env);
  assert.equal(JSON.parse(noCompany.stderr).error.code, 'not_found');
  const badEmail = await runFacteur(['user', 'create', '--company', companyId, '--email', 'not-an-address'], env);
  assert.equal(JSON.parse(badEmail.stderr).error.code, 'validation_error');
  const missing = await runFacteur(['user', 'create', '--company', companyId], env);
  assert.equal(JSON.parse(missing.stderr).error.code, 'missing_required_field');
});
