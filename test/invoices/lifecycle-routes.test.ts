import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import {
  asDecisionCustomer,
  chair,
  consumerBuyer,
  decision,
  eventsOf,
  finalizedInvoice,
  seller,
  sellerProfile,
  documentHarness,
} from './support.js';

/**
 * Every row of the contract's transition table and of LIFECYCLE.md's status table, over HTTP:
 * the invoice is sent to the sandbox's simulated platform, and its answers are simulated.
 */

async function sent(h: Harness, key: string): Promise<any> {
  const invoice = await finalizedInvoice(h, key);
  const response = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

const simulate = (h: Harness, key: string, id: string, status: string, extra: Record<string, unknown> = {}) =>
  h.call('POST', `/v1/sandbox/invoices/${id}/simulate`, { key, body: { status, ...extra } });

/** A reason each status that needs one may carry (BR-FR-CDV-15, BR-FR-CDV-CL-09), unless the test gives its own. */
const usualReason: Record<string, string> = {
  'fr:206': 'QTE_ERR',
  'fr:207': 'MONTANTTOTAL_ERR',
  'fr:208': 'JUSTIF_ABS',
  'fr:210': 'TX_TVA_ERR',
  'fr:213': 'REJ_SEMAN',
  'fr:501': 'IRR_SYNTAX',
};

async function report(
  h: Harness,
  key: string,
  id: string,
  status: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const reason = usualReason[status];
  const response = await simulate(h, key, id, status, reason ? { reasonCode: reason, ...extra } : extra);
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

const axes = (doc: any) => [
  doc.status,
  doc.documentStatus,
  doc.transmissionStatus,
  doc.transmissionDetail,
  doc.paymentStatus,
];

/** The events of a document since `after` (exclusive), oldest first: [type, previous_status, status]. */
async function movesOf(h: Harness, key: string, id: string): Promise<[string, string | null, string][]> {
  const events = await eventsOf(h, key);
  return events
    .filter((e) => e.data.id === id || e.data.invoiceId === id)
    .reverse()
    .filter((e) => e.type !== 'payment.created')
    .map((e) => [e.type, e.data.previous_status, e.data.status]);
}

const pay = (h: Harness, key: string, invoiceId: string, amount: number) =>
  h.call('POST', '/v1/payments', { key, body: { invoiceId, amount, method: 'transfer' } });

test('the life cycle of a document, row by row', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const { companyId, key } = await seller(h);

  await t.test('send: pending -> sending; invoice.sent and invoice.sending with the summary before', async () => {
    const invoice = await sent(h, key);
    assert.deepEqual(axes(invoice), ['sending', 'finalized', 'sending', null, 'unpaid']);
    const moves = await movesOf(h, key, invoice.id);
    assert.deepEqual(moves.slice(-2), [
      ['invoice.sent', 'finalized', 'sending'],
      ['invoice.sending', 'finalized', 'sending'],
    ]);
    const again = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
    assert.equal(again.statusCode, 400);
    assert.equal(again.data.error.code, 'invalid_status_transition', 'one platform call per attempt');
  });

  await t.test('every reported status of LIFECYCLE.md: its axes and its event', async () => {
    const rows: [string[], string, (string | null)[], string | null][] = [
      // [statuses before, status, [summary, transmission, detail], event]
      [[], 'fr:200', ['deposited', 'deposited', null], 'invoice.deposited'],
      [['fr:200'], 'fr:201', ['transmitted', 'transmitted', null], 'invoice.transmitted'],
      [['fr:200'], 'fr:202', ['transmitted', 'transmitted', null], 'invoice.transmitted'],
      [['fr:200', 'fr:201'], 'fr:202', ['transmitted', 'transmitted', null], null],
      [['fr:200', 'fr:201'], 'fr:203', ['available', 'transmitted', 'available'], 'invoice.available'],
      [['fr:200', 'fr:201', 'fr:203'], 'fr:204', ['received', 'transmitted', 'received'], 'invoice.received'],
      [['fr:200', 'fr:201', 'fr:204'], 'fr:205', ['approved', 'approved', null], 'invoice.approved'],
      [['fr:200', 'fr:201'], 'fr:206', ['approved', 'approved', null], 'invoice.approved'],
      [['fr:200', 'fr:201', 'fr:204'], 'fr:207', ['suspended', 'transmitted', 'suspended'], 'invoice.suspended'],
      [['fr:200', 'fr:201'], 'fr:208', ['suspended', 'transmitted', 'suspended'], 'invoice.suspended'],
      [['fr:200', 'fr:201', 'fr:208'], 'fr:209', ['received', 'transmitted', 'received'], null],
      [['fr:200'], 'fr:210', ['refused', 'rejected', 'refused'], 'invoice.refused'],
      [['fr:200'], 'fr:211', ['deposited', 'deposited', null], null],
      [['fr:200'], 'fr:213', ['rejected', 'rejected', null], 'invoice.rejected'],
      [[], 'fr:221', ['rejected', 'rejected', null], 'invoice.rejected'],
      [[], 'fr:501', ['rejected', 'rejected', null], 'invoice.rejected'],
    ];
    for (const [before, status, [summary, transmission, detail], event] of rows) {
      const invoice = await sent(h, key);
      let previous = 'sending';
      for (const earlier of before) previous = (await report(h, key, invoice.id, earlier)).status;
      const count = (await movesOf(h, key, invoice.id)).length;
      const after = await report(h, key, invoice.id, status);
      assert.deepEqual(
        [after.status, after.transmissionStatus, after.transmissionDetail],
        [summary, transmission, detail],
        `${before.join(',')} -> ${status}`,
      );
      const moves = await movesOf(h, key, invoice.id);
      if (event) assert.deepEqual(moves.at(-1), [event, previous, summary], `${status}: its event`);
      else assert.equal(moves.length, count, `${status}: no event`);
      const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
      assert.equal(history.at(-1).status, status);
    }
  });

  await t.test(
    'contract: deposited, the platform rejects: rejected, detail null, invoice.rejected, source platform',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:200');
      const rejected = await report(h, key, invoice.id, 'fr:213', {
        reasonCode: 'REJ_SEMAN',
        reason: 'BR-FR-08 : SIREN absent',
        notes: ['Le SIREN du vendeur manque (BT-30).', 'Corriger puis déposer à nouveau.'],
      });
      assert.deepEqual(axes(rejected), ['rejected', 'finalized', 'rejected', null, 'unpaid']);
      assert.deepEqual(rejected.einvoicing, {
        // The submission at the sandbox's platform: deposited there on its first status.
        paTrackingId: `${invoice.id}-a1`,
        paFlowId: rejected.einvoicing.paFlowId,
        paErrorCode: 'REJ_SEMAN',
        rejectionReason: 'BR-FR-08 : SIREN absent',
        rejectionNote: 'Le SIREN du vendeur manque (BT-30).\nCorriger puis déposer à nouveau.',
        rejectionCode: 'REJ_SEMAN',
        rejectionSource: 'platform',
        rejectionCategory: 'semantic_error',
        previousSubmissions: [],
      });
      const [event] = await eventsOf(h, key, 'invoice.rejected');
      assert.equal(event.data.id, invoice.id);
      assert.deepEqual(
        [
          event.data.previous_status,
          event.data.rejectionCategory,
          event.data.rejectionSource,
          event.data.rejectionCode,
          event.data.paErrorCode,
        ],
        ['deposited', 'semantic_error', 'platform', 'REJ_SEMAN', 'REJ_SEMAN'],
      );
      const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
      assert.deepEqual(history.at(-1).notes, [
        'Le SIREN du vendeur manque (BT-30).',
        'Corriger puis déposer à nouveau.',
      ]);
      assert.match(rejected.einvoicing.paFlowId, /^[0-9a-f-]{36}$/);
      const plain = await sent(h, key);
      const noReason = await simulate(h, key, plain.id, 'fr:213');
      assert.equal(noReason.statusCode, 400, 'no platform sends a 213 without its reason');
      assert.deepEqual([noReason.data.error.code, noReason.data.error.param], ['missing_required_field', 'reasonCode']);
      assert.match(noReason.data.error.hint, /BR-FR-CDV-15/);
      const untouched = (await h.call('GET', `/v1/invoices/${plain.id}`, { key })).data;
      assert.equal(untouched.transmissionStatus, 'sending');
      const noNotes = await report(h, key, plain.id, 'fr:213', { reasonCode: 'REJ_COH' });
      assert.equal(noNotes.einvoicing.rejectionNote, null, 'no notes: null');
    },
  );

  await t.test(
    'contract: deposited, the buyer refuses: refused, rejected + refused, invoice.refused, source buyer, refused_by_buyer',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:200');
      const refused = await report(h, key, invoice.id, 'fr:210', {
        reasonCode: 'TX_TVA_ERR',
        reason: 'Taux erroné',
        notes: 'Le taux de la ligne 2 est 10 %.',
      });
      assert.deepEqual(axes(refused), ['refused', 'finalized', 'rejected', 'refused', 'unpaid']);
      assert.equal(refused.einvoicing.rejectionReason, 'Taux erroné');
      assert.equal(refused.einvoicing.rejectionNote, 'Le taux de la ligne 2 est 10 %.', 'one note given as a text');
      assert.equal(refused.einvoicing.rejectionSource, 'buyer');
      assert.equal(refused.einvoicing.rejectionCategory, 'refused_by_buyer');
      assert.deepEqual((await movesOf(h, key, invoice.id)).at(-1), ['invoice.refused', 'deposited', 'refused']);
      const again = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
      assert.equal(again.data.error.code, 'invalid_status_transition', 'no new deposit after a refusal by the buyer');
      assert.match(again.data.error.message, /credit note/);
    },
  );

  await t.test('contract: a credit note refused by the buyer: credit_refused, credit_note.credit_refused', async () => {
    const invoice = await finalizedInvoice(h, key);
    const note = (
      await h.call('POST', '/v1/credit-notes', {
        key,
        body: {
          relatedInvoiceId: invoice.id,
          taxDecisionId: (await decision(h, key, { customerId: invoice.customerId })).id,
        },
      })
    ).data;
    assert.equal((await h.call('POST', `/v1/credit-notes/${note.id}/finalize`, { key })).statusCode, 200);
    const sentNote = await h.call('POST', `/v1/credit-notes/${note.id}/send`, { key });
    assert.equal(sentNote.statusCode, 200, sentNote.body);
    const [sentEvent] = await eventsOf(h, key, 'credit_note.sent');
    assert.deepEqual(
      [sentEvent.data.paStatus, sentEvent.data.paInvoiceId, sentEvent.data.relatedInvoiceId],
      ['sending', null, invoice.id],
    );
    await report(h, key, note.id, 'fr:200');
    const refused = await report(h, key, note.id, 'fr:210');
    assert.deepEqual(axes(refused), ['credit_refused', 'finalized', 'rejected', 'refused', 'unpaid']);
    const types = (await eventsOf(h, key))
      .filter((e) => e.data.id === note.id)
      .map((e) => e.type)
      .reverse();
    assert.deepEqual(types, [
      'credit_note.created',
      'credit_note.finalized',
      'credit_note.sent',
      'credit_note.credit_deposited',
      'credit_note.credit_refused',
    ]);
    const [event] = await eventsOf(h, key, 'credit_note.credit_refused');
    assert.deepEqual([event.data.previous_status, event.data.relatedInvoiceNumber], ['deposited', invoice.number]);
  });

  await t.test(
    'the obligation: on the resource and in the events, waiting on the client, then the platform, then met; a rejection puts it back on the client',
    async () => {
      const o = (
        state: string,
        reasonCode: string | null,
        reasonSource: string | null,
        owner: string | null,
        action: string | null,
      ) => ({
        state,
        reasonCode,
        reasonSource,
        owner,
        action,
        nextAttemptAt: null,
      });
      const invoice = await finalizedInvoice(h, key);
      assert.deepEqual(invoice.obligation, o('waiting', 'not_sent', 'service', 'client', 'send'));
      const sending = await sent(h, key);
      const onPlatform = o('waiting', 'awaiting_platform', 'service', 'platform', null);
      assert.deepEqual(sending.obligation, onPlatform);
      const [sendingEvent] = await eventsOf(h, key, 'invoice.sending');
      assert.deepEqual(sendingEvent.data.obligation, onPlatform, 'events carry it');
      const rejected = await report(h, key, sending.id, 'fr:213', { reasonCode: 'REJ_SEMAN', reason: 'SIREN absent' });
      const onClient = o('waiting', 'REJ_SEMAN', 'platform', 'client', 'resubmit');
      assert.deepEqual(rejected.obligation, onClient);
      assert.deepEqual((await eventsOf(h, key, 'invoice.rejected'))[0].data.obligation, onClient);
      const resent = await h.call('POST', `/v1/invoices/${sending.id}/send`, { key });
      assert.deepEqual(resent.data.obligation, onPlatform, 'a resubmission is on the platform again');
      const deposited = await report(h, key, sending.id, 'fr:200');
      const met = o('fulfilled', null, null, null, null);
      assert.deepEqual(deposited.obligation, met);
      assert.deepEqual((await eventsOf(h, key, 'invoice.deposited'))[0].data.obligation, met);
      assert.deepEqual((await report(h, key, sending.id, 'fr:210')).obligation, met, 'a refusal after the deposit');
      assert.deepEqual(
        (await h.call('GET', `/v1/invoices/${sending.id}`, { key })).data.obligation,
        met,
        'read back the same',
      );
      assert.equal(
        (await eventsOf(h, key, 'invoice.obligation_updated')).filter((e) => e.data.id === sending.id).length,
        0,
        'every invoice move has an event of its own, which carries the obligation',
      );

      // A credit note rejected by the platform has no event of its own: credit_note.obligation_updated tells it.
      const note = (
        await h.call('POST', '/v1/credit-notes', {
          key,
          body: {
            relatedInvoiceId: invoice.id,
            taxDecisionId: (await decision(h, key, { customerId: invoice.customerId })).id,
          },
        })
      ).data;
      assert.equal(note.obligation, null);
      assert.equal((await h.call('POST', `/v1/credit-notes/${note.id}/finalize`, { key })).statusCode, 200);
      await h.call('POST', `/v1/credit-notes/${note.id}/send`, { key });
      const noteRejected = await report(h, key, note.id, 'fr:213', { reasonCode: 'REJ_UNI', reason: 'Doublon' });
      assert.deepEqual(noteRejected.obligation, o('waiting', 'REJ_UNI', 'platform', 'client', 'resubmit'));
      const updates = (await eventsOf(h, key, 'credit_note.obligation_updated')).filter((e) => e.data.id === note.id);
      assert.equal(updates.length, 1);
      assert.deepEqual(updates[0].data, {
        id: note.id,
        object: 'credit_note',
        status: 'rejected',
        obligation: o('waiting', 'REJ_UNI', 'platform', 'client', 'resubmit'),
        reason: 'Doublon',
      });
      await report(h, key, note.id, 'fr:213', { reasonCode: 'REJ_UNI', reason: 'Doublon' });
      assert.equal(
        (await eventsOf(h, key, 'credit_note.obligation_updated')).filter((e) => e.data.id === note.id).length,
        1,
        'a repeat changes nothing: no second event',
      );
    },
  );

  await t.test('contract: approved, then full payment: paid, invoice.paid with previous_status approved', async () => {
    const invoice = await sent(h, key);
    await report(h, key, invoice.id, 'fr:205');
    assert.equal((await pay(h, key, invoice.id, invoice.total)).statusCode, 201);
    const paid = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
    assert.deepEqual(axes(paid), ['paid', 'finalized', 'approved', null, 'paid']);
    const moves = await movesOf(h, key, invoice.id);
    assert.deepEqual(moves.slice(-2), [
      ['payment.received', 'approved', 'paid'],
      ['invoice.paid', 'approved', 'paid'],
    ]);
  });

  await t.test(
    'contract: rejected, then payment recorded in full: paid, transmission stays rejected, payment.received with previous_status rejected',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:213', { reasonCode: 'REJ_SEMAN' });
      await pay(h, key, invoice.id, invoice.total);
      const paid = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual(axes(paid), ['paid', 'finalized', 'rejected', null, 'paid']);
      assert.deepEqual((await movesOf(h, key, invoice.id)).slice(-2), [
        ['payment.received', 'rejected', 'paid'],
        ['invoice.paid', 'rejected', 'paid'],
      ]);
    },
  );

  await t.test(
    'contract: paid before deposit, the approval arrives: stays paid, invoice.approved with previous_status paid',
    async () => {
      const invoice = await finalizedInvoice(h, key);
      await pay(h, key, invoice.id, invoice.total);
      await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
      const approved = await report(h, key, invoice.id, 'fr:205');
      assert.deepEqual(axes(approved), ['paid', 'finalized', 'approved', null, 'paid']);
      assert.deepEqual((await movesOf(h, key, invoice.id)).at(-1), ['invoice.approved', 'paid', 'paid']);
    },
  );

  await t.test(
    'contract: sending, the platform reports availability: only invoice.available, nothing reconstructed',
    async () => {
      const invoice = await sent(h, key);
      const available = await report(h, key, invoice.id, 'fr:203');
      assert.deepEqual(axes(available), ['available', 'finalized', 'transmitted', 'available', 'unpaid']);
      const types = (await movesOf(h, key, invoice.id)).map(([type]) => type);
      assert.deepEqual(types, [
        'invoice.created',
        'invoice.finalized',
        'invoice.sent',
        'invoice.sending',
        'invoice.available',
      ]);
    },
  );

  await t.test(
    'contract: fr:211 is a history mention only: no axis, no amount, no event; it never downgrades a payment',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:205');
      await pay(h, key, invoice.id, invoice.total);
      const before = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      const eventsBefore = (await eventsOf(h, key)).length;
      const textAlone = await simulate(h, key, invoice.id, 'fr:211', { reason: 'Virement émis le 14/10' });
      assert.deepEqual(
        [textAlone.data.error.code, textAlone.data.error.param],
        ['missing_required_field', 'reasonCode'],
      );
      const after = await report(h, key, invoice.id, 'fr:211', {
        reasonCode: 'AUTRE',
        reason: 'Virement émis le 14/10',
      });
      assert.deepEqual(axes(after), axes(before));
      assert.equal(after.amountPaid, before.amountPaid);
      assert.equal((await eventsOf(h, key)).length, eventsBefore);
      const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data;
      assert.deepEqual(
        history.data.map((entry: any) => [entry.object, entry.status, entry.applied, entry.event]),
        [
          ['lifecycle_status', 'fr:205', true, 'invoice.approved'],
          ['lifecycle_status', 'fr:211', false, null],
        ],
      );
      assert.equal(history.data[1].reason, 'Virement émis le 14/10');
    },
  );

  await t.test('the same status twice is applied once; nothing moves after approved', async () => {
    const invoice = await sent(h, key);
    await report(h, key, invoice.id, 'fr:200');
    const count = (await eventsOf(h, key, 'invoice.deposited')).length;
    const again = await report(h, key, invoice.id, 'fr:200');
    assert.equal(again.transmissionStatus, 'deposited');
    assert.equal((await eventsOf(h, key, 'invoice.deposited')).length, count);
    await report(h, key, invoice.id, 'fr:205');
    const late = await report(h, key, invoice.id, 'fr:213');
    assert.equal(late.status, 'approved');
    const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
    assert.deepEqual(
      history.map((entry: any) => entry.applied),
      [true, false, true, false],
    );
  });

  await t.test(
    'contract: resubmission after a rejection: rejection fields reset to null, the attempt archived in previousSubmissions',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:213', { reasonCode: 'REJ_SEMAN', reason: 'BR-FR-08' });
      h.clock.advance(60_000);
      const resent = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
      assert.equal(resent.statusCode, 200, resent.body);
      assert.deepEqual(axes(resent.data), ['sending', 'finalized', 'sending', null, 'unpaid']);
      const { previousSubmissions, ...current } = resent.data.einvoicing;
      assert.deepEqual(current, {
        // The new submission's name at the sandbox's platform; deposited there on its first status.
        paTrackingId: `${invoice.id}-a2`,
        paFlowId: null,
        paErrorCode: null,
        rejectionReason: null,
        rejectionNote: null,
        rejectionCode: null,
        rejectionSource: null,
        rejectionCategory: null,
      });
      assert.deepEqual(previousSubmissions, [
        {
          paErrorCode: 'REJ_SEMAN',
          rejectionReason: 'BR-FR-08',
          rejectionNote: null,
          rejectionCode: 'REJ_SEMAN',
          rejectionSource: 'platform',
          rejectionCategory: 'semantic_error',
          transmissionStatus: 'rejected',
          transmissionDetail: null,
          archivedAt: h.clock.now().toISOString(),
        },
      ]);
      assert.deepEqual((await movesOf(h, key, invoice.id)).slice(-2), [
        ['invoice.sent', 'rejected', 'sending'],
        ['invoice.sending', 'rejected', 'sending'],
      ]);
      const [sending] = await eventsOf(h, key, 'invoice.sending');
      assert.equal(sending.data.rejectionCategory, null);
      const approved = await report(h, key, invoice.id, 'fr:205');
      assert.equal(approved.status, 'approved', 'the new attempt goes on');
      assert.equal(approved.einvoicing.previousSubmissions.length, 1);
    },
  );

  await t.test('a suspension fills the rejection fields (buyer, suspended); 209 clears them', async () => {
    const invoice = await sent(h, key);
    await report(h, key, invoice.id, 'fr:204');
    const suspended = await report(h, key, invoice.id, 'fr:208', {
      reasonCode: 'JUSTIF_ABS',
      reason: 'Bon de commande manquant',
    });
    assert.deepEqual(
      [
        suspended.einvoicing.rejectionSource,
        suspended.einvoicing.rejectionCategory,
        suspended.einvoicing.rejectionCode,
      ],
      ['buyer', 'suspended', 'JUSTIF_ABS'],
    );
    const completed = await report(h, key, invoice.id, 'fr:209');
    assert.equal(completed.status, 'received');
    assert.equal(completed.einvoicing.rejectionCategory, null);
  });

  await t.test(
    'a partial payment on a suspended invoice: the summary stays suspended, invoice.partially_paid',
    async () => {
      const invoice = await sent(h, key);
      await report(h, key, invoice.id, 'fr:204');
      await report(h, key, invoice.id, 'fr:207');
      await pay(h, key, invoice.id, 1000);
      const after = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual(axes(after), ['suspended', 'finalized', 'transmitted', 'suspended', 'partially_paid']);
      assert.deepEqual((await movesOf(h, key, invoice.id)).at(-1), [
        'invoice.partially_paid',
        'suspended',
        'suspended',
      ]);
    },
  );

  await t.test('refusals: outside e-invoicing, not sent yet, a draft, an unknown status, a live key', async () => {
    const buyer = consumerBuyer;
    const taken = await decision(h, key, { customer: asDecisionCustomer(buyer) }, [chair]);
    const b2c = (
      await h.call('POST', '/v1/invoices', { key, body: { buyer, lines: [chair], taxDecisionId: taken.id } })
    ).data;
    await h.call('POST', `/v1/invoices/${b2c.id}/finalize`, { key });
    const send = await h.call('POST', `/v1/invoices/${b2c.id}/send`, { key });
    assert.equal(send.statusCode, 400);
    assert.equal(send.data.error.code, 'not_einvoicing_channel');
    assert.equal((await simulate(h, key, b2c.id, 'fr:200')).data.error.code, 'not_einvoicing_channel');
    const pending = await finalizedInvoice(h, key);
    assert.equal((await simulate(h, key, pending.id, 'fr:200')).data.error.code, 'invalid_status_transition');
    const draft = (await h.call('POST', '/v1/invoices', { key, body: { buyer, lines: [chair] } })).data;
    assert.equal((await simulate(h, key, draft.id, 'fr:200')).data.error.code, 'invalid_status_transition');
    assert.equal(
      (await h.call('POST', `/v1/invoices/${draft.id}/send`, { key })).data.error.code,
      'invalid_status_transition',
    );
    const unknown = await simulate(h, key, pending.id, 'fr:299');
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.data.error.param, 'status');
    for (const notes of [[1], 7, Array.from({ length: 21 }, () => 'n')]) {
      const badNotes = await simulate(h, key, pending.id, 'fr:213', { notes });
      assert.equal(badNotes.statusCode < 500 && badNotes.statusCode >= 400, true, badNotes.body);
      assert.equal(badNotes.data.error.param, 'notes', `${JSON.stringify(notes)}: ${badNotes.body}`);
    }
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
    const liveInvoice = await finalizedInvoice(h, live);
    const liveSimulate = await simulate(h, live, liveInvoice.id, 'fr:200');
    assert.equal(liveSimulate.statusCode, 400);
    assert.equal(liveSimulate.data.error.code, 'not_supported');
    const liveSend = await h.call('POST', `/v1/invoices/${liveInvoice.id}/send`, { key: live });
    assert.equal(liveSend.data.error.code, 'pa_not_configured');
  });
});
