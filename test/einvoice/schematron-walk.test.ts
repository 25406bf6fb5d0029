/**
 * The schematrons run with their walks rewritten (src/einvoice/schematron-walk.xsl) report
 * exactly what the published ones report: the same failures, flags, texts and locations, in the
 * same order, on the test corpus, documents broken on purpose, the official examples and every
 * CDAR status. And the rewrite does take place: no pattern it can enter keeps its walk.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfficialValidator, type ValidationReport } from '../../src/einvoice/official-validator.js';
import { compileAll, rewriteWalks } from '../../src/einvoice/sef-cache.js';
import { stylesheets, type StylesheetName } from '../../src/einvoice/standards.js';
import { cdarValidation } from '../../src/einvoice/validation-pool.js';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import { buildCdarMessage, type CdarMessageInput, type LifecycleStatusCode } from '../../src/platform/cdar.js';
import { corpus } from './corpus-arbitrary.js';
import { testCacheDir } from './support.js';

const invoiceSheets: StylesheetName[] = ['FACTUR-X_EN16931', 'BR-FR-Flux2-Schematron-CII'];
const examplesDir = new URL('./fixtures/examples/', import.meta.url);

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'schematron-walk-'));
});
after(() => rm(scratch, { recursive: true, force: true }));

/** Two validators on the same stylesheets: as published, and as the service runs them. */
async function pair(names: StylesheetName[], xsd?: typeof cdarValidation.xsd) {
  const [published, entered] = await Promise.all([
    compileAll(testCacheDir, names, 'as-published'),
    compileAll(testCacheDir, names, 'entered'),
  ]);
  assert.notDeepEqual(published, entered, 'two different SEFs');
  return Promise.all(
    [published, entered].map((compiled) => OfficialValidator.open({ compiled, ...(xsd ? { xsd } : {}) })),
  );
}

const schematronFailures = (report: ValidationReport) => report.failures.filter((failure) => failure.source !== 'xsd');

async function assertSameReports(validators: OfficialValidator[], documents: string[]): Promise<number> {
  const [published, entered] = validators as [OfficialValidator, OfficialValidator];
  const [before, after] = await Promise.all([published.validateBatch(documents), entered.validateBatch(documents)]);
  let failing = 0;
  documents.forEach((_, index) => {
    const a = before[index]!;
    const b = after[index]!;
    assert.ok('report' in a && 'report' in b, `document ${index} validated by both`);
    assert.deepEqual(schematronFailures(b.report), schematronFailures(a.report), `document ${index}`);
    if (schematronFailures(a.report).length > 0) failing += 1;
  });
  return failing;
}

test('Factur-X EN16931 and BR-FR: the same reports on generated, broken and official invoices', async () => {
  const validators = await pair(invoiceSheets);
  try {
    const generated = corpus(40, 20261125, () => true).documents.map(({ model }) => writeCii(model));
    // Each breaks rules of both schematrons: a missing total, wrong amounts, a changed category.
    const broken = generated
      .slice(0, 12)
      .flatMap((xml) => [
        xml.replace(/<ram:TaxTotalAmount[^>]*>[^<]*<\/ram:TaxTotalAmount>/, ''),
        xml.replace(/<ram:CalculatedAmount>([0-9]+)/, '<ram:CalculatedAmount>9$1'),
        xml.replace(/<ram:CategoryCode>S<\/ram:CategoryCode>/, '<ram:CategoryCode>Z</ram:CategoryCode>'),
        xml.replace(/<ram:LineTotalAmount>([0-9]+)/g, '<ram:LineTotalAmount>1$1'),
        xml.replace(/<ram:ID>[^<]*<\/ram:ID>/, '<ram:ID>F/2026#1</ram:ID>'),
      ]);
    const official = await Promise.all(
      (await readdir(examplesDir))
        .filter((name) => name.endsWith('.xml'))
        .map((name) => readFile(new URL(name, examplesDir), 'utf8')),
    );
    const documents = [...generated, ...broken, ...official];
    const failing = await assertSameReports(validators, documents);
    assert.ok(failing >= broken.length, `${failing} documents with failures: the rules were exercised`);
  } finally {
    for (const validator of validators) validator.close();
  }
});

test('CDAR: the same reports on every status, valid and broken', async () => {
  const validators = await pair(cdarValidation.stylesheets, cdarValidation.xsd);
  try {
    const base = {
      issuedAt: new Date('2026-09-10T10:11:12Z'),
      invoice: { number: 'F2026-000042', issueDate: '2026-09-09', sellerSiren: '732829320' },
      recipient: { siren: '732829320', electronicAddress: '732829320_STATUTS' },
    };
    const cases: [LifecycleStatusCode, CdarMessageInput['issuer'], CdarMessageInput['reason']][] = [
      ['200', { role: 'WK' }, null],
      ['205', { role: 'BY', siren: '552120222' }, null],
      ['207', { role: 'BY', siren: '552120222' }, { code: 'MONTANTTOTAL_ERR', text: 'Montant total erroné' }],
      ['210', { role: 'BY', siren: '552120222' }, { code: 'TX_TVA_ERR', text: 'Taux de TVA erroné' }],
      ['213', { role: 'WK' }, { code: 'REJ_SEMAN', text: 'BR-FR-12' }],
    ];
    const messages = cases.map(([status, issuer, reason]) =>
      buildCdarMessage({ ...base, messageId: `LC-${status}`, status, issuer, reason }),
    );
    messages.push(
      buildCdarMessage({
        ...base,
        messageId: 'LC-212',
        status: '212',
        issuer: { role: 'SE', siren: '732829320' },
        collected: [{ amount: '-60.00', vatRate: '20' }],
      }),
    );
    const broken = messages.flatMap((xml) => [
      xml.replace(/<ram:ProcessConditionCode>[0-9]+<\/ram:ProcessConditionCode>/, ''),
      xml.replace(/<ram:ReasonCode>[^<]*<\/ram:ReasonCode>/, '<ram:ReasonCode>NOPE</ram:ReasonCode>'),
    ]);
    const failing = await assertSameReports(validators, [...messages, ...broken]);
    assert.ok(failing >= cases.length, `${failing} messages with failures`);
  } finally {
    for (const validator of validators) validator.close();
  }
});

test('the rewrite enters every pattern it can: no empty default-mode walk, at most one walking pattern left', async () => {
  for (const name of [...invoiceSheets, ...cdarValidation.stylesheets]) {
    const published = await readFile(stylesheets[name].xslt, 'utf8');
    const target = join(scratch, `${name}.xslt`);
    await rewriteWalks(stylesheets[name].xslt, target);
    const rewritten = await readFile(target, 'utf8');
    const patternEntries = (text: string) => text.match(/<xsl:apply-templates[^>]*select="\/"[^>]*\/>/g) ?? [];
    assert.ok(patternEntries(published).length > 20, `${name}: the published XSLT walks from the root`);
    // A union or a global variable in a rule context keeps its walk: one such pattern in BR-FR.
    assert.ok(patternEntries(rewritten).length <= 1, `${name}: ${patternEntries(rewritten).length} walks left`);
    assert.equal((rewritten.match(/<xsl:apply-templates\s*\/>/g) ?? []).length, 0, `${name}: empty walks gone`);
  }
});
