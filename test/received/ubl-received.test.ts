import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startHarness } from '../support/harness.js';
import { closeValidation, incomingValidationOf, isExtendedCtcFr } from '../../src/received/official-validation.js';
import { receive, ublExample } from './support.js';

/**
 * Received UBL invoices judged by the official UBL artefacts: the OASIS UBL 2.1 XSD, the EN 16931
 * UBL schematron (EXTENDED-CTC-FR's when BT-24 names it) and the BR-FR rules for UBL.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/ubl/${name}`, import.meta.url));

/** The EN 16931 UBL examples (CEN): BT-109, BT-110, BT-112 and BT-115 as they state them, in cents; their lines. */
const examples: { file: string; number: string; currency: string; totals: number[]; lines: number }[] = [
  { file: 'guide-example1.xml', number: '12115118', currency: 'EUR', totals: [22960, 2073, 25033, 25033], lines: 20 },
  {
    file: 'sample-discount-price.xml',
    number: 'test decimal 1',
    currency: 'EUR',
    totals: [1212, 303, 1515, 1515],
    lines: 1,
  },
  {
    file: 'ubl-tc434-creditnote1.xml',
    number: '018304 / 28865',
    currency: 'EUR',
    totals: [10011, 0, 10011, 10011],
    lines: 1,
  },
  {
    file: 'ubl-tc434-example1.xml',
    number: '12115118',
    currency: 'EUR',
    totals: [22960, 2073, 25033, 25033],
    lines: 20,
  },
  {
    file: 'ubl-tc434-example2.xml',
    number: 'TOSL108',
    currency: 'NOK',
    totals: [143650, 36528, 180178, 80178],
    lines: 5,
  },
  {
    file: 'ubl-tc434-example3.xml',
    number: 'TOSL108',
    currency: 'DKK',
    totals: [170000, 30500, 200500, 200500],
    lines: 2,
  },
  {
    file: 'ubl-tc434-example4.xml',
    number: 'TOSL110',
    currency: 'DKK',
    totals: [400000, 67500, 467500, 467500],
    lines: 3,
  },
  {
    file: 'ubl-tc434-example5.xml',
    number: 'TOSL110',
    currency: 'DKK',
    totals: [400000, 67500, 467500, 233750],
    lines: 3,
  },
];

test('received UBL invoices', async (t) => {
  const h = await startHarness();
  t.after(async () => {
    await h.close();
    await closeValidation();
  });

  await t.test('BT-24 picks the rules: EXTENDED-CTC-FR by its own schematron, else EN 16931', () => {
    assert.equal(isExtendedCtcFr('urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr'), true);
    assert.equal(isExtendedCtcFr('urn:cen.eu:en16931:2017'), false);
    assert.equal(isExtendedCtcFr(null), false);
    const document = { guideline: 'urn:cen.eu:en16931:2017' } as never;
    assert.equal(incomingValidationOf({ syntax: 'UBL', document }), 'ubl');
    assert.equal(incomingValidationOf({ syntax: 'CII', document }), 'cii');
    const extended = { guideline: 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr' } as never;
    assert.equal(incomingValidationOf({ syntax: 'UBL', document: extended }), 'ubl-extended-ctc-fr');
    assert.equal(incomingValidationOf({ syntax: 'Factur-X', document: extended }), 'cii-extended-ctc-fr');
  });

  await t.test('the French EXTENDED-CTC-FR UBL example: validated by its own rules, conformant', async () => {
    const { key } = await h.tenant();
    const ubl = await receive(h, key, ublExample());
    assert.equal(ubl.statusCode, 201, ubl.body);
    assert.equal(ubl.data.syntax, 'UBL');
    assert.deepEqual(ubl.data.validationErrors, []);
    assert.equal(ubl.data.conformant, true);
    const validators = ubl.data.validators.join(' | ');
    assert.match(validators, /XSD OASIS UBL 2\.1/);
    assert.match(validators, /EXTENDED-CTC-FR-UBL/);
    assert.match(validators, /BR-FR-Flux2-Schematron-UBL \(/);
    assert.doesNotMatch(validators, /EN16931-UBL-validation/, 'not flagged by the EN 16931 restrictions it lifts');
    assert.equal(ubl.data.totalTtc, 30803);
  });

  for (const example of examples)
    await t.test(`the CEN example ${example.file}: accepted, its totals read, only the French rules fail`, async () => {
      const { key } = await h.tenant();
      const answer = await receive(h, key, fixture(example.file));
      assert.equal(answer.statusCode, 201, answer.body);
      const invoice = answer.data;
      assert.equal(invoice.syntax, 'UBL');
      assert.equal(invoice.number, example.number);
      assert.equal(invoice.currency, example.currency);
      assert.deepEqual([invoice.totalHt, invoice.totalTva, invoice.totalTtc, invoice.amountDue], example.totals);
      assert.equal(invoice.lines.length, example.lines);
      // Valid EN 16931: the XSD and the CEN schematron find nothing; a non-French invoice fails BR-FR.
      const rules: string[] = invoice.validationErrors.map((error: any) => error.rule);
      assert.ok(rules.length > 0 && rules.every((rule) => rule.startsWith('BR-FR')), rules.join(', '));
      assert.equal(invoice.conformant, false);
      assert.ok(invoice.validators.some((name: string) => name.startsWith('EN16931-UBL-validation')));
    });

  await t.test('a CII of EXTENDED-CTC-FR: the CII D22B XSD and its own schematron, conformant', async () => {
    const { key } = await h.tenant();
    const extended = readFileSync(new URL('./fixtures/cii-extended-ctc-fr.xml', import.meta.url));
    const answer = await receive(h, key, extended);
    assert.equal(answer.statusCode, 201, answer.body);
    assert.equal(answer.data.syntax, 'CII');
    assert.deepEqual(answer.data.validationErrors, []);
    assert.equal(answer.data.conformant, true);
    const validators = answer.data.validators.join(' | ');
    assert.match(validators, /XSD UN\/CEFACT CII D22B/);
    assert.match(validators, /EXTENDED-CTC-FR-CII/);
    assert.match(validators, /BR-FR-Flux2-Schematron-CII \(/);
    assert.doesNotMatch(validators, /FACTUR-X_EN16931/);
  });

  await t.test('a UBL whose amount due does not add up is flagged with BR-CO-16', async () => {
    const { key } = await h.tenant();
    const broken = fixture('ubl-tc434-example1.xml')
      .toString('utf8')
      .replace(/<cbc:PayableAmount currencyID="EUR">[^<]*/, '<cbc:PayableAmount currencyID="EUR">1.00');
    const answer = await receive(h, key, Buffer.from(broken));
    assert.equal(answer.statusCode, 201, answer.body);
    assert.equal(answer.data.conformant, false);
    const failed = answer.data.validationErrors.find((error: any) => error.rule === 'BR-CO-16');
    assert.ok(failed, JSON.stringify(answer.data.validationErrors.map((error: any) => error.rule)));
    assert.equal(failed.flag, 'fatal');
  });

  await t.test('a UBL the XSD refuses (an element out of place) is flagged XSD', async () => {
    const { key } = await h.tenant();
    const broken = fixture('ubl-tc434-example3.xml')
      .toString('utf8')
      .replace(
        /(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)([\s\S]*?)(<cbc:DocumentCurrencyCode>[^<]*<\/cbc:DocumentCurrencyCode>)/,
        '$3$2$1',
      );
    const answer = await receive(h, key, Buffer.from(broken));
    assert.equal(answer.statusCode, 201, answer.body);
    assert.equal(answer.data.conformant, false);
    assert.ok(answer.data.validationErrors.some((error: any) => error.rule === 'XSD'));
  });
});
