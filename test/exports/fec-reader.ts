import assert from 'node:assert/strict';

/**
 * An independent reader of a FEC file, written from article A47 A-1 of the LPF and nothing of
 * src/: it checks the shape of every record and the rules of the books, and returns the
 * entries so that a test can compare their amounts with the documents and payments.
 */

export const fieldNames = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
];

export interface FecRecordRead {
  journal: string;
  number: number;
  date: string;
  account: string;
  accountLabel: string;
  auxiliary: string;
  auxiliaryLabel: string;
  piece: string;
  label: string;
  /** Cents. */
  debit: number;
  credit: number;
  validDate: string;
  /** Montantdevise (cents) and Idevise, for a line in another currency; null and `''` otherwise. */
  foreignAmount: number | null;
  currency: string;
}

export interface FecEntryRead {
  number: number;
  journal: string;
  date: string;
  piece: string;
  lines: FecRecordRead[];
}

/** `1234,56` → 123456 cents; anything else fails the test. */
export function cents(text: string): number {
  const match = /^(-?)(\d+),(\d{2})$/.exec(text);
  assert.ok(match, `an amount has a comma and two decimals: "${text}"`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
}

const isDate = (text: string) =>
  /^\d{8}$/.test(text) && !Number.isNaN(Date.parse(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}`));

export function readFec(bytes: Buffer, separator = '|'): { entries: FecEntryRead[]; records: FecRecordRead[] } {
  // ISO 8859-15 decodes as latin1 but for eight characters, which tests do not use.
  const text = bytes.toString('latin1');
  assert.ok(text.endsWith('\r\n'), 'the last record ends with CR LF');
  const rows = text.slice(0, -2).split('\r\n');
  assert.ok(!rows.some((row) => row.includes('\n') || row.includes('\r')), 'records are separated by CR LF only');
  assert.deepEqual(rows[0]!.split(separator), fieldNames, 'the first line names the 18 fields in order');
  const records: FecRecordRead[] = rows.slice(1).map((row, index) => {
    const fields = row.split(separator);
    assert.equal(fields.length, 18, `line ${index + 2} has 18 fields: ${row}`);
    const [
      journal,
      journalLabel,
      number,
      date,
      account,
      accountLabel,
      auxiliary,
      auxiliaryLabel,
      piece,
      pieceDate,
      label,
      debit,
      credit,
      lettering,
      letteringDate,
      validDate,
      foreign,
      currency,
    ] = fields as [string, ...string[]] & string[];
    assert.ok(journal && journalLabel, `line ${index + 2}: a journal and its label`);
    assert.match(number!, /^\d+$/, `line ${index + 2}: EcritureNum`);
    assert.ok(isDate(date!) && isDate(pieceDate!) && isDate(validDate!), `line ${index + 2}: dates YYYYMMDD`);
    assert.match(account!, /^\d{3}/, `line ${index + 2}: CompteNum starts with 3 digits of the PCG`);
    assert.ok(accountLabel && piece && label, `line ${index + 2}: CompteLib, PieceRef, EcritureLib`);
    assert.equal(Boolean(auxiliary), Boolean(auxiliaryLabel), `line ${index + 2}: CompAuxNum and CompAuxLib together`);
    assert.deepEqual([lettering, letteringDate], ['', ''], `line ${index + 2}: unused fields blank`);
    assert.ok(
      (foreign === '' && currency === '') || (/^[A-Z]{3}$/.test(currency!) && currency !== 'EUR'),
      `line ${index + 2}: Montantdevise and Idevise blank, or an amount and the code of a currency other than the euro`,
    );
    const record = {
      journal: journal!,
      number: Number(number),
      date: date!,
      account: account!,
      accountLabel: accountLabel!,
      auxiliary: auxiliary!,
      auxiliaryLabel: auxiliaryLabel!,
      piece: piece!,
      label: label!,
      debit: cents(debit!),
      credit: cents(credit!),
      validDate: validDate!,
      foreignAmount: foreign === '' ? null : cents(foreign!),
      currency: currency!,
    };
    assert.ok(record.debit >= 0 && record.credit >= 0, `line ${index + 2}: no negative amount`);
    assert.ok((record.debit === 0) !== (record.credit === 0), `line ${index + 2}: a debit or a credit`);
    assert.ok(validDate! >= date!, `line ${index + 2}: validated on or after its date`);
    return record;
  });

  const entries: FecEntryRead[] = [];
  for (const record of records) {
    const last = entries.at(-1);
    if (last && last.number === record.number) {
      assert.equal(record.journal, last.journal, `entry ${record.number} stays in one journal`);
      assert.equal(record.date, last.date, `entry ${record.number} has one date`);
      assert.equal(record.piece, last.piece, `entry ${record.number} has one piece`);
      last.lines.push(record);
    } else {
      assert.equal(record.number, (last?.number ?? 0) + 1, 'entries are numbered 1, 2, 3... without gap, each once');
      if (last) assert.ok(record.date >= last.date, `entry ${record.number} is not dated before entry ${last.number}`);
      entries.push({
        number: record.number,
        journal: record.journal,
        date: record.date,
        piece: record.piece,
        lines: [record],
      });
    }
  }
  for (const entry of entries) {
    const debit = entry.lines.reduce((sum, line) => sum + line.debit, 0);
    const credit = entry.lines.reduce((sum, line) => sum + line.credit, 0);
    assert.equal(debit, credit, `entry ${entry.number} balances`);
    assert.ok(entry.lines.length >= 2, `entry ${entry.number} has two lines or more`);
  }
  const journals = new Map<string, { debit: number; credit: number }>();
  for (const record of records) {
    const totals = journals.get(record.journal) ?? { debit: 0, credit: 0 };
    totals.debit += record.debit;
    totals.credit += record.credit;
    journals.set(record.journal, totals);
  }
  for (const [journal, totals] of journals) assert.equal(totals.debit, totals.credit, `journal ${journal} balances`);
  return { entries, records };
}
