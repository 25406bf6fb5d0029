import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { XmlDocument } from 'libxml2-wasm';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { pageTexts } from '../support/pdf-text.js';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { buildFacturX } from '../../src/einvoice/facturx.js';
import { renderPdf, specimenMark, uncoveredCharacters } from '../../src/einvoice/pdf-renderer.js';
import { buyers, engineDocument, sampleInvoice, sellers } from './support.js';

/**
 * The Factur-X PDF, inspected with pdf-lib (objects) and pdfjs-dist (text layer), as a PDF/A-3
 * validator would: XMP well formed with pdfaid 3/B and the fx schema, every font embedded, the sRGB
 * output intent, the trailer /ID, the attachment `factur-x.xml` (Data) byte-identical to the CII.
 */

const created = new Date('2026-11-24T10:00:00Z');
let sample: DocumentModel;
let xml: string;
let pdf: Buffer;
let parsed: PDFDocument;

before(async () => {
  sample = sampleInvoice();
  sample.seller.legalName = 'Dupont & Fils <SA> "Ateliers"';
  xml = writeCii(sample);
  pdf = await buildFacturX(sample, xml, { creationDate: created });
  parsed = await PDFDocument.load(pdf, { updateMetadata: false });
});

const catalog = () => parsed.catalog;
const resolve = <T extends PDFObject>(value: PDFObject | undefined): T | undefined =>
  (value instanceof PDFRef ? parsed.context.lookup(value) : value) as T | undefined;
const text = (value: PDFObject | undefined) =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
const streamBytes = (stream: PDFStream) =>
  stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents();

function metadataXml(): string {
  const stream = resolve<PDFStream>(catalog().get(PDFName.of('Metadata')));
  assert.ok(stream, 'the catalog has a /Metadata stream');
  return Buffer.from(streamBytes(stream)).toString('utf8');
}

test('XMP: well formed, pdfaid part 3 conformance B, the fx properties and their extension schema', () => {
  const xmp = metadataXml();
  assert.match(xmp, /^\s*<\?xpacket begin=/);
  assert.match(xmp, /<\?xpacket end="w"\?>\s*$/);
  const body = xmp.replace(/<\?xpacket[^?]*\?>/g, '');
  const document = XmlDocument.fromString(body); // throws when not well formed
  document.dispose();
  assert.match(xmp, /<pdfaid:part>3<\/pdfaid:part>/);
  assert.match(xmp, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
  assert.match(xmp, /<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
  assert.match(xmp, /<fx:DocumentFileName>factur-x.xml<\/fx:DocumentFileName>/);
  assert.match(xmp, /<fx:DocumentType>INVOICE<\/fx:DocumentType>/);
  assert.match(xmp, /<fx:Version>1.0<\/fx:Version>/);
  assert.match(xmp, /xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"/);
  assert.match(
    xmp,
    /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/,
  );
  assert.equal(xmp.match(/<pdfaExtension:schemas>/g)?.length, 1);
  for (const property of ['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel'])
    assert.match(xmp, new RegExp(`<pdfaProperty:name>${property}</pdfaProperty:name>`));
  // The seller's name, escaped: the XMP stays well formed and says what the document says.
  assert.match(xmp, /<rdf:li>Dupont &amp; Fils &lt;SA&gt; &quot;Ateliers&quot;<\/rdf:li>/);
  assert.match(xmp, /<rdf:li xml:lang="x-default">Facture F2026-000001<\/rdf:li>/);
  assert.match(xmp, /<xmp:CreateDate>2026-11-24T10:00:00Z<\/xmp:CreateDate>/);
});

test('every font is embedded (a font file for each descriptor, no standard-14 font)', () => {
  const fonts = parsed.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Font'),
    );
  assert.ok(fonts.length >= 2, `${fonts.length} fonts`);
  for (const font of fonts) {
    const subtype = font.get(PDFName.of('Subtype'));
    if (subtype === PDFName.of('Type0')) continue; // checked through its descendant
    const descriptor = resolve<PDFDict>(font.get(PDFName.of('FontDescriptor')));
    assert.ok(descriptor, `font ${String(font.get(PDFName.of('BaseFont')))} has a descriptor`);
    const file = ['FontFile', 'FontFile2', 'FontFile3'].map((key) => descriptor.get(PDFName.of(key))).find(Boolean);
    assert.ok(file, `font ${String(font.get(PDFName.of('BaseFont')))} is embedded`);
    assert.match(String(font.get(PDFName.of('BaseFont'))), /^\/[A-Z]{6}\+DejaVuSans/);
  }
});

test('the sRGB output intent (GTS_PDFA1) with its ICC profile, and a trailer /ID', () => {
  const intents = resolve<PDFArray>(catalog().get(PDFName.of('OutputIntents')));
  assert.ok(intents && intents.size() === 1);
  const intent = resolve<PDFDict>(intents.get(0))!;
  assert.equal(intent.get(PDFName.of('S')), PDFName.of('GTS_PDFA1'));
  assert.equal(text(intent.get(PDFName.of('OutputConditionIdentifier'))), 'sRGB IEC61966-2.1');
  const profile = resolve<PDFStream>(intent.get(PDFName.of('DestOutputProfile')))!;
  assert.equal(Buffer.from(streamBytes(profile)).subarray(36, 40).toString('latin1'), 'acsp'); // an ICC profile
  const id = parsed.context.trailerInfo.ID;
  assert.ok(id instanceof PDFArray && id.size() === 2);
});

test('factur-x.xml: embedded with AFRelationship Data, in /AF and /Names, type text/xml, byte-identical to the CII', () => {
  const af = resolve<PDFArray>(catalog().get(PDFName.of('AF')))!;
  assert.equal(af.size(), 1);
  const spec = resolve<PDFDict>(af.get(0))!;
  assert.equal(spec.get(PDFName.of('AFRelationship')), PDFName.of('Data'));
  assert.equal(text(spec.get(PDFName.of('F'))), 'factur-x.xml');
  assert.equal(text(spec.get(PDFName.of('UF'))), 'factur-x.xml');
  const names = resolve<PDFDict>(
    resolve<PDFDict>(catalog().get(PDFName.of('Names')))!.get(PDFName.of('EmbeddedFiles')),
  )!;
  const list = resolve<PDFArray>(names.get(PDFName.of('Names')))!;
  assert.equal(text(list.get(0)), 'factur-x.xml');
  assert.equal(resolve<PDFDict>(list.get(1)), spec);
  const file = resolve<PDFStream>(resolve<PDFDict>(spec.get(PDFName.of('EF')))!.get(PDFName.of('F')))!;
  assert.equal(file.dict.get(PDFName.of('Subtype'))?.toString(), '/text#2Fxml');
  assert.deepEqual(Buffer.from(streamBytes(file)), Buffer.from(xml, 'utf8'));
});

test('the same document and creation date give the same bytes', async () => {
  const again = await buildFacturX(sample, xml, { creationDate: created });
  assert.deepEqual(again, pdf);
});

test('the text layer: French amounts and dates, the parties, the legal mentions', async () => {
  const [page] = await pageTexts(pdf);
  for (const expected of [
    'FACTURE',
    'F2026-000001',
    'Date d’émission : 24/11/2026',
    'Date d’échéance : 24/12/2026',
    '2\u00a0619,08\u00a0€',
    '2\u00a0150,00\u00a0€',
    'TVA 20\u00a0%',
    'TVA 5,5\u00a0%',
    'SIREN 732 829 320',
    'N° TVA intracommunautaire FR44732829320',
    'SAS au capital de 10\u00a0000\u00a0€ – RCS Paris 732 829 320',
    'Société Générale des Études',
    '40 €',
    "trois fois le taux d'intérêt légal",
    'IBAN FR76 3000 6000 0112 3456 7890 189',
    'BIC AGRIFRPP',
    'Page 1 / 1',
  ]) {
    assert.ok(page!.includes(expected.replace(/\u00a0/g, ' ')), `"${expected}" in the text layer`);
  }
});

test('a long invoice runs over several pages, the table header repeated, each page numbered', async () => {
  const model = engineDocument({
    kind: 'invoice',
    number: 'F2026-000077',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.greece,
    lines: Array.from({ length: 70 }, (_, index) => ({
      description: index % 7 === 0 ? `${'Ligne très longue '.repeat(12)}${index}` : `Article n° ${index}`,
      quantity: String(index + 1),
      unitPrice: '12.5',
      unit: 'C62',
      nature: 'goods' as const,
    })),
  });
  const bytes = await renderPdf(model, { creationDate: created });
  const pages = await pageTexts(bytes);
  assert.ok(pages.length >= 3, `${pages.length} pages`);
  pages.forEach((page, index) => {
    assert.ok(page.includes('Désignation'), `the table header on page ${index + 1}`);
    assert.ok(page.includes(`Page ${index + 1} / ${pages.length}`));
  });
  // Every line is printed once, and the totals come last.
  const all = pages.join('\n');
  for (let index = 1; index < 70; index++)
    if (index % 7 !== 0) assert.ok(all.includes(`Article n° ${index} `) || all.includes(`Article n° ${index}`));
  assert.ok(pages.at(-1)!.includes('Net à payer'));
  assert.ok(pages.at(-1)!.includes('Exonération de TVA, article 262 ter I du CGI'));
});

test('non-Latin names are rendered: Greek, Cyrillic, Czech and Nordic letters in the text layer', async () => {
  const model = engineDocument({
    kind: 'invoice',
    number: 'F2026-000078',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.russia,
    lines: [
      {
        description: 'Консультация — Ωμέγα — Zoë Ľubomírová-Øster',
        quantity: '1',
        unitPrice: '10',
        unit: 'C62',
        nature: 'services',
      },
    ],
  });
  assert.deepEqual(uncoveredCharacters(`${model.buyer.name} ${model.lines[0]!.description}`), []);
  const [page] = await pageTexts(await renderPdf(model, { creationDate: created }));
  for (const expected of ['ООО «Северный ветер»', 'Москва', 'Консультация', 'Ωμέγα', 'Zoë Ľubomírová-Øster'])
    assert.ok(page!.includes(expected), `"${expected}" in the text layer`);
});

test('a document drawn after others keeps its whole text layer (the glyph cache of the shared font)', async () => {
  // A subset takes `O` in as a component of `Ø` and `y` of Cyrillic `у`: a later `O` or `y` must still read as such.
  const first = sampleInvoice();
  first.buyer.name = 'Øster у Ľubomírová';
  await renderPdf(first, { creationDate: created });
  const second = sampleInvoice();
  second.buyer.name = 'OXYGÈNE Lyon';
  const [page] = await pageTexts(await renderPdf(second, { creationDate: created }));
  assert.ok(page!.includes('OXYGÈNE Lyon'), page);
});

test('glyph coverage: characters DejaVu Sans lacks are reported', () => {
  assert.deepEqual(uncoveredCharacters('Société 株式会社 Ωμέγα'), ['株', '式', '会', '社']);
});

test('a credit note prints AVOIR, the invoice it corrects, what the buyer is owed, and no payment instruction', async () => {
  const model = engineDocument({
    kind: 'credit_note',
    number: 'A2026-000004',
    issueDate: '2026-10-15',
    seller: sellers.franchise,
    buyer: buyers.domestic,
    lines: [{ description: 'Remise', quantity: '1', unitPrice: '100', unit: 'C62', nature: 'services' }],
  });
  for (const bytes of [
    await buildFacturX(model, writeCii(model), { creationDate: created }),
    await renderPdf(model, { creationDate: created }),
  ]) {
    const [page] = await pageTexts(bytes);
    for (const expected of [
      'AVOIR',
      'A2026-000004',
      'Facture d’origine : F2026-000001 du 15/01/2026',
      'Montant dû au client',
      'Avoir en faveur du client : à déduire de la facture F2026-000001 du 15/01/2026, ou remboursé si elle est déjà réglée.',
      'TVA non applicable, art. 293 B du CGI',
    ])
      assert.ok(page!.includes(expected), `"${expected}" in the text layer`);
    // The seller's IBAN, a due date and the late-payment clauses belong to an invoice the buyer pays.
    for (const absent of ['IBAN', 'échéance', 'Pénalités', '40 €', 'Escompte', 'Montant à créditer', 'Net à payer'])
      assert.ok(!page!.includes(absent), `no "${absent}" on a credit note`);
  }
});

test('a test document carries the specimen mark on every page; a live one never', async () => {
  const model = engineDocument({
    kind: 'invoice',
    number: 'TEST-F2026-000079',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: Array.from({ length: 60 }, (_, index) => ({
      description: `Article n° ${index}`,
      quantity: '1',
      unitPrice: '10',
      unit: 'C62',
      nature: 'goods' as const,
    })),
  });
  for (const bytes of [
    await renderPdf(model, { creationDate: created, specimen: true }),
    await buildFacturX(model, writeCii(model), { creationDate: created, specimen: true }),
  ]) {
    const pages = await pageTexts(bytes);
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    pages.forEach((page, index) => assert.ok(page.includes(specimenMark), `the mark on page ${index + 1}`));
  }
  const live = await pageTexts(await renderPdf(model, { creationDate: created }));
  assert.ok(live.every((page) => !page.includes('SPÉCIMEN')));
});

test('the seller\'s own discount clause is printed once, and no automatic "néant" beside it', async () => {
  const terms = 'Paiement à 30 jours. Escompte de 2 % pour paiement sous 8 jours.';
  const source = engineDocument({
    kind: 'invoice',
    number: 'F2026-000080',
    issueDate: '2026-10-15',
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: [{ description: 'Audit', quantity: '1', unitPrice: '100', unit: 'C62', nature: 'services' }],
  });
  const model = {
    ...source,
    paymentTerms: terms,
    notes: source.notes.map((note) =>
      note.subject === 'AAB' ? { ...note, text: 'Escompte de 2 % pour paiement sous 8 jours.' } : note,
    ),
  };
  const [page] = await pageTexts(await renderPdf(model, { creationDate: created }));
  assert.equal(page!.split('Escompte').length - 1, 1, page);
  assert.ok(!page!.includes('néant'));
  // Without a clause of its own, the automatic one is printed.
  const [plain] = await pageTexts(await renderPdf(source, { creationDate: created }));
  assert.ok(plain!.includes('Escompte pour paiement anticipé : néant.'));
});
