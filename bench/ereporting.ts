/**
 * The e-reporting bench (issue 16), alone with BENCH_ONLY=ereporting:
 *   ereporting-seed       BENCH_EREPORTING_SALES consumer sales (default 100,000) of one company
 *                         over October 2026, inserted by bulk insert (src/db/bulk-insert.ts):
 *                         finalized invoices whose decision made the B2C e-reporting due, one or
 *                         two lines (goods at 20 % or 5.5 %, services at 20 %)
 *   ereporting-aggregate  in a process of its own: the pass's gathering of that month into its
 *                         declarations (three per month by decade: 10.3 aggregated per day,
 *                         category and rate; every sale recorded as reported), then each
 *                         declaration written as flow 10 XML and validated against its XSD.
 *                         Wall time and peak RSS. Goal: under 10 s and 300 MB.
 * One JSON line each on stdout.
 */
import { spawn } from 'node:child_process';
import { compiledChild } from './compiled-child.js';
import { connect, disconnect, migrateDatabase } from '../src/db/database.js';
import { bulkInsert } from '../src/db/bulk-insert.js';
import { createCompany } from '../src/companies/service.js';
import { createTaxProfile } from '../src/tax-profiles/service.js';
import { seedHeadOffices } from '../src/establishments/service.js';
import { invoices } from '../src/invoices/schema.js';
import { systemClock } from '../src/kernel/clock.js';

export interface EreportingBenchOptions {
  databaseUrl: string;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

export interface EreportingBenchResult {
  errors: number;
  sales: number;
  seconds: number;
  peakRssMb: number;
  goalMet: boolean;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const goal = { seconds: 10, peakRssMb: 300 };
const siren = '100000009';
const b2c = {
  einvoicing: { state: 'not_applicable', reason: 'buyer_not_taxable_person' },
  ereportingTransaction: { state: 'due', reason: 'b2c' },
  ereportingPayment: { state: 'not_applicable', reason: 'no_services_taxed_in_france' },
};

type InvoiceRow = typeof invoices.$inferInsert;

/** Sale `g`: its day of October, its lines and amounts (cents), as finalization leaves them. */
function sale(companyId: string, g: number): InvoiceRow {
  const day = `2026-10-${String(1 + (g % 31)).padStart(2, '0')}`;
  const line = (nature: string, rate: string, net: number) => ({
    productId: null,
    description: nature === 'goods' ? 'Article' : 'Service',
    quantity: '1',
    unitPrice: (net / 100).toFixed(2),
    unit: 'C62',
    nature,
    rateCategory: rate === '20.00' ? 'standard' : 'reduced',
    vatRate: rate,
    vatCode: 'S',
    vatexCode: null,
    netAmount: net,
  });
  const lines = [line('goods', g % 5 === 0 ? '5.50' : '20.00', 1000 + (g % 5000))];
  if (g % 3 === 0) lines.push(line('services', '20.00', 2500 + (g % 700)));
  const byRate = new Map<string, number>();
  for (const l of lines) byRate.set(l.vatRate, (byRate.get(l.vatRate) ?? 0) + l.netAmount);
  const vatBreakdown = [...byRate].map(([rate, taxable]) => ({
    vatCode: 'S',
    vatRate: rate,
    vatexCode: null,
    taxableAmount: taxable,
    taxAmount: Math.round((taxable * Number(rate)) / 100),
  }));
  const subtotal = lines.reduce((a, l) => a + l.netAmount, 0);
  const totalTax = vatBreakdown.reduce((a, v) => a + v.taxAmount, 0);
  const at = new Date(`${day}T12:00:00Z`);
  return {
    companyId,
    livemode: true,
    id: `inv_${String(g).padStart(26, '0')}`,
    kind: 'invoice',
    number: `F2026-${String(g).padStart(7, '0')}`,
    series: 'F2026',
    status: 'paid',
    documentStatus: 'finalized',
    transmissionStatus: 'not_applicable',
    transmissionDetail: null,
    paymentStatus: 'paid',
    customerId: null,
    buyer: { type: 'individual', name: `Client ${g}`, address: { country: 'FR' } } as never,
    currency: 'EUR',
    taxSource: 'service',
    taxDecisionId: null,
    backingDecisionId: null,
    lines: lines as never,
    issueDate: day,
    dueDate: day,
    deliveryDate: null,
    paymentTermsDays: null,
    paymentTerms: null,
    notes: null,
    metadata: {},
    subtotal,
    totalTax,
    total: subtotal + totalTax,
    amountPaid: subtotal + totalTax,
    amountRefunded: 0,
    amountCredited: 0,
    tax: { decisionId: `txd_${g}`, date: day, vatBreakdown, mentions: [], obligations: b2c },
    einvoicing: { previousSubmissions: [] } as never,
    history: [],
    relatedInvoiceId: null,
    relatedInvoiceNumber: null,
    quoteId: null,
    recurringInvoiceId: null,
    portalToken: null,
    dueAt: null,
    overdueAt: null,
    finalizedAt: at,
    created: at,
    updated: at,
  };
}

async function child(env: Record<string, string>): Promise<Record<string, any>> {
  const command = await compiledChild(new URL('./ereporting-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    // BENCH_EREPORTING_NODE_FLAGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the run.
    const flags = process.env.BENCH_EREPORTING_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const proc = spawn(process.execPath, [...flags, ...command], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`e-reporting child exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      } catch (error) {
        reject(error);
      }
    });
  });
}

export async function runEreportingBench(options: EreportingBenchOptions): Promise<EreportingBenchResult> {
  const sales = Number(process.env.BENCH_EREPORTING_SALES ?? 100_000);
  if (!Number.isInteger(sales) || sales < 10)
    throw new Error('BENCH_EREPORTING_SALES must be an integer of 10 or more');
  const connection = connect(options.databaseUrl, 4);
  try {
    await migrateDatabase(options.databaseUrl);
    const deps = { db: connection.db, clock: systemClock };
    const company = await createCompany(deps, { name: 'Boutique SAS', siren });
    // A tax profile names one of the company's establishments: the head office, SIRET 10000000900017.
    await seedHeadOffices(deps, company.id, siren);
    await createTaxProfile(
      deps,
      {
        scope: { companyId: company.id, livemode: true },
        requestId: null,
        idempotencyKey: null,
        apiVersion: '2026-09-01',
        now: new Date(),
      },
      {
        validFrom: '2026-01-01',
        establishment: { siret: '10000000900017', postalCode: '75008', country: 'FR' },
        vatNumber: 'FR88100000009',
        regime: 'normal',
        vatOnDebits: false,
        ossRegistered: false,
        ereportingPeriodicity: 'three_per_month',
      },
    );
    options.progress(`ereporting: seeding ${sales.toLocaleString('en')} consumer sales of October by bulk insert`);
    const seedStarted = performance.now();
    for (let start = 1; start <= sales; start += 5000) {
      const rows: InvoiceRow[] = [];
      for (let g = start; g < Math.min(start + 5000, sales + 1); g++) rows.push(sale(company.id, g));
      await bulkInsert(connection.db, invoices, rows);
    }
    await connection.pool.query('analyze invoices');
    options.emit({ name: 'ereporting-seed', sales, seconds: round((performance.now() - seedStarted) / 1000, 1) });

    options.progress('ereporting: the month aggregated into its declarations, in its own process');
    const run = await child({ DATABASE_URL: options.databaseUrl, BENCH_COMPANY_ID: company.id });
    const errors = run.operations === sales && run.problems === 0 ? 0 : 1;
    const goalMet = run.seconds < goal.seconds && run.peakRssMb < goal.peakRssMb;
    options.emit({
      name: 'ereporting-aggregate',
      sales,
      operations: run.operations,
      declarations: run.declarations,
      lines: run.lines,
      xmlBytes: run.xmlBytes,
      schemaProblems: run.problems,
      gatherSeconds: round(run.gatherSeconds),
      xmlSeconds: round(run.xmlSeconds),
      seconds: round(run.seconds),
      salesPerSecond: Math.round(sales / run.seconds),
      peakRssMb: run.peakRssMb,
      baselineRssMb: run.baselineRssMb,
      goal: `under ${goal.seconds} s and ${goal.peakRssMb} MB`,
      goalMet,
    });
    return { errors, sales, seconds: round(run.seconds), peakRssMb: run.peakRssMb, goalMet };
  } finally {
    await disconnect(connection);
  }
}
