/**
 * A process that finalizes one invoice and stops while its transaction holds the series' counter
 * (the number taken, nothing committed), printing `HOLDING <number>`: the parent kills it with
 * SIGKILL there. Arguments: companyId invoiceId; DATABASE_URL from the environment.
 */
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { connect } from '../../../src/db/database.js';
import { makeDeps, type Deps } from '../../../src/deps.js';
import { finalize } from '../../../src/invoices/service.js';

const [companyId, invoiceId] = process.argv.slice(2);
const url = process.env.DATABASE_URL!;
const deps = makeDeps(
  connect(url, 2),
  { ...loadConfig({}), databaseUrl: url },
  pino({ level: 'silent' }) as unknown as Deps['log'],
  { mailer: null },
);
const ctx = {
  scope: { companyId: companyId!, livemode: false },
  requestId: null,
  idempotencyKey: null,
  apiVersion: '2026-09-01',
  now: new Date(),
};
await finalize(
  deps,
  ctx,
  'invoice',
  invoiceId!,
  { siren: '100000009', plan: 'pro' },
  {
    afterNumber: async (number) => {
      process.stdout.write(`HOLDING ${number}\n`);
      await new Promise(() => undefined);
    },
  },
);
