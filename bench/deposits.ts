/**
 * `BENCH_ONLY=deposits npm run bench`: the deposit pipeline end to end (issue 15). A test company
 * whose head office is connected to pa-simulator (its own process, HTTPS) sends its finalized
 * invoices through the API; the deposit worker (as `serve` runs it: a claim loop woken by the
 * send's NOTIFY, 8 at a time) looks the buyer up in the directory and deposits each Factur-X.
 * Measured: deposits per second from the first send to the last deposit recorded, and each
 * document's time from its `send` to its deposit recorded (p50, p99).
 *
 * Anchor, in the same run: a bare loop that POSTs the same stored Factur-X files to the same
 * simulator with undici (one token, same TLS, keep-alive and concurrency). By rounds (default 3):
 * a bare loop, a backlog drained, ..., a last bare loop; each round's drain against the better of
 * the bare loops beside it, the median of the rounds reported. Goal: the pipeline keeps at least
 * 0.7 of the bare loop's rate.
 * Environment: BENCH_DEPOSITS_DOCUMENTS (default 300, per set), BENCH_DEPOSITS_ROUNDS (default 3), BENCH_DEPOSITS_NODE_FLAGS (the run's
 * process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_DEPOSITS_DRAIN_PROFILE (a file: the CPU profile
 * of the drain alone).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadCertificate } from '../src/http/tls.js';
import { loadConfig } from '../src/config.js';

export interface DepositBenchOptions {
  databaseUrl: string;
  /** The embedded database's postmaster, for its CPU time (null: a server elsewhere). */
  databasePid: number | null;
  scratch: string;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

export async function runDepositBench(options: DepositBenchOptions): Promise<Record<string, unknown>> {
  // The simulator's certificate made now, so the child trusts it from its start.
  const tls = await loadCertificate(
    { ...loadConfig({}), dataDir: join(options.scratch, 'pa-simulator') },
    options.progress,
  );
  const result = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_DEPOSITS_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
        '--import',
        'libxml2-wasm',
        '--import',
        'tsx',
        join(import.meta.dirname, 'deposits-child.ts'),
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: options.databaseUrl,
          BENCH_DATABASE_PID: options.databasePid === null ? '' : String(options.databasePid),
          BENCH_SCRATCH: options.scratch,
          NODE_EXTRA_CA_CERTS: tls.certPath,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`deposit bench child exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      } catch (error) {
        reject(error);
      }
    });
  });
  options.emit({ name: 'deposits-pipeline', ...result });
  return result;
}
