import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { createDocumentEmailWorker } from '../../src/mail/service.js';
import { advice, chair, customer, eventsOf, frenchBuyer, seller } from '../invoices/support.js';
import { headerOf, startSmtpServer, textOf } from '../mail/smtp-server.js';

test('a sent quote is e-mailed to its customer with its page; quote.sent when the e-mail leaves', async (t) => {
  const smtp = await startSmtpServer();
  t.after(() => smtp.close());
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { smtpUrl: smtp.url, mailFrom: 'Facteur <devis@facteur.example>' },
  });
  t.after(() => h.close());
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };
  const worker = createDocumentEmailWorker(h.deps, { timeoutMs: 20_000, companies: () => [...ours] });
  t.after(() => worker.stop());
  // The suite's other e-mail workers share the database: each claims its own test's companies only.
  const ours = new Set<string>();
  const ownSeller = async (...args: Parameters<typeof seller>) => {
    const made = await seller(...args);
    ours.add(made.companyId);
    return made;
  };

  async function sentQuote(key: string, customerBody: Record<string, unknown>) {
    const customerId = await customer(h, key, customerBody);
    const created = await h.call('POST', '/v1/quotes', { key, body: { customerId, lines: [chair, advice] } });
    assert.equal(created.statusCode, 201, created.body);
    const finalized = await h.call('POST', `/v1/quotes/${created.data.id}/finalize`, { key });
    assert.equal(finalized.statusCode, 200, finalized.body);
    const sent = await h.call('POST', `/v1/quotes/${created.data.id}/send`, { key });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.data.status, 'sent');
    return sent.data;
  }
  const quoteSent = async (key: string) => (await eventsOf(h, key)).filter((e: any) => e.type === 'quote.sent');

  await t.test('live: the e-mail leaves through SMTP, then quote.sent', async () => {
    const { key } = await ownSeller(h, { env: 'live' });
    const quote = await sentQuote(key, frenchBuyer);
    assert.equal((await quoteSent(key)).length, 0, 'not before the e-mail leaves');
    assert.equal(smtp.received.length, 0);
    await worker.drain();
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0]!;
    assert.deepEqual(mail.to, [frenchBuyer.email]);
    assert.equal(headerOf(mail.raw, 'Subject'), `Devis ${quote.number} de Vendeur SAS`);
    assert.match(textOf(mail.raw), new RegExp(`Consulter, accepter ou refuser ce devis : ${quote.publicUrl}`));
    const events = await quoteSent(key);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.id, quote.id);
    assert.equal(events[0].data.status, 'sent');
  });

  await t.test('test mode: the e-mail is logged, never sent; quote.sent at once', async () => {
    const { key } = await ownSeller(h);
    const before = smtp.received.length;
    const quote = await sentQuote(key, { ...frenchBuyer, email: 'devis@client.example' });
    assert.equal((await quoteSent(key)).length, 1);
    await worker.drain();
    assert.equal(smtp.received.length, before, 'never sent');
    const { rows } = await h.deps.pool.query(
      'select status, "to", subject from document_emails where document_id = $1 and livemode = false',
      [quote.id],
    );
    assert.deepEqual(rows, [
      { status: 'logged', to: 'devis@client.example', subject: `Devis ${quote.number} de Vendeur SAS` },
    ]);
  });
});
