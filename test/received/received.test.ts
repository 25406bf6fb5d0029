import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startHarness, contextFor } from '../support/harness.js';
import { ruleSetInForce } from '../../src/einvoice/validation-pool.js';
import { dayOf } from '../../src/kernel/calendar.js';
import { extractFacturXml } from '../../src/einvoice/cii-reader.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { answerFlow, ingestReceivedInvoice } from '../../src/received/service.js';
import { checkTransition } from '../../src/received/transitions.js';
import { readUbl } from '../../src/einvoice/ubl-reader.js';
import { buildCdarMessage, parseCdarMessage } from '../../src/platform/cdar.js';
import { inTransaction } from '../../src/db/transaction.js';
import { deliverDueFlows, flowLeaseMs, queuePlatformFlow } from '../../src/platform/service.js';
import { startCheckedSimulator } from '../platform/support.js';
import { connectHeadOffice } from '../deposits/support.js';
import { seller } from '../invoices/support.js';
import { ciiExample, ownFacturX, receive, ublExample } from './support.js';

async function eventsOf(h: Awaited<ReturnType<typeof startHarness>>, key: string, type: string): Promise<any[]> {
  const response = await h.call('GET', `/v1/events?limit=100&type=${type}`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.data;
}

test('received invoices', async (t) => {
  const h = await startHarness();
  t.after(async () => {
    await h.close();
    await closeValidation();
  });
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };

  await t.test('the UBL reader reads the French EXTENDED-CTC-FR example', () => {
    const doc = readUbl(ublExample().toString('utf8'));
    assert.equal(doc.number, 'F124212');
    assert.equal(doc.issueDate, '2026-06-17');
    assert.equal(doc.typeCode, '380');
    assert.equal(doc.seller.siret, '99999999800019');
    assert.equal(doc.seller.siren, '999999998');
    assert.equal(doc.seller.legalName, 'Au bon moulin');
    assert.equal(doc.seller.vatNumber, 'FR11999999998');
    assert.equal(doc.buyer.siret, '78787878400018');
    assert.deepEqual(
      [doc.totals.net, doc.totals.taxBasis, doc.totals.vat, doc.totals.gross, doc.totals.due],
      [27300, 27300, 3503, 30803, 20803],
    );
    assert.equal(doc.lines.length, 2);
    assert.deepEqual(
      doc.vatBreakdown.map((group) => [group.vatRate, group.taxableAmount, group.taxAmount]),
      [
        ['20.00', 13800, 2760],
        ['5.50', 13500, 743],
      ],
    );
    assert.equal(doc.notes.find((note) => note.subject === 'PMT')?.text.startsWith('Indemnité'), true);
  });

  await t.test('the transitions follow the reform: refuse needs a 210 reason, not after an approval', () => {
    assert.equal(checkTransition('received', 'approve', undefined).ok, true);
    assert.deepEqual(checkTransition('received', 'refuse', undefined), {
      ok: false,
      problem: 'reason_missing',
      detail: 'reasonCode',
    });
    assert.equal(
      (checkTransition('received', 'refuse', 'JUSTIF_ABS') as { problem: string }).problem,
      'reason_invalid',
    );
    assert.equal((checkTransition('approved', 'refuse', 'TX_TVA_ERR') as { problem: string }).problem, 'transition');
    assert.equal(checkTransition('suspended', 'approve', undefined).ok, true);
    assert.equal(checkTransition('approved', 'dispute', undefined).ok, true);
    assert.equal((checkTransition('refused', 'approve', undefined) as { problem: string }).problem, 'transition');
    assert.equal(
      (checkTransition('payment_transmitted', 'dispute', undefined) as { problem: string }).problem,
      'transition',
    );
    const suspended = checkTransition('received', 'suspend', undefined);
    assert.equal(suspended.ok && suspended.reasonCode, 'JUSTIF_ABS');
  });

  await t.test('a received invoice is judged by the rules in force on its date of receipt', async () => {
    const { key } = await h.tenant();
    const pdf = await ownFacturX({ number: 'F2026-REC-0900' });
    const today = h.clock.now();
    h.clock.set('2026-08-20T09:00:00Z');
    let summer;
    try {
      summer = await receive(h, key, pdf, 'flow-rules-august');
    } finally {
      h.clock.set(today);
    }
    assert.equal(summer.statusCode, 201, summer.body);
    assert.equal(summer.data.ruleSet, '1.4.0');
    assert.ok(
      summer.data.validators.some((name: string) => name.startsWith('FACTUR-X_EN16931 (Factur-X 1.09 EN16931')),
    );
    const later = await receive(h, key, pdf, 'flow-rules-later');
    assert.equal(later.statusCode, 201, later.body);
    assert.equal(later.data.ruleSet, '1.4.0.03');
    assert.ok(later.data.validators.includes('FACTUR-X_EN16931 (FNFE-MPE 1.4.0.03, FACTUR-X_EN16931.xslt)'));
    assert.equal(later.data.conformant, true, JSON.stringify(later.data.validationErrors));
  });

  await t.test('the own Factur-X: read, conformant, once per flow, one event, files byte for byte', async () => {
    const { key } = await h.tenant();
    const pdf = await ownFacturX({ number: 'F2026-REC-0001' });
    const first = await receive(h, key, pdf, 'flow-own-1');
    assert.equal(first.statusCode, 201, first.body);
    const invoice = first.data;
    assert.match(invoice.id, /^rec_[0-9a-z]{26}$/);
    assert.match(invoice.paInvoiceId, /^pa_[0-9a-z]{26}$/);
    assert.equal(invoice.object, 'received_invoice');
    assert.equal(invoice.status, 'received');
    assert.equal(invoice.syntax, 'Factur-X');
    assert.equal(invoice.number, 'F2026-REC-0001');
    assert.deepEqual(invoice.sender, {
      siret: '73282932000074',
      siren: '732829320',
      name: 'Atelier Dupont & Fils',
      vatNumber: 'FR44732829320',
    });
    assert.equal(invoice.conformant, true, JSON.stringify(invoice.validationErrors));
    assert.deepEqual(invoice.validationErrors, []);
    assert.ok(invoice.validators.length >= 2);
    assert.equal(invoice.ruleSet, ruleSetInForce(dayOf(h.clock.now())).id, 'the rules in force on the day of receipt');
    assert.ok(invoice.lines.length > 0);
    assert.equal(invoice.totalTtc, invoice.totalHt + invoice.totalTva);

    // The same flow again (pushed twice, or pushed and polled): the same invoice, no second event.
    const again = await receive(h, key, pdf, 'flow-own-1');
    assert.equal(again.statusCode, 200);
    assert.equal(again.data.id, invoice.id);
    const events = await eventsOf(h, key, 'invoice.incoming.received');
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].data, {
      id: invoice.id,
      object: 'received_invoice',
      pa_invoice_id: invoice.paInvoiceId,
      sender_siret: '73282932000074',
      sender_name: 'Atelier Dupont & Fils',
      number: 'F2026-REC-0001',
      total_ht: (invoice.totalHt / 100).toFixed(2),
      total_tva: (invoice.totalTva / 100).toFixed(2),
      total_ttc: (invoice.totalTtc / 100).toFixed(2),
    });

    const original = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/original`, { key });
    assert.equal(original.statusCode, 200);
    assert.equal(original.headers['content-type'], 'application/pdf');
    assert.ok(original.rawPayload.equals(pdf), 'the original is the file as received');
    const etag = `"${createHash('sha256').update(pdf).digest('hex')}"`;
    assert.equal(original.headers.etag, etag);
    const cached = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/original`, {
      key,
      headers: { 'if-none-match': etag },
    });
    assert.equal(cached.statusCode, 304);
    const visual = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/pdf`, { key });
    assert.equal(visual.statusCode, 200);
    assert.ok(visual.rawPayload.equals(pdf), 'a Factur-X is its own visual');
  });

  await t.test('a non-conformant CII is kept and flagged; its visual is drawn from the XML', async () => {
    const { key } = await h.tenant();
    const xml = ciiExample();
    const created = await receive(h, key, xml);
    assert.equal(created.statusCode, 201, created.body);
    const invoice = created.data;
    assert.equal(invoice.syntax, 'CII');
    assert.equal(invoice.number, '12115118');
    assert.equal(invoice.issueDate, '2015-01-09');
    assert.equal(invoice.sender.name, 'De Koksmaat');
    assert.equal(invoice.conformant, false);
    assert.ok(invoice.validationErrors.length > 0);
    assert.ok(invoice.validationErrors.some((error: any) => /^BR-FR/.test(error.rule)));
    const original = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/original`, { key });
    assert.equal(original.headers['content-type'], 'application/xml');
    assert.ok(original.rawPayload.equals(xml));
    const visual = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/pdf`, { key });
    assert.equal(visual.statusCode, 200, visual.body);
    assert.equal(visual.headers['content-type'], 'application/pdf');
    assert.equal(visual.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(await extractFacturXml(visual.rawPayload), null, 'a drawing, not a Factur-X');
    // Rendered once, then kept: the same bytes.
    const again = await h.call('GET', `/v1/received-invoices/${invoice.id}/files/pdf`, { key });
    assert.ok(again.rawPayload.equals(visual.rawPayload));
  });

  await t.test(
    'a UBL invoice is read and validated (ubl-received.test.ts); an unreadable file is kept and flagged',
    async () => {
      const { key } = await h.tenant();
      const ubl = await receive(h, key, ublExample());
      assert.equal(ubl.statusCode, 201, ubl.body);
      assert.equal(ubl.data.syntax, 'UBL');
      assert.equal(ubl.data.sender.siret, '99999999800019');
      assert.equal(ubl.data.conformant, true, JSON.stringify(ubl.data.validationErrors));
      assert.deepEqual(ubl.data.validationErrors, []);
      assert.equal(ubl.data.totalTtc, 30803);

      const garbage = Buffer.from('<html>not an invoice</html>');
      const kept = await receive(h, key, garbage);
      assert.equal(kept.statusCode, 201, kept.body);
      assert.equal(kept.data.syntax, 'unknown');
      assert.equal(kept.data.conformant, false);
      assert.equal(kept.data.validationErrors[0].rule, 'UNREADABLE');
      const original = await h.call('GET', `/v1/received-invoices/${kept.data.id}/files/original`, { key });
      assert.ok(original.rawPayload.equals(garbage));
      const visual = await h.call('GET', `/v1/received-invoices/${kept.data.id}/files/pdf`, { key });
      assert.equal(visual.statusCode, 400);
      assert.equal(visual.data.error.code, 'not_supported');
    },
  );

  await t.test('list with filters; other company, other environment and scopes', async () => {
    const { companyId, key } = await h.tenant();
    const own = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0002' }));
    const cii = await receive(h, key, ciiExample());
    const all = await h.call('GET', '/v1/received-invoices', { key });
    assert.deepEqual(
      all.data.data.map((invoice: any) => invoice.id),
      [cii.data.id, own.data.id],
    );
    const bySender = await h.call('GET', '/v1/received-invoices?sender=73282932000074', { key });
    assert.deepEqual(
      bySender.data.data.map((invoice: any) => invoice.id),
      [own.data.id],
    );
    const byDate = await h.call('GET', '/v1/received-invoices?date_from=2015-01-01&date_to=2015-12-31', { key });
    assert.deepEqual(
      byDate.data.data.map((invoice: any) => invoice.id),
      [cii.data.id],
    );
    const byStatus = await h.call('GET', '/v1/received-invoices?status=approved', { key });
    assert.deepEqual(byStatus.data.data, []);
    const inverted = await h.call('GET', '/v1/received-invoices?date_from=2026-01-02&date_to=2026-01-01', { key });
    assert.equal(inverted.statusCode, 400);
    assert.equal(inverted.data.error.code, 'invalid_field_value');
    const badSender = await h.call('GET', '/v1/received-invoices?sender=123', { key });
    assert.equal(badSender.statusCode, 422);

    const other = await h.tenant();
    for (const path of ['', '/files/original', '/files/pdf', '/history']) {
      const response = await h.call('GET', `/v1/received-invoices/${own.data.id}${path}`, { key: other.key });
      assert.equal(response.statusCode, 404, path);
      assert.equal(response.data.error.code, 'not_found');
    }
    const approveOther = await h.call('POST', `/v1/received-invoices/${own.data.id}/approve`, {
      key: other.key,
      body: {},
    });
    assert.equal(approveOther.statusCode, 404);
    const live = await h.key(companyId, { env: 'live' });
    assert.equal((await h.call('GET', `/v1/received-invoices/${own.data.id}`, { key: live })).statusCode, 404);
    assert.deepEqual((await h.call('GET', '/v1/received-invoices', { key: live })).data.data, []);
    const liveReceive = await receive(h, live, ciiExample());
    assert.equal(liveReceive.statusCode, 400);
    assert.equal(liveReceive.data.error.code, 'not_supported');

    const readOnly = await h.key(companyId, { scopes: ['invoices:read'] });
    assert.equal((await h.call('GET', `/v1/received-invoices/${own.data.id}`, { key: readOnly })).statusCode, 200);
    const denied = await h.call('POST', `/v1/received-invoices/${own.data.id}/approve`, { key: readOnly, body: {} });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.data.error.code, 'scope_insufficient');
    const noRead = await h.key(companyId, { scopes: ['customers:read'] });
    assert.equal((await h.call('GET', '/v1/received-invoices', { key: noRead })).statusCode, 403);
  });

  await t.test('the answers: the state machine, reasons, CDAR statuses sent, history, idempotency', async () => {
    // A test establishment connected to a platform: the answers go there, as CDAR flows.
    const platform = await startCheckedSimulator();
    t.after(() => platform.stop());
    const { key, companyId } = await seller(h);
    await connectHeadOffice(h, key, platform);
    const connector = platform.connector();
    const cdarDeposits = () =>
      platform.exchanges.filter(
        (exchange) =>
          exchange.path === '/flow-service/v1/flows' &&
          exchange.method === 'POST' &&
          (exchange.requestBody as any)?.flowInfo?.flowSyntax === 'CDAR',
      );
    const sentStatuses = async () => {
      const history = (await h.call('GET', `/v1/received-invoices/${id}/history`, { key })).data.data as any[];
      const files = await Promise.all(
        history.slice(1).map((entry) => connector.downloadFlow(entry.platformFlowId as string)),
      );
      return files.map((file) => (file.ok ? parseCdarMessage(file.value.toString('utf8'))[0]! : null));
    };
    const { data: invoice } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0003' }));
    const id = invoice.id;

    const missing = await h.call('POST', `/v1/received-invoices/${id}/refuse`, { key, body: { reason: 'x' } });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.data.error.code, 'missing_required_field');
    assert.equal(missing.data.error.param, 'reasonCode');
    const badReason = await h.call('POST', `/v1/received-invoices/${id}/refuse`, {
      key,
      body: { reasonCode: 'JUSTIF_ABS', reason: 'Pièce manquante' },
    });
    assert.equal(badReason.statusCode, 400);
    assert.equal(badReason.data.error.code, 'invalid_field_value');
    assert.equal(badReason.data.error.param, 'reasonCode');
    assert.equal(cdarDeposits().length, 0, 'nothing sent for a refused request');

    const suspended = await h.call('POST', `/v1/received-invoices/${id}/suspend`, {
      key,
      body: { reason: 'Le bon de livraison manque' },
      headers: { 'idempotency-key': 'suspend-1' },
    });
    assert.equal(suspended.statusCode, 200, suspended.body);
    assert.equal(suspended.data.status, 'suspended');
    const replay = await h.call('POST', `/v1/received-invoices/${id}/suspend`, {
      key,
      body: { reason: 'Le bon de livraison manque' },
      headers: { 'idempotency-key': 'suspend-1' },
    });
    assert.equal(replay.statusCode, 200);
    assert.equal(cdarDeposits().length, 1, 'an idempotent replay sends nothing again');

    const approved = await h.call('POST', `/v1/received-invoices/${id}/approve`, { key, body: {} });
    assert.equal(approved.data.status, 'approved');
    const refuseAfter = await h.call('POST', `/v1/received-invoices/${id}/refuse`, {
      key,
      body: { reasonCode: 'TX_TVA_ERR', reason: 'Taux faux' },
    });
    assert.equal(refuseAfter.statusCode, 400);
    assert.equal(refuseAfter.data.error.code, 'invalid_status_transition');
    const paid = await h.call('POST', `/v1/received-invoices/${id}/payment-transmitted`, { key, body: {} });
    assert.equal(paid.data.status, 'payment_transmitted');
    const late = await h.call('POST', `/v1/received-invoices/${id}/dispute`, { key, body: {} });
    assert.equal(late.data.error.code, 'invalid_status_transition');

    const statuses = await sentStatuses();
    assert.deepEqual(
      statuses.map((status) => [status!.statusCode, status!.reasons[0]?.code ?? null, status!.issuerRole]),
      [
        ['208', 'JUSTIF_ABS', 'BY'],
        ['205', null, 'BY'],
        ['211', null, 'BY'],
      ],
    );
    assert.equal(statuses[0]!.invoiceNumber, 'F2026-REC-0003');
    assert.equal(statuses[0]!.sellerSiren, '732829320');
    assert.equal(statuses[0]!.reasons[0]!.text, 'Le bon de livraison manque');

    const history = await h.call('GET', `/v1/received-invoices/${id}/history`, { key });
    const depositedFlows = cdarDeposits().map((exchange) => (exchange.responseBody as any).flowId);
    assert.deepEqual(
      history.data.data.map((entry: any) => [entry.status, entry.action, entry.reasonCode, entry.platformFlowId]),
      [
        ['fr:203', null, null, invoice.flowId],
        ['fr:208', 'suspend', 'JUSTIF_ABS', depositedFlows[0]],
        ['fr:205', 'approve', null, depositedFlows[1]],
        ['fr:211', 'payment-transmitted', null, depositedFlows[2]],
      ],
    );
    assert.equal(new Set(depositedFlows).size, 3);

    // Refusal from received, with its reason and text.
    const { data: second } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0004' }));
    const refused = await h.call('POST', `/v1/received-invoices/${second.id}/refuse`, {
      key,
      body: { reasonCode: 'TX_TVA_ERR', reason: 'Le taux de TVA est faux' },
    });
    assert.equal(refused.data.status, 'refused');
    const refusalHistory = (await h.call('GET', `/v1/received-invoices/${second.id}/history`, { key })).data.data;
    const refusalFile = await connector.downloadFlow(refusalHistory.at(-1).platformFlowId);
    assert.ok(refusalFile.ok);
    const refusal = parseCdarMessage(refusalFile.value.toString('utf8'))[0]!;
    assert.deepEqual(platform.violations(), []);
    assert.deepEqual(
      [refusal.statusCode, refusal.reasons[0]],
      ['210', { code: 'TX_TVA_ERR', text: 'Le taux de TVA est faux' }],
    );

    // Two answers at once (approve and refuse, each with its own key): one leaves, the other is
    // checked against it and refused; the seller receives one status.
    const { data: third } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0007' }));
    const sentBefore = cdarDeposits().length;
    const answers = await Promise.all([
      h.call('POST', `/v1/received-invoices/${third.id}/approve`, {
        key,
        body: {},
        headers: { 'idempotency-key': 'a-1' },
      }),
      h.call('POST', `/v1/received-invoices/${third.id}/refuse`, {
        key,
        body: { reasonCode: 'TX_TVA_ERR', reason: 'Taux faux' },
        headers: { 'idempotency-key': 'r-1' },
      }),
    ]);
    const [won, lost] = answers[0].statusCode === 200 ? answers : [answers[1], answers[0]];
    assert.equal(won.statusCode, 200, won.body);
    assert.deepEqual([lost.statusCode, lost.data.error.code], [400, 'invalid_status_transition'], lost.body);
    assert.equal(cdarDeposits().length, sentBefore + 1, 'one status sent to the seller');
    const thirdHistory = (await h.call('GET', `/v1/received-invoices/${third.id}/history`, { key })).data.data;
    assert.equal(thirdHistory.length, 2);
    assert.equal(thirdHistory[1].status, won.data.status === 'approved' ? 'fr:205' : 'fr:210');

    // A request that died with its answer on the way (its flow leased, never recorded): once the
    // lease lapses, the outbox searches the platform for it. Not there: abandoned, the invoice as
    // it was, and the company answers again. There: recorded as the answer it was.
    const scope = { companyId, livemode: false };
    const dyingAnswer = async (invoiceId: string, number: string, deposit: boolean) => {
      const trackingId = `${invoiceId}-205-died`;
      const cdar = buildCdarMessage({
        messageId: trackingId,
        issuedAt: h.clock.now(),
        status: '205',
        invoice: { number, issueDate: '2026-06-17', typeCode: '380', sellerSiren: '732829320' },
        issuer: { role: 'BY', siren: '100000009', name: 'Vendeur SAS' },
        recipient: { siren: '732829320', electronicAddress: '732829320', name: null },
      });
      await inTransaction(h.deps.db, contextFor(companyId, false, h.clock.now()), (tx) =>
        queuePlatformFlow(
          tx,
          scope,
          {
            kind: answerFlow.kind,
            ownerId: invoiceId,
            trackingId,
            establishmentId: null,
            file: Buffer.from(cdar),
            name: `${trackingId}.xml`,
            syntax: 'CDAR',
            detail: {
              action: 'approve',
              to: 'approved',
              statusCode: '205',
              reasonCode: null,
              reason: null,
              messageId: trackingId,
            },
          },
          h.clock.now(),
          { token: 'dead-request', until: new Date(h.clock.now().getTime() + flowLeaseMs) },
        ),
      );
      if (deposit) {
        const sent = await connector.deposit({
          file: Buffer.from(cdar),
          name: `${trackingId}.xml`,
          syntax: 'CDAR',
          trackingId,
        });
        assert.ok(sent.ok);
      }
    };
    const { data: fourth } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0008' }));
    const { data: fifth } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0009' }));
    await dyingAnswer(fourth.id, 'F2026-REC-0008', false);
    await dyingAnswer(fifth.id, 'F2026-REC-0009', true);
    const sentBeforeLapse = cdarDeposits().length;
    assert.equal(await deliverDueFlows(h.deps, [answerFlow], { companyIds: [companyId] }), 0, 'leased: left alone');
    h.clock.advance(flowLeaseMs + 1000);
    assert.equal(await deliverDueFlows(h.deps, [answerFlow], { companyIds: [companyId] }), 1);
    assert.equal(cdarDeposits().length, sentBeforeLapse, 'nothing deposited after the lapse');
    const abandoned = await h.call('GET', `/v1/received-invoices/${fourth.id}`, { key });
    assert.equal(abandoned.data.status, fourth.status, 'not on the platform: the invoice as it was');
    const recorded = await h.call('GET', `/v1/received-invoices/${fifth.id}/history`, { key });
    assert.deepEqual(
      recorded.data.data.map((entry: any) => [entry.status, entry.action]),
      [
        ['fr:203', null],
        ['fr:205', 'approve'],
      ],
    );
    const again = await h.call('POST', `/v1/received-invoices/${fourth.id}/approve`, { key, body: {} });
    assert.equal(again.data.status, 'approved', again.body);
  });

  await t.test('the sandbox without a platform records the answers; live answers pa_not_configured', async () => {
    const { companyId, key } = await h.tenant();
    const { data: invoice } = await receive(h, key, await ownFacturX({ number: 'F2026-REC-0005' }));
    const disputed = await h.call('POST', `/v1/received-invoices/${invoice.id}/dispute`, {
      key,
      body: { reasonCode: 'PU_ERR', reason: 'Prix unitaire' },
    });
    assert.equal(disputed.statusCode, 200, disputed.body);
    assert.equal(disputed.data.status, 'disputed');
    const history = await h.call('GET', `/v1/received-invoices/${invoice.id}/history`, { key });
    assert.deepEqual(history.data.data.at(-1).status, 'fr:207');
    assert.equal(history.data.data.at(-1).platformFlowId, null);

    // A live invoice (ingested as a live platform would deliver it) cannot be answered without a platform.
    const ctx = contextFor(companyId, true, h.clock.now());
    const liveKey = await h.key(companyId, { env: 'live' });
    const ingested = await ingestReceivedInvoice(h.deps, ctx, {
      flowId: 'live-flow-1',
      bytes: await ownFacturX({ number: 'F2026-REC-0006' }),
      name: null,
    });
    assert.equal(ingested.created, true);
    const refused = await h.call('POST', `/v1/received-invoices/${ingested.invoice.id}/approve`, {
      key: liveKey,
      body: {},
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.data.error.code, 'pa_not_configured');
  });

  await t.test('the sandbox reset purges the test received invoices', async () => {
    const { key } = await h.tenant();
    const { data: invoice } = await receive(h, key, ciiExample());
    const reset = await h.call('POST', '/v1/sandbox/reset', { key, body: {} });
    assert.equal(reset.statusCode, 200, reset.body);
    assert.equal((await h.call('GET', `/v1/received-invoices/${invoice.id}`, { key })).statusCode, 404);
  });
});
