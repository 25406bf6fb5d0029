/**
 * `BENCH_ONLY=platform npm run bench`: deposits per second through the platform connector to
 * pa-simulator (its own process, HTTPS), beside a bare loop that POSTs the same Factur-X files to
 * the same simulator with undici: same TLS, same keep-alive pool, same concurrency. The ratio is
 * what the connector keeps of the bare loop (the whole pipeline's goal, later: at least 0.7).
 *
 * Each loop deposits every file once; the simulator is reset between loops so that both see the
 * same work (no duplicates). Loops alternate (bare, connector, bare, connector) and the best of
 * each is kept. Environment: BENCH_PLATFORM_DOCUMENTS (default 300), BENCH_PLATFORM_CONCURRENCY
 * (default 8).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, FormData, request } from 'undici';
import { loadCertificate } from '../src/http/tls.js';
import { loadConfig } from '../src/config.js';
import { writeCii } from '../src/documents/cii-writer.js';
import { buildFacturX } from '../src/documents/facturx.js';
import { checkDraftConformance } from '../src/documents/draft-conformance.js';
import { AfnorConnector } from '../src/platform/afnor-connector.js';
import { corpus } from '../test/documents/corpus-arbitrary.js';

export interface PlatformBenchOptions {
  scratch: string;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${raw}"`);
  return value;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function runPlatformBench(options: PlatformBenchOptions) {
  const { progress, emit } = options;
  const count = Math.round(positive('BENCH_PLATFORM_DOCUMENTS', 300));
  const concurrency = Math.round(positive('BENCH_PLATFORM_CONCURRENCY', 8));
  const tls = await loadCertificate({ ...loadConfig({}), dataDir: join(options.scratch, 'pa-simulator') }, progress);

  progress(`platform: building ${count} Factur-X files`);
  const models = corpus(count, 20261125, (model) => checkDraftConformance(model).length === 0).documents.map(
    ({ model }, index) => ({
      ...model,
      number: `F2026-B${String(index + 1).padStart(6, '0')}`,
    }),
  );
  const files = await Promise.all(
    models.map(async (model) => ({ number: model.number, pdf: await buildFacturX(model, writeCii(model)) })),
  );
  const averageKb = round(files.reduce((sum, file) => sum + file.pdf.length, 0) / files.length / 1024, 1);

  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'platform-simulator-child.ts'),
      tls.certPath,
      join(options.scratch, 'pa-simulator', 'tls', 'key.pem'),
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
  const { url, client, adminToken } = JSON.parse(first) as {
    url: string;
    client: { clientId: string; clientSecret: string };
    adminToken: string;
  };
  const dispatcher = () => new Agent({ connect: { ca: tls.cert }, keepAliveTimeout: 30_000, connections: concurrency });
  const admin = async (path: string) => {
    const answer = await request(`${url}${path}`, {
      method: path.endsWith('stats') ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      dispatcher: bareAgent,
    });
    return answer.body.json() as Promise<{ deposits?: number }>;
  };
  const bareAgent = dispatcher();
  const connectorAgent = dispatcher();
  try {
    // The bare loop: one token, then multipart POSTs, nothing else.
    const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
    const tokenAnswer = await request(`${url}/auth-service/${client.clientId}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      dispatcher: bareAgent,
    });
    const token = ((await tokenAnswer.body.json()) as { access_token: string }).access_token;
    const bare = async (file: (typeof files)[number]) => {
      const form = new FormData();
      const info = {
        trackingId: `bare-${file.number}`,
        name: `${file.number}.pdf`,
        flowSyntax: 'Factur-X',
        flowProfile: 'Extended-CTC-FR',
        sha256: createHash('sha256').update(file.pdf).digest('hex'),
      };
      form.set('flowInfo', new Blob([JSON.stringify(info)], { type: 'application/json' }));
      form.set('file', new Blob([file.pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), info.name);
      const answer = await request(`${url}/flow-service/v1/flows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
        dispatcher: bareAgent,
      });
      await answer.body.dump();
      if (answer.statusCode !== 202) throw new Error(`bare deposit answered ${answer.statusCode}`);
    };
    const connector = new AfnorConnector({ connection: { baseUrl: url, ...client }, dispatcher: connectorAgent });
    const throughConnector = async (file: (typeof files)[number]) => {
      const result = await connector.deposit({
        file: file.pdf,
        name: `${file.number}.pdf`,
        syntax: 'Factur-X',
        trackingId: `conn-${file.number}`,
      });
      if (!result.ok) throw new Error(`connector deposit failed: ${result.message}`);
    };

    const loop = async (name: string, work: (file: (typeof files)[number]) => Promise<void>, items = files) => {
      await admin('/simulator/reset');
      const cpu = process.cpuUsage();
      const started = performance.now();
      await pool(items, concurrency, work);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const stats = await admin('/simulator/stats');
      if (stats.deposits !== items.length)
        throw new Error(`${name}: the simulator counted ${stats.deposits} deposits of ${items.length}`);
      return {
        perSecond: round(items.length / seconds, 1),
        clientCpuMsPerDeposit: round((used.user + used.system) / 1000 / items.length, 3),
      };
    };

    progress('platform: warming up');
    await loop('warm-up bare', bare, files.slice(0, 30));
    await loop('warm-up connector', throughConnector, files.slice(0, 30));
    const runs = {
      bare: [] as Awaited<ReturnType<typeof loop>>[],
      connector: [] as Awaited<ReturnType<typeof loop>>[],
    };
    for (let round_ = 0; round_ < 2; round_ += 1) {
      runs.bare.push(await loop('bare', bare));
      progress(`platform: bare loop ${runs.bare.at(-1)!.perSecond} deposits/s`);
      runs.connector.push(await loop('connector', throughConnector));
      progress(`platform: connector ${runs.connector.at(-1)!.perSecond} deposits/s`);
    }
    const best = (list: Awaited<ReturnType<typeof loop>>[]) =>
      list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    const result = {
      documents: count,
      averageFileKb: averageKb,
      concurrency,
      bare: best(runs.bare),
      connector: best(runs.connector),
      ratio: round(best(runs.connector).perSecond / best(runs.bare).perSecond, 3),
      tokensFetched: connector.tokensFetched,
    };
    emit({ name: 'platform-deposits', ...result });
    await connector.close();
    return result;
  } finally {
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
    await bareAgent.close();
    await connectorAgent.close();
  }
}
