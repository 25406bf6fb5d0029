import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { customer, frenchBuyer, seller, sellerProfile } from '../invoices/support.js';
import { periodAt, runAt } from '../../src/recurring/schedule.js';
import { runRecurringInvoices } from '../../src/recurring/runs.js';
import { addDays, dayOf } from '../../src/kernel/calendar.js';
import { advanceTo, advice, eventsOf, generated, recurring, tomorrow } from './support.js';

test('recurring invoices', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  // The clock moves a second before each request, so that what requests create lists in their order.
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };

  await t.test('create, read, list, update: the template, the schedule and their checks', async () => {
    const { companyId, key } = await seller(h);
    const customerId = await customer(h, key);
    const start = tomorrow(h);
    const created = await recurring(h, key, {
      customerId,
      dayOfMonth: 31,
      count: 3,
      paymentTermsDays: 15,
      notes: 'Abonnement',
      metadata: { plan: 'gold' },
    });
    assert.match(created.id, /^rinv_[0-9a-z]{26}$/);
    assert.equal(created.object, 'recurring_invoice');
    assert.equal(created.livemode, false);
    assert.equal(created.status, 'active');
    assert.deepEqual([created.mode, created.autoSend, created.taxSource], ['draft', false, 'service']);
    const schedule = { interval: 'monthly' as const, dayOfMonth: 31, startDate: start, endDate: null, count: 3 };
    assert.equal(created.nextPeriod, periodAt(schedule, 0));
    assert.equal(created.nextRunAt, runAt(periodAt(schedule, 0)!).toISOString());
    assert.deepEqual([created.lastRun, created.invoicesGenerated, created.runsFailed], [null, 0, 0]);
    assert.deepEqual(created.lines, [advice]);
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${created.id}`, { key })).data.id, created.id);

    const refusals: [Record<string, unknown>, number, string, string | undefined][] = [
      [{ startDate: addDays(dayOf(h.clock.now()), -1) }, 400, 'invalid_field_value', 'startDate'],
      [{ endDate: addDays(start, 90), count: 2 }, 400, 'invalid_field_value', 'count'],
      [{ autoSend: true }, 400, 'invalid_field_value', 'autoSend'],
      [{ interval: 'weekly' }, 422, 'validation_error', 'interval'],
      [{ dayOfMonth: 32 }, 400, 'invalid_field_value', 'dayOfMonth'],
      [{ customerId: 'cus_00000000000000000000000000' }, 404, 'not_found', 'customerId'],
      [{ customerId, buyer: frenchBuyer }, 400, 'invalid_field_value', 'buyer'],
      [
        { customerId, lines: [{ ...advice, productId: 'prod_00000000000000000000000000' }] },
        404,
        'not_found',
        'lines[0].productId',
      ],
      // No day of the schedule falls between start and end (the start given: today's default would
      // make the test depend on the day it runs).
      [
        { startDate: start, dayOfMonth: Number(start.slice(8)) === 1 ? 2 : 1, endDate: start },
        400,
        'invalid_field_value',
        'endDate',
      ],
    ];
    for (const [body, status, code, param] of refusals) {
      const response = await h.call('POST', '/v1/recurring-invoices', {
        key,
        body: { interval: 'monthly', lines: [advice], customerId, ...body },
      });
      assert.equal(response.statusCode, status, `${JSON.stringify(body)}: ${response.body}`);
      assert.equal(response.data.error.code, code, JSON.stringify(body));
      if (param) assert.equal(response.data.error.param, param, JSON.stringify(body));
    }
    const missing = await h.call('POST', '/v1/recurring-invoices', { key, body: { interval: 'monthly', customerId } });
    assert.equal(missing.data.error.code, 'missing_required_field');

    const other = await recurring(h, key, { buyer: frenchBuyer, interval: 'quarterly' });
    assert.equal(other.buyer.name, frenchBuyer.name);
    const list = await h.call('GET', '/v1/recurring-invoices', { key });
    assert.deepEqual(
      list.data.data.map((item: any) => item.id),
      [other.id, created.id],
    );
    assert.deepEqual(
      (await h.call('GET', `/v1/recurring-invoices?customerId=${customerId}`, { key })).data.data.map((i: any) => i.id),
      [created.id],
    );

    const updated = await h.call('POST', `/v1/recurring-invoices/${created.id}`, {
      key,
      body: { dayOfMonth: 10, notes: null, count: null, endDate: addDays(start, 400) },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual([updated.data.dayOfMonth, updated.data.notes, updated.data.count], [10, null, null]);
    assert.equal(updated.data.nextPeriod, periodAt({ ...schedule, dayOfMonth: 10, count: null }, 0));
    const toBuyer = await h.call('POST', `/v1/recurring-invoices/${created.id}`, { key, body: { buyer: frenchBuyer } });
    assert.deepEqual([toBuyer.data.customerId, toBuyer.data.buyer.name], [null, frenchBuyer.name]);

    // Scopes: the invoices pair; another company or environment does not see it.
    const reader = await h.key(companyId, { scopes: ['invoices:read'] });
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${created.id}`, { key: reader })).statusCode, 200);
    const write = await h.call('POST', `/v1/recurring-invoices/${created.id}/pause`, { key: reader });
    assert.equal(write.data.error.code, 'scope_insufficient');
    const stranger = await h.tenant();
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${created.id}`, { key: stranger.key })).statusCode, 404);
    const live = await h.key(companyId, { env: 'live' });
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${created.id}/invoices`, { key: live })).statusCode, 404);
  });

  await t.test(
    'draft mode: each period a draft (invoice.created, recurring_invoice.generated) on the sandbox clock; 31 falls on short months’ last day',
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const template = await recurring(h, key, { customerId, dayOfMonth: 31, count: 2, paymentTermsDays: 15 });
      const schedule = {
        interval: 'monthly' as const,
        dayOfMonth: 31,
        startDate: template.startDate,
        endDate: null,
        count: 2,
      };
      const [first, second] = [periodAt(schedule, 0)!, periodAt(schedule, 1)!];
      assert.deepEqual(await generated(h, key, template.id), [], 'nothing before the first period');

      await advanceTo(h, key, runAt(first).toISOString());
      const [draft] = await generated(h, key, template.id);
      assert.ok(draft, 'the first period made its draft');
      assert.deepEqual(
        [draft.documentStatus, draft.recurringInvoiceId, draft.customerId, draft.paymentTermsDays, draft.issueDate],
        ['draft', template.id, customerId, 15, null],
      );
      assert.deepEqual(
        draft.lines.map((line: any) => [line.description, line.quantity, line.unitPrice]),
        [[advice.description, advice.quantity, advice.unitPrice]],
      );
      const [event] = await eventsOf(h, key, 'recurring_invoice.generated');
      assert.deepEqual(event.data, {
        id: draft.id,
        object: 'invoice',
        recurringInvoiceId: template.id,
        livemode: false,
        period: first,
      });
      assert.equal((await eventsOf(h, key, 'invoice.created')).filter((e) => e.data.id === draft.id).length, 1);
      const after = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
      assert.deepEqual(after.lastRun, { period: first, status: 'generated', invoiceId: draft.id, error: null });
      assert.deepEqual([after.invoicesGenerated, after.nextPeriod, after.status], [1, second, 'active']);

      await advanceTo(h, key, runAt(second).toISOString());
      const both = await generated(h, key, template.id);
      assert.equal(both.length, 2);
      const done = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
      assert.deepEqual([done.status, done.nextRunAt, done.invoicesGenerated], ['completed', null, 2]);
      await advanceTo(h, key, new Date(runAt(second).getTime() + 120 * 86_400_000).toISOString());
      assert.equal((await generated(h, key, template.id)).length, 2, 'a completed schedule runs no more');
      // Updated while completed: a schedule with periods left (on or after today) is active again.
      const extended = await h.call('POST', `/v1/recurring-invoices/${template.id}`, { key, body: { count: 12 } });
      const today = (await h.call('GET', '/v1/sandbox/clock', { key })).data.now.slice(0, 10);
      assert.equal(extended.data.status, 'active');
      assert.ok(extended.data.nextPeriod >= today, `${extended.data.nextPeriod} on or after ${today}`);
      assert.equal((await generated(h, key, template.id)).length, 2, 'the periods passed are not made up');

      // The list of its invoices is a list of its own: another invoice is not its cursor.
      const page = await h.call('GET', `/v1/recurring-invoices/${template.id}/invoices?limit=1`, { key });
      assert.equal(page.data.has_more, true);
      const next = await h.call(
        'GET',
        `/v1/recurring-invoices/${template.id}/invoices?limit=1&starting_after=${page.data.next_cursor}`,
        { key },
      );
      assert.deepEqual(
        next.data.data.map((i: any) => i.id),
        [both[1].id],
      );
      const stray = await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [advice] } });
      const wrong = await h.call(
        'GET',
        `/v1/recurring-invoices/${template.id}/invoices?starting_after=${stray.data.id}`,
        { key },
      );
      assert.equal(wrong.statusCode, 400);
      assert.deepEqual([wrong.data.error.code, wrong.data.error.param], ['invalid_field_value', 'starting_after']);
    },
  );

  await t.test(
    'auto_finalize: a fresh tax decision each period, then the number; autoSend sends it (simulated platform)',
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const template = await recurring(h, key, { customerId, mode: 'auto_finalize', autoSend: true, count: 2 });
      const schedule = {
        interval: 'monthly' as const,
        dayOfMonth: template.dayOfMonth,
        startDate: template.startDate,
        endDate: null,
        count: 2,
      };
      await advanceTo(h, key, runAt(periodAt(schedule, 1)!).toISOString());
      const invoices = await generated(h, key, template.id);
      assert.equal(invoices.length, 2);
      for (const invoice of invoices) {
        assert.equal(invoice.documentStatus, 'finalized');
        assert.match(invoice.number, /^TEST-F\d{4}-\d{6}$/);
        assert.equal(invoice.total, 21_600, '2 x 90.00 + 20 % VAT');
        assert.equal(invoice.transmissionStatus, 'sending', 'sent to the (simulated) platform');
        assert.match(invoice.taxDecisionId, /^txd_/);
      }
      assert.notEqual(invoices[0].taxDecisionId, invoices[1].taxDecisionId, 'one decision per run');
      const dates = [];
      for (const invoice of invoices)
        dates.push((await h.call('GET', `/v1/tax-decisions/${invoice.taxDecisionId}`, { key })).data.date);
      assert.deepEqual(dates.sort(), [periodAt(schedule, 0), periodAt(schedule, 1)], 'each operation dated its period');
      const events = await eventsOf(h, key, 'recurring_invoice.generated');
      assert.deepEqual(events.map((e) => e.data.id).sort(), invoices.map((i: any) => i.id).sort());
      for (const type of ['invoice.finalized', 'invoice.sent'])
        assert.equal((await eventsOf(h, key, type)).length, 2, type);
      const done = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
      assert.deepEqual([done.status, done.invoicesGenerated, done.lastRun.status], ['completed', 2, 'generated']);
    },
  );

  await t.test(
    'a refusal is recurring_invoice.failed (code and message, the next run); the schedule goes on',
    async () => {
      // No tax profile in this company: the decision is refused (tax_profile_missing); the draft stays.
      const { key } = await h.tenant();
      const customerId = await customer(h, key);
      const template = await recurring(h, key, { customerId, mode: 'auto_finalize' });
      await advanceTo(h, key, template.nextRunAt);
      const [failed] = await eventsOf(h, key, 'recurring_invoice.failed');
      assert.ok(failed, 'recurring_invoice.failed');
      const [draft] = await generated(h, key, template.id);
      assert.equal(draft.documentStatus, 'draft', 'the draft stays, for the account holder to finish');
      const after = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
      assert.equal(failed.data.id, template.id);
      assert.equal(failed.data.object, 'recurring_invoice');
      assert.equal(failed.data.errorCode, 'tax_profile_missing');
      assert.match(failed.data.error, /^tax_profile_missing: .+/);
      assert.equal(failed.data.invoiceId, draft.id);
      assert.equal(failed.data.nextRunAt, after.nextRunAt);
      assert.ok(after.nextRunAt > template.nextRunAt, 'the next period is scheduled');
      assert.deepEqual(
        [after.runsFailed, after.lastRun.status, after.lastRun.error.code],
        [1, 'failed', 'tax_profile_missing'],
      );

      // A customer deleted since: refused before any draft.
      const gone = await customer(h, key);
      const orphan = await recurring(h, key, { customerId: gone });
      await h.call('DELETE', `/v1/customers/${gone}`, { key });
      await advanceTo(h, key, orphan.nextRunAt);
      const refused = (await eventsOf(h, key, 'recurring_invoice.failed')).find((e) => e.data.id === orphan.id);
      assert.deepEqual([refused.data.errorCode, refused.data.invoiceId], ['resource_deleted', null]);
      assert.deepEqual(await generated(h, key, orphan.id), []);
    },
  );

  await t.test(
    'live: sending answers pa_not_configured (failed, the invoice finalized); the quota reached fails the run',
    async () => {
      const { companyId, key: test } = await seller(h, { plan: 'essential' });
      const live = await h.key(companyId, { env: 'live' });
      assert.equal((await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile })).statusCode, 201);
      const customerId = await customer(h, live);
      const sending = await recurring(h, live, { customerId, mode: 'auto_finalize', autoSend: true });
      const counted = await recurring(h, live, {
        customerId,
        mode: 'auto_finalize',
        dayOfMonth: Number(tomorrow(h).slice(8)),
      });
      // Live templates run on real time: the sandbox clock does nothing to them.
      await h.call('POST', '/v1/sandbox/clock/advance', { key: test, body: { seconds: 5 * 86_400 } });
      assert.deepEqual(await generated(h, live, sending.id), []);

      h.clock.set(new Date(Date.parse(sending.nextRunAt) + 1000));
      await runRecurringInvoices(h.deps, [companyId]);
      const [sent] = await generated(h, live, sending.id);
      assert.equal(sent.documentStatus, 'finalized');
      assert.equal(sent.transmissionStatus, 'pending', 'not sent');
      const failures = await eventsOf(h, live, 'recurring_invoice.failed');
      const notSent = failures.find((e) => e.data.id === sending.id);
      assert.deepEqual([notSent.data.errorCode, notSent.data.invoiceId], ['pa_not_configured', sent.id]);
      const [ok] = await generated(h, live, counted.id);
      assert.equal(ok.documentStatus, 'finalized');

      // The month's quota used up: the next period's finalization is refused, nothing numbered.
      const next = (await h.call('GET', `/v1/recurring-invoices/${counted.id}`, { key: live })).data;
      const period = next.nextRunAt.slice(0, 7);
      await h.deps.pool.query(
        `insert into usage_counters values ($1, $2, 'documents', 10000)
        on conflict (company_id, period, metric) do update set count = 10000`,
        [companyId, period],
      );
      h.clock.set(new Date(Date.parse(next.nextRunAt) + 1000));
      await runRecurringInvoices(h.deps, [companyId]);
      const quota = (await eventsOf(h, live, 'recurring_invoice.failed')).find(
        (e) => e.data.id === counted.id && e.data.errorCode === 'quota_exceeded',
      );
      assert.ok(quota, 'recurring_invoice.failed with quota_exceeded');
      const drafts = (await generated(h, live, counted.id)).filter((i: any) => i.documentStatus === 'draft');
      assert.equal(drafts.length, 1);
      assert.equal(drafts[0].number, null);
    },
  );

  await t.test(
    'plans: auto_finalize needs Essential or Pro (plan_limit_error); a downgrade fails the next runs; a paused subscription too',
    async () => {
      const free = await h.tenant({ plan: 'free' });
      const customerId = await customer(h, free.key);
      const refused = await h.call('POST', '/v1/recurring-invoices', {
        key: free.key,
        body: { interval: 'monthly', customerId, lines: [advice], mode: 'auto_finalize' },
      });
      assert.equal(refused.statusCode, 402);
      assert.deepEqual(
        [refused.data.error.code, refused.data.error.type, refused.data.error.param],
        ['plan_limit_error', 'plan_limit_error', 'mode'],
      );
      await recurring(h, free.key, { customerId });

      const { companyId, key } = await seller(h, { plan: 'essential' });
      const live = await h.key(companyId, { env: 'live' });
      const own = await customer(h, key);
      const automatic = await recurring(h, key, { customerId: own, mode: 'auto_finalize' });
      const drafts = await recurring(h, key, { customerId: own });
      assert.equal((await h.call('POST', '/v1/subscription', { key: live, body: { plan: 'free' } })).statusCode, 200);
      await advanceTo(h, key, automatic.nextRunAt);
      const [failed] = await eventsOf(h, key, 'recurring_invoice.failed');
      assert.deepEqual([failed.data.id, failed.data.errorCode], [automatic.id, 'plan_limit_error']);
      assert.equal((await generated(h, key, drafts.id)).length, 1, 'a draft schedule still runs on free');

      // Paused: no write, and no run either (the clock is moved by the operator's way: the pass itself).
      assert.equal((await h.call('POST', '/v1/subscription/pause', { key: live })).statusCode, 200);
      const next = (await h.call('GET', `/v1/recurring-invoices/${drafts.id}`, { key })).data;
      await h.deps.pool.query(
        'update companies set sandbox_clock_offset_ms = sandbox_clock_offset_ms + $2 where id = $1',
        [companyId, Date.parse(next.nextRunAt) - h.clock.now().getTime() + 86_400_000],
      );
      await runRecurringInvoices(h.deps, [companyId]);
      const paused = (await eventsOf(h, key, 'recurring_invoice.failed')).find((e) => e.data.id === drafts.id);
      assert.equal(paused.data.errorCode, 'subscription_paused');
      assert.equal((await generated(h, key, drafts.id)).length, 1, 'no draft while paused');
    },
  );

  await t.test('pause skips the periods that fall meanwhile; resume goes on from today; cancel ends it', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const start = tomorrow(h);
    const template = await recurring(h, key, { customerId, dayOfMonth: Number(start.slice(8)) });
    const paused = await h.call('POST', `/v1/recurring-invoices/${template.id}/pause`, { key });
    assert.deepEqual([paused.data.status, paused.data.nextRunAt, paused.data.nextPeriod], ['paused', null, null]);
    assert.equal(
      (await h.call('POST', `/v1/recurring-invoices/${template.id}/pause`, { key })).data.error.code,
      'invalid_status_transition',
    );
    // Two periods fall while paused.
    await advanceTo(h, key, new Date(Date.parse(`${start}T00:00:00Z`) + 40 * 86_400_000).toISOString());
    assert.deepEqual(await generated(h, key, template.id), []);
    const resumed = await h.call('POST', `/v1/recurring-invoices/${template.id}/resume`, { key });
    assert.equal(resumed.data.status, 'active');
    const today = (await h.call('GET', '/v1/sandbox/clock', { key })).data.now.slice(0, 10);
    assert.ok(
      resumed.data.nextPeriod >= today,
      `${resumed.data.nextPeriod} is not before ${today}: nothing is made up`,
    );
    assert.deepEqual(await generated(h, key, template.id), []);
    await advanceTo(h, key, resumed.data.nextRunAt);
    assert.equal((await generated(h, key, template.id)).length, 1);
    assert.equal(
      (await h.call('POST', `/v1/recurring-invoices/${template.id}/resume`, { key })).data.error.code,
      'invalid_status_transition',
    );

    const cancelled = await h.call('POST', `/v1/recurring-invoices/${template.id}/cancel`, { key });
    assert.deepEqual([cancelled.data.status, cancelled.data.nextRunAt], ['cancelled', null]);
    for (const [path, body] of [
      [`/v1/recurring-invoices/${template.id}`, { notes: 'x' }],
      [`/v1/recurring-invoices/${template.id}/resume`, undefined],
      [`/v1/recurring-invoices/${template.id}/cancel`, undefined],
    ] as const) {
      const response = await h.call('POST', path, { key, ...(body ? { body } : {}) });
      assert.equal(response.data.error.code, 'invalid_status_transition', path);
    }
    await advanceTo(h, key, new Date(Date.parse(resumed.data.nextRunAt) + 90 * 86_400_000).toISOString());
    assert.equal((await generated(h, key, template.id)).length, 1, 'a cancelled one never runs');
  });

  await t.test(
    'a background run holds the template when the clock moves: the move waits for it, then makes the period',
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const template = await recurring(h, key, { customerId });
      // A node's run of the pass, under way: its lease on the pass, and the template's row locked by its claim.
      const background = await h.deps.pool.connect();
      const lease = () =>
        h.deps.pool.query(
          `insert into periodic_passes (name, every_ms, next_run_at, locked_until, lock_token)
           values ('recurring.runs', 60000, now(), $1, 'background-run')
           on conflict (name) do update set locked_until = excluded.locked_until, lock_token = excluded.lock_token
           where periodic_passes.lock_token is null or periodic_passes.locked_until < now() returning name`,
          [new Date(h.clock.now().getTime() + 600_000).toISOString()],
        );
      // A service started by another test on this database may be running the pass itself: its turn first.
      let leased = await lease();
      for (let i = 0; i < 200 && leased.rowCount === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        leased = await lease();
      }
      assert.equal(leased.rowCount, 1, 'the pass leased');
      try {
        await background.query('begin');
        await background.query('select id from recurring_invoices where id = $1 for update', [template.id]);
        // It ends a moment after the clock moved (having left the template as it was).
        const ended = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          await background.query('commit');
          await h.deps.pool.query(
            `update periodic_passes set locked_until = null, lock_token = null where name = 'recurring.runs' and lock_token = 'background-run'`,
          );
        })();
        await advanceTo(h, key, template.nextRunAt);
        await ended;
      } finally {
        background.release();
      }
      const [draft] = await generated(h, key, template.id);
      assert.ok(draft, "the period's draft is made when the move answers");
    },
  );

  await t.test('the sandbox reset purges the test recurring invoices and their runs; live ones stay', async () => {
    const { companyId, key } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    const customerId = await customer(h, key);
    const template = await recurring(h, key, { customerId });
    await advanceTo(h, key, template.nextRunAt);
    const liveOne = await recurring(h, live, { buyer: frenchBuyer });
    const reset = await h.call('POST', '/v1/sandbox/reset', { key });
    assert.equal(reset.statusCode, 200, reset.body);
    assert.deepEqual([reset.data.purged.recurringInvoices, reset.data.purged.recurringInvoiceRuns], [1, 1]);
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).statusCode, 404);
    assert.equal((await h.call('GET', `/v1/recurring-invoices/${liveOne.id}`, { key: live })).statusCode, 200);
  });
});
