/**
 * One measured run of the e-reporting bench (bench/ereporting.ts), in a process of its own so
 * that its peak RSS is the run's alone: the pass's gathering of the seeded month into its
 * declarations (one transaction, as the pass runs it), then each declaration written as flow 10
 * XML and checked against its schema. Prints one JSON line: wall seconds, peak RSS, counts.
 */
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { inTransaction } from '../src/db/transaction.js';
import { gatherOperations } from '../src/ereporting/service.js';
import { reportProblems, reportXml } from '../src/ereporting/report-xml.js';
import type { Flow } from '../src/ereporting/flows.js';

const url = process.env.DATABASE_URL!;
const companyId = process.env.BENCH_COMPANY_ID!;
const baselineRssMb = Math.round(process.memoryUsage().rss / 1048576);

async function run(): Promise<Record<string, unknown>> {
  loadConfig({ LOG_LEVEL: 'warn' });
  const connection = connect(url, 2);
  const scope = { companyId, livemode: true };
  // Early November: October's three decades are all to be gathered.
  const now = new Date('2026-11-02T08:00:00Z');
  const ctx = { scope, requestId: null, idempotencyKey: null, apiVersion: '2026-09-01', now };
  const started = performance.now();
  const operations = await inTransaction(connection.db, ctx, (tx) => gatherOperations(tx, scope, now));
  const gathered = performance.now();
  const { rows } = await connection.pool.query(
    `select id, attempt, flow, establishment, period_start, period_end, currency, lines, operation_count,
       taxable_amount, tax_amount from ereporting_declarations where company_id = $1 and livemode`,
    [companyId],
  );
  let xmlBytes = 0;
  let problems = 0;
  let lines = 0;
  for (const row of rows) {
    const xml = reportXml({
      id: row.id,
      attempt: row.attempt,
      flow: row.flow as Flow,
      issuedAt: now,
      siren: '100000009',
      siret: row.establishment,
      periodStart: row.period_start,
      periodEnd: row.period_end,
      currency: row.currency,
      lines: row.lines,
      operationCount: row.operation_count,
      taxableAmount: Number(row.taxable_amount),
      taxAmount: Number(row.tax_amount),
    });
    xmlBytes += Buffer.byteLength(xml);
    lines += row.lines.length;
    problems += reportProblems(xml).length;
  }
  const finished = performance.now();
  await disconnect(connection);
  return {
    operations,
    declarations: rows.length,
    lines,
    xmlBytes,
    problems,
    gatherSeconds: (gathered - started) / 1000,
    xmlSeconds: (finished - gathered) / 1000,
    seconds: (finished - started) / 1000,
  };
}

const result = await run();
// maxRSS is in kilobytes.
process.stdout.write(
  `${JSON.stringify({ ...result, baselineRssMb, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
