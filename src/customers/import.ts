import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError } from '../kernel/errors.js';
import { enqueueJob, type Job } from '../jobs/service.js';
import type { JobKind } from '../jobs/job-kind.js';
import { lineToBody, parseCustomerCsv, type CsvColumn, type CsvLine, type CustomerCsv } from './customer-csv.js';
import { parseCustomerCreate } from './customer-input.js';
import { customerRow, prepareCustomer, recordCustomerEvents } from './customer-records.js';
import { sandboxDirectory } from './directory.js';
import { insertCustomers, type CustomerRow } from './store.js';

/**
 * `POST /v1/customers/import`. Each line is checked exactly as `POST /v1/customers` would check
 * it; valid lines are imported, refused lines are reported (line, code, param, message) and
 * imported nowhere: re-send them alone once corrected. Up to 1,000 lines the import runs in the
 * request's transaction; larger files become a job whose batches of 1,000 lines each commit with
 * the job's progress, so a crash leaves every batch whole or absent and the job resumes after
 * the last one.
 */

export const syncImportMaxLines = 1_000;
export const importBatchSize = 1_000;
/** Room for 10,000 lines of every column at their longest. */
export const csvBodyLimit = 16 * 1024 * 1024;
export const importJobKind = 'customers.import';

export interface ImportRefusal {
  line: number;
  code: string;
  param: string | null;
  message: string;
}

/** The result of an import, answered at once or found in the job's `result`. */
export interface CustomerImport {
  object: 'customer_import';
  livemode: boolean;
  /** Data lines in the file (the header not counted). */
  lines: number;
  imported: number;
  refused: number;
  /** One entry per refused line, in file order. */
  refusals: ImportRefusal[];
}

function emptyResult(livemode: boolean, lines: number): CustomerImport {
  return { object: 'customer_import', livemode, lines, imported: 0, refused: 0, refusals: [] };
}

/** Checks every line, then inserts the valid ones with their `customer.created` events, in `tx`. */
async function importLines(
  tx: Tx,
  ctx: CallContext,
  columns: CsvColumn[],
  lines: CsvLine[],
): Promise<{ imported: number; refusals: ImportRefusal[] }> {
  const rows: CustomerRow[] = [];
  const refusals: ImportRefusal[] = [];
  for (const line of lines) {
    try {
      // Test mode: the simulated directory answers at once; live: the re-check pass asks, outside this transaction.
      const { fields } = await prepareCustomer(
        parseCustomerCreate(lineToBody(columns, line)),
        ctx.scope.livemode ? null : sandboxDirectory,
      );
      rows.push(customerRow(fields, ctx.scope, ctx.now));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refusals.push({ line: line.line, code: error.code, param: error.param ?? null, message: error.message });
    }
  }
  for (let start = 0; start < rows.length; start += importBatchSize)
    await insertCustomers(tx, rows.slice(start, start + importBatchSize));
  await recordCustomerEvents(tx, ctx, 'customer.created', rows);
  return { imported: rows.length, refusals };
}

function addUp(result: CustomerImport, batch: { imported: number; refusals: ImportRefusal[] }): CustomerImport {
  return {
    ...result,
    imported: result.imported + batch.imported,
    refused: result.refused + batch.refusals.length,
    refusals: [...result.refusals, ...batch.refusals],
  };
}

export type ImportAnswer = { kind: 'result'; result: CustomerImport } | { kind: 'job'; job: Job };

export async function importCustomers(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  csv: string,
): Promise<ImportAnswer> {
  const file = parseCustomerCsv(csv, csvBodyLimit);
  const start = emptyResult(ctx.scope.livemode, file.lines.length);
  if (file.lines.length <= syncImportMaxLines) {
    const result = await inTransaction(deps.db, ctx, async (tx) =>
      addUp(start, await importLines(tx, ctx, file.columns, file.lines)),
    );
    return { kind: 'result', result };
  }
  const job = await inTransaction(deps.db, ctx, (tx) =>
    enqueueJob(tx, ctx, deps.clock.now(), {
      kind: importJobKind,
      input: file satisfies CustomerCsv,
      total: file.lines.length,
      result: start as unknown as Record<string, unknown>,
    }),
  );
  return { kind: 'job', job };
}

/** The job kind: one batch of lines per transaction, from where the last committed batch ended. */
export const customersImportJob: JobKind = {
  kind: importJobKind,
  readAccess: 'customers:read',
  async runBatch(tx, job, ctx) {
    const file = job.input as CustomerCsv;
    const from = job.progress.processed;
    const batch = file.lines.slice(from, from + importBatchSize);
    const before = (job.result as unknown as CustomerImport | null) ?? emptyResult(job.livemode, file.lines.length);
    const result = addUp(before, await importLines(tx, ctx, file.columns, batch));
    const processed = from + batch.length;
    return {
      progress: { total: file.lines.length, processed },
      result: result as unknown as Record<string, unknown>,
      done: processed >= file.lines.length,
    };
  },
};
