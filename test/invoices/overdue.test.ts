import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { markOverdueInvoices } from '../../src/invoices/service.js';
import { invoicesCapability } from '../../src/invoices/index.js';
import { eventsOf, finalizedInvoice, seller, sellerProfile } from './support.js';

test('invoice.overdue: the due date passes without full payment', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test(
    'test invoices follow the sandbox clock: the day after the due date, once; paid ones never',
    async () => {
      const { companyId, key } = await seller(h);
      const unpaid = await finalizedInvoice(h, key, { body: { paymentTermsDays: 10 } });
      const partly = await finalizedInvoice(h, key, { body: { paymentTermsDays: 10 } });
      const paid = await finalizedInvoice(h, key, { body: { paymentTermsDays: 10 } });
      const later = await finalizedInvoice(h, key, { body: { paymentTermsDays: 30 } });
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: partly.id, amount: 100 } });
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: paid.id, amount: paid.total } });
      assert.equal(unpaid.dueDate, '2026-10-25');
      const only = { companyIds: [companyId] };
      assert.equal(await markOverdueInvoices(h.deps, only), 0);
      // The due date itself is not past: 10 days later is still the 25th.
      await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 10 * 86_400 } });
      assert.equal((await eventsOf(h, key, 'invoice.overdue')).length, 0);
      await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 86_400 } });
      const events = await eventsOf(h, key, 'invoice.overdue');
      assert.deepEqual(
        events.map((e) => e.data.id).sort(),
        [unpaid.id, partly.id].sort(),
        'the clock advance ran the pass for the company',
      );
      const event = events.find((e) => e.data.id === partly.id)!;
      assert.deepEqual(
        [event.data.status, event.data.previous_status, event.data.paymentStatus, event.data.number],
        ['partially_paid', 'partially_paid', 'partially_paid', partly.number],
      );
      assert.equal((await h.call('GET', `/v1/invoices/${unpaid.id}`, { key })).data.overdue, true);
      assert.equal((await h.call('GET', `/v1/invoices/${later.id}`, { key })).data.overdue, false);
      assert.equal(await markOverdueInvoices(h.deps, only), 0, 'once');
      await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 30 * 86_400 } });
      assert.equal((await eventsOf(h, key, 'invoice.overdue')).length, 3, 'the later one in its turn');
    },
  );

  await t.test('live invoices follow real time, whatever the sandbox clock; the periodic pass finds them', async () => {
    const { companyId, key } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
    const invoice = await finalizedInvoice(h, live, { body: { paymentTermsDays: 0 } });
    await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 5 * 86_400 } });
    assert.equal((await eventsOf(h, live, 'invoice.overdue')).length, 0, 'the sandbox clock does not move live time');
    h.clock.advance(86_400_000 + 1);
    // The capability's periodic pass, as the workers run it.
    const pass = invoicesCapability.passes!.find((candidate) => candidate.name === 'invoices.overdue')!;
    assert.ok((await pass.run(h.deps)) >= 1);
    const [event] = await eventsOf(h, live, 'invoice.overdue');
    assert.equal(event.data.id, invoice.id);
    assert.equal(event.livemode, true);
    assert.equal(event.data.livemode, true);
  });

  await t.test('a refused or fully credited invoice is not overdue', async () => {
    const { companyId, key } = await seller(h);
    const refused = await finalizedInvoice(h, key, { body: { paymentTermsDays: 1 } });
    await h.call('POST', `/v1/invoices/${refused.id}/send`, { key });
    await h.call('POST', `/v1/sandbox/invoices/${refused.id}/simulate`, {
      key,
      body: { status: 'fr:210', reasonCode: 'TX_TVA_ERR' },
    });
    await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 3 * 86_400 } });
    assert.equal(await markOverdueInvoices(h.deps, { companyIds: [companyId] }), 0);
    assert.equal((await eventsOf(h, key, 'invoice.overdue')).length, 0);
  });
});
