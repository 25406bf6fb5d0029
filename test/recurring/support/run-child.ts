/**
 * A worker that runs the recurring invoices of one company at a given time and stops in the
 * middle of a run, printing `STOPPED <where>`: the parent kills it with SIGKILL there.
 * Arguments: companyId, the clock (ISO), and where to stop: `after-start` (the draft committed,
 * the finalization not begun) or `while-finalizing` (the number taken, nothing committed).
 */
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { connect } from '../../../src/db/database.js';
import { makeDeps, type Deps } from '../../../src/deps.js';
import { ManualClock } from '../../../src/kernel/clock.js';
import { runRecurringInvoices } from '../../../src/recurring/runs.js';

const [companyId, at, where] = process.argv.slice(2);
const url = process.env.DATABASE_URL!;
const deps = makeDeps(
  connect(url, 3),
  { ...loadConfig({}), databaseUrl: url },
  pino({ level: 'silent' }) as unknown as Deps['log'],
  { mailer: null, clock: new ManualClock(at!) },
);
const stop = async (message: string) => {
  process.stdout.write(`STOPPED ${message}\n`);
  await new Promise(() => undefined);
};
await runRecurringInvoices(
  deps,
  [companyId!],
  where === 'after-start'
    ? { afterStart: (key) => stop(`${key.recurringInvoiceId} ${key.period}`) }
    : { whileFinalizing: (number) => stop(number) },
);
process.stdout.write('FINISHED\n');
