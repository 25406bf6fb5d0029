/**
 * The exports bench (issue 17), run by bench/run.ts last, or alone with BENCH_ONLY=exports:
 *   exports-seed    BENCH_FEC_ENTRIES entries of books (default 1,000,000) inserted directly in
 *                   SQL (generate_series) into one live company: 60 % finalized invoices (two
 *                   lines, goods and services, VAT 20 %: four FEC lines each), 40 % payments of
 *                   them (two lines each), over a year, for 1,000 customers
 *   exports-fec     the FEC export of that year as the service runs it (bench/exports-child.ts,
 *                   its own process): wall time, CPU seconds (its process's, and the
 *                   embedded database's over the run) and peak RSS. Goal: under 20 s and 200 MB.
 *   exports-anchor  in the same process shape, the same rows read by the same keyset queries and
 *                   as many bytes written in the same chunks: the floor of the FEC's time
 * One JSON line each on stdout.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { compiledChild } from './compiled-child.js';
import { connect, disconnect, migrateDatabase } from '../src/db/database.js';
import { createCompany } from '../src/companies/service.js';
import { changePlan } from '../src/subscriptions/service.js';
import { systemClock } from '../src/kernel/clock.js';
import { processTreeCpuSeconds } from './load.js';

export interface ExportBenchOptions {
  databaseUrl: string;
  /** The embedded server's postmaster, whose CPU is measured beside each run's; null for DATABASE_URL. */
  databasePid: number | null;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

export interface ExportBenchResult {
  errors: number;
  entries: number;
  seconds: number;
  peakRssMb: number;
  anchorSeconds: number;
  goalMet: boolean;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const goal = { seconds: 20, peakRssMb: 200 };
const siren = '732829320';
const year = { from: '2026-01-01', to: '2026-12-31' };

/** Invoices and their payments, straight into the tables: what a year of a busy company leaves. */
export async function seed(
  pool: pg.Pool,
  companyId: string,
  entries: number,
): Promise<{ invoices: number; payments: number }> {
  const invoices = Math.round(entries * 0.6);
  const payments = entries - invoices;
  // Amounts per invoice g: goods 29,800 + (g % 100) cents, services 13,500; VAT 20 % of the sum, rounded.
  const net = '(29800 + (g % 100) + 13500)';
  const vat = `((${net} * 20 + 50) / 100)`;
  const day = `(date '2026-01-01' + (g % 365))`;
  await pool.query(
    `insert into invoices (company_id, livemode, id, kind, number, series, status, document_status, transmission_status,
      payment_status, customer_id, buyer, currency, tax_source, lines, issue_date, due_date, metadata, subtotal, total_tax,
      total, amount_paid, amount_refunded, amount_credited, tax, einvoicing, history, finalized_at, created, updated)
    select $1, true, 'inv_' || lpad(g::text, 26, '0'), 'invoice', 'F2026-' || lpad(g::text, 7, '0'), 'F2026', 'finalized',
      'finalized', 'not_applicable', 'unpaid', 'cus_' || lpad((g % 1000)::text, 26, '0'),
      jsonb_build_object('type', 'company', 'name', 'Client ' || (g % 1000) || ' SAS'), 'EUR', 'service',
      jsonb_build_array(
        jsonb_build_object('productId', null, 'description', 'Chaise en chêne', 'quantity', '2', 'unitPrice', '149.00',
          'unit', 'H87', 'nature', 'goods', 'rateCategory', 'standard', 'vatRate', '20', 'vatCode', 'S', 'vatexCode', null,
          'netAmount', 29800 + (g % 100)),
        jsonb_build_object('productId', null, 'description', 'Conseil en organisation', 'quantity', '1.5',
          'unitPrice', '90', 'unit', 'HUR', 'nature', 'services', 'rateCategory', 'standard', 'vatRate', '20',
          'vatCode', 'S', 'vatexCode', null, 'netAmount', 13500)),
      ${day}::text, (${day} + 30)::text, '{}'::jsonb, ${net}, ${vat}, ${net} + ${vat}, 0, 0, 0,
      jsonb_build_object('decisionId', null, 'date', ${day}::text, 'mentions', '[]'::jsonb, 'obligations', null,
        'vatBreakdown', jsonb_build_array(jsonb_build_object('vatCode', 'S', 'vatRate', '20', 'vatexCode', null,
          'taxableAmount', ${net}, 'taxAmount', ${vat}))),
      '{"previousSubmissions": []}'::jsonb, '[]'::jsonb,
      ${day} + make_interval(secs => 28800 + g % 36000), ${day} + make_interval(secs => 28800 + g % 36000),
      ${day} + make_interval(secs => 28800 + g % 36000)
    from generate_series(1, $2::int) g`,
    [companyId, invoices],
  );
  await pool.query(
    `insert into payments (company_id, livemode, id, invoice_id, amount, currency, method, reference, paid_at,
      recorded_by, fr212, metadata, created)
    select $1, true, 'pay_' || lpad(g::text, 26, '0'), 'inv_' || lpad(g::text, 26, '0'), ${net} + ${vat}, 'EUR',
      'transfer', 'VIR-' || g, least(${day} + 20, date '2026-12-31') + make_interval(secs => 36000 + g % 20000), 'api',
      null, '{}'::jsonb, least(${day} + 20, date '2026-12-31') + make_interval(secs => 36000 + g % 20000)
    from generate_series(1, $2::int) g`,
    [companyId, payments],
  );
  await pool.query('analyze invoices');
  await pool.query('analyze payments');
  return { invoices, payments };
}

/** A run in its own process, with the database's CPU seconds over it (null when not on this machine). */
async function child(env: Record<string, string>, databasePid: number | null): Promise<Record<string, any>> {
  const databaseCpu = () => (databasePid === null ? null : processTreeCpuSeconds(databasePid));
  const before = databaseCpu();
  const result = await childProcess(env);
  const after = databaseCpu();
  return { ...result, databaseCpuSeconds: before === null || after === null ? null : round(after - before) };
}

async function childProcess(env: Record<string, string>): Promise<Record<string, any>> {
  const command = await compiledChild(new URL('./exports-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const flags = process.env.BENCH_EXPORT_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const proc = spawn(process.execPath, [...flags, ...command], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`exports child (${env.BENCH_EXPORT_MODE}) exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      } catch (error) {
        reject(error);
      }
    });
  });
}

export async function runExportBench(options: ExportBenchOptions): Promise<ExportBenchResult> {
  const entries = Number(process.env.BENCH_FEC_ENTRIES ?? 1_000_000);
  if (!Number.isInteger(entries) || entries < 10) throw new Error('BENCH_FEC_ENTRIES must be an integer of 10 or more');
  const connection = connect(options.databaseUrl, 4);
  try {
    await migrateDatabase(options.databaseUrl);
    const company = await createCompany({ db: connection.db, clock: systemClock }, { name: 'Export SAS', siren });
    // The file of a million entries (about 520 MB) is past the free plan's storage (100 MB).
    await changePlan({ db: connection.db, clock: systemClock }, null, company.id, 'pro');
    options.progress(`exports: seeding ${entries.toLocaleString('en')} entries (invoices and payments) by SQL`);
    const seedStarted = performance.now();
    const seeded = await seed(connection.pool, company.id, entries);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    options.emit({ name: 'exports-seed', entries, ...seeded, seconds: seedSeconds });

    const env = {
      DATABASE_URL: options.databaseUrl,
      BENCH_COMPANY_ID: company.id,
      BENCH_SIREN: siren,
      BENCH_FROM: year.from,
      BENCH_TO: year.to,
    };
    options.progress('exports: the FEC export of the year, in its own process');
    const fec = await child({ ...env, BENCH_EXPORT_MODE: 'fec' }, options.databasePid);
    const errors = fec.entries === entries ? 0 : 1;
    const goalMet = fec.seconds < goal.seconds && fec.peakRssMb < goal.peakRssMb;
    options.emit({
      name: 'exports-fec',
      entries: fec.entries,
      bytes: fec.bytes,
      seconds: round(fec.seconds),
      cpuSeconds: fec.cpuSeconds,
      databaseCpuSeconds: fec.databaseCpuSeconds,
      entriesPerSecond: Math.round(fec.entries / fec.seconds),
      peakRssMb: fec.peakRssMb,
      baselineRssMb: fec.baselineRssMb,
      runRssMb: fec.peakRssMb - fec.baselineRssMb,
      goal: `under ${goal.seconds} s and ${goal.peakRssMb} MB`,
      goalMet,
      expectedEntries: entries,
    });
    options.progress('exports: the anchor (same rows, same bytes, no FEC)');
    const anchor = await child(
      {
        ...env,
        BENCH_EXPORT_MODE: 'anchor',
        BENCH_ANCHOR_BYTES: String(fec.bytes),
        BENCH_ANCHOR_ROWS: String(entries),
      },
      options.databasePid,
    );
    options.emit({
      name: 'exports-anchor',
      rows: anchor.rows,
      bytes: anchor.bytes,
      seconds: round(anchor.seconds),
      cpuSeconds: anchor.cpuSeconds,
      databaseCpuSeconds: anchor.databaseCpuSeconds,
      peakRssMb: anchor.peakRssMb,
      baselineRssMb: anchor.baselineRssMb,
      ratioFecToAnchor: round(fec.seconds / anchor.seconds),
    });
    return {
      errors,
      entries: fec.entries,
      seconds: round(fec.seconds),
      peakRssMb: fec.peakRssMb,
      anchorSeconds: round(anchor.seconds),
      goalMet,
    };
  } finally {
    await disconnect(connection);
  }
}
