import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../support/harness.js';
import { inTransaction, type CallContext } from '../../src/db/transaction.js';
import { createCompany } from '../../src/companies/service.js';
import { currentVersion } from '../../src/kernel/api-version.js';
import { createDocumentEmailWorker, queueDocumentEmail, type DocumentMailRequest } from '../../src/mail/service.js';
import { claimDueDocumentEmails } from '../../src/mail/store.js';
import { createSmtpSender } from '../../src/mail/smtp-sender.js';
import { attachmentOf, headerOf, startSmtpServer, textOf, type LocalSmtpServer } from './smtp-server.js';

/** A PDF as a document's frozen file would be: its bytes must arrive unchanged. */
const pdfBytes = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]),
  Buffer.from('\n%%EOF\n'),
]);

function request(overrides: Partial<DocumentMailRequest> = {}): DocumentMailRequest {
  return {
    kind: 'invoice',
    documentId: 'inv_mail',
    number: 'F2026-000042',
    to: 'camille@client.example',
    buyerName: 'Camille Martin',
    country: 'FR',
    amount: { cents: 12000, currency: 'EUR' },
    link: null,
    attachment: {
      fileName: 'F2026-000042.pdf',
      contentType: 'application/pdf',
      contentBase64: pdfBytes.toString('base64'),
    },
    event: { type: 'invoice.sent', data: { id: 'inv_mail', object: 'invoice', status: 'sent' } },
    ...overrides,
  };
}

interface Setup {
  h: Harness;
  companyId: string;
  queue(overrides?: Partial<DocumentMailRequest>, livemode?: boolean): Promise<string>;
  row(documentId: string): Promise<{ status: string; attempts: number; error: string | null }>;
  rows(): Promise<
    {
      id: string;
      status: string;
      attempts: number;
      error: string | null;
      message_id: string;
      smtp_response: string | null;
    }[]
  >;
  eventTypes(): Promise<string[]>;
}

async function setup(smtpUrl: string | null): Promise<Setup> {
  const h = await startHarness({
    clockStart: '2026-11-24T10:00:00.000Z',
    config: { smtpUrl, mailFrom: 'Facteur <factures@facteur.example>' },
  });
  const company = await createCompany(h.deps, {
    name: 'Atelier Bois SARL',
    siren: '732829320',
    email: 'ops@bois.example',
  });
  return {
    h,
    companyId: company.id,
    async queue(overrides = {}, livemode = true) {
      const ctx: CallContext = {
        scope: { companyId: company.id, livemode },
        requestId: 'req_mail',
        idempotencyKey: null,
        apiVersion: currentVersion,
        now: h.clock.now(),
      };
      return inTransaction(h.deps.db, ctx, (tx) => queueDocumentEmail(tx, ctx, h.deps.config, request(overrides)));
    },
    async row(documentId) {
      const { rows } = await h.deps.pool.query(
        'select status, attempts, error from document_emails where company_id = $1 and document_id = $2',
        [company.id, documentId],
      );
      assert.equal(rows.length, 1);
      return rows[0];
    },
    async rows() {
      const { rows } = await h.deps.pool.query(
        'select id, status, attempts, error, message_id, smtp_response from document_emails where company_id = $1 order by id',
        [company.id],
      );
      return rows;
    },
    async eventTypes() {
      const { rows } = await h.deps.pool.query(
        `select type from events where company_id = $1 and type not like 'subscription.%' order by id`,
        [company.id],
      );
      return rows.map((row: { type: string }) => row.type);
    },
  };
}

/** A port nothing listens on (yet): the SMTP server is down. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('document e-mails through a real SMTP server', async (t) => {
  const smtp: LocalSmtpServer = await startSmtpServer();
  t.after(() => smtp.close());
  const s = await setup(smtp.url);
  t.after(() => s.h.close());
  const worker = createDocumentEmailWorker(s.h.deps, { timeoutMs: 20_000, companies: () => [s.companyId] });
  t.after(() => worker.stop());

  await t.test('sent once with the PDF attached, from the company; the event when it leaves', async () => {
    assert.equal(await s.queue(), 'pending');
    assert.deepEqual(await s.eventTypes(), [], 'no invoice.sent before the e-mail leaves');
    await worker.drain();
    assert.equal(smtp.received.length, 1);
    const [mail] = smtp.received;
    assert.equal(mail!.user, 'facteur', 'authenticated with the user of FACTEUR_SMTP_URL');
    assert.deepEqual(mail!.to, ['camille@client.example']);
    assert.equal(mail!.from, 'factures@facteur.example');
    assert.equal(headerOf(mail!.raw, 'From'), 'Atelier Bois SARL <factures@facteur.example>');
    assert.equal(headerOf(mail!.raw, 'Reply-To'), 'ops@bois.example');
    assert.equal(headerOf(mail!.raw, 'Subject'), 'Facture F2026-000042 de Atelier Bois SARL');
    const [row] = await s.rows();
    assert.equal(headerOf(mail!.raw, 'Message-ID'), row!.message_id);
    assert.match(row!.message_id, /^<em_[0-9a-z]+\.co_[0-9a-z]+@facteur\.example>$/);
    assert.match(
      textOf(mail!.raw),
      /Veuillez trouver ci-joint la facture F2026-000042 de Atelier Bois SARL, d'un montant de 120,00 EUR\./,
    );
    assert.deepEqual(
      attachmentOf(mail!.raw, 'F2026-000042.pdf'),
      pdfBytes,
      'the attachment is the frozen file, byte for byte',
    );
    assert.equal(row!.status, 'sent');
    assert.match(row!.smtp_response!, /^250/);
    assert.deepEqual(await s.eventTypes(), ['invoice.sent']);
    await worker.drain();
    assert.equal(smtp.received.length, 1, 'sent once');
  });

  await t.test('English for a buyer abroad', async () => {
    await s.queue({ kind: 'credit_note', number: 'A2026-000003', country: 'DE', event: null });
    await worker.drain();
    const mail = smtp.received.at(-1)!;
    assert.equal(headerOf(mail.raw, 'Subject'), 'Credit note A2026-000003 from Atelier Bois SARL');
    assert.match(textOf(mail.raw), /Please find attached credit note A2026-000003/);
  });

  await t.test('a 4xx is retried with backoff and sent once', async () => {
    const before = smtp.received.length;
    smtp.refusals.push({ code: 451, message: 'Greylisted, try again later' });
    await s.queue({ documentId: 'inv_grey' });
    await worker.drain();
    let row = await s.row('inv_grey');
    assert.deepEqual([row.status, row.attempts], ['pending', 1]);
    assert.match(row.error!, /451|Greylisted/);
    await worker.drain();
    assert.equal(smtp.received.length, before, 'not before its time');
    s.h.clock.advance(60_000);
    await worker.drain();
    row = await s.row('inv_grey');
    assert.deepEqual([row.status, row.attempts], ['sent', 2]);
    assert.equal(smtp.received.length, before + 1, 'one message arrived');
  });

  await t.test('a 5xx is a bounce: recorded, no event, the company told', async () => {
    const events = (await s.eventTypes()).length;
    smtp.refusals.push({ code: 550, message: 'No such user here' });
    await s.queue({ to: 'nobody@client.example', documentId: 'inv_bounce' });
    await worker.drain();
    const row = await s.row('inv_bounce');
    assert.deepEqual([row.status, row.attempts], ['bounced', 1]);
    assert.match(row.error!, /550|No such user/);
    assert.equal((await s.eventTypes()).length, events, 'the document did not leave: no event');
    const { rows } = await s.h.deps.pool.query('select subject, "to" from emails where company_id = $1', [s.companyId]);
    assert.equal(rows.length, 1);
    assert.match(rows[0].subject, /^E-mail not delivered: Facture F2026-000042/);
    s.h.clock.advance(24 * 3600_000);
    await worker.drain();
    assert.equal((await s.row('inv_bounce')).status, 'bounced', 'never tried again');
  });

  await t.test('a crash after the server accepted and before the record: not sent twice', async () => {
    await s.queue({ documentId: 'inv_crash' });
    // A worker claims the e-mail (its claim commits `sending`), hands it to the server, and dies.
    const [claimed] = await inTransaction(s.h.deps.db, null, (tx) =>
      claimDueDocumentEmails(tx, { now: s.h.clock.now(), limit: 10, leaseMs: 180_000, token: 'dead-worker' }),
    );
    assert.equal(claimed!.status, 'sending');
    const before = smtp.received.length;
    const dying = createSmtpSender(smtp.url);
    await dying.send({ ...claimed!, to: claimed!.to!, text: claimed!.body });
    dying.close();
    assert.equal(smtp.received.length, before + 1);
    await worker.drain();
    assert.equal((await s.row('inv_crash')).status, 'sending', 'leased to the dead worker');
    s.h.clock.advance(181_000);
    await worker.drain();
    const row = await s.row('inv_crash');
    assert.equal(row.status, 'unconfirmed', 'in doubt, never sent again');
    s.h.clock.advance(24 * 3600_000);
    await worker.drain();
    assert.equal(smtp.received.length, before + 1, 'the server has it once');
  });

  await t.test('test mode: logged, never sent; the event at once', async () => {
    const before = smtp.received.length;
    const events = (await s.eventTypes()).length;
    assert.equal(await s.queue({ documentId: 'inv_test' }, false), 'logged');
    await worker.drain();
    assert.equal(smtp.received.length, before, 'never sent');
    const { rows } = await s.h.deps.pool.query(
      `select status, error, subject from document_emails where company_id = $1 and livemode = false`,
      [s.companyId],
    );
    assert.deepEqual(rows, [
      {
        status: 'logged',
        error: 'test mode: e-mails are logged, never sent',
        subject: 'Facture F2026-000042 de Atelier Bois SARL',
      },
    ]);
    assert.equal((await s.eventTypes()).length, events + 1);
  });

  await t.test('no recipient: logged, the event at once', async () => {
    assert.equal(await s.queue({ to: null, documentId: 'inv_nobody' }), 'logged');
    assert.equal((await s.row('inv_nobody')).error, 'the customer has no e-mail address');
  });
});

test('the SMTP server down: retried, nothing lost', async (t) => {
  const port = await freePort();
  const s = await setup(`smtp://facteur:s3cret@127.0.0.1:${port}`);
  t.after(() => s.h.close());
  const worker = createDocumentEmailWorker(s.h.deps, { timeoutMs: 20_000, companies: () => [s.companyId] });
  t.after(() => worker.stop());
  await s.queue();
  await worker.drain();
  let [row] = await s.rows();
  assert.deepEqual([row!.status, row!.attempts], ['pending', 1]);
  assert.match(row!.error!, /ECONNREFUSED|ECONNECTION|connect/i);
  assert.deepEqual(await s.eventTypes(), []);
  const key = await s.h.key(s.companyId, { env: 'live' });
  const emailState = async () => (await s.h.call('GET', '/v1/account/services', { key })).data.email;
  const down = await emailState();
  assert.deepEqual([down.configured, down.provider, down.status], [true, 'smtp', 'failing']);
  assert.match(down.lastFailure, /ECONNREFUSED|ECONNECTION|connect/i);
  const smtp = await startSmtpServer({ port });
  t.after(() => smtp.close());
  s.h.clock.advance(60_000);
  await worker.drain();
  [row] = await s.rows();
  assert.deepEqual([row!.status, row!.attempts], ['sent', 2]);
  assert.equal(smtp.received.length, 1);
  assert.deepEqual(await s.eventTypes(), ['invoice.sent']);
  const up = await emailState();
  assert.deepEqual([up.status, up.lastFailure], ['operational', null]);
  assert.equal(up.lastExchangeAt, s.h.clock.now().toISOString());
});

test('without an SMTP server configured, live e-mails are logged and the worker claims nothing', async (t) => {
  const s = await setup(null);
  t.after(() => s.h.close());
  assert.equal(await s.queue(), 'logged');
  assert.equal((await s.rows())[0]!.error, 'no SMTP server configured (FACTEUR_SMTP_URL)');
  assert.deepEqual(await s.eventTypes(), ['invoice.sent']);
  const live = await s.h.call('GET', '/v1/account/services', { key: await s.h.key(s.companyId, { env: 'live' }) });
  assert.equal(live.statusCode, 200, live.body);
  assert.deepEqual(live.data.email, {
    configured: false,
    provider: null,
    status: 'not_configured',
    lastExchangeAt: null,
    lastFailure: null,
  });
  // Test mode simulates every outside service.
  const sandbox = await s.h.call('GET', '/v1/account/services', { key: await s.h.key(s.companyId) });
  assert.equal(sandbox.data.livemode, false);
  for (const service of ['directory', 'vies', 'email'])
    assert.deepEqual([sandbox.data[service].provider, sandbox.data[service].status], ['sandbox', 'operational']);
});
