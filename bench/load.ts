/** One scenario under load: autocannon over HTTPS, a warmup run, then the measured run. */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadOptions {
  port: number;
  path: string;
  method: 'GET' | 'POST';
  /** The server's self-signed certificate (see `ca` below). */
  cert: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Sets per-request headers (rotating API keys, unique Idempotency-Key). */
  headers?: () => Record<string, string>;
  /** Stops the run early when this rejects (the server process died). */
  abort: Promise<never>;
}

export interface RunStats {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU time this (load generator) process used during the run, in ms. */
  loadGeneratorCpuMs: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function runOnce(options: LoadOptions, seconds: number): Promise<RunStats> {
  const { headers } = options;
  const instance = autocannon({
    url: `https://127.0.0.1:${options.port}${options.path}`,
    method: options.method,
    connections: options.connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    // autocannon 9 always connects with rejectUnauthorized: false (lib/httpClient.js), so the
    // CA is informational here; the sanity probe in run.ts does verify the certificate.
    tlsOptions: { ca: options.cert, servername: 'localhost' },
    ...(headers
      ? { requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...headers() } }) }] }
      : {}),
  });
  // autocannon's own latency histogram has 1 ms resolution; keep the exact response times.
  const latencies: number[] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
  });
  const cpuBefore = process.cpuUsage();
  let finished = false;
  let aborted: unknown = null;
  void options.abort.catch((error: unknown) => {
    if (finished) return;
    aborted = error;
    instance.stop();
  });
  const result = await instance;
  finished = true;
  if (aborted) throw aborted;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]),
  );
  return {
    requests: result.requests.total,
    durationSeconds: result.duration,
    requestsPerSecond: round(result.requests.total / result.duration, 1),
    p50Ms: round(percentile(sorted, 50), 3),
    p90Ms: round(percentile(sorted, 90), 3),
    p99Ms: round(percentile(sorted, 99), 3),
    maxMs: round(sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN, 3),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    loadGeneratorCpuMs: round((cpu.user + cpu.system) / 1000, 0),
  };
}

export interface Measured {
  warmup: RunStats;
  run: RunStats;
}

/**
 * Warms up (a separate run of `warmupSeconds` whose numbers only serve to spot errors), then
 * measures. `between` runs after the warmup, before the measured run (to reset counters).
 */
export async function measure(options: LoadOptions, between?: () => Promise<void>): Promise<Measured> {
  const warmup = await runOnce(options, options.warmupSeconds);
  if (between) await between();
  const run = await runOnce(options, options.seconds);
  return { warmup, run };
}

/** CPU time in seconds of a process and all its descendants, from /proc (Linux); null elsewhere. */
export function processTreeCpuSeconds(rootPid: number, ticksPerSecond = 100): number | null {
  try {
    const stats = new Map<number, { ppid: number; ticks: number }>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let text: string;
      try {
        text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // "pid (comm) state ppid ... utime stime ...": comm may hold spaces, so split after its ')'.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // utime + stime, plus cutime + cstime: the children it has reaped (PostgreSQL's
      // autovacuum workers come and go), so the sum never loses a process that ended.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks });
    }
    if (!stats.has(rootPid)) return null;
    const children = new Map<number, number[]>();
    for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    let ticks = 0;
    const pending = [rootPid];
    for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
      ticks += stats.get(pid)?.ticks ?? 0;
      pending.push(...(children.get(pid) ?? []));
    }
    return ticks / ticksPerSecond;
  } catch {
    return null;
  }
}

/** Machine-wide CPU time from /proc/stat (Linux), to see how busy both cores were; null elsewhere. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}
