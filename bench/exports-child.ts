/**
 * One measured run of the exports bench (bench/exports.ts), in a process of its own so that its
 * peak RSS is the run's alone. `BENCH_EXPORT_MODE`:
 *   fec     the FEC export as the service runs it: the request's use case queues the job, a job
 *           worker runs it to the end (every batch, chunks into PostgreSQL, the event)
 *   anchor  the floor under it, in the same process shape: the same rows read by the same
 *           keyset queries, one fixed line written per row until as many bytes as the FEC's
 *           file, in the same 1 MiB chunks into a table of its own, committed every batch
 * Prints one JSON line on stdout: wall seconds, CPU seconds of this process, peak RSS, and what
 * was written.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { registry } from '../src/capabilities.js';
import { createJobWorker } from '../src/jobs/worker.js';
import { getExport, requestFecExport } from '../src/exports/service.js';

const url = process.env.DATABASE_URL!;
const companyId = process.env.BENCH_COMPANY_ID!;
const siren = process.env.BENCH_SIREN!;
const from = process.env.BENCH_FROM!;
const to = process.env.BENCH_TO!;
const mode = process.env.BENCH_EXPORT_MODE;
/** The anchor's rows per query and commit: the FEC job's pages when the anchor was set, kept so that runs compare. */
const anchorPageSize = 10_000;

async function runFec(): Promise<Record<string, unknown>> {
  const connection = connect(url, 4);
  const deps = makeDeps(
    connection,
    { ...loadConfig({ LOG_LEVEL: 'warn' }), databaseUrl: url },
    createLogger('warn', 'stderr'),
  );
  const scope = { companyId, livemode: true };
  const started = performance.now();
  const job = await requestFecExport(
    deps,
    { scope, requestId: null, idempotencyKey: null, apiVersion: '2026-09-01', now: new Date() },
    { siren },
    { from, to },
  );
  const worker = createJobWorker(deps, { companies: [companyId], kinds: registry.jobKinds, registry, concurrency: 1 });
  await worker.drain();
  const seconds = (performance.now() - started) / 1000;
  const file = await getExport(deps, scope, (job.result as { id: string }).id);
  await disconnect(connection);
  if (file.status !== 'ready') throw new Error(`the export is ${file.status}`);
  return { seconds, entries: file.count, bytes: file.size, sha256: file.sha256, exportId: file.id };
}

/** The same rows, read the same way, and as many bytes written the same way: what the job cannot beat. */
async function runAnchor(): Promise<Record<string, unknown>> {
  const bytesToWrite = Number(process.env.BENCH_ANCHOR_BYTES);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await pool.query('create table if not exists bench_anchor_chunks (seq integer primary key, bytes bytea not null)');
  await pool.query('truncate bench_anchor_chunks');
  const started = performance.now();
  const hash = createHash('sha256');
  const line = Buffer.alloc(140, 'x');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  let seq = 0;
  let rows = 0;
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString();
  let invoiceAfter: [string, string, string] | null = null;
  let paymentAfter: [string, string] | null = null;
  for (;;) {
    const client = await pool.connect();
    let read = 0;
    try {
      await client.query('begin');
      const invoices: pg.QueryResult<{ id: string; issue_date: string; at: string }> = await client.query(
        `select i.id, i.issue_date, i.finalized_at::text as at, i.total, i.buyer->>'name' as name,
          (select jsonb_object_agg(n.nature, n.net) from (select l->>'nature' as nature, sum((l->>'netAmount')::bigint) as net from jsonb_array_elements(i.lines) l group by 1) n) as nets,
          (select jsonb_agg(v->'taxAmount') from jsonb_array_elements(i.tax->'vatBreakdown') v) as vat
        from invoices i where i.company_id = $1 and i.livemode and i.number is not null and i.issue_date >= $2 and i.issue_date <= $3
          ${invoiceAfter ? 'and (i.issue_date, i.finalized_at, i.id) > ($4, $5::timestamptz, $6)' : ''}
        order by i.issue_date, i.finalized_at, i.id limit ${anchorPageSize}`,
        [companyId, from, to, ...(invoiceAfter ?? [])],
      );
      const payments: pg.QueryResult<{ id: string; at: string }> = await client.query(
        `select p.id, p.invoice_id, p.paid_at::text as at, p.amount from payments p
        where p.company_id = $1 and p.livemode and p.paid_at >= $2::timestamptz and p.paid_at < $3::timestamptz
          ${paymentAfter ? 'and (p.paid_at, p.id) > ($4::timestamptz, $5)' : ''}
        order by p.paid_at, p.id limit ${anchorPageSize}`,
        [companyId, `${from}T00:00:00Z`, end, ...(paymentAfter ?? [])],
      );
      read = invoices.rows.length + payments.rows.length;
      rows += read;
      const lastInvoice: { id: string; issue_date: string; at: string } | undefined = invoices.rows.at(-1);
      if (lastInvoice) invoiceAfter = [lastInvoice.issue_date, lastInvoice.at, lastInvoice.id];
      const lastPayment: { id: string; at: string } | undefined = payments.rows.at(-1);
      if (lastPayment) paymentAfter = [lastPayment.at, lastPayment.id];
      // As many bytes per row as the file has, written in the same chunks.
      const share = read === 0 ? 0 : Math.ceil((bytesToWrite * read) / Number(process.env.BENCH_ANCHOR_ROWS));
      for (let done = 0; done < share && written < bytesToWrite; done += line.length) {
        pending.push(line);
        pendingBytes += line.length;
        written += line.length;
        if (pendingBytes >= 1024 * 1024) {
          const bytes = Buffer.concat(pending, pendingBytes);
          await client.query('insert into bench_anchor_chunks (seq, bytes) values ($1, $2)', [seq++, bytes]);
          hash.update(bytes);
          pending = [];
          pendingBytes = 0;
        }
      }
      if (pendingBytes > 0) {
        const bytes = Buffer.concat(pending, pendingBytes);
        await client.query('insert into bench_anchor_chunks (seq, bytes) values ($1, $2)', [seq++, bytes]);
        hash.update(bytes);
        pending = [];
        pendingBytes = 0;
      }
      await client.query('commit');
    } finally {
      client.release();
    }
    if (read === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.query('drop table bench_anchor_chunks');
  await pool.end();
  return { seconds, rows, bytes: written, sha256: hash.digest('hex') };
}

// What the process holds before the run (the app's modules, loaded through tsx): the run adds to it.
const baselineRssMb = Math.round(process.memoryUsage().rss / 1048576);
// The run's own CPU, in this process (the database's is measured by the parent).
const cpuBefore = process.cpuUsage();
const run = mode === 'fec' ? await runFec() : mode === 'anchor' ? await runAnchor() : null;
if (!run) throw new Error(`BENCH_EXPORT_MODE is fec or anchor; got ${mode}`);
const cpu = process.cpuUsage(cpuBefore);
const result = { ...run, cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)) };
// maxRSS is in kilobytes.
process.stdout.write(
  `${JSON.stringify({ ...result, baselineRssMb, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
process.exit(0);
