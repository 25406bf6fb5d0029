import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { extractFacturXml, readCii, CiiReadError } from '../../src/einvoice/cii-reader.js';
import {
  namesVatIdentifiers,
  sellerEndpoint,
  buyerEndpoint,
  shipToAddress,
  writeCii,
} from '../../src/einvoice/cii-writer.js';
import { sellerLegalLine, type DocumentModel } from '../../src/einvoice/document-model.js';
import { buildFacturX } from '../../src/einvoice/facturx.js';
import { renderPdf } from '../../src/einvoice/pdf-renderer.js';
import { documentOf, specArbitrary } from './corpus-arbitrary.js';
import { sampleInvoice } from './support.js';

/**
 * The CII reader: the service's own documents come back with every amount and identifier, and the
 * examples of the standards read with totals that add up; the XML comes out of a Factur-X PDF.
 */

const examples = join(import.meta.dirname, 'fixtures', 'examples');

/** What a round trip must give back: the model, as the writer states it in the CII. */
function expectedAfterRoundTrip(model: DocumentModel) {
  const vat = namesVatIdentifiers(model);
  const sellerAddress = sellerEndpoint(model.seller);
  const buyerAddress = buyerEndpoint(model.buyer);
  // A credit note carries no payment instructions: the seller's account is not written.
  const payee = model.typeCode === '381' ? null : model.seller;
  return {
    typeCode: model.typeCode,
    number: model.number,
    issueDate: model.issueDate,
    dueDate: model.dueDate,
    deliveryDate: model.deliveryDate,
    currency: model.currency,
    precedingInvoice: model.precedingInvoice,
    billingFrame: model.billingFrame,
    vatOnDebits: model.vatOnDebits,
    processing: model.processing,
    paymentTerms: model.paymentTerms,
    paymentMeansCode: payee?.iban ? model.paymentMeansCode : null,
    notes: model.notes,
    seller: {
      legalName: model.seller.legalName,
      tradeName: model.seller.tradeName,
      siren: model.seller.siren,
      siret: model.seller.siret,
      vatNumber: vat ? model.seller.vatNumber : null,
      address: model.seller.address,
      electronicAddress: model.seller.electronicAddress,
      iban: payee?.iban ?? null,
      bic: payee?.iban ? payee.bic : null,
    },
    sellerLegalInformation: sellerLegalLine(model.seller) || null,
    sellerEndpoint: sellerAddress,
    buyer: {
      name: model.buyer.name,
      siren: model.buyer.siren,
      siret: model.buyer.siret,
      vatNumber: vat ? model.buyer.vatNumber : null,
      electronicAddress: model.buyer.electronicAddress,
      email: buyerAddress?.scheme === 'EM' ? buyerAddress.value : null,
      routingCode: model.buyer.routingCode,
      address: model.buyer.address,
      deliveryAddress: shipToAddress(model),
    },
    buyerEndpoint: buyerAddress,
    lines: model.lines,
    vatBreakdown: model.vatBreakdown,
    totals: { ...model.totals, taxBasis: model.totals.net, allowances: 0, charges: 0, rounding: 0 },
  };
}

function actualAfterRoundTrip(xml: string) {
  const read = readCii(xml);
  assert.deepEqual(read.warnings, []);
  return {
    typeCode: read.typeCode,
    number: read.number,
    issueDate: read.issueDate,
    dueDate: read.dueDate,
    deliveryDate: read.deliveryDate,
    currency: read.currency,
    precedingInvoice: read.precedingInvoice,
    billingFrame: read.billingFrame,
    vatOnDebits: read.vatOnDebits,
    processing: read.processing,
    paymentTerms: read.paymentTerms,
    paymentMeansCode: read.paymentMeansCode,
    notes: read.notes,
    seller: {
      legalName: read.seller.legalName,
      tradeName: read.seller.tradeName,
      siren: read.seller.siren,
      siret: read.seller.siret,
      vatNumber: read.seller.vatNumber,
      address: read.seller.address,
      electronicAddress: read.seller.electronicAddress,
      iban: read.seller.iban,
      bic: read.seller.bic,
    },
    sellerLegalInformation: read.sellerLegalInformation,
    sellerEndpoint: read.sellerEndpoint,
    buyer: {
      name: read.buyer.name,
      siren: read.buyer.siren,
      siret: read.buyer.siret,
      vatNumber: read.buyer.vatNumber,
      electronicAddress: read.buyer.electronicAddress,
      email: read.buyer.email,
      routingCode: read.buyer.routingCode,
      address: read.buyer.address,
      deliveryAddress: read.buyer.deliveryAddress,
    },
    buyerEndpoint: read.buyerEndpoint,
    lines: read.lines,
    vatBreakdown: read.vatBreakdown,
    totals: read.totals,
  };
}

test('the sample invoice comes back whole', () => {
  const model = sampleInvoice();
  assert.deepEqual(actualAfterRoundTrip(writeCii(model)), expectedAfterRoundTrip(model));
});

test('property: any generated document comes back with every amount, identifier, date, code and text', () => {
  fc.assert(
    fc.property(specArbitrary, (spec) => {
      const model = documentOf(spec);
      fc.pre(model !== null);
      assert.deepEqual(actualAfterRoundTrip(writeCii(model!)), expectedAfterRoundTrip(model!));
    }),
    { numRuns: 150, seed: 1411 },
  );
});

test('the Factur-X EN16931 example: identifiers, references, every total and the VAT groups', () => {
  const read = readCii(readFileSync(join(examples, 'factur-x-en16931.xml'), 'utf8'));
  assert.equal(read.number, 'F20260023');
  assert.equal(read.typeCode, '380');
  assert.equal(read.issueDate, '2026-01-31');
  assert.equal(read.dueDate, '2026-03-02');
  assert.equal(read.deliveryDate, '2026-01-28');
  assert.equal(read.billingFrame, 'S1');
  assert.equal(read.guideline, 'urn:cen.eu:en16931:2017');
  assert.equal(read.seller.siren, '123456782');
  assert.equal(read.seller.siret, '12345678200077');
  assert.equal(read.seller.vatNumber, 'FR11123456782');
  assert.equal(read.seller.iban, 'FR20 1254 2547 2569 8542 5874 698');
  assert.equal(read.buyer.siren, '987654321');
  assert.equal(read.buyer.routingCode, 'SERVEXEC');
  assert.deepEqual(read.precedingInvoice, { number: 'F20260003', issueDate: '2026-01-01' });
  assert.deepEqual(read.totals, {
    net: 9500,
    vat: 490,
    gross: 10490,
    paid: 0,
    due: 10490,
    taxBasis: 10000,
    allowances: 900,
    charges: 1400,
    rounding: 0,
  });
  assert.deepEqual(
    read.vatBreakdown.map((group) => [
      group.vatCode,
      group.vatRate,
      group.taxableAmount,
      group.taxAmount,
      group.vatexCode,
    ]),
    [
      ['S', '20.00', 1100, 220, null],
      ['E', '0.00', 6000, 0, 'VATEX-EU-79-C'],
      ['S', '10.00', 2700, 270, null],
      ['K', '0.00', 200, 0, 'VATEX-EU-IC'],
    ],
  );
  assert.deepEqual(
    read.lines.map((line) => [
      line.id,
      line.description,
      line.quantity,
      line.unitCode,
      line.unitPrice,
      line.netAmount,
      line.vatCode,
    ]),
    [
      ['1', 'PRESTATION SUPPORT', '1.0000', 'C62', '60.0000', 6000, 'E'],
      ['2', 'FOURNITURES PAPIER', '3.0000', 'C62', '30.0000', 2800, 'S'],
      ['3', 'APPEL', '1.0000', 'C62', '7.0000', 700, 'S'],
    ],
  );
  assert.equal(
    read.notes.find((note) => note.subject === 'PMT')?.text,
    'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 €.',
  );
});

test('every CII example of the standards reads, and its totals add up as EN 16931 says', () => {
  const files = readdirSync(examples).filter((file) => file.endsWith('.xml') && !file.startsWith('ubl'));
  assert.ok(files.length >= 15);
  for (const file of files) {
    const read = readCii(readFileSync(join(examples, file), 'utf8'));
    assert.deepEqual(read.warnings, [], file);
    assert.ok(read.number !== '' && /^\d{4}-\d{2}-\d{2}$/.test(read.issueDate), file);
    const { totals } = read;
    // BR-CO-13 to BR-CO-16, which every example satisfies.
    if (read.lines.length > 0) {
      assert.equal(
        totals.net,
        read.lines.reduce((sum, line) => sum + line.netAmount, 0),
        `${file}: BR-CO-10`,
      );
      assert.equal(totals.taxBasis, totals.net - totals.allowances + totals.charges, `${file}: BR-CO-13`);
    }
    // The MINIMUM profile carries no VAT breakdown.
    if (read.vatBreakdown.length > 0)
      assert.equal(
        totals.vat,
        read.vatBreakdown.reduce((sum, group) => sum + group.taxAmount, 0),
        `${file}: BR-CO-14`,
      );
    assert.equal(totals.gross, totals.taxBasis + totals.vat, `${file}: BR-CO-15`);
    assert.equal(totals.due, totals.gross - totals.paid + totals.rounding, `${file}: BR-CO-16`);
  }
});

test('a document in another currency: the VAT total in that currency, not the accounting one', () => {
  const read = readCii(readFileSync(join(examples, 'huf_example_cii.xml'), 'utf8'));
  assert.equal(read.currency, 'HUF');
  assert.equal(
    read.totals.vat,
    read.vatBreakdown.reduce((sum, group) => sum + group.taxAmount, 0),
  );
});

test('amounts of more than two decimals are rounded and said so; a file that is not a CII is refused', () => {
  const xml = writeCii(sampleInvoice()).replace(
    '<ram:DuePayableAmount>2619.08</ram:DuePayableAmount>',
    '<ram:DuePayableAmount>2619.085</ram:DuePayableAmount>',
  );
  const read = readCii(xml);
  assert.equal(read.totals.due, 261909);
  assert.deepEqual(read.warnings, ['BT-115: 2619.085 has more than 2 decimals; rounded to the cent']);
  assert.throws(
    () => readCii('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
    CiiReadError,
  );
});

test('the XML of our Factur-X comes out byte for byte, with its relationship', async () => {
  const model = sampleInvoice();
  const xml = writeCii(model);
  const extracted = await extractFacturXml(await buildFacturX(model, xml));
  assert.deepEqual(extracted, { name: 'factur-x.xml', xml, relationship: 'Data' });
  assert.deepEqual(actualAfterRoundTrip(extracted!.xml), expectedAfterRoundTrip(model));
});

test("the XML of another producer's Factur-X (akretion's EN 16931 sample) comes out and reads", async () => {
  const extracted = await extractFacturXml(readFileSync(join(examples, 'invoice_EN16931.pdf')));
  assert.equal(extracted?.name, 'factur-x.xml');
  const read = readCii(extracted!.xml);
  assert.equal(read.number, 'F20260023');
  assert.equal(read.totals.due, 10490);
});

test('a PDF without invoice XML gives null', async () => {
  assert.equal(await extractFacturXml(await renderPdf(sampleInvoice())), null);
  const blank = await PDFDocument.create();
  blank.addPage();
  assert.equal(await extractFacturXml(await blank.save()), null);
});
