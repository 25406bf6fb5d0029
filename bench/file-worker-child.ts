/**
 * The file worker of the invoices bench (bench/invoices.ts), in a process of its own, as a
 * `worker` node beside the API would run it (niced, BENCH_FILE_WORKER_NICE, default 10): it generates the bench company's files (CII,
 * official validators, readable PDF, Factur-X) until the parent sends SIGTERM, and prints one
 * line on stdout when its validators are up (`ready`) and one when it stops (`stopped`).
 */
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { createFileWorker } from '../src/invoices/service.js';

// Below the API's CPU priority, as a worker node sharing the API's cores should run: the
// finalizations come first, the files follow. Set before the validation threads start, which inherit it.
setPriority(Number(process.env.BENCH_FILE_WORKER_NICE ?? 10));

const url = process.env.DATABASE_URL!;
const companyId = process.env.BENCH_COMPANY_ID!;

const connection = connect(url, 4);
const deps = makeDeps(
  connection,
  { ...loadConfig({ LOG_LEVEL: 'warn' }), databaseUrl: url },
  createLogger('warn', 'stderr'),
  {
    mailer: null,
  },
);
const worker = createFileWorker(deps, {
  // The compiled stylesheets the test suite caches, when present: compiling them takes a minute.
  cacheDir: process.env.BENCH_SEF_CACHE ?? join(tmpdir(), 'facteur-sef-cache'),
  companyIds: [companyId],
});
await worker.start();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker
    .stop()
    .then(() => disconnect(connection))
    .then(() => {
      process.stdout.write('stopped\n');
      process.exit(0);
    });
});
