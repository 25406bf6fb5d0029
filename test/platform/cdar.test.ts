/**
 * The CDAR life-cycle messages: every status the service sends or reads, built, then checked by
 * the official CDAR XSD and BR-FR-CDV schematron in process, and read back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OfficialValidator } from '../../src/einvoice/official-validator.js';
import { cdarValidation, compileRuleSet, ruleSetInForce } from '../../src/einvoice/validation-pool.js';
import {
  buildCdarMessage,
  CdarInputError,
  CdarParseError,
  isNonconformantContractRow,
  lifecycleStatusNames,
  parseCdarMessage,
  reasonRefusal,
  reasonsOfStatus,
  statusReasonCodes,
  type CdarMessageInput,
  type LifecycleStatusCode,
} from '../../src/platform/cdar.js';
import { testCacheDir } from '../einvoice/support.js';

let validator: OfficialValidator;
before(async () => {
  // The rules in force on the messages' date (10 September 2026: FNFE-MPE 1.4.0.03).
  const ruleSet = ruleSetInForce('2026-09-10').id;
  validator = await OfficialValidator.open({
    compiled: await compileRuleSet(testCacheDir, cdarValidation.stylesheets, ruleSet),
    ruleSet,
    xsd: cdarValidation.xsd,
  });
});
after(() => validator.close());

const seller = '732829320';
const buyer = '552120222';
const base = {
  issuedAt: new Date('2026-09-10T10:11:12Z'),
  invoice: { number: 'F2026-000042', issueDate: '2026-09-09', sellerSiren: seller },
  recipient: { siren: seller, electronicAddress: `${seller}_STATUTS` },
};

// Who sets each status, and the reason the rules require (BR-FR-CDV-15, allowed per BR-FR-CDV-CL-09).
const cases: [LifecycleStatusCode, CdarMessageInput['issuer'], CdarMessageInput['reason']][] = [
  ['200', { role: 'WK' }, null],
  ['201', { role: 'WK' }, null],
  ['202', { role: 'WK' }, null],
  ['203', { role: 'WK' }, null],
  ['204', { role: 'BY', siren: buyer }, null],
  ['205', { role: 'BY', siren: buyer }, null],
  ['206', { role: 'BY', siren: buyer }, { code: 'QTE_ERR', text: 'Quantité livrée : 8 sur 10' }],
  ['207', { role: 'BY', siren: buyer }, { code: 'MONTANTTOTAL_ERR', text: 'Montant total erroné' }],
  ['208', { role: 'BY', siren: buyer }, { code: 'JUSTIF_ABS', text: 'Bon de livraison manquant' }],
  ['209', { role: 'SE', siren: seller }, null],
  ['210', { role: 'BY', siren: buyer }, { code: 'TX_TVA_ERR', text: 'Taux de TVA erroné' }],
  ['211', { role: 'BY', siren: buyer }, null],
  ['212', { role: 'SE', siren: seller }, null],
  ['213', { role: 'WK' }, { code: 'REJ_SEMAN', text: 'BR-FR-12' }],
  ['221', { role: 'WK' }, { code: 'ROUTAGE_ERR', text: 'Adresse obsolète' }],
  ['501', { role: 'WK' }, { code: 'IRR_SYNTAX', text: 'Fichier illisible' }],
];

test('every status from 200 to 213 (and 221, 501) passes the CDAR XSD and the BR-FR-CDV schematron, and reads back', async () => {
  for (const [status, issuer, reason] of cases) {
    const xml = buildCdarMessage({
      ...base,
      messageId: `LC-${status}`,
      status,
      issuer,
      reason,
      notes: reason ? ['Première note', 'Seconde note'] : [],
      ...(status === '212'
        ? {
            collected: [
              { amount: '120.00', vatRate: '20' },
              { amount: '10.55', vatRate: '5.5' },
            ],
          }
        : {}),
    });
    const report = await validator.validate(xml);
    assert.deepEqual(report.failures, [], `status ${status}`);
    const [read, ...others] = parseCdarMessage(xml);
    assert.equal(others.length, 0);
    assert.equal(read!.statusCode, status);
    assert.equal(read!.messageId, `LC-${status}`);
    assert.equal(read!.invoiceNumber, 'F2026-000042');
    assert.equal(read!.invoiceIssueDate, '2026-09-09');
    assert.equal(read!.sellerSiren, seller);
    assert.equal(read!.issuedAt?.toISOString(), '2026-09-10T10:11:12.000Z');
    assert.deepEqual(read!.reasons, reason ? [{ code: reason.code, text: reason.text }] : []);
    assert.deepEqual(read!.notes, reason ? ['Première note', 'Seconde note'] : []);
    if (status === '212')
      assert.deepEqual(read!.collected, [
        { amount: '120.00', vatRate: '20' },
        { amount: '10.55', vatRate: '5.5' },
      ]);
    assert.match(xml, new RegExp(`<ram:ProcessCondition>${lifecycleStatusNames[status]}</ram:ProcessCondition>`));
  }
});

test("a refund's statement: 212 with negative amounts per rate passes the XSD and the schematron, and reads back", async () => {
  const collected = [
    { amount: '-60.00', vatRate: '20' },
    { amount: '-5.28', vatRate: '5.5' },
  ];
  const xml = buildCdarMessage({
    ...base,
    messageId: 'fr212-ref_1',
    status: '212',
    issuer: { role: 'SE', siren: seller },
    collected,
  });
  const report = await validator.validate(xml);
  assert.deepEqual(report.failures, []);
  assert.deepEqual(parseCdarMessage(xml)[0]!.collected, collected);
});

test('the validator catches what the rules forbid: a reason not allowed for 213, a missing status code', async () => {
  const wrongReason = buildCdarMessage({
    ...base,
    messageId: 'LC-bad',
    status: '213',
    issuer: { role: 'WK' },
    reason: { code: 'TX_TVA_ERR' },
  });
  const report = await validator.validate(wrongReason);
  assert.ok(report.rules.includes('BR-FR-CDV-CL-09_MDT-113_213'), JSON.stringify(report.rules));
  const noStatus = buildCdarMessage({ ...base, messageId: 'LC-x', status: '200', issuer: { role: 'WK' } }).replace(
    /<ram:ProcessConditionCode>200<\/ram:ProcessConditionCode>/,
    '',
  );
  assert.ok((await validator.validate(noStatus)).rules.includes('BR-FR-CDV-12_MDT-105'));
});

test('the builder refuses a status the rules would refuse', () => {
  const build =
    (status: LifecycleStatusCode, issuer: CdarMessageInput['issuer'], extra: Partial<CdarMessageInput> = {}) =>
    () =>
      buildCdarMessage({ ...base, messageId: 'x', status, issuer, ...extra });
  for (const status of ['206', '207', '208', '210', '213', '501'] as const)
    assert.throws(build(status, { role: 'BY', siren: buyer }), CdarInputError, status);
  assert.throws(build('212', { role: 'SE', siren: seller }), CdarInputError, '212 without amounts');
  assert.throws(build('205', { role: 'WK' }), CdarInputError, 'a buyer status needs the buyer');
});

test('the parser reads several statuses of one message, and refuses what is not a CDAR', () => {
  const xml = buildCdarMessage({
    ...base,
    messageId: 'LC-2',
    status: '205',
    issuer: { role: 'BY', siren: buyer },
  }).replace(
    '</ram:IssuerTradeParty></ram:ReferenceReferencedDocument>',
    '</ram:IssuerTradeParty><ram:SpecifiedDocumentStatus><ram:ProcessConditionCode>211</ram:ProcessConditionCode><ram:SequenceNumeric>1</ram:SequenceNumeric></ram:SpecifiedDocumentStatus></ram:ReferenceReferencedDocument>',
  );
  assert.deepEqual(
    parseCdarMessage(xml).map((status) => status.statusCode),
    ['205', '211'],
  );
  assert.throws(() => parseCdarMessage('<Invoice/>'), CdarParseError);
  assert.throws(() => parseCdarMessage('not xml <'), CdarParseError);
});

test('reasonRefusal says what the schematron refuses: each status with its list (BR-FR-CDV-CL-09), the others any listed code', async () => {
  const messageOf = (status: LifecycleStatusCode, code: string) =>
    buildCdarMessage({
      ...base,
      messageId: `LC-${status}-${code}`,
      status,
      issuer: cases.find(([known]) => known === status)![1],
      reason: { code, text: 'Motif' },
    });
  const checked: string[] = [];
  for (const [status] of cases) {
    if (status === '212') continue;
    const allowed = reasonsOfStatus[status] ?? [...statusReasonCodes];
    const refused = [...statusReasonCodes].find((code) => !allowed.includes(code));
    for (const code of new Set([
      allowed[0]!,
      allowed.at(-1)!,
      'REJ_SEMAN',
      ...(refused ? [refused] : []),
      'PAS_UN_MOTIF',
    ])) {
      const rules: string[] = (await validator.validate(messageOf(status, code))).rules;
      const clRules = rules.filter((rule: string) => rule.startsWith('BR-FR-CDV-CL-09'));
      const refusal = reasonRefusal(status, code);
      assert.equal(refusal === null, clRules.length === 0, `${status} ${code}: ${refusal} / ${JSON.stringify(rules)}`);
      checked.push(`${status}:${code}:${refusal === null ? 'ok' : 'refused'}`);
    }
  }
  assert.ok(checked.includes('213:REJ_SEMAN:ok') && checked.includes('210:REJ_SEMAN:refused'), checked.join(' '));
  assert.ok(checked.filter((entry) => entry.endsWith('refused')).length >= 20, checked.join(' '));
  for (const status of ['206', '207', '208', '210', '213', '501'])
    assert.match(reasonRefusal(status, null)!, /BR-FR-CDV-15/, status);
  assert.equal(reasonRefusal('205', null), null);
});

test('the contract rows no conformant CDAR carries: named, and written on request (conformant: false) as the official rules refuse them', async () => {
  const rows: [string | null, RegExp][] = [
    [null, /^BR-FR-CDV-15/],
    ['REJ_SYNT', /^BR-FR-CDV-CL-09/],
    ['REJ_XSD', /^BR-FR-CDV-CL-09/],
    ['REJ_DOUBLON', /^BR-FR-CDV-CL-09/],
    ['AUTRE', /^BR-FR-CDV-CL-09/],
  ];
  for (const [code, rule] of rows) {
    assert.ok(isNonconformantContractRow('213', code), `213 ${code}`);
    assert.notEqual(reasonRefusal('213', code), null, `213 ${code} is refused by the rules`);
    const input = {
      ...base,
      messageId: `LC-213-${code}`,
      status: '213' as const,
      issuer: { role: 'WK' as const },
      reason: code === null ? null : { code, text: 'Motif' },
    };
    if (code === null) assert.throws(() => buildCdarMessage(input), CdarInputError, 'conformant by default');
    const rules: string[] = (await validator.validate(buildCdarMessage({ ...input, conformant: false }))).rules;
    assert.ok(
      rules.some((found) => rule.test(found)),
      `213 ${code}: ${JSON.stringify(rules)}`,
    );
  }
  // Conformant rows and other refused messages are no such row.
  for (const [status, code] of [
    ['213', 'REJ_SEMAN'],
    ['210', 'REJ_SEMAN'],
    ['207', null],
    ['213', 'SYNTAX_ERROR'],
  ] as const)
    assert.equal(isNonconformantContractRow(status, code), false, `${status} ${code}`);
});
