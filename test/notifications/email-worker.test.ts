import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { createEmailWorker, queueCompanyEmail } from '../../src/notifications/service.js';
import { createCompany } from '../../src/companies/service.js';
import type { Mailer } from '../../src/notifications/mailer.js';

const ownSubjects = new Set(['first', 'second', 'third', 'sandbox']);

/** An SMTP server as the worker sees it: each message received, or a failure on demand. */
function recordingMailer(): Mailer & { sent: { to: string; subject: string }[]; failing: boolean } {
  const mailer = {
    sent: [] as { to: string; subject: string }[],
    failing: false,
    async send(message: { to: string; subject: string; text: string }) {
      if (mailer.failing) throw new Error('421 try again later');
      // The worker claims every company's e-mails of the suite's database: keep this test's only.
      if (ownSubjects.has(message.subject)) mailer.sent.push({ to: message.to, subject: message.subject });
    },
  };
  return mailer;
}

async function emailRows(h: Awaited<ReturnType<typeof startHarness>>, companyId: string) {
  const { rows } = await h.deps.pool.query(
    'select status, attempts, next_attempt_at, lock_token, error from emails where company_id = $1',
    [companyId],
  );
  return rows as { status: string; attempts: number; next_attempt_at: Date | null; lock_token: string | null }[];
}

test('an e-mail is a row sent once by the worker, retried after a failure, taken over after a crash', async (t) => {
  const h = await startHarness({ clockStart: '2026-11-24T10:00:00.000Z' });
  t.after(() => h.close());
  const mailer = recordingMailer();
  const deps = { ...h.deps, mailer };
  const company = await createCompany(h.deps, { name: 'Mail SAS', siren: '732829320', email: 'ops@example.com' });
  const scope = { companyId: company.id, livemode: true };
  const queue = (subject: string) =>
    inTransaction(h.deps.db, null, (tx) =>
      queueCompanyEmail(tx, scope, { subject, body: 'text' }, h.clock.now(), true),
    );

  await queue('first');
  const worker = createEmailWorker(deps);
  await worker.drain();
  assert.deepEqual(mailer.sent, [{ to: 'ops@example.com', subject: 'first' }]);
  assert.equal((await emailRows(h, company.id))[0]!.status, 'sent');
  await worker.drain();
  assert.equal(mailer.sent.length, 1, 'sent once');

  // A failing server: the e-mail stays pending, retried a minute later.
  await h.deps.pool.query('delete from emails where company_id = $1', [company.id]);
  mailer.failing = true;
  await queue('second');
  await worker.drain();
  let [row] = await emailRows(h, company.id);
  assert.equal(row!.status, 'pending');
  assert.equal(row!.attempts, 1);
  assert.equal(row!.next_attempt_at!.toISOString(), '2026-11-24T10:01:00.000Z');
  mailer.failing = false;
  await worker.drain();
  assert.equal(mailer.sent.length, 1, 'not before its time');
  h.clock.advance(60_000);
  await worker.drain();
  assert.deepEqual(mailer.sent.at(-1), { to: 'ops@example.com', subject: 'second' });

  // A worker that dies holding the e-mail: another sends it once the lease lapses, not before.
  await queue('third');
  await h.deps.pool.query(
    `update emails set lock_token = 'dead-worker', locked_until = $2 where company_id = $1 and status = 'pending'`,
    [company.id, new Date(h.clock.now().getTime() + 120_000)],
  );
  await worker.drain();
  assert.equal(mailer.sent.length, 2, 'leased to the dead worker');
  h.clock.advance(121_000);
  await worker.drain();
  assert.deepEqual(mailer.sent.at(-1), { to: 'ops@example.com', subject: 'third' });
  assert.ok((await emailRows(h, company.id)).every((email) => email.status === 'sent'));

  // Test-mode e-mails are logged, never sent.
  await inTransaction(h.deps.db, null, (tx) =>
    queueCompanyEmail(tx, { ...scope, livemode: false }, { subject: 'sandbox', body: 'x' }, h.clock.now(), true),
  );
  await worker.drain();
  assert.equal(mailer.sent.length, 3);
  assert.ok((await emailRows(h, company.id)).some((email) => email.status === 'logged'));
});
