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
import { writeCii } from '../src/einvoice/cii-writer.js';
import { buildFacturX } from '../src/einvoice/facturx.js';
import { checkDraftConformance } from '../src/einvoice/draft-conformance.js';
import { AfnorConnector } from '../src/platform/afnor-connector.js';
import { corpus } from '../test/einvoice/corpus-arbitrary.js';
import { bareDepositor, inPool, startSimulatorProcess } from './platform-simulator-process.js';

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

export async function runPlatformBench(options: PlatformBenchOptions) {
  const { progress, emit } = options;
  const count = Math.round(positive('BENCH_PLATFORM_DOCUMENTS', 300));
  const concurrency = Math.round(positive('BENCH_PLATFORM_CONCURRENCY', 8));
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

  const simulator = await startSimulatorProcess(options.scratch, progress);
  const { url, client } = simulator;
  const bareAgent = simulator.agent(concurrency);
  const connectorAgent = simulator.agent(concurrency);
  try {
    const deposit = await bareDepositor(simulator, bareAgent);
    const bare = (file: (typeof files)[number]) => deposit(file, `bare-${file.number}`);
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
      await simulator.resetQuiet();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await inPool(items, concurrency, work);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const stats = await simulator.admin('GET', '/simulator/stats');
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
    await simulator.stop();
    await bareAgent.close();
    await connectorAgent.close();
  }
}
