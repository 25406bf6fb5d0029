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
import { ChunkWriter, chunkBytes, dropRunningHash, keepRunningHash, takeRunningHash } from './file-chunks.js';
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
const sourceRank: Record<SourceName, number> = { documents: 0, payments: 1, refunds: 2 };

/** A row of a source, ready to be merged and turned into an entry. */
interface Item {
  day: string;
  at: number;
  rank: number;
  id: string;
  journal: FecJournal;
  lines: () => EntryLine[] | null;
}

const dayOf = (iso: string) => iso.slice(0, 10);

function documentItem(document: AccountingDocument, chart: FecChart): Item {
  return {
    day: document.issueDate,
    at: Date.parse(document.recordedAt),
    rank: sourceRank.documents,
    id: document.id,
    journal: 'sales',
    lines: () =>
      salesEntry(
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
      ),
  };
}

function paymentItem(payment: AccountingPayment, chart: FecChart): Item {
  return {
    day: dayOf(payment.paidAt),
    at: Date.parse(payment.paidAt),
    rank: sourceRank.payments,
    id: payment.id,
    journal: 'bank',
    lines: () =>
      bankEntry(
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
      ),
  };
}

function refundItem(refund: AccountingRefund, chart: FecChart): Item {
  return {
    day: dayOf(refund.refundedAt),
    at: Date.parse(refund.refundedAt),
    rank: sourceRank.refunds,
    id: refund.id,
    journal: 'bank',
    lines: () =>
      bankEntry(
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
      ),
  };
}

const before = (a: Item, b: Item) =>
  a.day !== b.day ? a.day < b.day : a.at !== b.at ? a.at < b.at : a.rank !== b.rank ? a.rank < b.rank : a.id < b.id;

interface Page {
  items: Item[];
  keys: unknown[];
  /** A full page: the source may have more after it. */
  full: boolean;
  next: number;
}

async function readPages(
  tx: Tx,
  scope: Scope,
  period: AccountingPeriod,
  cursor: FecCursor,
  chart: FecChart,
  fecPageSize: number,
): Promise<Record<SourceName, Page>> {
  const empty: Page = { items: [], keys: [], full: false, next: 0 };
  const page = <T extends { key: unknown }>(rows: T[], item: (row: T) => Item): Page => ({
    items: rows.map(item),
    keys: rows.map((row) => row.key),
    full: rows.length === fecPageSize,
    next: 0,
  });
  // One after the other: the three read on the transaction's one connection.
  const documents = cursor.documents.done
    ? empty
    : page(await accountingDocumentsPage(tx, scope, period, cursor.documents.after, fecPageSize), (row) =>
        documentItem(row, chart),
      );
  const payments = cursor.payments.done
    ? empty
    : page(await accountingPaymentsPage(tx, scope, period, cursor.payments.after, fecPageSize), (row) =>
        paymentItem(row, chart),
      );
  const refunds = cursor.refunds.done
    ? empty
    : page(await accountingRefundsPage(tx, scope, period, cursor.refunds.after, fecPageSize), (row) =>
        refundItem(row, chart),
      );
  return { documents, payments, refunds };
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
  const sources = Object.entries(pages) as [SourceName, Page][];
  let { entries, lines } = cursor;
  let consumed = 0;
  let text = '';
  for (;;) {
    let best: [SourceName, Page] | null = null;
    let blocked = false;
    for (const source of sources) {
      const page = source[1];
      if (page.next >= page.items.length) {
        // A full page used up: its source's next row is unknown, so nothing later can be merged yet.
        if (page.full) blocked = true;
        continue;
      }
      if (!best || before(page.items[page.next]!, best[1].items[best[1].next]!)) best = source;
    }
    if (blocked || !best) break;
    const page = best[1];
    const item = page.items[page.next]!;
    page.next += 1;
    consumed += 1;
    const entryLines = item.lines();
    if (!entryLines) continue;
    entries += 1;
    const journal = chart.journals[item.journal]!;
    const head = fecEntryHead(journal.code, journal.label, String(entries), separator);
    for (const line of entryLines) text += fecRecord(head, line, separator);
    lines += entryLines.length;
    if (text.length >= chunkBytes) {
      await writer.writeText(text);
      text = '';
    }
  }
  await writer.writeText(text);
  await writer.flush();

  const next: FecCursor = { ...cursor, entries, lines };
  for (const [name, page] of sources) {
    if (cursor[name].done) continue;
    const after = page.next > 0 ? page.keys[page.next - 1] : cursor[name].after;
    next[name] = { after: after as never, done: !page.full && page.next >= page.items.length };
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
