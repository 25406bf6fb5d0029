import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import {
  flagVariantFlags,
  OfficialValidator,
  svrlFailures,
  type ValidationReport,
} from '../../src/einvoice/official-validator.js';
import { compileAll } from '../../src/einvoice/sef-cache.js';
import { stylesheets } from '../../src/einvoice/standards.js';
import { officialStylesheets, ValidationPool } from '../../src/einvoice/validation-pool.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { buyers, engineDocument, sampleInvoice, sellers, testCacheDir, type LineSpec } from './support.js';

/**
 * The official validators, in process: the Factur-X EN16931 XSD, the Factur-X EN16931 schematron and
 * both BR-FR variants, run by the worker pool. Documents of every VAT situation pass with no failed
 * assert; tampered ones fail with the rule the norm names.
 */

const examples = join(import.meta.dirname, 'fixtures', 'examples');
let pool: ValidationPool;

before(async () => {
  pool = await ValidationPool.open({ cacheDir: testCacheDir, size: 2 });
});
after(async () => {
  await pool.close();
});

const goods = (description: string): LineSpec => ({
  description,
  quantity: '2',
  unitPrice: '49.90',
  unit: 'C62',
  nature: 'goods',
});
const services = (description: string): LineSpec => ({
  description,
  quantity: '1.5',
  unitPrice: '600',
  unit: 'HUR',
  nature: 'services',
});
const base = { kind: 'invoice' as const, number: 'F2026-000042', issueDate: '2026-10-15' };

const situations: [string, () => DocumentModel][] = [
  ['the sample invoice (three lines, two rates, VAT on debits)', () => sampleInvoice()],
  [
    'blank optional fields, which the writer leaves out',
    () => {
      const model = sampleInvoice();
      model.buyer.address = { ...model.buyer.address!, line2: '  ' };
      model.seller.contact = { name: ' ', email: 'compta@dupont.example', phone: '' };
      model.buyer.routingCode = ' ';
      return model;
    },
  ],
  [
    'domestic goods and services',
    () =>
      engineDocument({
        ...base,
        seller: sellers.paris,
        buyer: buyers.domestic,
        lines: [goods('Chaise'), services('Pose')],
      }),
  ],
  [
    'line allowances and charges (BG-27, BG-28): amounts and percentages, reasons and codes, two rates',
    () => {
      const model = engineDocument({
        ...base,
        seller: sellers.paris,
        buyer: buyers.domestic,
        lines: [
          {
            ...goods('Chaise'),
            allowances: [
              { percentage: '10', reasonCode: '95', reason: 'Remise fidélité' },
              { amount: 150, reason: 'Geste commercial' },
            ],
            charges: [{ amount: 1200, reasonCode: 'ABL', reason: 'Emballage' }],
          },
          { ...services('Pose'), rate: '10', charges: [{ percentage: '2.5', reasonCode: 'FC' }] },
          { ...goods('Table'), rate: '10', allowances: [{ amount: 9980, reasonCode: '95' }] },
        ],
      });
      // 2 x 49.90 = 99.80, less 9.98 and 1.50, plus 12.00; 1.5 x 600 = 900.00 plus 22.50; a line discounted to zero.
      assert.deepEqual(
        model.lines.map((line) => line.netAmount),
        [10032, 92250, 0],
      );
      return model;
    },
  ],
  [
    'document allowances and charges (BG-20, BG-21) split over three rates, with line allowances',
    () => {
      const model = engineDocument({
        ...base,
        seller: sellers.paris,
        buyer: buyers.domestic,
        lines: [
          { ...goods('Chaise'), allowances: [{ percentage: '5', reasonCode: '95' }] },
          { ...services('Pose'), rate: '10' },
          { ...goods('Livre'), rate: '5.5' },
        ],
        allowances: [
          { amount: 3333, reason: 'Remise commerciale', reasonCode: '95' },
          { amount: 100, reason: 'Geste' },
        ],
        charges: [{ amount: 1999, reason: 'Port', reasonCode: 'FC' }],
      });
      assert.equal(model.allowances!.length, 6);
      assert.equal(model.charges!.length, 3);
      assert.equal(model.totals.net, model.totals.lineTotal! - 3433 + 1999);
      return model;
    },
  ],
  [
    'a credit note',
    () =>
      engineDocument({
        ...base,
        kind: 'credit_note',
        number: 'A2026-000001',
        seller: sellers.paris,
        buyer: buyers.domestic,
        lines: [services('Audit')],
      }),
  ],
  [
    'Corsica at 13 % and 10 %',
    () =>
      engineDocument({
        ...base,
        seller: sellers.corsica,
        buyer: buyers.corsica,
        lines: [
          { ...goods('Gazole'), rate: '13' },
          { ...goods('Travaux'), rate: '10' },
        ],
      }),
  ],
  [
    'Guadeloupe at 8.5 %',
    () =>
      engineDocument({
        ...base,
        seller: sellers.guadeloupe,
        buyer: { ...buyers.martinique, postalCode: '97110', city: 'Pointe-à-Pitre' },
        lines: [services('Conseil')],
      }),
  ],
  [
    'goods to Martinique (export)',
    () => engineDocument({ ...base, seller: sellers.paris, buyer: buyers.martinique, lines: [goods('Rhum')] }),
  ],
  [
    'franchise en base (293 B)',
    () => engineDocument({ ...base, seller: sellers.franchise, buyer: buyers.domestic, lines: [services('Cours')] }),
  ],
  [
    'reverse charge (services to Germany)',
    () => engineDocument({ ...base, seller: sellers.paris, buyer: buyers.germany, lines: [services('Développement')] }),
  ],
  [
    'intra-EU supply of goods to Greece',
    () => engineDocument({ ...base, seller: sellers.paris, buyer: buyers.greece, lines: [goods('Machine')] }),
  ],
  [
    'export of goods to Switzerland',
    () => engineDocument({ ...base, seller: sellers.paris, buyer: buyers.swiss, lines: [goods('Montre')] }),
  ],
  [
    'services outside the scope (Russia)',
    () => engineDocument({ ...base, seller: sellers.paris, buyer: buyers.russia, lines: [services('Conseil')] }),
  ],
  [
    'a consumer (B2C)',
    () =>
      engineDocument({
        ...base,
        seller: sellers.paris,
        buyer: buyers.consumer,
        lines: [goods('Livre'), services('Cours')],
      }),
  ],
];

for (const [name, build] of situations) {
  test(`passes the XSD and the three schematrons with no failed assert: ${name}`, async () => {
    const report = await pool.validate(writeCii(build()));
    assert.deepEqual(report.failures, []);
    assert.equal(report.valid, true);
    assert.deepEqual(Object.keys(report.timings).sort(), [
      'BR-FR-Flux2-Schematron-CII',
      'BR-FR-Flux2-Schematron-CII_WARNING',
      'FACTUR-X_EN16931',
      'parse',
      'xsd',
    ]);
  });
}

test('the Factur-X EN16931 example of the standards passes; its amount due changed, BR-CO-16 fails', async () => {
  const example = readFileSync(join(examples, 'factur-x-en16931.xml'), 'utf8');
  assert.deepEqual((await pool.validate(example)).failures, []);
  const tampered = example.replace(
    '<ram:DuePayableAmount>104.90</ram:DuePayableAmount>',
    '<ram:DuePayableAmount>104.91</ram:DuePayableAmount>',
  );
  assert.notEqual(tampered, example);
  const report = await pool.validate(tampered);
  assert.equal(report.valid, false);
  assert.deepEqual(report.rules, ['BR-CO-16']);
  assert.equal(report.failures[0]!.assertId, 'FX-SCH-A-000122');
  assert.equal(report.failures[0]!.source, 'FACTUR-X_EN16931');
});

test('a generic EN 16931 example fails the French rules, fatal and warning variants alike', async () => {
  const report = await pool.validate(readFileSync(join(examples, 'CII_example1.xml'), 'utf8'));
  for (const rule of ['BR-FR-05_BT-22_PMT', 'BR-FR-08_BT-23', 'BR-FR-10_BT-30']) {
    const failures = report.failures.filter((failure) => failure.rule === rule);
    assert.deepEqual(failures.map((failure) => [failure.source, failure.flag]).sort(), [
      ['BR-FR-Flux2-Schematron-CII', 'fatal'],
      ['BR-FR-Flux2-Schematron-CII_WARNING', 'warning'],
    ]);
  }
});

test('the XSD: an element out of place and a document that is not XML', async () => {
  const xml = writeCii(sampleInvoice()).replace(
    /<ram:TypeCode>380<\/ram:TypeCode>(<ram:IssueDateTime>.*?<\/ram:IssueDateTime>)/,
    '$1<ram:TypeCode>380</ram:TypeCode>',
  );
  const report = await pool.validate(xml);
  assert.equal(
    report.failures.some((failure) => failure.source === 'xsd' && failure.rule === 'XSD'),
    true,
  );
  const broken = await pool.validate('<rsm:CrossIndustryInvoice');
  assert.equal(broken.valid, false);
  assert.deepEqual(broken.rules, ['XML']);
});

test('a wrong total is BR-CO-15 and BR-CO-16; a missing PMT note BR-FR-05; an unknown unit the code list', async () => {
  const model = sampleInvoice();
  model.totals.gross += 1;
  let report = await pool.validate(writeCii(model));
  assert.ok(report.rules.includes('BR-CO-15'), report.rules.join());
  assert.ok(report.rules.includes('BR-CO-16'), report.rules.join());
  const withoutPmt = sampleInvoice({ notes: sampleInvoice().notes.filter((note) => note.subject !== 'PMT') });
  report = await pool.validate(writeCii(withoutPmt));
  assert.deepEqual(report.rules, ['BR-FR-05_BT-22_PMT']);
  const unit = sampleInvoice();
  unit.lines[0]!.unitCode = 'QQQ';
  report = await pool.validate(writeCii(unit));
  assert.deepEqual(report.rules, ['FX-SCH-A-000275']);
});

test('many documents at once: the pool answers each with its own report', async () => {
  const good = writeCii(sampleInvoice());
  const bad = writeCii(sampleInvoice({ billingFrame: 'X9' as DocumentModel['billingFrame'] }));
  const reports = await Promise.all(Array.from({ length: 8 }, (_, index) => pool.validate(index % 2 ? bad : good)));
  reports.forEach((report, index) => {
    if (index % 2) assert.ok(report.rules.includes('BR-FR-08_BT-23'), report.rules.join());
    else assert.deepEqual(report.failures, []);
  });
});

test('a batch: each document gets the report it gets alone, sound, broken or not XML', async () => {
  const compiled = await compileAll(testCacheDir, officialStylesheets);
  const validator = await OfficialValidator.open({ compiled });
  try {
    const wrongTotal = sampleInvoice();
    wrongTotal.totals.gross += 1;
    const xmls = [
      writeCii(sampleInvoice()),
      writeCii(wrongTotal),
      '<rsm:CrossIndustryInvoice',
      readFileSync(join(examples, 'CII_example1.xml'), 'utf8'),
      writeCii(sampleInvoice({ billingFrame: 'X9' as DocumentModel['billingFrame'] })),
    ];
    const alone: ValidationReport[] = [];
    for (const xml of xmls) alone.push(await validator.validate(xml));
    const batch = await validator.validateBatch(xmls);
    assert.equal(batch.length, xmls.length);
    const strip = ({ timings, ...report }: ValidationReport) => {
      assert.ok(timings.xsd !== undefined);
      return report;
    };
    batch.forEach((outcome, index) => {
      assert.ok('report' in outcome);
      assert.deepEqual(strip(outcome.report), strip(alone[index]!));
    });
    assert.deepEqual(
      alone.map((report) => report.valid),
      [true, false, false, false, false],
    );
    assert.ok(alone[3]!.failures.length > 10);
  } finally {
    validator.close();
  }
});

test('a pool taking up to three documents per batch answers each with its own report', async () => {
  const small = await ValidationPool.open({ cacheDir: testCacheDir, size: 1, maxBatch: 3 });
  try {
    const good = writeCii(sampleInvoice());
    const bad = writeCii(sampleInvoice({ billingFrame: 'X9' as DocumentModel['billingFrame'] }));
    const reports = await Promise.all(
      Array.from({ length: 7 }, (_, index) => small.validate(index % 3 === 1 ? bad : index % 3 === 2 ? '<x' : good)),
    );
    reports.forEach((report, index) => {
      if (index % 3 === 0) assert.deepEqual(report.failures, []);
      else if (index % 3 === 1) assert.deepEqual(report.rules, ['BR-FR-08_BT-23']);
      else assert.deepEqual(report.rules, ['XML']);
    });
  } finally {
    await small.close();
  }
});

test('the BR-FR WARNING variant, given by its fatal twin with its own flags, is what running it gives', async () => {
  const fatal = readFileSync(stylesheets['BR-FR-Flux2-Schematron-CII'].xslt, 'utf8');
  const warning = readFileSync(stylesheets['BR-FR-Flux2-Schematron-CII_WARNING'].xslt, 'utf8');
  const flags = flagVariantFlags(fatal, warning)!;
  assert.equal(flags.size, 171);
  assert.equal([...flags.values()].filter((flag) => flag === 'warning').length, 145);
  assert.equal(flags.get('BR-FR-05_BT-22_PMT'), 'warning');
  // Any other difference, in a test or a text, and the variant runs on its own.
  assert.equal(flagVariantFlags(fatal, warning.replace('BR-FR-05/BT-22', 'BR-FR-05/BT-2')), null);
  assert.equal(flagVariantFlags(fatal, warning.replace(/test="[^"]*"/, 'test="true()"')), null);
  assert.equal(flagVariantFlags(fatal, fatal)!.size, 171);

  const compiled = await compileAll(testCacheDir, officialStylesheets);
  const both = await OfficialValidator.open({ compiled });
  const alone = await OfficialValidator.open({
    compiled: { 'BR-FR-Flux2-Schematron-CII_WARNING': compiled['BR-FR-Flux2-Schematron-CII_WARNING']! },
  });
  try {
    const wrongFrame = writeCii(sampleInvoice({ billingFrame: 'X9' as DocumentModel['billingFrame'] }));
    for (const xml of [readFileSync(join(examples, 'CII_example1.xml'), 'utf8'), wrongFrame]) {
      const run = (await alone.validate(xml)).failures.filter((failure) => failure.source !== 'xsd');
      const given = (await both.validate(xml)).failures.filter(
        (failure) => failure.source === 'BR-FR-Flux2-Schematron-CII_WARNING',
      );
      assert.ok(run.length > 0);
      assert.deepEqual(given, run);
    }
  } finally {
    both.close();
    alone.close();
  }
});

test('a closed pool refuses new documents', async () => {
  const other = await ValidationPool.open({
    cacheDir: testCacheDir,
    size: 1,
    stylesheets: ['BR-FR-Flux2-Schematron-CII'],
  });
  assert.equal(other.size, 1);
  const report = await other.validate(writeCii(sampleInvoice({ billingFrame: 'Z1' as DocumentModel['billingFrame'] })));
  assert.deepEqual(report.rules, ['BR-FR-08_BT-23']);
  await other.close();
  await assert.rejects(other.validate('<x/>'), /closed/);
});

test('SVRL: failed asserts and successful reports are failures, with their id, flag, text and location', () => {
  const svrl = `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
    <svrl:fired-rule context="x"/>
    <svrl:failed-assert test="a &lt; b" id="FX-SCH-A-000122" location="/a[1]"><svrl:text>
      [BR-CO-16]-Amount due &amp; more</svrl:text></svrl:failed-assert>
    <svrl:successful-report test="c" id="BR-FR-99" flag="warning" location="/b[1]"><svrl:text>Reported «x»</svrl:text></svrl:successful-report>
  </svrl:schematron-output>`;
  assert.deepEqual(svrlFailures(svrl, 'FACTUR-X_EN16931'), [
    {
      source: 'FACTUR-X_EN16931',
      rule: 'BR-CO-16',
      assertId: 'FX-SCH-A-000122',
      flag: 'fatal',
      text: '[BR-CO-16]-Amount due & more',
      location: '/a[1]',
    },
    {
      source: 'FACTUR-X_EN16931',
      rule: 'BR-FR-99',
      assertId: 'BR-FR-99',
      flag: 'warning',
      text: 'Reported «x»',
      location: '/b[1]',
    },
  ]);
});

test('the two BR-FR variants carry the same asserts (id, context, test) and differ only by their flags', () => {
  const asserts = (path: string) => {
    const xslt = readFileSync(path, 'utf8');
    const found: string[] = [];
    const flags = new Set<string>();
    // A rule is a template of a pattern's mode; each assert is a failed-assert with its id and flag attributes.
    const template = /<xsl:template\s+match="([^"]*)"[^>]*mode="M\d+"[^>]*>([\s\S]*?)<\/xsl:template>/g;
    const assertion =
      /<svrl:failed-assert[^>]*\stest="([^"]*)"[^>]*>\s*<xsl:attribute name="id">([^<]*)<\/xsl:attribute>\s*<xsl:attribute name="flag">([^<]*)<\/xsl:attribute>/g;
    for (const rule of xslt.matchAll(template)) {
      for (const match of rule[2]!.matchAll(assertion)) {
        found.push(`${match[2]}|${rule[1]}|${match[1]}`);
        flags.add(match[3]!);
      }
    }
    return { found: found.sort(), flags };
  };
  const fatal = asserts(stylesheets['BR-FR-Flux2-Schematron-CII'].xslt);
  const warning = asserts(stylesheets['BR-FR-Flux2-Schematron-CII_WARNING'].xslt);
  assert.ok(fatal.found.length > 150, `${fatal.found.length} asserts`);
  assert.deepEqual(warning.found, fatal.found);
  assert.ok(fatal.flags.has('fatal'));
  assert.ok(warning.flags.has('warning'));
});
