import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Font } from 'fontkit';
import countries from 'i18n-iso-countries';
import type { DocumentAllowanceCharge, DocumentModel, LineAllowanceCharge, PostalAddress } from './document-model.js';
import { categoryOfFrame, documentNameOf, sellerLegalLine } from './document-model.js';
import {
  frenchDate,
  frenchDecimal,
  frenchEuros,
  frenchPrice,
  frenchRate,
  groupedIban,
  groupedIdentifier,
} from './french-format.js';

/**
 * The readable invoice or credit note: a PDF/A-3b document (sRGB output intent, XMP `pdfaid`,
 * trailer /ID) in a layout a French accountant recognises: the seller block with its SIREN, VAT
 * number, legal form, capital and registration; the buyer; the lines across as many pages as they
 * need, their header repeated; the VAT breakdown; the totals; the due date and payment terms; the
 * late-payment penalties and the EUR 40 indemnity; the legal mentions; the bank details.
 *
 * Text is set in DejaVu Sans (the `dejavu-fonts-ttf` package), parsed once per process and embedded
 * as a subset in each document: Latin, Greek, Cyrillic, Armenian, Georgian and Hebrew names print.
 * The core fonts (Helvetica...) are never used, as PDF/A forbids fonts that are not embedded.
 */

const require = createRequire(import.meta.url);

// pdfkit and fontkit load with the first document drawn: a process that never draws one (an API
// node, an export) does not hold them (~15 MB). Their CommonJS builds, loaded synchronously.
let drawing: { PDFDocument: typeof import('pdfkit'); createFont: (typeof import('fontkit'))['create'] } | null = null;
const pdfLibraries = () =>
  (drawing ??= {
    PDFDocument: require('pdfkit') as typeof import('pdfkit'),
    createFont: (require('fontkit') as typeof import('fontkit')).create,
  });

export interface PdfFonts {
  regular: Font;
  bold: Font;
}

let loadedFonts: PdfFonts | null = null;

/**
 * A parsed face, shared by every document. fontkit caches a glyph with the characters it was first
 * asked for; a subset that pulls a glyph in as the component of another (`O` inside `Ø`) caches it
 * with none, and a later document would then map `O` to no character in its text layer. Asking for
 * every character of the face once, first, caches each glyph with its own character.
 */
function loadFace(file: string): Font {
  const font = pdfLibraries().createFont(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
  return font;
}

/** The DejaVu Sans faces, read and parsed once (parsing takes longer than drawing a page). */
export function pdfFonts(): PdfFonts {
  loadedFonts ??= { regular: loadFace('DejaVuSans.ttf'), bold: loadFace('DejaVuSans-Bold.ttf') };
  return loadedFonts;
}

/** The characters of `text` DejaVu Sans has no glyph for (they would print as empty boxes). */
export function uncoveredCharacters(text: string): string[] {
  const font = pdfFonts().regular;
  const missing = new Set<string>();
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint >= 0x20 && !font.hasGlyphForCodePoint(codePoint)) missing.add(char);
  }
  return [...missing];
}

export interface PdfOptions {
  /**
   * The document's creation time, written in its metadata and hashed into its /ID: the same
   * document and date give the same bytes. Default: now.
   */
  creationDate?: Date;
  /** A test document: every page carries the specimen mark (`specimenMark`). */
  specimen?: boolean;
}

/** The mark of a test document's every page: it looks like an invoice, it is none. */
export const specimenMark = 'SPÉCIMEN – document de test, sans valeur';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const documentTitle = (model: DocumentModel) => `${documentNameOf(model.typeCode)} ${model.number}`;

/**
 * A new PDF/A-3b document with the fonts registered and the XMP title and author written escaped
 * (pdfkit copies its `info` into the XMP unescaped: a seller named `Dupont & Fils` would break it,
 * so title and author live in the XMP only).
 */
export function newPdfDocument(model: DocumentModel, options: PdfOptions = {}): PDFKit.PDFDocument {
  const fonts = pdfFonts();
  const { PDFDocument } = pdfLibraries();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 40, bottom: 60, left: 40, right: 40 },
    pdfVersion: '1.7',
    subset: 'PDF/A-3b',
    lang: 'fr-FR',
    bufferPages: true,
    // pdfkit opens its default font at construction: a parsed DejaVu, never the unembedded Helvetica.
    font: fonts.regular as unknown as string,
    info: { Creator: 'facteur', Producer: 'facteur', CreationDate: options.creationDate ?? new Date() },
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.appendXML(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(documentTitle(model))}</rdf:li></rdf:Alt></dc:title>
  <dc:creator><rdf:Seq><rdf:li>${escapeXml(model.seller.legalName)}</rdf:li></rdf:Seq></dc:creator>
</rdf:Description>`);
  return doc;
}

/** The bytes of a finished pdfkit document. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** The readable PDF of a document (PDF/A-3b, no attachment). */
export function renderPdf(model: DocumentModel, options: PdfOptions = {}): Promise<Buffer> {
  const doc = newPdfDocument(model, options);
  drawDocument(doc, model, options);
  return pdfBytes(doc);
}

const ink = '#1a1a1a';
const muted = '#5f6368';
const rule = '#c8ccd0';
const band = '#eef1f4';
const left = 40;
const width = 515.28;
const right = left + width;

/** UN/ECE Recommendation 20 codes as a French invoice prints them; others print as their code. */
const unitLabels: Record<string, string> = {
  C62: 'u',
  H87: 'pièce',
  XPP: 'pièce',
  HUR: 'h',
  MIN: 'min',
  DAY: 'jour',
  WEE: 'sem.',
  MON: 'mois',
  ANN: 'an',
  KGM: 'kg',
  GRM: 'g',
  TNE: 't',
  MTR: 'm',
  KMT: 'km',
  MTK: 'm²',
  MTQ: 'm³',
  LTR: 'l',
  KWH: 'kWh',
  SET: 'lot',
  E48: 'service',
  LS: 'forfait',
};

const countryName = (code: string) => countries.getName(code, 'fr') ?? code;

function addressLines(address: PostalAddress, home = 'FR'): string[] {
  const lines = [address.line1, address.line2, [address.postalCode, address.city].filter(Boolean).join(' ')];
  if (address.country !== home) lines.push(countryName(address.country));
  return lines.filter((line): line is string => !!line && line.trim() !== '');
}

/**
 * A quantity or price cell: a received invoice's line may have none (a group or sub-total line
 * of an EXTENDED invoice, BT-129 and BT-146 absent), drawn blank; one that is not a number is
 * drawn as written.
 */
function decimalCell(value: string, format: (value: string) => string): string {
  if (value.trim() === '') return '';
  try {
    return format(value.trim());
  } catch {
    return value;
  }
}

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  value: (line: DocumentModel['lines'][number]) => string;
}

/**
 * The description of a line, then one row per allowance ("Remise") and charge ("Frais"): its
 * reason, its percentage of the gross amount, its amount. The line's amount is the net after them.
 */
export function lineDesignation(line: DocumentModel['lines'][number]): string {
  const adjustment = (label: string, sign: string) => (entry: LineAllowanceCharge) => {
    const reason = entry.reason ?? (entry.reasonCode !== null ? `code ${entry.reasonCode}` : null);
    const share = entry.percentage !== null ? ` (${frenchRate(entry.percentage)})` : '';
    return `${label}${reason ? ` – ${reason}` : ''}${share} : ${sign}${frenchEuros(entry.amount)}`;
  };
  return [
    line.description,
    ...(line.allowances ?? []).map(adjustment('Remise', '-')),
    ...(line.charges ?? []).map(adjustment('Frais', '+')),
  ].join('\n');
}

const columns: Column[] = [
  { title: 'Désignation', width: 225, align: 'left', value: (line) => lineDesignation(line) },
  {
    title: 'Qté',
    width: 55,
    align: 'right',
    value: (line) => decimalCell(line.quantity, (q) => frenchDecimal(q, 0, 4)),
  },
  { title: 'Unité', width: 45, align: 'left', value: (line) => unitLabels[line.unitCode] ?? line.unitCode },
  { title: 'PU HT', width: 75, align: 'right', value: (line) => decimalCell(line.unitPrice, frenchPrice) },
  {
    title: 'TVA',
    width: 40,
    align: 'right',
    value: (line) => (line.vatRate === null ? '—' : frenchRate(line.vatRate)),
  },
  { title: 'Montant HT', width: 75.28, align: 'right', value: (line) => frenchEuros(line.netAmount) },
];
const cellPadding = 4;

/** Draws the whole document on `doc`, from the first page to the footers (and marks) of every page. */
export function drawDocument(doc: PDFKit.PDFDocument, model: DocumentModel, options: PdfOptions = {}): void {
  let y = drawHeader(doc, model);
  y = drawParties(doc, model, y);
  y = drawLines(doc, model, y + 14);
  y = drawTotals(doc, model, y + 12);
  drawNotes(doc, model, y + 14);
  drawFooters(doc, model, options.specimen === true);
}

function bottomLimit(doc: PDFKit.PDFDocument): number {
  return doc.page.height - doc.page.margins.bottom;
}

function newPage(doc: PDFKit.PDFDocument, model: DocumentModel): number {
  doc.addPage();
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(muted)
    .text(`${documentTitle(model)} (suite)`, left, 40, { width, lineBreak: false });
  return 58;
}

function drawHeader(doc: PDFKit.PDFDocument, model: DocumentModel): number {
  const seller = model.seller;
  doc.fillColor(ink).font('bold').fontSize(13).text(seller.legalName, left, 40, { width: 290 });
  doc.font('regular').fontSize(8.5);
  if (seller.tradeName) doc.fillColor(muted).text(seller.tradeName, { width: 290 }).fillColor(ink);
  doc.moveDown(0.3);
  for (const line of addressLines(seller.address)) doc.text(line, { width: 290 });
  doc.moveDown(0.3);
  doc.text(
    `SIREN ${groupedIdentifier(seller.siren)}${seller.siret ? ` – SIRET ${groupedIdentifier(seller.siret)}` : ''}`,
    {
      width: 290,
    },
  );
  if (seller.vatNumber) doc.text(`N° TVA intracommunautaire ${seller.vatNumber}`, { width: 290 });
  const legal = sellerLegalLine(seller);
  if (legal) doc.text(legal, { width: 290 });
  const contact = seller.contact;
  if (contact) {
    const parts = [contact.name, contact.phone, contact.email].filter((part): part is string => !!part);
    if (parts.length > 0) doc.text(parts.join(' – '), { width: 290 });
  }
  const leftBottom = doc.y;

  const boxLeft = 345;
  const boxWidth = right - boxLeft;
  // "FACTURE D’ACOMPTE" fits the box on one line at 16 points.
  doc
    .font('bold')
    .fontSize(model.typeCode === '386' ? 16 : 20)
    .fillColor(ink);
  doc.text(documentNameOf(model.typeCode).toUpperCase(), boxLeft, 38, { width: boxWidth, align: 'right' });
  doc.font('bold').fontSize(10).text(`N° ${model.number}`, { width: boxWidth, align: 'right' });
  doc.font('regular').fontSize(8.5);
  const facts: [string, string][] = [['Date d’émission', frenchDate(model.issueDate)]];
  if (model.dueDate) facts.push(['Date d’échéance', frenchDate(model.dueDate)]);
  facts.push([
    categoryOfFrame(model.billingFrame) === 'goods' ? 'Date de livraison' : 'Date de la prestation',
    frenchDate(model.deliveryDate),
  ]);
  if (model.precedingInvoice)
    facts.push([
      'Facture d’origine',
      // BT-26 is optional: a received invoice may name the invoice it corrects without its date.
      model.precedingInvoice.issueDate
        ? `${model.precedingInvoice.number} du ${frenchDate(model.precedingInvoice.issueDate)}`
        : model.precedingInvoice.number,
    ]);
  for (const deposit of model.deductedDeposits ?? [])
    facts.push(['Acompte', `${deposit.number} du ${frenchDate(deposit.issueDate)} : ${frenchEuros(deposit.amount)}`]);
  doc.moveDown(0.4);
  for (const [label, value] of facts) doc.text(`${label} : ${value}`, { width: boxWidth, align: 'right' });
  return Math.max(leftBottom, doc.y) + 16;
}

function drawParties(doc: PDFKit.PDFDocument, model: DocumentModel, top: number): number {
  const buyer = model.buyer;
  const boxLeft = 305;
  const boxWidth = right - boxLeft;
  const inner = boxWidth - 20;
  const buyerLines: string[] = buyer.address ? addressLines(buyer.address) : [];
  const ids: string[] = [];
  if (buyer.siren) ids.push(`SIREN ${groupedIdentifier(buyer.siren)}`);
  if (buyer.siret) ids.push(`SIRET ${groupedIdentifier(buyer.siret)}`);
  if (buyer.vatNumber) ids.push(`N° TVA ${buyer.vatNumber}`);
  if (buyer.routingCode) ids.push(`Code service ${buyer.routingCode}`);

  // Measure, then draw the frame under the text.
  doc.font('bold').fontSize(10);
  let height = 10 + doc.font('regular').fontSize(7.5).heightOfString('CLIENT', { width: inner }) + 2;
  height += doc.font('bold').fontSize(10).heightOfString(buyer.name, { width: inner }) + 2;
  doc.font('regular').fontSize(8.5);
  for (const line of [...buyerLines, ...ids]) height += doc.heightOfString(line, { width: inner });
  height += 10;
  doc.roundedRect(boxLeft, top, boxWidth, height, 3).lineWidth(0.6).strokeColor(rule).stroke();
  doc
    .fillColor(muted)
    .font('regular')
    .fontSize(7.5)
    .text('CLIENT', boxLeft + 10, top + 8, { width: inner });
  doc.fillColor(ink).font('bold').fontSize(10).text(buyer.name, { width: inner });
  doc.moveDown(0.15).font('regular').fontSize(8.5);
  for (const line of buyerLines) doc.text(line, { width: inner });
  if (ids.length > 0) doc.fillColor(muted);
  for (const line of ids) doc.text(line, { width: inner });
  doc.fillColor(ink);
  const boxBottom = top + height;

  // Left of the buyer: the delivery address, the category of operation, the VAT option.
  const leftWidth = boxLeft - left - 20;
  doc.font('regular').fontSize(8.5).fillColor(ink);
  let y = top + 8;
  const category = categoryOfFrame(model.billingFrame);
  const operation =
    category === 'goods'
      ? 'Livraison de biens'
      : category === 'services'
        ? 'Prestation de services'
        : 'Opération mixte (biens et services)';
  const facts: [string, string][] = [['Nature de l’opération', operation]];
  if (model.vatOnDebits && !model.notes.some((note) => /débits/.test(note.text)))
    facts.push(['TVA', 'Option pour le paiement de la taxe d’après les débits']);
  if (buyer.deliveryAddress) facts.push(['Adresse de livraison', addressLines(buyer.deliveryAddress).join(', ')]);
  for (const [label, value] of facts) {
    doc.fillColor(muted).fontSize(7.5).text(label.toUpperCase(), left, y, { width: leftWidth });
    doc.fillColor(ink).fontSize(8.5).text(value, left, doc.y, { width: leftWidth });
    y = doc.y + 5;
  }
  return Math.max(boxBottom, y);
}

function drawTableHeader(doc: PDFKit.PDFDocument, y: number): number {
  doc.rect(left, y, width, 16).fillColor(band).fill();
  doc.fillColor(ink).font('bold').fontSize(8);
  let x = left;
  for (const column of columns) {
    doc.text(column.title, x + cellPadding, y + 4.5, {
      width: column.width - 2 * cellPadding,
      align: column.align,
      lineBreak: false,
    });
    x += column.width;
  }
  return y + 16;
}

function drawLines(doc: PDFKit.PDFDocument, model: DocumentModel, top: number): number {
  let y = drawTableHeader(doc, top);
  doc.font('regular').fontSize(8.5);
  for (const line of model.lines) {
    const values = columns.map((column) => column.value(line));
    const heights = columns.map((column, index) =>
      doc.heightOfString(values[index]!, { width: column.width - 2 * cellPadding, align: column.align }),
    );
    const rowHeight = Math.max(...heights) + 7;
    if (y + rowHeight > bottomLimit(doc)) {
      y = drawTableHeader(doc, newPage(doc, model));
      doc.font('regular').fontSize(8.5);
    }
    let x = left;
    doc.fillColor(ink);
    columns.forEach((column, index) => {
      doc.text(values[index]!, x + cellPadding, y + 3.5, {
        width: column.width - 2 * cellPadding,
        align: column.align,
      });
      x += column.width;
    });
    y += rowHeight;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.4).strokeColor(rule).stroke();
  }
  return y;
}

const categoryLabels: Record<string, string> = {
  S: 'TVA',
  Z: 'Taux zéro',
  E: 'Exonération',
  AE: 'Autoliquidation',
  K: 'Livraison intracommunautaire',
  G: 'Exportation',
  O: 'Hors champ de la TVA',
};

/**
 * Above "Total HT" when the document has allowances or charges of its own (BG-20 / BG-21): the
 * lines' total, then each "Remise" and "Frais" per VAT rate, as the XML states them.
 */
export function documentAdjustmentRows(model: DocumentModel): [string, string, boolean][] {
  const allowances = model.allowances ?? [];
  const charges = model.charges ?? [];
  if (allowances.length === 0 && charges.length === 0) return [];
  // The label column holds about 26 characters: the reason is cut, the rate kept.
  const label = (kind: string, entry: DocumentAllowanceCharge) => {
    const reason = entry.reason ?? (entry.reasonCode !== null ? `code ${entry.reasonCode}` : null);
    const head = `${kind}${entry.vatRate !== null ? ` ${frenchRate(entry.vatRate)}` : ''}`;
    const text = reason ? `${head} – ${reason}` : head;
    return text.length > 26 ? `${text.slice(0, 24).trimEnd()}...` : text;
  };
  return [
    ['Total lignes HT', frenchEuros(model.totals.lineTotal ?? model.totals.net), false],
    ...allowances.map((entry): [string, string, boolean] => [
      label('Remise', entry),
      `-${frenchEuros(entry.amount)}`,
      false,
    ]),
    ...charges.map((entry): [string, string, boolean] => [label('Frais', entry), frenchEuros(entry.amount), false]),
  ];
}

function drawTotals(doc: PDFKit.PDFDocument, model: DocumentModel, top: number): number {
  const vatRows = model.vatBreakdown.map((group) => ({
    label:
      group.vatCode === 'S' && group.vatRate !== null
        ? `TVA ${frenchRate(group.vatRate)}`
        : (categoryLabels[group.vatCode] ?? group.vatCode),
    reason: group.exemptionReason ?? group.vatexCode,
    base: frenchEuros(group.taxableAmount),
    tax: frenchEuros(group.taxAmount),
  }));
  const totalRows: [string, string, boolean][] = [
    ...documentAdjustmentRows(model),
    ['Total HT', frenchEuros(model.totals.net), false],
    ['Total TVA', frenchEuros(model.totals.vat), false],
    [model.typeCode === '381' ? 'Total de l’avoir TTC' : 'Total TTC', frenchEuros(model.totals.gross), false],
  ];
  // A final invoice deducts its deposits (named in the header); a received file may declare a paid amount of its own.
  if (model.totals.paid !== 0)
    totalRows.push([
      (model.deductedDeposits ?? []).length > 0 ? 'Acomptes déduits' : 'Déjà réglé',
      `-${frenchEuros(model.totals.paid)}`,
      false,
    ]);
  totalRows.push([
    model.typeCode === '381' ? 'Montant dû au client' : 'Net à payer',
    frenchEuros(model.totals.due),
    true,
  ]);

  // Keep the breakdown and the totals together on one page.
  doc.font('regular').fontSize(8);
  const vatWidth = 290;
  const vatColumns = [vatWidth - 160, 80, 80];
  const labelHeight = (label: string) =>
    doc.fontSize(8.5).heightOfString(label, { width: vatColumns[0]! - 2 * cellPadding }) + 5;
  const vatHeight =
    16 +
    vatRows.reduce(
      (sum, row) =>
        sum +
        labelHeight(row.label) +
        (row.reason ? doc.fontSize(7.5).heightOfString(row.reason, { width: vatWidth - 2 * cellPadding }) + 2 : 0),
      0,
    );
  const totalsHeight = totalRows.length * 16 + 6;
  let y = top;
  if (y + Math.max(vatHeight, totalsHeight) > bottomLimit(doc)) y = newPage(doc, model);

  // The VAT breakdown.
  doc.rect(left, y, vatWidth, 16).fillColor(band).fill();
  doc.fillColor(ink).font('bold').fontSize(8);
  ['Détail de la TVA', 'Base HT', 'Montant TVA'].forEach((title, index) => {
    const x = left + vatColumns.slice(0, index).reduce((sum, value) => sum + value, 0);
    doc.text(title, x + cellPadding, y + 4.5, {
      width: vatColumns[index]! - 2 * cellPadding,
      align: index === 0 ? 'left' : 'right',
      lineBreak: false,
    });
  });
  let vatY = y + 16;
  doc.font('regular');
  for (const row of vatRows) {
    doc.fontSize(8.5).fillColor(ink);
    const rowHeight = labelHeight(row.label);
    [row.label, row.base, row.tax].forEach((text, index) => {
      const x = left + vatColumns.slice(0, index).reduce((sum, value) => sum + value, 0);
      doc.fontSize(8.5).text(text, x + cellPadding, vatY + 3, {
        width: vatColumns[index]! - 2 * cellPadding,
        align: index === 0 ? 'left' : 'right',
      });
    });
    vatY += rowHeight;
    if (row.reason) {
      doc
        .fontSize(7.5)
        .fillColor(muted)
        .text(row.reason, left + cellPadding, vatY, { width: vatWidth - 2 * cellPadding });
      vatY = doc.y + 2;
    }
    doc
      .moveTo(left, vatY)
      .lineTo(left + vatWidth, vatY)
      .lineWidth(0.4)
      .strokeColor(rule)
      .stroke();
  }

  // The totals.
  const totalsLeft = right - 200;
  let totalY = y;
  for (const [label, value, strong] of totalRows) {
    if (strong) doc.rect(totalsLeft, totalY, 200, 18).fillColor(band).fill();
    doc
      .fillColor(ink)
      .font(strong ? 'bold' : 'regular')
      .fontSize(strong ? 10 : 8.5);
    doc.text(label, totalsLeft + 8, totalY + (strong ? 4 : 3.5), { width: 112, lineBreak: false });
    doc.text(value, totalsLeft + 112, totalY + (strong ? 4 : 3.5), { width: 80, align: 'right', lineBreak: false });
    totalY += strong ? 18 : 16;
  }
  return Math.max(vatY, totalY);
}

/**
 * How the document is settled. An invoice: its due date, its terms, the seller's account, then the
 * late-payment conditions (the AAB note once: when it is the seller's own clause, its terms
 * already print it). A credit note: only what the buyer is owed and how (BT-20); no due date, no
 * account to pay into, no late-payment clause.
 */
function settlementBlocks(model: DocumentModel): { title: string; lines: string[] }[] {
  if (model.typeCode === '381')
    return model.paymentTerms ? [{ title: 'Règlement de l’avoir', lines: [model.paymentTerms] }] : [];
  const blocks: { title: string; lines: string[] }[] = [];
  const payment: string[] = [];
  if (model.dueDate) payment.push(`Échéance : ${frenchDate(model.dueDate)}`);
  if (model.paymentTerms) payment.push(model.paymentTerms);
  if (model.seller.iban) {
    payment.push(
      `Règlement par virement${model.paymentMeansCode === '58' ? ' SEPA' : ''} – IBAN ${groupedIban(model.seller.iban)}${
        model.seller.bic ? ` – BIC ${model.seller.bic}` : ''
      } – référence ${model.number}`,
    );
  }
  if (payment.length > 0) blocks.push({ title: 'Paiement', lines: payment });
  // The texts name what they are about ("Pénalités de retard : ..."), in the order PMD, PMT, AAB.
  const conditions = (['PMD', 'PMT', 'AAB'] as const).flatMap((subject) =>
    model.notes
      .filter((note) => note.subject === subject && !model.paymentTerms?.includes(note.text))
      .map((note) => note.text),
  );
  if (conditions.length > 0) blocks.push({ title: 'Conditions de règlement', lines: conditions });
  return blocks;
}

function drawNotes(doc: PDFKit.PDFDocument, model: DocumentModel, top: number): void {
  const blocks = settlementBlocks(model);
  const mentions = model.notes
    .filter((note) => note.subject === 'REG' || note.subject === 'TXD')
    .map((note) => note.text);
  if (mentions.length > 0) blocks.push({ title: 'Mentions légales', lines: mentions });
  const others = model.notes
    .filter((note) => note.subject === null || note.subject === 'AAI' || note.subject === 'ABL')
    .map((note) => note.text);
  if (others.length > 0) blocks.push({ title: 'Notes', lines: others });

  let y = top;
  for (const block of blocks) {
    doc.font('bold').fontSize(8.5);
    const titleHeight = doc.heightOfString(block.title, { width });
    doc.font('regular').fontSize(8);
    const firstHeight = doc.heightOfString(block.lines[0]!, { width });
    if (y + titleHeight + firstHeight > bottomLimit(doc)) y = newPage(doc, model);
    doc.fillColor(ink).font('bold').fontSize(8.5).text(block.title, left, y, { width });
    doc.font('regular').fontSize(8).fillColor(ink);
    for (const line of block.lines) {
      if (doc.y + doc.heightOfString(line, { width }) > bottomLimit(doc)) doc.y = newPage(doc, model);
      doc.text(line, left, doc.y, { width });
    }
    y = doc.y + 8;
  }
}

/** The specimen mark of a test document: a line above the header and a pale diagonal across the page. */
function drawSpecimenMark(doc: PDFKit.PDFDocument): void {
  doc.save();
  doc.font('bold').fontSize(9).fillColor('#c62828');
  doc.text(specimenMark, left, 18, { width, align: 'center', lineBreak: false });
  const centerX = doc.page.width / 2;
  const centerY = doc.page.height / 2;
  doc.rotate(-50, { origin: [centerX, centerY] });
  doc.fontSize(30).fillOpacity(0.14);
  doc.text(specimenMark, centerX - 380, centerY - 18, { width: 760, align: 'center', lineBreak: false });
  doc.restore();
}

function drawFooters(doc: PDFKit.PDFDocument, model: DocumentModel, specimen: boolean): void {
  const range = doc.bufferedPageRange();
  const seller = model.seller;
  const identity = [
    seller.legalName,
    sellerLegalLine(seller),
    seller.registration ? null : `SIREN ${groupedIdentifier(seller.siren)}`,
    seller.vatNumber ? `TVA ${seller.vatNumber}` : null,
  ]
    .filter((part): part is string => !!part)
    .join(' – ');
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index);
    // Writing inside the bottom margin would make pdfkit open a new page: lift it for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 42;
    doc
      .moveTo(left, y - 6)
      .lineTo(right, y - 6)
      .lineWidth(0.4)
      .strokeColor(rule)
      .stroke();
    doc.font('regular').fontSize(7).fillColor(muted);
    doc.text(identity, left, y, { width: width - 70 });
    doc.text(`Page ${index + 1} / ${range.count}`, right - 70, y, { width: 70, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
    if (specimen) drawSpecimenMark(doc);
  }
}
