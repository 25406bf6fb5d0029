/**
 * `BENCH_ONLY=statements` (also last in a full run): what building a statement costs beside
 * filling its template (`statementTemplate`, `rowInsert` in src/db/prepared-statement.ts), in this
 * process and without a database. Measured: the insert of an event row by one `rowInsert(events)`
 * made once (built at its first run, each run then filling its placeholders), against the anchor,
 * the same helper made anew for each run (built, then filled: the query builder's walk over the
 * statement's fragments, which every statement that is not a template pays at each run). The
 * statement goes to an executor whose session answers at once. Rounds (BENCH_STATEMENT_ROUNDS,
 * default 3) of BENCH_STATEMENT_RUNS (default 20,000) each way; each round's ratio, the median.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Executor } from '../src/db/database.js';
import { rowInsert } from '../src/db/prepared-statement.js';
import { events } from '../src/webhooks/schema.js';
import type { EventRow } from '../src/webhooks/event-store.js';

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${raw}"`);
  return value;
}

export async function runStatementBench(options: {
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}): Promise<{ ratio: number; errors: number }> {
  const rounds = Math.round(positive('BENCH_STATEMENT_ROUNDS', 3));
  const runs = Math.round(positive('BENCH_STATEMENT_RUNS', 20_000));
  const db = drizzle.mock() as unknown as Executor;
  const sent: { sql: string; params: unknown[] }[] = [];
  // The session of a database that answers at once: what is measured is the work before the wire.
  (db._.session as unknown as { prepareQuery: unknown }).prepareQuery = (query: {
    sql: string;
    params: unknown[];
  }) => ({
    execute: async () => {
      if (sent.length < 2) sent.push(query);
      return { rows: [], fields: [] };
    },
  });
  const at = new Date('2026-03-01T10:00:00.123Z');
  const row = (index: number): EventRow => ({
    companyId: 'cmp_01m8hyephab29v864ed49rb515',
    livemode: false,
    id: `evt_${String(index).padStart(26, '0')}`,
    type: 'invoice.finalized',
    apiVersion: '2026-01-01',
    created: at,
    data: { object: 'invoice', id: 'inv_1', number: 'F2026-000042', total: 29900, lines: [{ quantity: '2' }] },
    retainedUntil: at,
    request: { id: 'req_1', idempotency_key: 'key-1' },
  });
  const template = rowInsert(events);
  const timed = async (work: (index: number) => Promise<void>) => {
    const started = performance.now();
    for (let index = 0; index < runs; index += 1) await work(index);
    return ((performance.now() - started) * 1000) / runs;
  };
  // Both ways produce the same statement and parameters (checked once), then warm up.
  await template(db, row(0));
  await rowInsert(events)(db, row(0));
  const errors = JSON.stringify(sent[0]) === JSON.stringify(sent[1]) ? 0 : 1;
  if (errors > 0) options.progress('statements: the template and the built statement differ');
  await timed((index) => template(db, row(index)));
  await timed((index) => rowInsert(events)(db, row(index)));
  const results: { templateUs: number; builtUs: number; ratio: number }[] = [];
  for (let index = 0; index < rounds; index += 1) {
    const builtUs = await timed((i) => rowInsert(events)(db, row(i)));
    const templateUs = await timed((i) => template(db, row(i)));
    results.push({ templateUs: round(templateUs), builtUs: round(builtUs), ratio: round(builtUs / templateUs, 1) });
    options.progress(`statements: round ${index + 1}: built ${round(builtUs)} µs, template ${round(templateUs)} µs`);
  }
  const median = [...results].sort((a, b) => a.ratio - b.ratio)[Math.floor(results.length / 2)]!;
  options.emit({
    name: 'statement-template',
    description:
      "an event row's insert: rowInsert made once (filled at each run) against rowInsert made anew for each run (built, then filled), no database",
    templateUsPerRun: median.templateUs,
    builtUsPerRun: median.builtUs,
    ratioBuiltToTemplate: median.ratio,
    rounds: results,
    runs,
    sameStatement: errors === 0,
  });
  return { ratio: median.ratio, errors };
}
