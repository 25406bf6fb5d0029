/**
 * The test mode's platform: `POST /v1/sandbox/invoices/:id/simulate` deposits the submission on a
 * pa-simulator the node runs in process, has it write the status as a CDAR life-cycle flow, and
 * applies what the AFNOR connector reads back over HTTPS, as a live status.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OfficialValidator } from '../../src/einvoice/official-validator.js';
import { compileAll } from '../../src/einvoice/sef-cache.js';
import { cdarValidation } from '../../src/einvoice/validation-pool.js';
import { SandboxPlatform } from '../../src/pa-simulator/sandbox-platform.js';
import { testCacheDir } from '../einvoice/support.js';
import { startHarness, type Harness } from '../support/harness.js';
import { startCheckedSimulator } from '../platform/support.js';
import { documentHarness, eventsOf, finalizedInvoice, seller } from './support.js';

let h: Harness;
let validator: OfficialValidator;
before(async () => {
  h = await documentHarness();
  validator = await OfficialValidator.open({
    compiled: await compileAll(testCacheDir, cdarValidation.stylesheets),
    xsd: cdarValidation.xsd,
  });
});
after(async () => {
  await validator.close();
  await h.close();
});

const simulate = (key: string, id: string, body: Record<string, unknown>) =>
  h.call('POST', `/v1/sandbox/invoices/${id}/simulate`, { key, body });

async function report(key: string, id: string, body: Record<string, unknown>): Promise<any> {
  const response = await simulate(key, id, body);
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

async function sentInvoice(key: string): Promise<any> {
  const invoice = await finalizedInvoice(h, key);
  const sent = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
  assert.equal(sent.statusCode, 200, sent.body);
  return sent.data;
}

test('each status comes over HTTPS from the in-process platform: one deposit per submission, each status a CDAR the official validators accept', async () => {
  const { companyId, key } = await seller(h);
  const invoice = await sentInvoice(key);
  assert.deepEqual([invoice.einvoicing.paTrackingId, invoice.einvoicing.paFlowId], [`${invoice.id}-a1`, null]);
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  const before = simulator.stats();

  const steps: [string, string | null, string][] = [
    ['fr:200', null, 'deposited'],
    ['fr:202', null, 'transmitted'],
    ['fr:204', null, 'received'],
    ['fr:208', 'JUSTIF_ABS', 'suspended'],
    ['fr:209', null, 'received'],
    ['fr:205', null, 'approved'],
  ];
  let last: any;
  for (const [status, reasonCode, summary] of steps) {
    last = await report(key, invoice.id, { status, ...(reasonCode ? { reasonCode, reason: 'Bon manquant' } : {}) });
    assert.equal(last.status, summary, status);
  }
  const stats = simulator.stats();
  assert.equal(stats.deposits - before.deposits, 1, 'deposited once, on its first status');
  assert.equal((stats.flowsByInvoice[invoice.number] ?? 0) - (before.flowsByInvoice[invoice.number] ?? 0), 1);
  assert.equal(stats.lifecycleFlows - before.lifecycleFlows, steps.length);

  // What the company's account holds at the platform: its deposit, named on the resource, and the statuses.
  const connector = await h.deps.sandboxPlatform.connectorOf(companyId);
  const deposit = await connector.findDeposit(`${invoice.id}-a1`);
  assert.ok(deposit.ok && deposit.value, 'the deposit is found by its tracking id');
  assert.deepEqual(
    [last.einvoicing.paTrackingId, last.einvoicing.paFlowId],
    [`${invoice.id}-a1`, deposit.value.flowId],
  );
  const page = await connector.readLifecycle(null, { limit: 100 });
  assert.ok(page.ok);
  const statuses = page.value.events.flatMap((event) => (event.kind === 'status' ? [event] : []));
  assert.deepEqual(
    statuses.map((event) => [event.trackingId, event.status.statusCode]),
    steps.map(([status]) => [`${invoice.id}-a1`, status.slice(3)]),
  );
  for (const event of statuses) {
    const cdar = await connector.downloadFlow(event.flowId);
    assert.ok(cdar.ok);
    const validation = await validator.validate(cdar.value.toString('utf8'));
    assert.deepEqual(validation.failures, [], `fr:${event.status.statusCode}`);
  }
  assert.deepEqual(statuses[3]!.status.reasons, [{ code: 'JUSTIF_ABS', text: 'Bon manquant' }]);

  const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
  assert.deepEqual(
    history.map((entry: any) => [entry.status, entry.applied]),
    steps.map(([status]) => [status, true]),
  );
  assert.equal(history[3].reasonCode, 'JUSTIF_ABS');
});

test('what no platform sends is refused before anything is deposited: a reason outside its status list, a status without its reason, a text without its code', async () => {
  const { key } = await seller(h);
  const invoice = await sentInvoice(key);
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  const before = simulator.stats();

  const wrongList = await simulate(key, invoice.id, { status: 'fr:210', reasonCode: 'REJ_SEMAN' });
  assert.equal(wrongList.statusCode, 400, wrongList.body);
  assert.deepEqual([wrongList.data.error.code, wrongList.data.error.param], ['invalid_field_value', 'reasonCode']);
  assert.match(wrongList.data.error.message, /BR-FR-CDV-CL-09.*TX_TVA_ERR/);
  const unknown = await simulate(key, invoice.id, { status: 'fr:205', reasonCode: 'PAS_UN_MOTIF' });
  assert.deepEqual([unknown.statusCode, unknown.data.error.code], [400, 'invalid_field_value']);
  const missing = await simulate(key, invoice.id, { status: 'fr:207' });
  assert.deepEqual([missing.data.error.code, missing.data.error.param], ['missing_required_field', 'reasonCode']);
  assert.match(missing.data.error.hint, /BR-FR-CDV-15/);
  const textAlone = await simulate(key, invoice.id, { status: 'fr:205', reason: 'OK' });
  assert.deepEqual([textAlone.data.error.code, textAlone.data.error.param], ['missing_required_field', 'reasonCode']);

  assert.equal(simulator.stats().depositRequests, before.depositRequests, 'nothing reached the platform');
  const unchanged = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
  assert.deepEqual([unchanged.transmissionStatus, unchanged.einvoicing.paFlowId], ['sending', null]);
  assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data.length, 0);
});

test('a 213 whose code no life-cycle message carries is the platform refusing the deposit; a new submission is deposited again', async () => {
  const { key } = await seller(h);
  const invoice = await sentInvoice(key);
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  const flowsBefore = simulator.stats().flowsByInvoice[invoice.number] ?? 0;

  const refused = await report(key, invoice.id, {
    status: 'fr:213',
    reasonCode: 'REJ_XSD',
    reason: 'cvc-complex-type.2.4.a: BT-1 manquant',
  });
  assert.deepEqual(
    [refused.status, refused.transmissionStatus, refused.transmissionDetail],
    ['rejected', 'rejected', null],
  );
  assert.deepEqual(
    [
      refused.einvoicing.rejectionCode,
      refused.einvoicing.paErrorCode,
      refused.einvoicing.rejectionSource,
      refused.einvoicing.rejectionCategory,
      refused.einvoicing.rejectionReason,
    ],
    ['REJ_XSD', 'REJ_XSD', 'platform', 'format_invalid', 'cvc-complex-type.2.4.a: BT-1 manquant'],
  );
  const [rejectedEvent] = await eventsOf(h, key, 'invoice.rejected');
  assert.equal(rejectedEvent.data.id, invoice.id);
  // The acknowledgement is not a life-cycle status: no history entry.
  assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data.length, 0);
  const onRefused = await simulate(key, invoice.id, { status: 'fr:200' });
  assert.equal(onRefused.data.error.code, 'invalid_status_transition', onRefused.body);
  assert.match(onRefused.data.error.message, /refused this submission/);

  const again = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
  assert.equal(again.statusCode, 200, again.body);
  assert.deepEqual([again.data.einvoicing.paTrackingId, again.data.einvoicing.paFlowId], [`${invoice.id}-a2`, null]);
  const deposited = await report(key, invoice.id, { status: 'fr:200' });
  assert.equal(deposited.transmissionStatus, 'deposited');
  assert.equal(deposited.einvoicing.paTrackingId, `${invoice.id}-a2`);
  assert.equal(deposited.einvoicing.previousSubmissions.length, 1);
  assert.equal(
    simulator.stats().flowsByInvoice[invoice.number]! - flowsBefore,
    2,
    'the refused flow, then the accepted one',
  );

  const lateFormat = await simulate(key, invoice.id, { status: 'fr:213', reasonCode: 'REJ_XSD' });
  assert.deepEqual([lateFormat.statusCode, lateFormat.data.error.code], [400, 'invalid_field_value']);
  assert.match(lateFormat.data.error.message, /REJ_XSD/);
});

test('a platform that forgot the document (a restart, another node) receives it again; the statuses go on', async () => {
  const { key } = await seller(h);
  const invoice = await sentInvoice(key);
  const first = await report(key, invoice.id, { status: 'fr:200' });
  const previous = h.deps.sandboxPlatform;
  h.deps.sandboxPlatform = new SandboxPlatform();
  await previous.stop();
  const approved = await report(key, invoice.id, { status: 'fr:205' });
  assert.deepEqual([approved.status, approved.transmissionStatus], ['approved', 'approved']);
  assert.notEqual(approved.einvoicing.paFlowId, first.einvoicing.paFlowId, 'a new flow on the new platform');
  assert.equal((await h.deps.sandboxPlatform.simulator())!.stats().deposits, 1);
  const again = await report(key, invoice.id, { status: 'fr:205' });
  assert.equal(again.status, 'approved');
  const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
  assert.deepEqual(
    history.map((entry: any) => [entry.status, entry.applied]),
    [
      ['fr:200', true],
      ['fr:205', true],
      ['fr:205', false],
    ],
  );
});

test('two first statuses at once: one deposit, the other request finds it; both statuses applied once each', async () => {
  const { key } = await seller(h);
  const invoice = await sentInvoice(key);
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  const before = simulator.stats();
  const answers = await Promise.all([
    simulate(key, invoice.id, { status: 'fr:200' }),
    simulate(key, invoice.id, { status: 'fr:200' }),
  ]);
  assert.deepEqual(
    answers.map((answer) => answer.statusCode),
    [200, 200],
    answers.map((answer) => answer.body).join('\n'),
  );
  assert.equal(simulator.stats().deposits - before.deposits, 1, 'deposited once');
  const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
  assert.deepEqual(history.map((entry: any) => [entry.status, entry.applied]).sort(), [
    ['fr:200', false],
    ['fr:200', true],
  ]);
  assert.equal((await eventsOf(h, key, 'invoice.deposited')).filter((e) => e.data.id === invoice.id).length, 1);
});

test('a platform that keeps few flows forgets the oldest deposits: their next status deposits them again', async () => {
  const { key } = await seller(h);
  const first = await sentInvoice(key);
  const second = await sentInvoice(key);
  const previous = h.deps.sandboxPlatform;
  h.deps.sandboxPlatform = new SandboxPlatform({ maxFlows: 3 });
  await previous.stop();
  await report(key, first.id, { status: 'fr:200' }); // its deposit and one status: two flows
  await report(key, second.id, { status: 'fr:200' }); // two more: the first deposit is forgotten
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  assert.equal(simulator.stats().deposits, 2);
  const approved = await report(key, first.id, { status: 'fr:205' });
  assert.equal(approved.status, 'approved');
  assert.equal(simulator.stats().deposits, 3, 'deposited again, not refused as a duplicate');
});

test('a shared facteur pa-simulator (FACTEUR_SANDBOX_PA_URL): scripted through its admin bearer, every exchange as the AFNOR documents say; without the bearer, not_supported', async () => {
  const sim = await startCheckedSimulator();
  const shared = { baseUrl: sim.url, ...sim.simulator.clients[0]! };
  const nodes = await Promise.all([
    startHarness({ config: { sandboxPlatform: { ...shared, adminToken: sim.simulator.adminToken } } }),
    startHarness({ config: { sandboxPlatform: { ...shared, adminToken: sim.simulator.adminToken } } }),
    startHarness({ config: { sandboxPlatform: { ...shared, adminToken: null } } }),
  ]);
  const other = h;
  try {
    const [one, two, blind] = nodes;
    h = one!;
    const { key } = await seller(h);
    const invoice = await sentInvoice(key);
    assert.equal(await h.deps.sandboxPlatform.simulator(), null, 'no simulator in this process');
    const before = sim.simulator.stats();
    // One node deposits and reports, another reports next: the same platform holds the flow.
    assert.equal((await report(key, invoice.id, { status: 'fr:200' })).status, 'deposited');
    h = two!;
    const suspended = await report(key, invoice.id, { status: 'fr:208', reasonCode: 'JUSTIF_ABS' });
    assert.deepEqual([suspended.status, suspended.einvoicing.rejectionCode], ['suspended', 'JUSTIF_ABS']);
    const stats = sim.simulator.stats();
    assert.deepEqual(
      [stats.deposits - before.deposits, stats.lifecycleFlows - before.lifecycleFlows],
      [1, 2],
      'one deposit, no status of its own, the two reported',
    );
    h = blind!;
    const refused = await simulate(key, invoice.id, { status: 'fr:205' });
    assert.deepEqual([refused.statusCode, refused.data.error.code], [400, 'not_supported']);
    assert.match(refused.data.error.hint, /FACTEUR_SANDBOX_PA_ADMIN_TOKEN/);
    assert.deepEqual(sim.violations(), []);
    assert.ok(
      sim.exchanges.some((exchange) => exchange.service === 'admin' && exchange.path === '/simulator/statuses'),
    );
  } finally {
    h = other;
    await Promise.all(nodes.map((node) => node.close()));
    await sim.stop();
  }
});

// The contract's rejection rows no conformant CDAR carries, each with the classification the
// contract gives it; some as a submission's first status, the others once it is deposited.
const nonconformantRows: {
  reasonCode: string | null;
  reason?: string;
  afterDeposit: boolean;
  category: string;
  note: string | null;
}[] = [
  { reasonCode: null, afterDeposit: false, category: 'unknown', note: null },
  { reasonCode: null, afterDeposit: true, category: 'unknown', note: null },
  { reasonCode: 'REJ_SYNT', reason: 'Syntaxe invalide', afterDeposit: false, category: 'format_invalid', note: null },
  { reasonCode: 'REJ_XSD', reason: 'cvc-complex-type', afterDeposit: true, category: 'format_invalid', note: null },
  { reasonCode: 'REJ_DOUBLON', reason: 'Déjà reçue', afterDeposit: true, category: 'duplicate', note: null },
  { reasonCode: 'AUTRE', reason: 'Motif hors liste', afterDeposit: false, category: 'other', note: 'Motif hors liste' },
];

for (const row of nonconformantRows) {
  const name = `fr:213 ${row.reasonCode ?? 'alone'}${row.afterDeposit ? ', once deposited' : ', as the first status'}`;
  test(`${name}, conformant: false: played as the CDAR an imperfect platform sends, classed ${row.category}`, async () => {
    const { companyId, key } = await seller(h);
    const invoice = await sentInvoice(key);
    if (row.afterDeposit) await report(key, invoice.id, { status: 'fr:200' });
    const body = {
      status: 'fr:213',
      ...(row.reasonCode ? { reasonCode: row.reasonCode } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
    };
    // Without the flag: refused (a first status with a code no CDAR carries is the deposit's refusal instead).
    if (row.afterDeposit || row.reasonCode === null) {
      const asIs = await simulate(key, invoice.id, body);
      assert.deepEqual([asIs.statusCode, asIs.data.error.param], [400, 'reasonCode'], asIs.body);
    }

    const rejected = await report(key, invoice.id, { ...body, conformant: false });
    assert.deepEqual([rejected.status, rejected.transmissionStatus], ['rejected', 'rejected']);
    assert.deepEqual(
      [
        rejected.einvoicing.rejectionCategory,
        rejected.einvoicing.rejectionSource,
        rejected.einvoicing.rejectionCode,
        rejected.einvoicing.rejectionReason,
        rejected.einvoicing.rejectionNote,
      ],
      [row.category, 'platform', row.reasonCode, row.reason ?? null, row.note],
    );
    const [event] = (await eventsOf(h, key, 'invoice.rejected')).filter((e) => e.data.id === invoice.id);
    assert.deepEqual([event.data.rejectionCategory, event.data.rejectionSource], [row.category, 'platform']);
    // A life-cycle status, not the deposit's acknowledgement: it is in the history.
    const history = (await h.call('GET', `/v1/invoices/${invoice.id}/history`, { key })).data.data;
    assert.deepEqual(
      [history.at(-1).status, history.at(-1).reasonCode, history.at(-1).applied],
      ['fr:213', row.reasonCode, true],
    );

    // The platform's flow is marked, and the official rules refuse its CDAR.
    const connector = await h.deps.sandboxPlatform.connectorOf(companyId);
    const page = await connector.readLifecycle(null, { limit: 100 });
    assert.ok(page.ok);
    const [status] = page.value.events.filter(
      (event) =>
        event.kind === 'status' && event.trackingId === `${invoice.id}-a1` && event.status.statusCode === '213',
    );
    assert.ok(status?.kind === 'status');
    const flow = await connector.getFlow(status.flowId);
    assert.ok(flow.ok);
    assert.match(flow.value.name, /-213-nonconformant\.xml$/);
    const cdar = await connector.downloadFlow(status.flowId);
    assert.ok(cdar.ok);
    const validation = await validator.validate(cdar.value.toString('utf8'));
    assert.ok(
      validation.rules.some((rule: string) => /^BR-FR-CDV-(15|CL-09)/.test(rule)),
      JSON.stringify(validation.rules),
    );
  });
}

test('conformant: false plays only those rows: refused on a conformant message and on any other the rules refuse, before anything is deposited', async () => {
  const { key } = await seller(h);
  const invoice = await sentInvoice(key);
  const simulator = (await h.deps.sandboxPlatform.simulator())!;
  const before = simulator.stats();

  const conformant = await simulate(key, invoice.id, { status: 'fr:213', reasonCode: 'REJ_SEMAN', conformant: false });
  assert.deepEqual([conformant.statusCode, conformant.data.error.code], [400, 'invalid_field_value'], conformant.body);
  assert.equal(conformant.data.error.param, 'conformant');
  const notARow = await simulate(key, invoice.id, { status: 'fr:210', reasonCode: 'REJ_SEMAN', conformant: false });
  assert.deepEqual([notARow.data.error.code, notARow.data.error.param], ['invalid_field_value', 'reasonCode']);
  assert.match(notARow.data.error.message, /BR-FR-CDV-CL-09.*conformant: false/);
  const buyerAlone = await simulate(key, invoice.id, { status: 'fr:207', conformant: false });
  assert.deepEqual([buyerAlone.data.error.code, buyerAlone.data.error.param], ['missing_required_field', 'reasonCode']);
  // A provider's code is no life-cycle row: with the flag it is refused, not played as the acknowledgement.
  const provider = await simulate(key, invoice.id, { status: 'fr:213', reasonCode: 'SYNTAX_ERROR', conformant: false });
  assert.deepEqual([provider.data.error.code, provider.data.error.param], ['invalid_field_value', 'reasonCode']);
  const textAlone = await simulate(key, invoice.id, { status: 'fr:213', reason: 'Rejet', conformant: false });
  assert.deepEqual([textAlone.data.error.code, textAlone.data.error.param], ['missing_required_field', 'reasonCode']);

  assert.equal(simulator.stats().depositRequests, before.depositRequests, 'nothing reached the platform');
  const unchanged = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
  assert.equal(unchanged.transmissionStatus, 'sending');
});
