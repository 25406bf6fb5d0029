import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import {
  compiledNameOf,
  ruleSetInForce,
  ruleSets,
  stylesheetInSet,
  stylesheets,
  type RuleSet,
} from '../../src/einvoice/standards.js';
import { registryStylesheets, ValidationPool } from '../../src/einvoice/validation-pool.js';
import { sampleInvoice, testCacheDir } from './support.js';

/**
 * The official rules as versioned sets (standards.ts `ruleSets`): a document is judged by the set in
 * force on its date; a later set holds only the files it changes, the rest is the earlier set's.
 */

test('the set in force: the latest started on or before the day, the first for any earlier day', () => {
  assert.deepEqual(
    ruleSets.map((set) => [set.id, set.from]),
    [
      ['1.4.0', '2026-06-30'],
      ['1.4.0.03', '2026-09-01'],
    ],
  );
  for (const [day, id] of [
    ['2025-01-01', '1.4.0'],
    ['2026-06-30', '1.4.0'],
    ['2026-08-31', '1.4.0'],
    ['2026-09-01', '1.4.0.03'],
    ['2027-03-01', '1.4.0.03'],
  ])
    assert.equal(ruleSetInForce(day!).id, id, day);
  // A next hotfix is one more line: it takes over from its date.
  const next: RuleSet[] = [...ruleSets, { id: '1.4.0.04', from: '2027-01-15' }];
  assert.equal(ruleSetInForce('2027-01-14', next).id, '1.4.0.03');
  assert.equal(ruleSetInForce('2027-01-15', next).id, '1.4.0.04');
});

test("a set's folder holds what it changes; the rest, and the first set, are the base folders' files", () => {
  const facturx = stylesheetInSet('FACTUR-X_EN16931', '1.4.0.03');
  assert.match(facturx.xslt, /standards\/sets\/1\.4\.0\.03\/FACTUR-X_EN16931\.xslt$/);
  // Its code lists are read beside it: the set's own, never the earlier set's.
  assert.deepEqual(
    facturx.documents.map((file) => file.split('/standards/')[1]),
    ['sets/1.4.0.03/FACTUR-X_EN16931_codedb.xml'],
  );
  assert.ok(facturx.documents.every((file) => existsSync(file)));
  assert.deepEqual(stylesheetInSet('FACTUR-X_EN16931', '1.4.0'), stylesheets['FACTUR-X_EN16931']);
  // The CII BR-FR of 1.4.0.03 is the file carried: shared, compiled once.
  assert.deepEqual(
    stylesheetInSet('BR-FR-Flux2-Schematron-CII', '1.4.0.03'),
    stylesheets['BR-FR-Flux2-Schematron-CII'],
  );
  assert.equal(compiledNameOf('BR-FR-Flux2-Schematron-CII', '1.4.0.03'), 'BR-FR-Flux2-Schematron-CII');
  assert.equal(compiledNameOf('FACTUR-X_EN16931', '1.4.0.03'), 'FACTUR-X_EN16931@1.4.0.03');
  // What the installation compiles: every stylesheet once, and each file a set changes.
  assert.deepEqual(registryStylesheets.filter((name) => name.includes('@')).sort(), [
    'BR-FR-CDV-Schematron-CDAR@1.4.0.03',
    'FACTUR-X_EN16931@1.4.0.03',
  ]);
  assert.equal(registryStylesheets.length, Object.keys(stylesheets).length + 2);
  assert.throws(() => stylesheetInSet('FACTUR-X_EN16931', '9.9'), /no rule set 9\.9/);
});

/**
 * Two sets that differ on one rule: Factur-X 1.09.2 (set 1.4.0.03) adds CII-SR-467, "all payment
 * means type codes (BT-81) shall have the same value"; Factur-X 1.09 (set 1.4.0) has no such rule.
 */
const twoPaymentMeans = (): string => {
  const xml = writeCii(sampleInvoice());
  const means = /<ram:SpecifiedTradeSettlementPaymentMeans>[\s\S]*?<\/ram:SpecifiedTradeSettlementPaymentMeans>/.exec(
    xml,
  )![0];
  const card = means.replace(/<ram:TypeCode>[^<]*<\/ram:TypeCode>/, '<ram:TypeCode>48</ram:TypeCode>');
  assert.notEqual(card, means);
  return xml.replace(means, `${means}${card}`);
};

const pools = new Map<string, ValidationPool>();
before(async () => {
  for (const set of ruleSets)
    pools.set(set.id, await ValidationPool.open({ cacheDir: testCacheDir, size: 1, ruleSet: set.id }));
});
after(async () => {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
});

test('a document is judged by its set: the rule one set adds fails it there only', async () => {
  const xml = twoPaymentMeans();
  const older = await pools.get('1.4.0')!.validate(xml);
  const newer = await pools.get('1.4.0.03')!.validate(xml);
  assert.equal(older.ruleSet, '1.4.0');
  assert.equal(newer.ruleSet, '1.4.0.03');
  assert.ok(!older.rules.includes('CII-SR-467'), older.rules.join(', '));
  assert.equal(older.valid, true, older.rules.join(', '));
  assert.deepEqual(newer.rules, ['CII-SR-467']);
  assert.equal(newer.failures[0]!.source, 'FACTUR-X_EN16931');
  // The report names the files that ran: the set's own, and the earlier set's it keeps.
  assert.ok(
    newer.validators.includes('FACTUR-X_EN16931 (FNFE-MPE 1.4.0.03, FACTUR-X_EN16931.xslt)'),
    newer.validators.join('; '),
  );
  assert.ok(older.validators.some((name) => name.startsWith('FACTUR-X_EN16931 (Factur-X 1.09 EN16931')));
  assert.ok(newer.validators.some((name) => name.startsWith('BR-FR-Flux2-Schematron-CII (BR-FR Flux 2 CII V1.4.0')));

  // The sound invoice passes both.
  const sound = writeCii(sampleInvoice());
  for (const pool of pools.values()) assert.equal((await pool.validate(sound)).valid, true);
});
