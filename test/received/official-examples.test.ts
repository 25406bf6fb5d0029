import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { documentHarness, seller } from '../invoices/support.js';
import { closeValidation, facturxProfileOf } from '../../src/received/official-validation.js';
import { receive } from './support.js';

/**
 * The official CII and Factur-X examples (CEN, FNFE, akretion) ingested as received invoices: each
 * is kept with its totals read as the file states them, and judged by the rules of its profile:
 * a Factur-X BASIC WL by its own XSD and schematron (not EN 16931's, which refuse an invoice
 * without lines, what that profile is), an EXTENDED by its own (which allow what EN 16931 does
 * not), so what is flagged is what the file breaks.
 */

const examples = new URL('../einvoice/fixtures/examples/', import.meta.url);
const files = readdirSync(examples).filter((name) => name.endsWith('.xml'));

/** BT-109, BT-110 (in the invoice's currency), BT-112 and BT-115 as the XML states them, in cents. */
function statedTotals(xml: string): number[] {
  const cents = (value: string | undefined) => Math.round(Number(value ?? '0') * 100);
  const currency = /<ram:InvoiceCurrencyCode>([^<]+)</.exec(xml)?.[1];
  const vat = [...xml.matchAll(/<ram:TaxTotalAmount(?: currencyID="([^"]+)")?>([^<]+)</g)].find(
    (match) => match[1] === undefined || match[1] === currency,
  );
  return [
    cents(/<ram:TaxBasisTotalAmount>([^<]+)</.exec(xml)?.[1]),
    cents(vat?.[2]),
    cents(/<ram:GrandTotalAmount>([^<]+)</.exec(xml)?.[1]),
    cents(/<ram:DuePayableAmount>([^<]+)</.exec(xml)?.[1]),
  ];
}

/** Factur-X BASIC WL: the BASIC example without its lines, its BT-24 the BASIC WL profile's. */
function basicWl(): Buffer {
  const xml = readFileSync(new URL('factur-x-basic.xml', examples), 'utf8')
    .replace(/<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>\s*/g, '')
    .replace(
      /<ram:ID>urn:cen\.eu:en16931:2017#compliant#urn:factur-x\.eu:1p0:basic<\/ram:ID>/,
      '<ram:ID>urn:factur-x.eu:1p0:basicwl</ram:ID>',
    );
  assert.ok(!xml.includes('IncludedSupplyChainTradeLineItem') && xml.includes('1p0:basicwl'));
  return Buffer.from(xml);
}

test('the profile a BT-24 names', () => {
  assert.equal(facturxProfileOf('urn:factur-x.eu:1p0:basicwl'), 'basic-wl');
  assert.equal(facturxProfileOf('urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended'), 'extended');
  // The French extended profile is judged apart (isExtendedCtcFr), not as Factur-X EXTENDED.
  assert.equal(facturxProfileOf('urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr'), null);
  // BASIC is EN 16931 (`compliant`), judged as such; MINIMUM has no official rules of its own.
  assert.equal(facturxProfileOf('urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic'), null);
  assert.equal(facturxProfileOf('urn:factur-x.eu:1p0:minimum'), null);
  assert.equal(facturxProfileOf('urn:cen.eu:en16931:2017'), null);
  assert.equal(facturxProfileOf(null), null);
});

test('the official examples, received: kept with their totals, judged by their own profile', async (t) => {
  const h = await documentHarness();
  t.after(async () => {
    await closeValidation();
    await h.close();
  });
  const { key } = await seller(h);
  assert.ok(files.length >= 19, `${files.length} examples`);

  for (const [index, name] of files.entries()) {
    const bytes = readFileSync(new URL(name, examples));
    const received = await receive(h, key, bytes, `flow-example-${index}`);
    assert.equal(received.statusCode, 201, `${name}: ${received.body}`);
    const invoice = received.data;
    assert.equal(invoice.syntax, 'CII', name);
    assert.deepEqual(
      [invoice.totalHt, invoice.totalTva, invoice.totalTtc, invoice.amountDue],
      statedTotals(bytes.toString('utf8')),
      `${name}: BT-109, BT-110, BT-112, BT-115`,
    );
    assert.equal(typeof invoice.conformant, 'boolean', name);
    const extended = name === 'factur-x-extended.xml';
    assert.ok(
      invoice.validators.some((v: string) => v.startsWith(extended ? 'FACTUR-X_EXTENDED (' : 'FACTUR-X_EN16931 (')),
      `${name}: ${invoice.validators.join('; ')} ${JSON.stringify(invoice.validationErrors.slice(0, 2))}`,
    );
    if (extended) {
      // By its own rules the EXTENDED example breaks none of Factur-X's (only French routing rules).
      assert.deepEqual(
        invoice.validationErrors.filter((error: any) => !error.rule.startsWith('BR-FR')),
        [],
        JSON.stringify(invoice.validationErrors.slice(0, 3)),
      );
    }
  }
  assert.ok(files.includes('factur-x-extended.xml'));

  // BASIC WL, by its own XSD and schematron: no lines is what the profile is.
  const wl = await receive(h, key, basicWl(), 'flow-example-basic-wl');
  assert.equal(wl.statusCode, 201, wl.body);
  assert.ok(
    wl.data.validators.some((v: string) => v.startsWith('FACTUR-X_BASIC-WL (')),
    wl.data.validators.join('; '),
  );
  assert.deepEqual(
    wl.data.validationErrors.filter((error: any) => !error.rule.startsWith('BR-FR')),
    [],
    JSON.stringify(wl.data.validationErrors.slice(0, 3)),
  );
  assert.equal(wl.data.lines.length, 0);
});
