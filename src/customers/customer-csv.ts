import { parse } from 'csv-parse/sync';
import { refuse } from '../kernel/errors.js';

/**
 * The CSV of `POST /v1/customers/import`, read into lines of cells. Pure: the header is checked
 * here (a file with a bad header is refused whole); each line is checked later, by the API's own
 * rules, and refused on its own.
 */

/** The columns, named as the API's fields; the address columns fill `address`. */
export const csvColumns = [
  'type',
  'name',
  'email',
  'siren',
  'siret',
  'vatNumber',
  'line1',
  'line2',
  'postalCode',
  'city',
  'country',
] as const;
export type CsvColumn = (typeof csvColumns)[number];
const addressColumns: readonly CsvColumn[] = ['line1', 'line2', 'postalCode', 'city', 'country'];

/** The contract's limit: data lines, the header not counted. */
export const maxImportLines = 10_000;

export interface CsvLine {
  /** The line of the file where the record ends (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CustomerCsv {
  columns: CsvColumn[];
  lines: CsvLine[];
}

/** `;` when the header uses it and no comma (spreadsheets in French locales), else `,`. */
function delimiterOf(header: string): ',' | ';' {
  return header.includes(';') && !header.includes(',') ? ';' : ',';
}

function checkHeader(header: string[]): CsvColumn[] {
  const seen = new Set<string>();
  header.forEach((raw, index) => {
    const name = raw.trim();
    if (!(csvColumns as readonly string[]).includes(name)) {
      throw refuse(
        'invalid_field_value',
        `Unknown column "${name}" (column ${index + 1} of the header row). The columns are the API field names: ${csvColumns.join(', ')}; any subset, in any order.`,
        { param: 'header' },
      );
    }
    if (seen.has(name))
      throw refuse('invalid_field_value', `Column "${name}" appears twice in the header row.`, { param: 'header' });
    seen.add(name);
  });
  if (!seen.has('name')) {
    throw refuse('missing_required_field', 'The header row must name the column `name`: every customer has one.', {
      param: 'name',
    });
  }
  return header.map((name) => name.trim() as CsvColumn);
}

/** Parses the file; refuses an empty file, a bad header, malformed CSV, or more than 10,000 lines. */
export function parseCustomerCsv(text: string, byteLimit: number): CustomerCsv {
  // One line ending for the whole file (a spreadsheet may mix them), a BOM dropped by the parser.
  const normalized = text.replace(/\r\n?/g, '\n');
  const firstLine = normalized.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  if (firstLine.trim() === '') {
    throw refuse(
      'invalid_field_value',
      `The CSV file is empty or starts with a blank line; its first line names the columns (${csvColumns.join(', ')}).`,
      { param: 'header' },
    );
  }
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = (parse as (input: string, options: object) => unknown)(normalized, {
      bom: true,
      delimiter: delimiterOf(firstLine),
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as typeof records;
  } catch (error) {
    const where = (error as { lines?: number }).lines;
    throw refuse(
      'invalid_field_value',
      `The CSV file is malformed${where ? ` near line ${where}` : ''}: ${(error as Error).message}`,
      { param: 'body' },
    );
  }
  const [header, ...data] = records;
  const columns = checkHeader(header!.record);
  if (data.length > maxImportLines) {
    throw refuse(
      'payload_too_large',
      `A CSV import has at most ${maxImportLines.toLocaleString('en')} lines besides the header; this file has ${data.length.toLocaleString('en')}.`,
      {
        hint: `Split the file into imports of at most ${maxImportLines.toLocaleString('en')} lines (and ${byteLimit}).`,
      },
    );
  }
  return { columns, lines: data.map(({ record, info }) => ({ line: info.lines, cells: record })) };
}

/**
 * One line as the JSON body the API would receive: empty cells are absent, the address columns
 * make `address`. A line with more cells than columns is refused before any field is read.
 */
export function lineToBody(columns: CsvColumn[], line: CsvLine): Record<string, unknown> {
  if (line.cells.length > columns.length) {
    throw refuse(
      'invalid_field_value',
      `Line ${line.line} has ${line.cells.length} cells but the header names ${columns.length} columns.`,
      { param: 'line' },
    );
  }
  const body: Record<string, unknown> = {};
  const address: Record<string, string> = {};
  columns.forEach((column, index) => {
    const value = line.cells[index]?.trim() ?? '';
    if (value === '') return;
    if (addressColumns.includes(column)) address[column] = value;
    else body[column] = value;
  });
  if (Object.keys(address).length > 0) body.address = address;
  return body;
}
