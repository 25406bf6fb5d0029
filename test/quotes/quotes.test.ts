import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import { quoteMoves, quoteStatuses, type QuoteAction } from '../../src/quotes/quote-status.js';
import { expireQuotes } from '../../src/quotes/service.js';
import { advice, chair, customer, decision, eventsOf, seller, documentHarness } from '../invoices/support.js';

async function quote(h: Harness, key: string, body: Record<string, unknown> = {}): Promise<any> {
  const customerId = body.customerId ?? (await customer(h, key));
  const response = await h.call('POST', '/v1/quotes', { key, body: { customerId, lines: [chair, advice], ...body } });
  assert.equal(response.statusCode, 201, response.body);
  return response.data;
}

const act = (h: Harness, key: string, id: string, verb: string) => h.call('POST', `/v1/quotes/${id}/${verb}`, { key });

test('quotes', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    'draft, finalize (own series, validity), send, accept, convert: the quote events; the draft invoice',
    async () => {
      const { key } = await seller(h);
      const draft = await quote(h, key, { notes: 'Devis valable un mois', metadata: { deal: 'D-9' } });
      assert.match(draft.id, /^qt_[0-9a-z]{26}$/);
      assert.deepEqual(
        [draft.object, draft.status, draft.number, draft.subtotal],
        ['quote', 'draft', null, 29800 + 27000],
      );
      const edited = await h.call('POST', `/v1/quotes/${draft.id}`, { key, body: { lines: [chair] } });
      assert.equal(edited.data.subtotal, 29800);
      const finalized = (await act(h, key, draft.id, 'finalize')).data;
      assert.deepEqual(
        [finalized.status, finalized.number, finalized.issueDate, finalized.validUntil],
        ['finalized', 'TEST-D2026-000001', '2026-10-15', '2026-11-14'],
      );
      assert.equal(
        (await h.call('POST', `/v1/quotes/${draft.id}`, { key, body: { notes: 'x' } })).data.error.code,
        'invalid_status_transition',
      );
      assert.equal((await act(h, key, draft.id, 'send')).data.status, 'sent');
      assert.equal((await act(h, key, draft.id, 'accept')).data.status, 'accepted');
      const converted = await act(h, key, draft.id, 'convert');
      assert.equal(converted.statusCode, 201, converted.body);
      assert.deepEqual(
        [converted.data.quote.status, converted.data.quote.invoiceId],
        ['converted', converted.data.invoice.id],
      );
      const invoice = converted.data.invoice;
      assert.deepEqual(
        [invoice.status, invoice.customerId, invoice.quoteId, invoice.subtotal, invoice.number],
        ['draft', draft.customerId, draft.id, 29800, null],
      );
      assert.deepEqual(
        invoice.lines.map((l: any) => l.description),
        [chair.description],
      );
      const types = (await eventsOf(h, key))
        .filter((e) => e.type.startsWith('quote.') || e.type === 'invoice.created')
        .map((e) => e.type)
        .reverse();
      assert.deepEqual(types, ['quote.created', 'quote.sent', 'quote.accepted', 'invoice.created', 'quote.converted']);
      const [event] = await eventsOf(h, key, 'quote.converted');
      assert.deepEqual(event.data, {
        id: draft.id,
        object: 'quote',
        status: 'converted',
        number: 'TEST-D2026-000001',
        metadata: { deal: 'D-9' },
        invoiceId: invoice.id,
      });
      // The converted draft is finalized like any invoice, on its own decision.
      const taken = await decision(h, key, { customerId: draft.customerId }, [chair]);
      await h.call('POST', `/v1/invoices/${invoice.id}`, { key, body: { taxDecisionId: taken.id } });
      const numbered = await h.call('POST', `/v1/invoices/${invoice.id}/finalize`, { key });
      assert.equal(numbered.statusCode, 200, numbered.body);
      assert.equal(numbered.data.number, 'TEST-F2026-000001', 'quotes and invoices have their own series');
    },
  );

  await t.test(
    'every row of the quote table: allowed moves succeed, the others are invalid_status_transition',
    async () => {
      const { key } = await seller(h);
      const customerId = await customer(h, key);
      const reach: Record<string, QuoteAction[]> = {
        draft: [],
        finalized: ['finalize'],
        sent: ['finalize', 'send'],
        accepted: ['finalize', 'accept'],
        refused: ['finalize', 'refuse'],
        converted: ['finalize', 'convert'],
      };
      const verbs: Exclude<QuoteAction, 'expire'>[] = ['finalize', 'send', 'accept', 'refuse', 'convert'];
      for (const [status, path] of Object.entries(reach)) {
        for (const verb of verbs) {
          const q = await quote(h, key, { customerId });
          for (const step of path) assert.ok((await act(h, key, q.id, step)).statusCode < 300, `${status} via ${step}`);
          const response = await act(h, key, q.id, verb);
          const allowed = quoteMoves[verb].from.includes(status as never);
          assert.equal(response.statusCode < 300, allowed, `${status} -> ${verb}: ${response.body}`);
          if (allowed)
            assert.equal((verb === 'convert' ? response.data.quote : response.data).status, quoteMoves[verb].to);
          else assert.equal(response.data.error.code, 'invalid_status_transition');
        }
      }
      assert.deepEqual([...quoteStatuses].sort(), [
        'accepted',
        'converted',
        'draft',
        'expired',
        'finalized',
        'refused',
        'sent',
      ]);
    },
  );

  await t.test(
    'a quote expires the day after its validity date, on the sandbox clock: quote.expired once; then nothing is allowed',
    async () => {
      const { companyId, key } = await seller(h);
      const q = await quote(h, key, { validUntil: '2026-10-20' });
      await act(h, key, q.id, 'finalize');
      await act(h, key, q.id, 'send');
      const kept = await quote(h, key, { validUntil: '2026-12-31' });
      await act(h, key, kept.id, 'finalize');
      const draft = await quote(h, key);
      assert.equal(await expireQuotes(h.deps, { companyIds: [companyId] }), 0);
      await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 6 * 86_400 } });
      const expired = (await h.call('GET', `/v1/quotes/${q.id}`, { key })).data;
      assert.equal(expired.status, 'expired', 'the clock advance runs the expiry pass for the company');
      assert.equal((await h.call('GET', `/v1/quotes/${kept.id}`, { key })).data.status, 'finalized');
      assert.equal(
        (await h.call('GET', `/v1/quotes/${draft.id}`, { key })).data.status,
        'draft',
        'a draft has no validity yet',
      );
      assert.equal(await expireQuotes(h.deps, { companyIds: [companyId] }), 0, 'once');
      const events = await eventsOf(h, key, 'quote.expired');
      assert.deepEqual(
        events.map((e) => [e.data.id, e.data.status]),
        [[q.id, 'expired']],
      );
      for (const verb of ['accept', 'refuse', 'convert', 'send'])
        assert.equal((await act(h, key, q.id, verb)).data.error.code, 'invalid_status_transition');
      const list = (await h.call('GET', '/v1/quotes?status=expired', { key })).data;
      assert.deepEqual(
        list.data.map((x: any) => x.id),
        [q.id],
      );
    },
  );

  await t.test(
    'a quote past its validity but not yet marked is refused too; a validity already past is refused at finalization',
    async () => {
      const { key } = await seller(h);
      const q = await quote(h, key, { validUntil: '2026-10-16' });
      await act(h, key, q.id, 'finalize');
      h.clock.advance(3 * 86_400_000);
      const late = await act(h, key, q.id, 'accept');
      assert.equal(late.data.error.code, 'invalid_status_transition');
      assert.match(late.data.error.message, /expired on 2026-10-16/);
      const past = await quote(h, key, { validUntil: '2026-10-01' });
      assert.equal((await act(h, key, past.id, 'finalize')).data.error.param, 'validUntil');
    },
  );

  await t.test('an inline buyer; refusals of the body; not found; scopes', async () => {
    const { companyId, key } = await seller(h);
    const inline = await h.call('POST', '/v1/quotes', {
      key,
      body: { buyer: { name: 'Camille Martin', type: 'individual' }, lines: [advice] },
    });
    assert.equal(inline.statusCode, 201, inline.body);
    assert.equal(inline.data.buyer.name, 'Camille Martin');
    await act(h, key, inline.data.id, 'finalize');
    const converted = await act(h, key, inline.data.id, 'convert');
    assert.equal(converted.data.invoice.buyer.name, 'Camille Martin');
    assert.equal(
      (await h.call('POST', '/v1/quotes', { key, body: { lines: [advice] } })).data.error.code,
      'missing_required_field',
    );
    assert.equal((await h.call('GET', '/v1/quotes/qt_01m80kd1cn1220tzdk3rc8ms8q', { key })).statusCode, 404);
    const reader = await h.key(companyId, { scopes: ['quotes:read'] });
    assert.equal(
      (await h.call('POST', '/v1/quotes', { key: reader, body: { buyer: { name: 'x' }, lines: [advice] } })).statusCode,
      403,
    );
    assert.equal((await h.call('GET', '/v1/quotes', { key: reader })).statusCode, 200);
  });
  await t.test(
    'the public page of a quote: from finalization; its first opening once sent emits quote.viewed, once; escaped; unknown token 404',
    async () => {
      const { key } = await seller(h);
      const q = await quote(h, key, {
        lines: [{ ...advice, description: 'Conseil <script>alert(1)</script>' }],
        metadata: { deal: 'D-10' },
      });
      assert.equal(q.publicUrl, null, 'a draft has no public page');
      const finalized = (await act(h, key, q.id, 'finalize')).data;
      const match = /^https:\/\/api\.facteur\.test(\/quote\/[A-Za-z0-9_-]{32})$/.exec(finalized.publicUrl);
      assert.ok(match, finalized.publicUrl);
      const path = match[1]!;
      const preview = await h.call('GET', path);
      assert.equal(preview.statusCode, 200);
      assert.match(String(preview.headers['content-type']), /^text\/html/);
      assert.match(String(preview.headers['content-security-policy']), /default-src 'none'/);
      assert.equal(preview.headers['cache-control'], 'no-store');
      assert.ok(preview.body.includes('TEST-D2026-000001'));
      assert.ok(preview.body.includes('Conseil &lt;script&gt;alert(1)&lt;/script&gt;'), 'line text is escaped');
      assert.ok(!preview.body.includes('<script>'));
      assert.ok(preview.body.includes('270.00'), 'the total excluding VAT in euros');
      assert.equal(
        (await eventsOf(h, key, 'quote.viewed')).length,
        0,
        "the seller's look at a quote not sent is not a view",
      );

      await act(h, key, q.id, 'send');
      const opened = h.clock.now();
      assert.equal((await h.call('GET', path)).statusCode, 200);
      await h.call('GET', path);
      const viewed = await eventsOf(h, key, 'quote.viewed');
      assert.equal(viewed.length, 1, 'one event for the first opening only');
      assert.deepEqual(viewed[0].data, {
        id: q.id,
        object: 'quote',
        status: 'sent',
        number: 'TEST-D2026-000001',
        metadata: { deal: 'D-10' },
      });
      const read = (await h.call('GET', `/v1/quotes/${q.id}`, { key })).data;
      assert.equal(read.status, 'sent', 'a view changes no status');
      assert.ok(
        Date.parse(read.viewedAt) >= opened.getTime() - 1000 && Date.parse(read.viewedAt) <= h.clock.now().getTime(),
        'on the sandbox clock',
      );
      assert.equal(read.publicUrl, finalized.publicUrl);

      const unknown = await h.call('GET', '/quote/nope-not-a-token');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.data.error.code, 'not_found');
    },
  );
});
