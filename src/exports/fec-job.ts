import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import type { JobKind } from '../jobs/job-kind.js';
import {
  accountingDocumentCount,
  accountingDocumentsPage,
  accountingRefundCount,
  accountingRefundsPage,
  type AccountingDocument,
  type AccountingPeriod,
  type AccountingRefund,
  type DocumentKey,
  type InstantKey,
} from '../invoices/service.js';
import { accountingPaymentCount, accountingPaymentsPage, type AccountingPayment } from '../payments/service.js';
import { bankEntry, salesEntry, type EntryLine, type FecChart, type FecJournal } from './fec-entries.js';
import { fecEntryHead, fecHeader, fecRecord, fecSeparators } from './fec-format.js';
import type { FecOptions } from './fec-request.js';
import { ChunkWriter, dropRunningHash, keepRunningHash, takeRunningHash } from './file-chunks.js';
import { completeExport, exportJobResult, lockExportOfJob, type ExportJobInput } from './export-job.js';
import { updateExport, type ExportRow } from './store.js';

/**
 * The FEC job. Three sources in the order of the books (the sales journal's documents, the
 * bank journal's payments and refunds), each read by keyset pages through its capability's use
 * case, merged by date, then the instant they were recorded: entries are numbered 1, 2, 3...
 * in that order across the file. Each batch merges what it read up to the point where a source's
 * page runs out, writes those entries as chunks, and commits them with the cursor (each
 * source's last key, the next entry number), so a crash resumes after the last committed batch
 * with no entry twice and none missing.
 */

export const fecJobKind = 'exports.fec';
/** Rows read per source and batch. */
export const defaultFecPageSize = 10_000;

interface SourceCursor<K> {
  after: K | null;
  done: boolean;
}

export interface FecCursor {
  documents: SourceCursor<DocumentKey>;
  payments: SourceCursor<InstantKey>;
  refunds: SourceCursor<InstantKey>;
  /** Entries written (the last EcritureNum). */
  entries: number;
  lines: number;
}

export function startCursor(chart: FecChart): FecCursor {
  return {
    documents: { after: null, done: !chart.journals.sales },
    payments: { after: null, done: !chart.journals.bank },
    refunds: { after: null, done: !chart.journals.bank },
    entries: 0,
    lines: 0,
  };
}

type SourceName = 'documents' | 'payments' | 'refunds';

/**
 * A page of one source, merged with the others by its next row's place in the books: the day,
 * the instant (ISO 8601 strings of one format, which compare as the instants do), the source's
 * rank, the id. The place is kept in fields, not an object per row: a million rows make no garbage.
 */
interface Page<T = unknown> {
  name: SourceName;
  rank: number;
  rows: T[];
  /** A full page: the source may have more after it. */
  full: boolean;
  next: number;
  day: string;
  at: string;
  id: string;
  place(row: T): void;
  lines(row: T): EntryLine[] | null;
  journal: FecJournal;
  key(row: T): unknown;
}

const dayOf = (iso: string) => iso.slice(0, 10);

function documentLines(document: AccountingDocument, chart: FecChart): EntryLine[] | null {
  return salesEntry(
    {
      kind: document.kind,
      number: document.number,
      issueDate: document.issueDate,
      validDate: dayOf(document.recordedAt),
      party: document.party,
      total: document.total,
      netByNature: document.netByNature,
      vatByRate: document.vatByRate,
    },
    chart,
  );
}

function paymentLines(payment: AccountingPayment, chart: FecChart): EntryLine[] | null {
  return bankEntry(
    {
      kind: 'payment',
      pieceRef: payment.reference ?? payment.id,
      documentNumber: payment.invoiceNumber,
      day: dayOf(payment.paidAt),
      validDate: dayOf(payment.recordedAt),
      party: payment.party,
      amount: payment.amount,
      method: payment.method,
    },
    chart,
  );
}

function refundLines(refund: AccountingRefund, chart: FecChart): EntryLine[] | null {
  return bankEntry(
    {
      kind: 'refund',
      pieceRef: refund.reference ?? refund.id,
      documentNumber: refund.creditNoteNumber,
      day: dayOf(refund.refundedAt),
      validDate: dayOf(refund.recordedAt),
      party: refund.party,
      amount: refund.amount,
      method: refund.method,
    },
    chart,
  );
}

function pageOf<T extends { key: unknown; id: string }>(
  name: SourceName,
  rank: number,
  rows: T[],
  full: boolean,
  journal: FecJournal,
  dayAndInstant: (row: T) => [string, string],
  lines: (row: T) => EntryLine[] | null,
): Page<T> {
  const page: Page<T> = {
    name,
    rank,
    rows,
    full,
    next: 0,
    day: '',
    at: '',
    id: '',
    place(row) {
      [page.day, page.at] = dayAndInstant(row);
      page.id = row.id;
    },
    lines,
    journal,
    key: (row) => row.key,
  };
  if (rows.length > 0) page.place(rows[0]!);
  return page;
}

/** `a`'s next row comes before `b`'s in the books. */
const before = (a: Page, b: Page) =>
  a.day !== b.day ? a.day < b.day : a.at !== b.at ? a.at < b.at : a.rank !== b.rank ? a.rank < b.rank : a.id < b.id;

async function readPages(
  tx: Tx,
  scope: Scope,
  period: AccountingPeriod,
  cursor: FecCursor,
  chart: FecChart,
  fecPageSize: number,
): Promise<Page[]> {
  const pages: Page[] = [];
  // One after the other: the three read on the transaction's one connection.
  if (!cursor.documents.done) {
    const rows = await accountingDocumentsPage(tx, scope, period, cursor.documents.after, fecPageSize);
    pages.push(
      pageOf(
        'documents',
        0,
        rows,
        rows.length === fecPageSize,
        'sales',
        (row) => [row.issueDate, row.recordedAt],
        (row) => documentLines(row, chart),
      ) as Page,
    );
  }
  if (!cursor.payments.done) {
    const rows = await accountingPaymentsPage(tx, scope, period, cursor.payments.after, fecPageSize);
    pages.push(
      pageOf(
        'payments',
        1,
        rows,
        rows.length === fecPageSize,
        'bank',
        (row) => [dayOf(row.paidAt), row.paidAt],
        (row) => paymentLines(row, chart),
      ) as Page,
    );
  }
  if (!cursor.refunds.done) {
    const rows = await accountingRefundsPage(tx, scope, period, cursor.refunds.after, fecPageSize);
    pages.push(
      pageOf(
        'refunds',
        2,
        rows,
        rows.length === fecPageSize,
        'bank',
        (row) => [dayOf(row.refundedAt), row.refundedAt],
        (row) => refundLines(row, chart),
      ) as Page,
    );
  }
  return pages;
}

async function countRows(tx: Tx, scope: Scope, period: AccountingPeriod, cursor: FecCursor): Promise<number> {
  return (
    (cursor.documents.done ? 0 : await accountingDocumentCount(tx, scope, period)) +
    (cursor.payments.done ? 0 : await accountingPaymentCount(tx, scope, period)) +
    (cursor.refunds.done ? 0 : await accountingRefundCount(tx, scope, period))
  );
}

/** One batch: the next entries in the order of the books, as far as every source's page allows. */
async function runFecBatch(
  tx: Tx,
  row: ExportRow,
  progress: { processed: number; total: number },
  ctx: CallContext,
  pageSize: number,
) {
  const scope = ctx.scope;
  const options = row.options as unknown as FecOptions;
  const { chart } = options;
  const separator = fecSeparators[options.separator];
  const period: AccountingPeriod = { from: row.periodFrom!, to: row.periodTo! };
  const cursor = row.cursor as unknown as FecCursor;
  const starting = row.chunks === 0;

  const hash = await takeRunningHash(tx, scope, row.id, row.chunks);
  const writer = new ChunkWriter(tx, scope, row.id, '', row.chunks, row.size, hash, 'latin1');
  const total = starting ? await countRows(tx, scope, period, cursor) : progress.total;
  if (starting) await writer.writeText(fecHeader(separator));

  const pages = await readPages(tx, scope, period, cursor, chart, pageSize);
  let { entries, lines } = cursor;
  let consumed = 0;
  for (;;) {
    let best: Page | null = null;
    let blocked = false;
    for (const page of pages) {
      if (page.next >= page.rows.length) {
        // A full page used up: its source's next row is unknown, so nothing later can be merged yet.
        if (page.full) blocked = true;
        continue;
      }
      if (!best || before(page, best)) best = page;
    }
    if (blocked || !best) break;
    const row = best.rows[best.next]!;
    best.next += 1;
    if (best.next < best.rows.length) best.place(best.rows[best.next]!);
    consumed += 1;
    const entryLines = best.lines(row);
    if (!entryLines) continue;
    entries += 1;
    const journal = chart.journals[best.journal]!;
    const head = fecEntryHead(journal.code, journal.label, String(entries), separator);
    let text = '';
    for (const line of entryLines) text += fecRecord(head, line, separator);
    lines += entryLines.length;
    if (!writer.appendText(text)) await writer.writeText(text);
  }
  await writer.flush();

  const next: FecCursor = { ...cursor, entries, lines };
  for (const page of pages) {
    const after = page.next > 0 ? page.key(page.rows[page.next - 1]) : cursor[page.name].after;
    next[page.name] = { after: after as never, done: !page.full && page.next >= page.rows.length };
  }
  const done = next.documents.done && next.payments.done && next.refunds.done;
  const written = await updateExport(tx, scope, row.id, {
    cursor: next as unknown as Record<string, unknown>,
    count: entries,
    chunks: writer.seq,
    size: writer.size,
  });
  const processed = progress.processed + consumed;
  if (!done) {
    keepRunningHash(row.id, hash, writer.seq);
    return { row: written, processed, total: Math.max(total, processed), done };
  }
  dropRunningHash(row.id);
  const ready = await completeExport(tx, ctx, written, hash.digest('hex'));
  return { row: ready, processed, total: Math.max(total, processed), done };
}

/** The job kind; `pageSize` is the rows read per source and batch (small in tests, to cross batches). */
export function fecExportJobOf(options: { pageSize?: number } = {}): JobKind {
  const pageSize = options.pageSize ?? defaultFecPageSize;
  return {
    kind: fecJobKind,
    readAccess: 'invoices:read',
    async runBatch(tx, job, ctx) {
      const row = await lockExportOfJob(tx, ctx.scope, job.input as ExportJobInput);
      if (row.status === 'ready') return exportJobResult(row, job.progress, true);
      const batch = await runFecBatch(tx, row, job.progress, ctx, pageSize);
      return exportJobResult(batch.row, { total: batch.total, processed: batch.processed }, batch.done);
    },
  };
}

export const fecExportJob = fecExportJobOf();
