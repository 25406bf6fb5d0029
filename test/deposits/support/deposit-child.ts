/**
 * A deposit worker in a process of its own that stops for good once the platform accepted its
 * deposit, before the service records it, printing `DEPOSITED <documentId>`: the parent kills it
 * with SIGKILL there. Arguments: companyId and the clock's time (ISO, the parent's test clock);
 * DATABASE_URL, FACTEUR_ENCRYPTION_KEY (the parent's) and NODE_EXTRA_CA_CERTS (the simulator's
 * certificate) from the environment.
 */
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { connect } from '../../../src/db/database.js';
import { makeDeps, type Deps } from '../../../src/deps.js';
import { ManualClock } from '../../../src/kernel/clock.js';
import { depositWorkerOf } from './deposit-worker.js';

const [companyId, at] = process.argv.slice(2);
const url = process.env.DATABASE_URL!;
const deps = makeDeps(
  connect(url, 2),
  // The parent's simulator listens on 127.0.0.1, as the harness allows.
  {
    ...loadConfig({ FACTEUR_ENCRYPTION_KEY: process.env.FACTEUR_ENCRYPTION_KEY }),
    databaseUrl: url,
    allowPrivatePlatforms: true,
  },
  pino({ level: 'silent' }) as unknown as Deps['log'],
  { clock: new ManualClock(at!), mailer: null },
);
const worker = depositWorkerOf(deps, {
  companyIds: [companyId!],
  retryBudgetMs: 0,
  afterDeposit: async (flow) => {
    process.stdout.write(`DEPOSITED ${flow.ownerId}\n`);
    await new Promise(() => undefined);
  },
});
// Through the claim loop, as a service's worker: its heartbeat renews the job's lease until the kill.
if ((await worker.drain()) === 0) {
  process.stdout.write('NOTHING TO DEPOSIT\n');
  process.exit(3);
}
