import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  advice,
  chair,
  customer,
  decision,
  eventsOf,
  finalizedInvoice,
  readyDraft,
  seller,
  frenchBuyer,
  asDecisionCustomer,
  today,
  documentHarness,
} from './support.js';

test('invoices: drafts, finalization, reads and lists', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    'POST /v1/invoices: a draft with a customer, lines from a product and free; invoice.created with previous_status null',
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const product = (
        await h.call('POST', '/v1/products', {
          key,
          body: { name: 'Chaise', unitPrice: '149.00', unit: 'H87', nature: 'goods', vatCategory: 'standard' },
        })
      ).data;
      const response = await h.call('POST', '/v1/invoices', {
        key,
        body: {
          customerId,
          lines: [
            { productId: product.id, quantity: '2' },
            { description: 'Livraison', unitPrice: '12.5', nature: 'services' },
          ],
          paymentTermsDays: 45,
          paymentTerms: 'Pénalités de retard : 3 fois le taux légal ; indemnité forfaitaire de 40 €.',
          notes: 'Merci',
          metadata: { order: 'A-1' },
          deliveryDate: '2026-10-10',
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      const draft = response.data;
      assert.match(draft.id, /^inv_[0-9a-z]{26}$/);
      assert.equal(draft.object, 'invoice');
      assert.equal(draft.livemode, false);
      assert.equal(draft.number, null);
      assert.equal(draft.status, 'draft');
      assert.deepEqual(
        [draft.documentStatus, draft.transmissionStatus, draft.transmissionDetail, draft.paymentStatus],
        ['draft', 'not_applicable', null, 'unpaid'],
      );
      assert.deepEqual(
        draft.lines.map((l: any) => [
          l.productId,
          l.description,
          l.quantity,
          l.unitPrice,
          l.unit,
          l.nature,
          l.rateCategory,
          l.netAmount,
        ]),
        [
          [product.id, 'Chaise', '2', '149.00', 'H87', 'goods', 'standard', 29800],
          [null, 'Livraison', '1', '12.5', 'C62', 'services', null, 1250],
        ],
      );
      assert.equal(draft.subtotal, 31050);
      assert.equal(draft.total, null, 'the VAT is fixed by the tax decision at finalization');
      assert.equal(draft.amountDue, null);
      assert.equal(draft.obligation, null, 'no obligation before finalization');
      assert.deepEqual(draft.einvoicing, {
        paErrorCode: null,
        rejectionReason: null,
        rejectionNote: null,
        rejectionCode: null,
        rejectionSource: null,
        rejectionCategory: null,
        previousSubmissions: [],
      });
      assert.deepEqual((await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data, draft);
      const [created] = await eventsOf(h, key, 'invoice.created');
      assert.deepEqual(created.data, {
        id: draft.id,
        object: 'invoice',
        status: 'draft',
        previous_status: null,
        livemode: false,
        number: null,
        documentStatus: 'draft',
        transmissionStatus: 'not_applicable',
        transmissionDetail: null,
        paymentStatus: 'unpaid',
        paErrorCode: null,
        rejectionReason: null,
        rejectionCategory: null,
        rejectionCode: null,
        rejectionSource: null,
        metadata: { order: 'A-1' },
      });
    },
  );

  await t.test('an inline buyer instead of a customer; either one is required, not both', async () => {
    const { key } = await seller(h);
    const inline = await h.call('POST', '/v1/invoices', { key, body: { buyer: frenchBuyer, lines: [chair] } });
    assert.equal(inline.statusCode, 201, inline.body);
    assert.equal(inline.data.customerId, null);
    assert.equal(inline.data.buyer.siren, '732829320', 'derived from the SIRET');
    const none = await h.call('POST', '/v1/invoices', { key, body: { lines: [chair] } });
    assert.equal(none.statusCode, 400);
    assert.equal(none.data.error.code, 'missing_required_field');
    const both = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId: 'cus_x', buyer: frenchBuyer, lines: [chair] },
    });
    assert.equal(both.data.error.code, 'invalid_field_value');
    const badLine = await h.call('POST', '/v1/invoices', {
      key,
      body: { buyer: frenchBuyer, lines: [{ description: 'x', unitPrice: '1', nature: 'goods', quantity: '-1' }] },
    });
    assert.equal(badLine.statusCode, 422);
    assert.equal(badLine.data.error.param, 'lines[0].quantity');
    for (const [country, postalCode] of [
      ['GP', '75002'],
      ['MQ', '97110'],
      ['MC', '75002'],
    ]) {
      const conflict = await h.call('POST', '/v1/invoices', {
        key,
        body: { buyer: { ...frenchBuyer, address: { ...frenchBuyer.address, postalCode, country } }, lines: [chair] },
      });
      assert.equal(conflict.statusCode, 422, `${country} ${postalCode}`);
      assert.equal(conflict.data.error.code, 'validation_error');
      assert.equal(conflict.data.error.param, 'buyer.address.country', `${country} ${postalCode}: ${conflict.body}`);
    }
    const missing = await h.call('POST', '/v1/invoices', {
      key,
      body: { buyer: frenchBuyer, lines: [{ description: 'x', nature: 'goods' }] },
    });
    assert.equal(missing.data.error.code, 'missing_required_field');
    assert.equal(missing.data.error.param, 'lines[0].unitPrice');
    const unknownProduct = await h.call('POST', '/v1/invoices', {
      key,
      body: { buyer: frenchBuyer, lines: [{ productId: 'prod_nope' }] },
    });
    assert.equal(unknownProduct.statusCode, 404);
    assert.equal(unknownProduct.data.error.param, 'lines[0].productId');
  });

  await t.test(
    'POST /v1/invoices/:id edits a draft; DELETE cancels it; both refused once finalized (invoice_not_editable)',
    async () => {
      const { key } = await seller(h);
      const draft = await readyDraft(h, key);
      const edited = await h.call('POST', `/v1/invoices/${draft.id}`, {
        key,
        body: { notes: 'Livraison au quai 4', metadata: { po: '77' }, lines: [chair, advice] },
      });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.equal(edited.data.notes, 'Livraison au quai 4');
      assert.equal(edited.data.lines.length, 2);
      assert.equal(edited.data.subtotal, 29800 + 27000);
      const cleared = await h.call('POST', `/v1/invoices/${draft.id}`, { key, body: { notes: null, lines: [chair] } });
      assert.equal(cleared.data.notes, null);
      const finalized = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(finalized.statusCode, 200, finalized.body);
      for (const [method, body] of [
        ['POST', { notes: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const refused = await h.call(method, `/v1/invoices/${draft.id}`, { key, ...(body ? { body } : {}) });
        assert.equal(refused.statusCode, 400);
        assert.equal(refused.data.error.code, 'invoice_not_editable');
        assert.match(refused.data.error.message, /TEST-F2026-000001/);
        assert.match(refused.data.error.hint, /credit-notes/);
      }
      const other = await readyDraft(h, key);
      const deleted = await h.call('DELETE', `/v1/invoices/${other.id}`, { key });
      assert.equal(deleted.statusCode, 200);
      assert.equal(deleted.data.documentStatus, 'cancelled');
      assert.equal(deleted.data.status, 'cancelled');
      assert.equal(
        (await h.call('POST', `/v1/invoices/${other.id}/finalize`, { key })).data.error.code,
        'invalid_status_transition',
        'a deleted draft is never numbered',
      );
    },
  );

  await t.test(
    "finalize: the number, the decision's VAT, dates and the frozen buyer; invoice.finalized with previous_status draft",
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const draft = await readyDraft(h, key, { customerId, lines: [chair, advice], body: { paymentTermsDays: 45 } });
      const response = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(response.statusCode, 200, response.body);
      const invoice = response.data;
      assert.equal(invoice.number, 'TEST-F2026-000001');
      assert.equal(invoice.status, 'finalized');
      assert.deepEqual(
        [invoice.documentStatus, invoice.transmissionStatus, invoice.transmissionDetail, invoice.paymentStatus],
        ['finalized', 'pending', null, 'unpaid'],
        'B2B in France: e-invoicing due',
      );
      assert.equal(invoice.issueDate, '2026-10-15');
      assert.equal(invoice.dueDate, '2026-11-29');
      assert.deepEqual(
        [invoice.subtotal, invoice.totalTax, invoice.total, invoice.amountDue],
        [56800, 11360, 68160, 68160],
      );
      assert.deepEqual(
        invoice.lines.map((l: any) => [l.vatCode, l.vatRate]),
        [
          ['S', '20.00'],
          ['S', '20.00'],
        ],
      );
      assert.equal(invoice.vatBreakdown[0].taxAmount, 11360);
      assert.ok(invoice.mentions.length > 0);
      assert.equal(invoice.buyer.name, frenchBuyer.name, 'the buyer is frozen on the invoice');
      assert.equal(invoice.taxSource, 'service');
      assert.match(invoice.paymentPortalUrl, /^https:\/\/api\.facteur\.test\/pay\/[A-Za-z0-9_-]{32}$/);
      // A later change of the customer does not change the issued invoice.
      await h.call('POST', `/v1/customers/${customerId}`, { key, body: { name: 'Autre nom' } });
      assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.buyer.name, frenchBuyer.name);
      const [event] = await eventsOf(h, key, 'invoice.finalized');
      assert.equal(event.data.id, invoice.id);
      assert.equal(event.data.number, 'TEST-F2026-000001');
      assert.equal(event.data.status, 'finalized');
      assert.equal(event.data.previous_status, 'draft');
      assert.equal(event.data.transmissionStatus, 'pending');
      const again = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(again.statusCode, 400);
      assert.equal(again.data.error.code, 'invalid_status_transition');
    },
  );

  await t.test(
    "finalize with an Idempotency-Key: the retry replays the response; one number, one event; the event's data is the finalized document's",
    async () => {
      const { key } = await seller(h);
      const first = await readyDraft(h, key);
      const second = await readyDraft(h, key);
      const headers = { 'idempotency-key': `finalize-${first.id}` };
      const response = await h.call('POST', `/v1/invoices/${first.id}/finalize`, { key, headers });
      assert.equal(response.statusCode, 200, response.body);
      const replay = await h.call('POST', `/v1/invoices/${first.id}/finalize`, { key, headers });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, response.body);
      // The next finalization takes the next number: the replay consumed none.
      const next = await h.call('POST', `/v1/invoices/${second.id}/finalize`, { key });
      assert.equal(
        next.data.number,
        response.data.number.replace(/\d+$/, (n: string) => String(Number(n) + 1).padStart(n.length, '0')),
      );
      const events = (await eventsOf(h, key, 'invoice.finalized')).filter((e) => e.data.id === first.id);
      assert.equal(events.length, 1);
      const invoice = response.data;
      assert.deepEqual(events[0].data, {
        id: invoice.id,
        object: 'invoice',
        status: 'finalized',
        previous_status: 'draft',
        livemode: false,
        number: invoice.number,
        documentStatus: 'finalized',
        transmissionStatus: 'pending',
        transmissionDetail: null,
        paymentStatus: 'unpaid',
        paErrorCode: null,
        rejectionReason: null,
        rejectionCategory: null,
        rejectionCode: null,
        rejectionSource: null,
        metadata: {},
        obligation: {
          state: 'waiting',
          reasonCode: 'not_sent',
          reasonSource: 'service',
          owner: 'client',
          action: 'send',
          nextAttemptAt: null,
        },
      });
      assert.deepEqual(invoice.obligation, events[0].data.obligation, 'the resource shows the same obligation');
      assert.equal(events[0].request.idempotency_key, headers['idempotency-key']);
      assert.match(events[0].request.id, /^req_/);
    },
  );

  await t.test(
    'a consumer sale: outside e-invoicing (transmission not_applicable); an inline buyer with its decision',
    async () => {
      const { key } = await seller(h);
      const buyer = {
        type: 'individual',
        name: 'Camille Martin',
        // BR-FR-12: the document names the buyer's electronic address or e-mail.
        email: 'camille.martin@example.com',
        address: { line1: '8 place Bellecour', postalCode: '69002', city: 'Lyon', country: 'FR' },
      };
      const taken = await decision(h, key, { customer: asDecisionCustomer(buyer) }, [chair]);
      const draft = (
        await h.call('POST', '/v1/invoices', { key, body: { buyer, lines: [chair], taxDecisionId: taken.id } })
      ).data;
      const invoice = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(invoice.statusCode, 200, invoice.body);
      assert.equal(invoice.data.transmissionStatus, 'not_applicable');
      assert.equal(invoice.data.status, 'finalized');
      assert.deepEqual(invoice.data.obligation, {
        state: 'waiting',
        reasonCode: 'ereporting_not_enabled',
        reasonSource: 'service',
        owner: 'client',
        action: null,
        nextAttemptAt: null,
      });
    },
  );

  await t.test(
    'numbers: consecutive per series; credit notes and quotes have their own; live and test never share',
    async () => {
      const { companyId, key } = await seller(h);
      const first = await finalizedInvoice(h, key);
      const second = await finalizedInvoice(h, key);
      assert.deepEqual([first.number, second.number], ['TEST-F2026-000001', 'TEST-F2026-000002']);
      const live = await h.key(companyId, { env: 'live' });
      await h.call('POST', '/v1/tax-profiles', { key: live, body: (await import('./support.js')).sellerProfile });
      const liveInvoice = await finalizedInvoice(h, live);
      assert.equal(liveInvoice.number, 'F2026-000001');
      assert.equal(liveInvoice.livemode, true);
    },
  );

  await t.test(
    'GET /v1/invoices: newest first, paginated; filters status, customerId, date_from, date_to, number',
    async () => {
      const { key } = await seller(h);
      const a = await customer(h, key);
      const b = await customer(h, key, { ...frenchBuyer, name: 'Autre client' });
      const first = await finalizedInvoice(h, key, { customerId: a });
      h.clock.advance(2 * 86_400_000);
      const second = await readyDraft(h, key, { customerId: b });
      const third = await finalizedInvoice(h, key, { customerId: b });
      const ids = async (query: string) => {
        const response = await h.call('GET', `/v1/invoices${query}`, { key });
        assert.equal(response.statusCode, 200, response.body);
        return response.data.data.map((i: { id: string }) => i.id);
      };
      assert.deepEqual(await ids(''), [third.id, second.id, first.id]);
      const page = (await h.call('GET', '/v1/invoices?limit=2', { key })).data;
      assert.equal(page.has_more, true);
      assert.equal(page.url, '/v1/invoices');
      assert.deepEqual(await ids(`?limit=2&starting_after=${page.next_cursor}`), [first.id]);
      assert.deepEqual(await ids('?status=draft'), [second.id]);
      assert.deepEqual(await ids('?status=finalized'), [third.id, first.id]);
      assert.deepEqual(await ids(`?customerId=${a}`), [first.id]);
      assert.deepEqual(await ids('?date_from=2026-10-16'), [third.id, second.id]);
      assert.deepEqual(await ids('?date_to=2026-10-15'), [first.id]);
      assert.deepEqual(await ids(`?date_from=${today(h)}&date_to=${today(h)}`), [third.id, second.id]);
      // The number, or a part of it, in any case; drafts have none. `%` and `_` are literal.
      assert.deepEqual(await ids(`?number=${encodeURIComponent(third.number)}`), [third.id]);
      assert.deepEqual(await ids(`?number=${third.number.slice(0, 3).toLowerCase()}`), [third.id, first.id]);
      assert.deepEqual(await ids(`?number=${third.number.slice(-3)}`), [third.id]);
      assert.deepEqual(await ids(`?number=${first.number.slice(-3)}&limit=1`), [first.id]);
      assert.deepEqual(await ids('?number=%25'), []);
      assert.deepEqual(await ids('?number=_'), []);
      const searched = (await h.call('GET', `/v1/invoices?number=${third.number.slice(0, 3)}&limit=1`, { key })).data;
      assert.equal(searched.has_more, true);
      assert.deepEqual(
        await ids(`?number=${third.number.slice(0, 3)}&limit=1&starting_after=${searched.next_cursor}`),
        [first.id],
      );
      const badCursor = await h.call('GET', '/v1/invoices?starting_after=inv_01m80kd1cn1220tzdk3rc8ms8q', { key });
      assert.equal(badCursor.statusCode, 400);
      assert.equal(badCursor.data.error.param, 'starting_after');
      const badDate = await h.call('GET', '/v1/invoices?date_from=15/10/2026', { key });
      assert.equal(badDate.statusCode, 422);
      const inverted = await h.call('GET', '/v1/invoices?date_from=2026-10-20&date_to=2026-10-01', { key });
      assert.equal(inverted.data.error.param, 'date_to');
    },
  );
});
