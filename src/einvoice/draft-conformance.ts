import { readFileSync } from 'node:fs';
import Big from 'big.js';
import { buyerEndpoint, namesVatIdentifiers, sellerEndpoint, shipToAddress } from './cii-writer.js';
import { billingFrames, precedingInvoicesOf, type DocumentModel, type PostalAddress } from './document-model.js';
import { stylesheets } from './standards.js';

/**
 * The service's own conformance checks: the rules of the official validators that the data of a
 * document can break, checked on the model in microseconds, so that finalization refuses a draft
 * before its number is taken. Each issue names its rule as the official validators report it
 * (`BR-CO-16`, `BR-FR-05_BT-22_PMT`; a code-list check of the Factur-X schematron by its assert id,
 * `FX-SCH-A-000275` for a unit code), so a finalization refusal and a failed generation speak the
 * same vocabulary. BR-CO-25 (an amount due needs a due date or payment terms) is EN 16931's, which
 * the Factur-X schematron leaves out: it is checked here all the same. What the CII writer always gets right (element order, formats of dates and
 * amounts, code of the profile) is not checked again here.
 *
 * Before numbering, pass the number the series will give (its prefix with the longest counter):
 * BR-FR-01/02 look at it.
 *
 * The corpus test (test/einvoice/corpus.test.ts) is the proof of agreement: no generated document
 * passes these checks and fails the official validators.
 */

export interface ConformanceIssue {
  rule: string;
  /** The model's field: `seller.siren`, `lines[2].unitCode`. */
  field: string;
  message: string;
}

/** The code lists of the Factur-X schematron (its codedb), read once. */
interface CodeLists {
  countries: Set<string>;
  units: Set<string>;
  vatex: Set<string>;
  subjects: Set<string>;
}

let codeLists: CodeLists | null = null;
function lists(): CodeLists {
  if (codeLists) return codeLists;
  const codedb = readFileSync(stylesheets['FACTUR-X_EN16931'].documents[0]!, 'utf8');
  const list = (id: number) => {
    const match = new RegExp(`<cl id="${id}">([\\s\\S]*?)</cl>`).exec(codedb);
    if (!match) throw new Error(`code list ${id} missing from the Factur-X codedb`);
    return new Set([...match[1]!.matchAll(/value="([^"]*)"/g)].map((entry) => entry[1]!));
  };
  // The list ids the schematron reads: 7 countries, 8 units (Rec 20/21), 26 VATEX, 4 note subjects.
  codeLists = { countries: list(7), units: list(8), vatex: list(26), subjects: list(4) };
  return codeLists;
}

const frenchCategories = ['S', 'E', 'AE', 'K', 'G', 'O', 'Z'];
const brFr16Rates = new Set([
  '0',
  '0.0',
  '0.00',
  '10',
  '10.0',
  '10.00',
  '13',
  '13.0',
  '13.00',
  '20',
  '20.0',
  '20.00',
  '8.5',
  '8.50',
  '19.6',
  '19.60',
  '2.1',
  '2.10',
  '5.5',
  '5.50',
  '7',
  '7.0',
  '7.00',
  '20.6',
  '20.60',
  '1.05',
  '0.9',
  '0.90',
  '1.75',
  '9.2',
  '9.20',
  '9.6',
  '9.60',
]);
const processingCodes = ['B2B', 'B2BINT', 'B2C', 'B2CINT', 'OUTOFSCOPE', 'ARCHIVEONLY'];
/** VAT number prefixes BR-CO-09 accepts: ISO 3166-1 alpha-2, plus EL (Greece) and XI (Northern Ireland). */
const vatPrefix = (countries: Set<string>, vat: string) =>
  countries.has(vat.slice(0, 2)) || ['EL', 'XI', '1A'].includes(vat.slice(0, 2));

const blank = (value: string | null | undefined): boolean => value == null || value.trim() === '';
const idFormat = /^[A-Za-z0-9+\-_/]+$/;
const schemeFormat = /^[A-Za-z0-9+\-_.]+$/;

/** BR-FR-03: a real date between 2000 and 2099. */
function frenchDate(value: string): boolean {
  const match = /^(20\d{2})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

/** round2(base x rate / 100) in cents, half away from zero (the schematron's `round`). */
const groupVat = (base: number, rate: string) =>
  Number(new Big(base).times(rate).div(100).round(0, Big.roundHalfUp).toFixed(0));

/** The BAR processing codes (BR-FR-20) of documents that do not go through the platforms. */
const outsideEinvoicing = new Set(['B2BINT', 'B2C', 'OUTOFSCOPE', 'ARCHIVEONLY']);

/**
 * In scope of e-invoicing (domestic B2B, through the platforms): the BR-FR rules bind it. A code
 * outside BR-FR-20's list keeps them, so that BR-FR-20 names it rather than nothing checking it.
 */
export const inEinvoicingScope = (model: Pick<DocumentModel, 'processing'>): boolean =>
  !outsideEinvoicing.has(model.processing);

export function checkDraftConformance(model: DocumentModel): ConformanceIssue[] {
  const issues: ConformanceIssue[] = [];
  const add = (rule: string, field: string, message: string) => issues.push({ rule, field, message });
  const codes = lists();
  const { seller, buyer } = model;

  // Document: number, dates, type, frame, processing.
  if (blank(model.number)) add('BR-02', 'number', 'The document has no number (BT-1).');
  else {
    if (model.number.length > 35) add('BR-FR-01_BT-1', 'number', 'The number (BT-1) has more than 35 characters.');
    if (!idFormat.test(model.number))
      add('BR-FR-02_BT-1', 'number', 'The number (BT-1) may only contain letters, digits and + - _ /.');
  }
  for (const [field, value, rule] of [
    ['issueDate', model.issueDate, 'BR-FR-03_BT-2'],
    ['dueDate', model.dueDate, 'BR-FR-03_BT-9'],
    ['deliveryDate', model.deliveryDate, 'BR-FR-03_BT-72'],
    ['precedingInvoice.issueDate', model.precedingInvoice?.issueDate ?? null, 'BR-FR-03_BT-26'],
  ] as const) {
    if (value !== null && !frenchDate(value))
      add(rule, field, `${field} "${value}" is not a date between 2000 and 2099.`);
  }
  if (!['380', '386', '381'].includes(model.typeCode))
    add('BR-FR-04_BT-3', 'typeCode', 'The type code (BT-3) is not 380, 386 or 381.');
  if (['B4', 'S4', 'M4'].includes(model.billingFrame) && model.typeCode === '386')
    add(
      'BR-FR-CO-08_BT-23',
      'billingFrame',
      'A deposit invoice (386) cannot be a final invoice after deposits (B4, S4, M4).',
    );
  if (!(billingFrames as readonly string[]).includes(model.billingFrame))
    add('BR-FR-08_BT-23', 'billingFrame', `"${model.billingFrame}" is not a French billing frame (BT-23).`);
  if (!processingCodes.includes(model.processing))
    add('BR-FR-20_BT-21', 'processing', `"${model.processing}" is not a processing code of the BAR note.`);
  if (model.currency !== 'EUR') add('BR-FR-CO-12_BT-5', 'currency', 'A French invoice here is in euros.');
  if (model.dueDate !== null && frenchDate(model.dueDate) && frenchDate(model.issueDate)) {
    const paidFrame = ['B2', 'S2', 'M2'].includes(model.billingFrame);
    if (!paidFrame && model.dueDate < model.issueDate)
      add('BR-FR-CO-07_BT-9', 'dueDate', 'The due date (BT-9) is before the issue date (BT-2).');
  }
  if (['B2', 'S2', 'M2'].includes(model.billingFrame)) {
    if (model.totals.paid !== model.totals.gross)
      add('BR-FR-CO-09_BT-23-1', 'totals.paid', 'An already-paid frame needs the paid amount equal to the total.');
    if (model.totals.due !== 0) add('BR-FR-CO-09_BT-23-2', 'totals.due', 'An already-paid frame has nothing due.');
    if (model.dueDate === null) add('BR-FR-CO-09_BT-23-3', 'dueDate', 'An already-paid frame states the payment date.');
  }
  if (model.typeCode === '381' && model.precedingInvoice === null)
    add('BR-FR-CO-05_BT-3', 'precedingInvoice', 'A credit note names the invoice it corrects (BT-25, BT-26).');
  for (const preceding of precedingInvoicesOf(model)) {
    const reference = preceding.number;
    if (blank(reference)) add('BR-55', 'precedingInvoice.number', 'The preceding invoice reference (BT-25) is empty.');
    else {
      if (reference.length > 35)
        add('BR-FR-01_BT-25', 'precedingInvoice.number', 'The preceding invoice number has more than 35 characters.');
      if (!idFormat.test(reference))
        add(
          'BR-FR-02_BT-25',
          'precedingInvoice.number',
          'The preceding invoice number has characters BR-FR-02 refuses.',
        );
    }
  }

  // Notes: PMT, PMD and AAB exactly once (BR-FR-05/06), known subjects, no empty text.
  for (const subject of ['PMT', 'PMD', 'AAB'] as const) {
    const count = model.notes.filter((note) => note.subject === subject).length;
    if (count === 0) add(`BR-FR-05_BT-22_${subject}`, 'notes', `The ${subject} note is missing.`);
    if (count > 1) add(`BR-FR-06_BT-21_${subject}`, 'notes', `The ${subject} note appears ${count} times.`);
  }
  if (model.notes.filter((note) => note.subject === 'TXD').length > 1)
    add('BR-FR-06_BT-21_TXD', 'notes', 'The TXD note appears more than once.');
  if (model.notes.some((note) => note.subject === 'BAR'))
    add('BR-FR-31_BT-21', 'notes', 'The BAR note is written from `processing`; notes must not repeat it.');
  // Optional fields that are blank are left out by the writer; a note's text is always written.
  model.notes.forEach((note, index) => {
    if (blank(note.text)) add('PEPPOL-EN16931-R008', `notes[${index}].text`, 'A note has no text.');
    if (note.subject !== null && !codes.subjects.has(note.subject))
      add('FX-SCH-A-000162', `notes[${index}].subject`, `"${note.subject}" is not a UNTDID 4451 subject code.`);
  });

  // Seller (BG-4).
  if (blank(seller.legalName)) add('BR-06', 'seller.legalName', 'The seller has no name (BT-27).');
  if (!/^\d{9}$/.test(seller.siren)) {
    add('BR-FR-10_BT-30', 'seller.siren', 'The seller SIREN (BT-30) must be 9 digits.');
    add('BR-FR-32-LEGALID', 'seller.siren', 'A SIREN (scheme 0002) is 9 digits.');
  }
  if (seller.siret !== null && !(/^\d{14}$/.test(seller.siret) && seller.siret.startsWith(seller.siren)))
    add('BR-FR-09_BT-29', 'seller.siret', 'The seller SIRET must be 14 digits starting with its SIREN.');
  checkAddress(seller.address, 'seller.address', 'BR-09', add, codes.countries);
  const sellerAddress = sellerEndpoint(seller);
  if (!sellerAddress)
    add(
      'BR-FR-13_BT-34',
      'seller.electronicAddress',
      'The seller needs an electronic address (BT-34) or a contact e-mail.',
    );
  else checkEndpoint(sellerAddress, 'seller.electronicAddress', 'BT-34', add);
  if (seller.vatNumber !== null && !vatPrefix(codes.countries, seller.vatNumber))
    add('BR-CO-09', 'seller.vatNumber', 'The seller VAT number must start with a country code.');

  // Buyer (BG-7).
  if (blank(buyer.name)) add('BR-07', 'buyer.name', 'The buyer has no name (BT-44).');
  if (buyer.address === null) add('BR-10', 'buyer.address', 'The buyer has no postal address (BG-8).');
  else checkAddress(buyer.address, 'buyer.address', 'BR-11', add, codes.countries);
  if (buyer.deliveryAddress)
    checkAddress(buyer.deliveryAddress, 'buyer.deliveryAddress', 'BR-57', add, codes.countries);
  if (buyer.siren !== null && !/^\d{9}$/.test(buyer.siren))
    add('BR-FR-32-LEGALID', 'buyer.siren', 'A SIREN (scheme 0002) is 9 digits.');
  if (model.processing === 'B2B' && !(buyer.siren !== null && /^\d{9}$/.test(buyer.siren)))
    add('BR-FR-11_BT-47', 'buyer.siren', 'A B2B document names the buyer SIREN (BT-47), 9 digits.');
  if (
    buyer.siret !== null &&
    !(/^\d{14}$/.test(buyer.siret) && buyer.siren !== null && buyer.siret.startsWith(buyer.siren))
  )
    add('BR-FR-09_BT-46', 'buyer.siret', 'The buyer SIRET must be 14 digits starting with its SIREN.');
  const buyerAddress = buyerEndpoint(buyer);
  if (!buyerAddress)
    add('BR-FR-12_BT-49', 'buyer.electronicAddress', 'The buyer needs an electronic address (BT-49) or an e-mail.');
  else {
    checkEndpoint(buyerAddress, 'buyer.electronicAddress', 'BT-49', add);
    if (
      model.processing === 'B2B' &&
      !(buyerAddress.scheme === '0225' && buyer.siren !== null && buyerAddress.value.startsWith(buyer.siren))
    )
      add(
        'BR-FR-21_BT-49',
        'buyer.electronicAddress',
        'A B2B buyer electronic address (BT-49, scheme 0225) starts with its SIREN.',
      );
  }
  if (buyer.vatNumber !== null && !vatPrefix(codes.countries, buyer.vatNumber))
    add('BR-CO-09', 'buyer.vatNumber', 'The buyer VAT number must start with a country code.');

  // Lines (BG-25).
  if (model.lines.length === 0) add('BR-16', 'lines', 'A document has at least one line.');
  model.lines.forEach((line, index) => {
    const at = (name: string) => `lines[${index}].${name}`;
    if (blank(line.id)) add('BR-21', at('id'), 'The line has no identifier (BT-126).');
    if (blank(line.description)) add('BR-25', at('description'), 'The line has no item name (BT-153).');
    if (!/^-?\d{1,15}(\.\d{1,4})?$/.test(line.quantity))
      add('BR-FR-DEC-02_BT-129', at('quantity'), 'The quantity is a decimal of at most 4 decimals.');
    if (!/^\d{1,13}(\.\d{1,6})?$/.test(line.unitPrice))
      add('BR-FR-DEC-03_BT-146', at('unitPrice'), 'The unit price is a positive decimal of at most 6 decimals.');
    if (!codes.units.has(line.unitCode))
      add('FX-SCH-A-000275', at('unitCode'), `"${line.unitCode}" is not a UN/ECE Recommendation 20 or 21 unit code.`);
    if (!frenchCategories.includes(line.vatCode))
      add('BR-FR-15_BT-95_BT-151', at('vatCode'), `"${line.vatCode}" is not a VAT category of a French invoice.`);
    checkRate(line.vatCode, line.vatRate, at('vatRate'), 'BT-152', add);
  });

  // VAT breakdown (BG-23) and totals (BG-22), as the decision computed them.
  if (model.vatBreakdown.length === 0) add('BR-CO-18', 'vatBreakdown', 'A document has at least one VAT group.');
  const categories = new Set([
    ...model.lines.map((line) => line.vatCode),
    ...model.vatBreakdown.map((entry) => entry.vatCode),
  ]);
  if (categories.has('O') && categories.size > 1)
    add('BR-O-11', 'vatBreakdown', 'A document not subject to VAT (O) carries no other VAT category.');
  const sameRate = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Big(a).eq(b));
  model.vatBreakdown.forEach((entry, index) => {
    const at = (name: string) => `vatBreakdown[${index}].${name}`;
    if (!frenchCategories.includes(entry.vatCode))
      add('BR-FR-15_BT-95_BT-118', at('vatCode'), `"${entry.vatCode}" is not a VAT category of a French invoice.`);
    checkRate(entry.vatCode, entry.vatRate, at('vatRate'), 'BT-119', add);
    const linesOfGroup = model.lines.filter(
      (line) => line.vatCode === entry.vatCode && sameRate(line.vatRate, entry.vatRate),
    );
    // BR-S-08 and the like: the group's lines, less its document allowances, plus its charges.
    const ofGroup = (entries: readonly { vatCode: string; vatRate: string | null; amount: number }[] = []) =>
      entries
        .filter((part) => part.vatCode === entry.vatCode && sameRate(part.vatRate, entry.vatRate))
        .reduce((sum, part) => sum + part.amount, 0);
    const base =
      linesOfGroup.reduce((sum, line) => sum + line.netAmount, 0) - ofGroup(model.allowances) + ofGroup(model.charges);
    if (base !== entry.taxableAmount)
      add(
        `BR-${entry.vatCode === 'K' ? 'IC' : entry.vatCode}-08`,
        at('taxableAmount'),
        'The group base (BT-116) is not the sum of its lines.',
      );
    if (entry.vatCode === 'S') {
      if (entry.vatRate !== null && groupVat(entry.taxableAmount, entry.vatRate) !== entry.taxAmount)
        // Exact, where the Factur-X schematron tolerates 1.00 either way: the decision computes it exactly.
        add('BR-CO-17', at('taxAmount'), 'The group VAT (BT-117) is not base x rate, rounded to the cent.');
      if (entry.vatexCode !== null || entry.exemptionReason !== null)
        add('BR-S-10', at('vatexCode'), 'A standard-rated group has no exemption reason.');
    } else {
      if (entry.taxAmount !== 0)
        add(
          `BR-${entry.vatCode === 'K' ? 'IC' : entry.vatCode}-09`,
          at('taxAmount'),
          `A group of category ${entry.vatCode} has no VAT.`,
        );
      if (entry.vatCode === 'Z') {
        if (entry.vatexCode !== null || entry.exemptionReason !== null)
          add('BR-Z-10', at('vatexCode'), 'A zero-rated group has no exemption reason.');
      } else if (blank(entry.vatexCode) && blank(entry.exemptionReason)) {
        add(
          `BR-${entry.vatCode === 'K' ? 'IC' : entry.vatCode}-10`,
          at('vatexCode'),
          `A group of category ${entry.vatCode} states its exemption reason.`,
        );
      }
    }
    if (entry.vatexCode !== null && !codes.vatex.has(entry.vatexCode))
      add('FX-SCH-A-000181', at('vatexCode'), `"${entry.vatexCode}" is not a VATEX code.`);
  });
  // Every line's category and rate has its group (BR-S-01 and the like, BR-CO-04).
  model.lines.forEach((line, index) => {
    if (!model.vatBreakdown.some((entry) => entry.vatCode === line.vatCode && sameRate(entry.vatRate, line.vatRate)))
      add(
        `BR-${line.vatCode === 'K' ? 'IC' : line.vatCode}-01`,
        `lines[${index}].vatCode`,
        'The line has no VAT group of its category and rate.',
      );
  });

  const net = model.lines.reduce((sum, line) => sum + line.netAmount, 0);
  // Without document allowances or charges BT-106 is BT-109, as the writer writes it.
  const adjusted = (model.allowances ?? []).length > 0 || (model.charges ?? []).length > 0;
  const lineTotal = adjusted ? (model.totals.lineTotal ?? model.totals.net) : model.totals.net;
  if (net !== lineTotal) add('BR-CO-10', 'totals.net', 'The net total (BT-106) is not the sum of the lines.');
  const sumOf = (entries: readonly { amount: number }[] = []) => entries.reduce((sum, part) => sum + part.amount, 0);
  if (sumOf(model.allowances) !== (model.totals.allowanceTotal ?? 0))
    add('BR-CO-11', 'totals.allowanceTotal', 'The allowances total (BT-107) is not the sum of the allowances.');
  if (sumOf(model.charges) !== (model.totals.chargeTotal ?? 0))
    add('BR-CO-12', 'totals.chargeTotal', 'The charges total (BT-108) is not the sum of the charges.');
  if (adjusted && lineTotal - (model.totals.allowanceTotal ?? 0) + (model.totals.chargeTotal ?? 0) !== model.totals.net)
    add('BR-CO-13', 'totals.net', 'The VAT base total (BT-109) is not the lines less the allowances plus the charges.');
  const vat = model.vatBreakdown.reduce((sum, entry) => sum + entry.taxAmount, 0);
  if (vat !== model.totals.vat) add('BR-CO-14', 'totals.vat', 'The VAT total (BT-110) is not the sum of the groups.');
  if (model.totals.net + model.totals.vat !== model.totals.gross)
    add('BR-CO-15', 'totals.gross', 'The total with VAT (BT-112) is not net + VAT.');
  if (model.totals.gross - model.totals.paid !== model.totals.due)
    add('BR-CO-16', 'totals.due', 'The amount due (BT-115) is not the total less the amount paid.');
  if (model.totals.due > 0 && model.dueDate === null && blank(model.paymentTerms))
    add('BR-CO-25', 'dueDate', 'An amount due needs a due date (BT-9) or payment terms (BT-20).');
  for (const [field, amount] of Object.entries(model.totals)) {
    if (!Number.isSafeInteger(amount) || Math.abs(amount) >= 1e17)
      add('BR-FR-DEC-01_BT-112', `totals.${field}`, 'An amount is cents, at most 17 digits.');
  }

  // Identifiers the VAT categories require (BR-x-02), and none beside category O (BR-O-02 is the writer's).
  const writesVat = namesVatIdentifiers(model);
  if (writesVat) {
    if ((categories.has('G') || categories.has('K')) && seller.vatNumber === null)
      add(
        categories.has('K') ? 'BR-IC-02' : 'BR-G-02',
        'seller.vatNumber',
        'An export or intra-EU supply names the seller VAT number.',
      );
    if (categories.has('K') && buyer.vatNumber === null)
      add('BR-IC-02', 'buyer.vatNumber', 'An intra-EU supply names the buyer VAT number.');
    if (categories.has('AE') && buyer.vatNumber === null && buyer.siren === null)
      add('BR-AE-02', 'buyer.vatNumber', 'A reverse-charged supply names the buyer VAT number or legal identifier.');
  }
  if (categories.has('K')) {
    const shipTo = shipToAddress(model);
    if (!shipTo || blank(shipTo.country))
      add('BR-IC-12', 'buyer.deliveryAddress', 'An intra-EU supply names the country of delivery.');
  }
  if (seller.iban !== null && !['30', '58'].includes(model.paymentMeansCode))
    add('BR-CL-16', 'paymentMeansCode', 'The payment means is 30 or 58.');
  // The French CIUS binds only a document in scope of e-invoicing (BT-21 BAR `B2B`): outside it
  // the official validators run EN 16931 and the Factur-X profile alone (stylesheetsInScope).
  return inEinvoicingScope(model) ? issues : issues.filter((issue) => !issue.rule.startsWith('BR-FR'));
}

function checkAddress(
  address: PostalAddress,
  field: string,
  countryRule: string,
  add: (rule: string, field: string, message: string) => void,
  countries: Set<string>,
): void {
  if (blank(address.country)) add(countryRule, `${field}.country`, 'The address has no country.');
  else if (!countries.has(address.country))
    add('FX-SCH-A-000036', `${field}.country`, `"${address.country}" is not an ISO 3166-1 country code.`);
}

function checkEndpoint(
  endpoint: { scheme: string; value: string },
  field: string,
  term: 'BT-34' | 'BT-49',
  add: (rule: string, field: string, message: string) => void,
): void {
  if (endpoint.value.length > 125) add(`BR-FR-25_${term}`, field, 'An electronic address has at most 125 characters.');
  if (endpoint.scheme === '0225' && !schemeFormat.test(endpoint.value))
    add(`BR-FR-23_${term}`, field, 'A 0225 electronic address has only letters, digits and + - _ .');
}

function checkRate(
  category: string,
  rate: string | null,
  field: string,
  term: 'BT-152' | 'BT-119',
  add: (rule: string, field: string, message: string) => void,
): void {
  if (category === 'O') {
    if (rate !== null) add('BR-O-05', field, 'A line or group not subject to VAT has no rate.');
    return;
  }
  if (rate === null) {
    add(term === 'BT-119' ? 'BR-48' : 'BR-S-05', field, `Category ${category} needs a rate.`);
    return;
  }
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(rate)) {
    add(`BR-FR-DEC-04_${term}`, field, 'A VAT rate has at most 2 decimals.');
    return;
  }
  const written = new Big(rate).toFixed(2);
  if (!brFr16Rates.has(written)) add(`BR-FR-16_${term}`, field, `${rate} % is not a rate of a French invoice.`);
  const zero = new Big(rate).eq(0);
  if (category === 'S' && zero) add('BR-S-05', field, 'A standard-rated line has a rate above zero.');
  if (category !== 'S' && !zero)
    add(`BR-${category === 'K' ? 'IC' : category}-05`, field, `Category ${category} has a zero rate.`);
}
