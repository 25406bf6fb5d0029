import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { checkDraftConformance, inEinvoicingScope } from '../../src/einvoice/draft-conformance.js';
import type { ValidationReport } from '../../src/einvoice/official-validator.js';
import {
  officialStylesheets,
  ruleSets,
  stylesheetsInScope,
  ValidationPool,
} from '../../src/einvoice/validation-pool.js';
import { corpus } from './corpus-arbitrary.js';
import { testCacheDir } from './support.js';

/**
 * The corpus: 200 documents generated with fast-check and decided by the tax engine (mixed rates,
 * mainland, Corsica and overseas sellers and buyers, reverse charge, intra-EU supplies, exports,
 * franchise en base, exemptions, outside the scope, consumers, credit notes, up to 45 lines, long
 * and non-ASCII texts) pass the Factur-X EN16931 XSD, the Factur-X EN16931 schematron and, in
 * scope of e-invoicing, both BR-FR variants, with no failed assert, warnings included. Documents broken on purpose are caught
 * by the official validators and by the own checks; and no document, sound or broken, passes the
 * own checks while failing the official ones.
 */

const size = 200;
let pool: ValidationPool;
/** The later rule sets (FNFE-MPE 1.4.0.03): a document issued on a later date meets them. */
const laterPools: ValidationPool[] = [];
let documents: { model: DocumentModel }[];
let refused: { model: DocumentModel }[];
const reports = new Map<DocumentModel, ValidationReport>();

before(async () => {
  pool = await ValidationPool.open({ cacheDir: testCacheDir, size: 2 });
  for (const set of ruleSets.slice(1))
    laterPools.push(await ValidationPool.open({ cacheDir: testCacheDir, size: 1, ruleSet: set.id }));
  ({ documents, refused } = corpus(size, 20261124, (model) => checkDraftConformance(model).length === 0));
});
after(async () => {
  await Promise.all([pool, ...laterPools].map((each) => each.close()));
});

/** The rules that bind a document: BR-FR only in scope of e-invoicing, as the file worker runs them. */
const bindingRules = (model: DocumentModel) => stylesheetsInScope(officialStylesheets, inEinvoicingScope(model));

const describe = (model: DocumentModel) =>
  `${model.number} (${model.typeCode}, ${model.processing}, ${model.vatBreakdown.map((group) => `${group.vatCode}${group.vatRate ? ` ${group.vatRate}` : ''}`).join(' + ')}, ${model.lines.length} lines)`;

test(`${size} generated documents pass the XSD and the three schematrons with no failed assert`, async (t) => {
  const started = performance.now();
  await Promise.all(
    documents.map(async ({ model }) => {
      reports.set(model, await pool.validate(writeCii(model), bindingRules(model)));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const failing = documents.filter(({ model }) => !reports.get(model)!.valid);
  assert.deepEqual(
    failing.map(
      ({ model }) =>
        `${describe(model)}: ${reports
          .get(model)!
          .failures.map((failure) => `${failure.rule} ${failure.text}`)
          .join('; ')}`,
    ),
    [],
  );
  // What the corpus covers: every VAT situation of the engine, both kinds, the three flows.
  const categories = new Set(documents.flatMap(({ model }) => model.vatBreakdown.map((group) => group.vatCode)));
  for (const category of ['S', 'E', 'AE', 'K', 'G', 'O'])
    assert.ok(categories.has(category), `category ${category} in the corpus`);
  const rates = new Set(documents.flatMap(({ model }) => model.vatBreakdown.map((group) => group.vatRate)));
  for (const rate of ['20.00', '10.00', '13.00', '8.50', '2.10'])
    assert.ok(rates.has(rate), `rate ${rate} in the corpus`);
  assert.ok(documents.some(({ model }) => model.typeCode === '381'));
  for (const flow of ['B2B', 'B2BINT', 'B2C'])
    assert.ok(
      documents.some(({ model }) => model.processing === flow),
      flow,
    );
  assert.ok(documents.some(({ model }) => model.lines.length >= 25));
  assert.ok(
    documents.some(({ model }) => model.seller.vatNumber === null),
    'franchise en base',
  );
  assert.ok(
    documents.some(({ model }) => /[^\u0000-\u024f]/.test(model.buyer.name)),
    'non-Latin names',
  );
  t.diagnostic(
    `${documents.length} documents validated in ${seconds.toFixed(1)} s (${(documents.length / seconds).toFixed(1)} per second, pool of ${pool.size})`,
  );
});

test("what the own checks refuse of the engine's decisions, the official validators refuse too", async (t) => {
  // Today: a franchise-en-base seller (no VAT number) exporting goods, which BR-G-02 forbids.
  const results = await Promise.all(
    refused.map(async ({ model }) => ({ model, report: await pool.validate(writeCii(model), bindingRules(model)) })),
  );
  for (const { model, report } of results) {
    const own = checkDraftConformance(model).map((issue) => issue.rule);
    assert.equal(
      report.valid,
      false,
      `${describe(model)}: refused by the own checks (${own.join(', ')}) but official-valid`,
    );
    for (const rule of own)
      assert.ok(report.rules.includes(rule), `${describe(model)}: ${rule} also official (${report.rules.join(', ')})`);
  }
  t.diagnostic(
    `${refused.length} decided documents refused by the own checks: ${[...new Set(refused.flatMap(({ model }) => checkDraftConformance(model).map((issue) => issue.rule)))].join(', ') || 'none'}`,
  );
});

/** Breakages a draft can carry, each with the rule both sides must name. */
const breakages: {
  name: string;
  rule: string;
  applies?: (model: DocumentModel) => boolean;
  breakIt: (model: DocumentModel) => void;
}[] = [
  { name: 'a wrong total', rule: 'BR-CO-15', breakIt: (m) => void (m.totals.gross += 1) },
  { name: 'an amount due that does not add up', rule: 'BR-CO-16', breakIt: (m) => void (m.totals.due += 100) },
  { name: 'a VAT total that is not the sum of its groups', rule: 'BR-CO-14', breakIt: (m) => void (m.totals.vat += 1) },
  {
    // The Factur-X schematron tolerates 1.00 either way (the own check, none): 2.00 off is caught by both.
    name: 'a group VAT 2.00 off base x rate',
    rule: 'BR-CO-17',
    applies: (m) => m.vatBreakdown.some((g) => g.vatCode === 'S' && g.taxableAmount > 0),
    breakIt: (m) => {
      const group = m.vatBreakdown.find((g) => g.vatCode === 'S' && g.taxableAmount > 0)!;
      group.taxAmount += 200;
      m.totals.vat += 200;
      m.totals.gross += 200;
      m.totals.due += 200;
    },
  },
  {
    name: 'a line net that the group does not sum',
    rule: 'BR-CO-10',
    breakIt: (m) => void (m.lines[0]!.netAmount += 1),
  },
  { name: 'a seller without SIREN digits', rule: 'BR-FR-10_BT-30', breakIt: (m) => void (m.seller.siren = 'SIREN') },
  {
    name: 'a B2B buyer without SIREN',
    rule: 'BR-FR-11_BT-47',
    applies: (m) => m.processing === 'B2B',
    breakIt: (m) => void (m.buyer.siren = null),
  },
  {
    name: 'a bad BT-23',
    rule: 'BR-FR-08_BT-23',
    breakIt: (m) => void (m.billingFrame = 'X1' as DocumentModel['billingFrame']),
  },
  {
    name: 'no PMT note',
    rule: 'BR-FR-05_BT-22_PMT',
    breakIt: (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'PMT')),
  },
  {
    name: 'no PMD note',
    rule: 'BR-FR-05_BT-22_PMD',
    breakIt: (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'PMD')),
  },
  { name: 'a number with a space', rule: 'BR-FR-02_BT-1', breakIt: (m) => void (m.number = `${m.number} B`) },
  { name: 'an unknown unit', rule: 'FX-SCH-A-000275', breakIt: (m) => void (m.lines[0]!.unitCode = 'QQQ') },
  {
    name: 'a rate BR-FR-16 refuses',
    rule: 'BR-FR-16_BT-152',
    applies: (m) => m.lines[0]!.vatCode === 'S',
    breakIt: (m) => {
      const rate = m.lines[0]!.vatRate;
      for (const line of m.lines) if (line.vatRate === rate && line.vatCode === 'S') line.vatRate = '19.00';
    },
  },
  { name: 'no buyer address', rule: 'BR-10', breakIt: (m) => void (m.buyer.address = null) },
  {
    name: 'a buyer with neither electronic address nor e-mail',
    rule: 'BR-FR-12_BT-49',
    breakIt: (m) => void ((m.buyer.electronicAddress = null), (m.buyer.email = null)),
  },
  {
    name: 'a credit note without its invoice',
    rule: 'BR-FR-CO-05_BT-3',
    applies: (m) => m.typeCode === '381',
    breakIt: (m) => void (m.precedingInvoice = null),
  },
  {
    name: 'a due date before the issue date',
    rule: 'BR-FR-CO-07_BT-9',
    applies: (m) => m.dueDate !== null,
    breakIt: (m) => void (m.dueDate = '2025-01-01'),
  },
  {
    name: 'an exemption without its reason',
    rule: 'BR-E-10',
    applies: (m) => m.vatBreakdown.some((g) => g.vatCode === 'E'),
    breakIt: (m) =>
      m.vatBreakdown
        .filter((g) => g.vatCode === 'E')
        .forEach((g) => ((g.vatexCode = null), (g.exemptionReason = null))),
  },
  {
    name: 'an intra-EU supply without the buyer VAT number',
    rule: 'BR-IC-02',
    applies: (m) => m.vatBreakdown.some((g) => g.vatCode === 'K'),
    breakIt: (m) => void (m.buyer.vatNumber = null),
  },
];

test('documents broken on purpose: the official validators and the own checks both name the rule', async () => {
  const cases = breakages.flatMap((breakage) =>
    documents
      // A French rule is broken on documents it binds: those in scope of e-invoicing.
      .filter(
        ({ model }) =>
          (breakage.applies?.(model) ?? true) && (!breakage.rule.startsWith('BR-FR') || inEinvoicingScope(model)),
      )
      .slice(0, 3)
      .map(({ model }) => {
        const broken = structuredClone(model);
        breakage.breakIt(broken);
        return { breakage, broken };
      }),
  );
  assert.ok(cases.length >= breakages.length * 2, `${cases.length} broken documents`);
  for (const breakage of breakages)
    assert.ok(
      cases.some((entry) => entry.breakage === breakage),
      `${breakage.name} was tried`,
    );
  const results = await Promise.all(
    cases.map(async (entry) => ({
      ...entry,
      report: await pool.validate(writeCii(entry.broken), bindingRules(entry.broken)),
    })),
  );
  for (const { breakage, broken, report } of results) {
    const own = checkDraftConformance(broken).map((issue) => issue.rule);
    assert.ok(
      report.rules.includes(breakage.rule),
      `${breakage.name} (${describe(broken)}): official rules ${report.rules.join(', ')}`,
    );
    assert.ok(own.includes(breakage.rule), `${breakage.name} (${describe(broken)}): own rules ${own.join(', ')}`);
  }
});

test('agreement: no document passes the own checks and fails the official ones (random breakages too)', async () => {
  // Random combinations of breakages on random documents, plus the sound corpus.
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const mutated = Array.from({ length: 40 }, () => {
    const broken = structuredClone(documents[next() % documents.length]!.model);
    for (let count = 1 + (next() % 2); count > 0; count--) {
      const breakage = breakages[next() % breakages.length]!;
      if (breakage.applies?.(broken) ?? true) breakage.breakIt(broken);
    }
    return broken;
  });
  const results = await Promise.all(
    mutated.map(async (model) => ({
      model,
      own: checkDraftConformance(model),
      report: await pool.validate(writeCii(model), bindingRules(model)),
    })),
  );
  for (const { model, own, report } of results) {
    if (own.length === 0)
      assert.ok(report.valid, `${describe(model)} passes the own checks but fails ${report.rules.join(', ')}`);
  }
  for (const { model } of documents) assert.ok(reports.get(model)?.valid ?? true);
});

test('every later rule set: the corpus passes it, and nothing the own checks pass fails it', async () => {
  assert.ok(laterPools.length >= 1);
  let seed = 11;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const mutated = Array.from({ length: 20 }, () => {
    const broken = structuredClone(documents[next() % documents.length]!.model);
    const breakage = breakages[next() % breakages.length]!;
    if (breakage.applies?.(broken) ?? true) breakage.breakIt(broken);
    return broken;
  });
  for (const later of laterPools) {
    const sound = await Promise.all(
      documents.map(async ({ model }) => ({
        model,
        report: await later.validate(writeCii(model), bindingRules(model)),
      })),
    );
    const failing = sound.filter(({ report }) => !report.valid);
    assert.deepEqual(
      failing.map(({ model, report }) => `${describe(model)} under ${report.ruleSet}: ${report.rules.join(', ')}`),
      [],
    );
    for (const model of mutated) {
      if (checkDraftConformance(model).length > 0) continue;
      const report = await later.validate(writeCii(model), bindingRules(model));
      assert.ok(
        report.valid,
        `${describe(model)} passes the own checks but fails ${report.ruleSet}: ${report.rules.join(', ')}`,
      );
    }
  }
});
