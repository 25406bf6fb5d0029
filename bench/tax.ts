/**
 * The tax-decision bench (issue 5), run by bench/run.ts after the customers bench:
 *   tax-decisions-api     POST /v1/tax-decisions of a 20-line mixed invoice (goods, services and
 *                         electronic services at several rate categories, a French business buyer)
 *                         through the API over HTTPS, autocannon, rotating over test keys:
 *                         decisions per second, written to PostgreSQL
 *   tax-decisions-engine  the same operation through the bare pure engine (buyer resolution,
 *                         place of supply, rates, amounts, mentions, axes), in this process:
 *                         decisions per second
 * One JSON line each on stdout. Environment: BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as for the other scenarios.
 */
import { request as httpsRequest } from 'node:https';
import autocannon from 'autocannon';
import { resolveBuyer } from '../src/tax/buyer.js';
import { conclude, prepare, type Operation, type Seller } from '../src/tax/engine.js';
import { vatTerritoryOf } from '../src/tax/vat-territory.js';

export interface TaxBenchOptions {
  port: number;
  cert: string;
  /** New test keys of the bench company (the server process makes them). */
  createKeys: (count: number) => Promise<string[]>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

const natures = ['goods', 'services', 'electronic_service'] as const;
const categories = ['standard', 'intermediate', 'reduced', 'super_reduced'] as const;
const lines = Array.from({ length: 20 }, (_, i) => ({
  description: `Article ${i + 1}`,
  quantity: i % 3 === 0 ? '1.5' : String(i + 1),
  unitPrice: (12.3456 * (i + 1)).toFixed(4),
  nature: natures[i % natures.length]!,
  rateCategory: categories[i % categories.length]!,
}));
const today = new Date().toISOString().slice(0, 10);
const decisionBody = {
  taxSource: 'service' as const,
  date: today,
  currency: 'EUR' as const,
  customer: { type: 'company' as const, address: { postalCode: '75002', country: 'FR' } },
  lines,
};
const profileBody = {
  validFrom: `${today.slice(0, 4)}-01-01`,
  establishment: { siret: '73282932000017', postalCode: '75002', country: 'FR' },
  vatNumber: 'FR44732829320',
  regime: 'normal',
  vatOnDebits: false,
  ossRegistered: true,
  ereportingPeriodicity: 'monthly',
};

function call(
  options: TaxBenchOptions,
  method: string,
  path: string,
  key: string,
  body: unknown,
): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: options.port,
        path,
        method,
        ca: options.cert,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(text);
  });
}

function engineThroughput(seconds: number): {
  decisionsPerSecond: number;
  decisions: number;
  microsecondsPerDecision: number;
} {
  const mainland = vatTerritoryOf('FR', '75002');
  if (!mainland.ok) throw new Error('mainland territory');
  const seller: Seller = {
    profileId: 'txp_bench',
    place: { territory: mainland.territory, area: 'mainland' },
    regime: 'normal',
    vatNumber: 'FR44732829320',
    vatOnDebits: false,
    ossRegistered: true,
    ereportingPeriodicity: 'monthly',
  };
  const operation: Operation = { taxSource: 'service', date: today, currency: 'EUR', lines, locationEvidence: [] };
  const decide = () => {
    const buyer = resolveBuyer({
      type: 'company',
      vatNumber: null,
      address: { postalCode: '75002', country: 'FR' },
      deliveryAddress: null,
    });
    const result = conclude(operation, seller, buyer, prepare(operation, seller, buyer), null);
    if (result.status !== 'final') throw new Error('the bench decision is not final');
  };
  for (let i = 0; i < 2000; i++) decide();
  let decisions = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) decide();
    decisions += 100;
  }
  const elapsed = (performance.now() - started) / 1000;
  return {
    decisionsPerSecond: round(decisions / elapsed, 0),
    decisions,
    microsecondsPerDecision: round((elapsed * 1e6) / decisions, 1),
  };
}

export async function runTaxBench(options: TaxBenchOptions): Promise<{ errors: number }> {
  const { progress, emit } = options;
  // Test-mode writes count toward the per-minute limit (1,000 per key on the pro plan).
  const keys = await options.createKeys(40);
  const profile = await call(options, 'POST', '/v1/tax-profiles', keys[0]!, profileBody);
  if (profile.status !== 201 && !profile.body.includes('tax_profile_ambiguous'))
    throw new Error(`tax profile: ${profile.status} ${profile.body.slice(0, 300)}`);
  const probe = await call(options, 'POST', '/v1/tax-decisions', keys[0]!, decisionBody);
  if (probe.status !== 201) throw new Error(`tax decision probe: ${probe.status} ${probe.body.slice(0, 500)}`);

  progress(
    `tax-decisions-api: POST /v1/tax-decisions, 20 lines; ${options.warmupSeconds} s warmup + ${options.seconds} s measured, ${options.connections} connections`,
  );
  let next = 0;
  const payload = JSON.stringify(decisionBody);
  const run = (seconds: number) =>
    autocannon({
      url: `https://127.0.0.1:${options.port}/v1/tax-decisions`,
      method: 'POST',
      connections: options.connections,
      pipelining: 1,
      duration: seconds,
      timeout: 10,
      tlsOptions: { ca: options.cert, servername: 'localhost' },
      requests: [
        {
          method: 'POST',
          body: payload,
          setupRequest: (request) => ({
            ...request,
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              authorization: `Bearer ${keys[next++ % keys.length]}`,
            },
          }),
        },
      ],
    });
  await run(options.warmupSeconds);
  const result = await run(options.seconds);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]),
  );
  const apiRate = round(result.requests.total / result.duration, 1);
  emit({
    name: 'tax-decisions-api',
    decisionsPerSecond: apiRate,
    linesPerDecision: lines.length,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    requests: result.requests.total,
    durationSeconds: result.duration,
    statusCodes,
    method: 'POST',
    path: '/v1/tax-decisions',
    apiKeys: keys.length,
  });

  progress(`tax-decisions-engine: the pure engine on the same operation for ${options.seconds} s`);
  const engine = engineThroughput(options.seconds);
  emit({
    name: 'tax-decisions-engine',
    ...engine,
    linesPerDecision: lines.length,
    apiShareOfEngine: round(apiRate / engine.decisionsPerSecond, 4),
  });
  return { errors: result.errors + result.non2xx };
}
