/**
 * `POST /simulator/statuses` with `conformant: false`: the contract's rejection rows no conformant
 * CDAR carries (`213` alone...) are sent anyway, as an imperfect platform sends them, marked as
 * such; the connector reads them back and classifies them as the contract says. Anything else the
 * rules refuse is still refused.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { AfnorConnector } from '../../src/platform/afnor-connector.js';
import type { PlatformResult } from '../../src/platform/connector.js';
import { OfficialValidator } from '../../src/einvoice/official-validator.js';
import { compileAll } from '../../src/einvoice/sef-cache.js';
import { cdarValidation } from '../../src/einvoice/validation-pool.js';
import { testCacheDir } from '../einvoice/support.js';
import { ciiFile, invoiceNumber, startCheckedSimulator, type CheckedSimulator } from './support.js';

let platform: CheckedSimulator;
let connector: AfnorConnector;
let validator: OfficialValidator;
before(async () => {
  platform = await startCheckedSimulator();
  connector = platform.connector();
  validator = await OfficialValidator.open({
    compiled: await compileAll(testCacheDir, cdarValidation.stylesheets),
    xsd: cdarValidation.xsd,
  });
});
after(async () => {
  await validator.close();
  await platform.stop();
  assert.deepEqual(platform.violations(), [], 'every exchange follows the AFNOR OpenAPI documents');
});

function ok<T>(result: PlatformResult<T>): T {
  if (!result.ok) assert.fail(`the call failed: ${JSON.stringify(result)}`);
  return result.value;
}

async function admin(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await request(`${platform.url}/simulator/statuses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.simulator.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
}

/** A deposit with no status of its own: each comes from the admin route. */
async function quietDeposit(): Promise<string> {
  const number = invoiceNumber();
  const trackingId = `trk-${number}`;
  platform.simulator.script(trackingId, { statuses: [] });
  ok(await connector.deposit({ file: ciiFile(number), name: `${number}.xml`, syntax: 'CII', trackingId }));
  return trackingId;
}

const rows: { reason: { code: string; text: string } | null; rule: RegExp; category: string }[] = [
  { reason: null, rule: /BR-FR-CDV-15/, category: 'unknown' },
  { reason: { code: 'REJ_SYNT', text: 'Syntaxe' }, rule: /BR-FR-CDV-CL-09/, category: 'format_invalid' },
  { reason: { code: 'REJ_XSD', text: 'XSD' }, rule: /BR-FR-CDV-CL-09/, category: 'format_invalid' },
  { reason: { code: 'REJ_DOUBLON', text: 'Doublon' }, rule: /BR-FR-CDV-CL-09/, category: 'duplicate' },
  { reason: { code: 'AUTRE', text: 'Motif libre' }, rule: /BR-FR-CDV-CL-09/, category: 'other' },
];

for (const row of rows) {
  const name = `213 ${row.reason?.code ?? 'alone'}`;
  test(`${name}: refused as it is; with conformant: false sent anyway, marked, and classed ${row.category}`, async () => {
    const trackingId = await quietDeposit();
    const asIs = await admin({ trackingId, status: 'fr:213', reason: row.reason });
    assert.equal(asIs.status, 400, JSON.stringify(asIs.body));
    assert.match(String(asIs.body.errorMessage), row.rule);

    const played = await admin({ trackingId, status: 'fr:213', reason: row.reason, conformant: false });
    assert.equal(played.status, 201, JSON.stringify(played.body));
    assert.equal(played.body.conformant, false);
    assert.match(
      String(played.body.note),
      /^not a conformant CDAR \(.+\): played as a platform would send it imperfectly$/,
    );
    assert.match(String(played.body.note), row.rule);

    const flow = ok(await connector.getFlow(String(played.body.flowId)));
    assert.match(flow.name, /-213-nonconformant\.xml$/, 'the life-cycle flow is marked');
    const cdar = ok(await connector.downloadFlow(flow.flowId)).toString('utf8');
    const rules: string[] = (await validator.validate(cdar)).rules;
    assert.ok(
      rules.some((rule) => row.rule.test(rule)),
      `the official rules refuse it: ${JSON.stringify(rules)}`,
    );
    const [event] = ok(await connector.eventsOfFlow(flow));
    assert.ok(event?.kind === 'status');
    assert.equal(event.status.statusCode, '213');
    assert.deepEqual(
      event.status.reasons.map((reason) => reason.code),
      row.reason ? [row.reason.code] : [],
    );
    assert.deepEqual(
      [event.rejection?.category, event.rejection?.source, event.rejection?.code],
      [row.category, 'platform', row.reason?.code ?? null],
    );
  });
}

test('conformant: false is refused on a conformant message, and on one the rules refuse that no contract row names', async () => {
  const trackingId = await quietDeposit();
  const before = platform.simulator.stats().lifecycleFlows;
  const conformant = await admin({
    trackingId,
    status: '213',
    reason: { code: 'REJ_SEMAN', text: 'BR-FR-12' },
    conformant: false,
  });
  assert.equal(conformant.status, 400);
  assert.match(String(conformant.body.errorMessage), /is a conformant life-cycle message/);
  const notARow = await admin({ trackingId, status: '210', reason: { code: 'REJ_SEMAN' }, conformant: false });
  assert.equal(notARow.status, 400);
  assert.match(String(notARow.body.errorMessage), /BR-FR-CDV-CL-09.*conformant: false plays only/);
  const alone = await admin({ trackingId, status: '207', conformant: false });
  assert.equal(alone.status, 400, '207 alone is no row of the contract');
  assert.equal(platform.simulator.stats().lifecycleFlows, before, 'nothing was sent');
});
