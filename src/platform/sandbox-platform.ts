import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { selfSigned } from '../kernel/self-signed-certificate.js';
import { AfnorConnector } from './afnor-connector.js';
import type { PlatformConnector } from './connector.js';
import { PlatformSimulator } from './simulator/simulator.js';

/**
 * The sandbox's approved platform: a `pa-simulator` this process runs on 127.0.0.1, reached over
 * HTTPS by the same AFNOR connector as a live platform. Each company has its own account on it
 * (its own client, so its own flows, duplicates and cursor). Started on first use, with a
 * certificate made for it in memory and pinned by its connectors: nothing to configure, nothing
 * written to disk. Its flows live as long as the process: a document it does not know (another
 * node, a restart) is simply deposited on it again.
 */
export class SandboxPlatform {
  private started: Promise<{ simulator: PlatformSimulator; dispatcher: Agent }> | null = null;
  private readonly connectors = new Map<string, AfnorConnector>();

  /** `maxFlows`: what the simulator keeps (default 10,000 flows, some tens of MB); older ones are deposited again when needed. */
  constructor(private readonly options: { maxFlows?: number } = {}) {}

  private start() {
    this.started ??= (async () => {
      const pems = await selfSigned();
      // Nothing scripted runs by itself: each status comes from a `report`.
      const simulator = new PlatformSimulator({
        tls: { cert: pems.cert, key: pems.private },
        scenarios: { '*': { statuses: [] } },
        maxFlows: this.options.maxFlows ?? 10_000,
      });
      await simulator.start(0, '127.0.0.1');
      const dispatcher = new Agent({ connect: { ca: pems.cert, timeout: 5_000 }, connections: 16 });
      return { simulator, dispatcher };
    })().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  /** The simulator, started: the sandbox scripts it (the buyer's or the platform's word). */
  async simulator(): Promise<PlatformSimulator> {
    return (await this.start()).simulator;
  }

  /** The client id of a company's account on the sandbox platform. */
  clientIdOf(companyId: string): string {
    return `sandbox-${companyId}`;
  }

  /** The connector of a company's account (opened on first use). */
  async connectorOf(companyId: string): Promise<PlatformConnector> {
    const { simulator, dispatcher } = await this.start();
    const clientId = this.clientIdOf(companyId);
    let connector = this.connectors.get(clientId);
    if (!connector) {
      const client = { clientId, clientSecret: randomBytes(18).toString('base64url') };
      simulator.admit(client);
      connector = new AfnorConnector({ connection: { baseUrl: simulator.url, ...client }, dispatcher });
      this.connectors.set(clientId, connector);
    }
    return connector;
  }

  async stop(): Promise<void> {
    const started = this.started;
    this.started = null;
    this.connectors.clear();
    if (!started) return;
    const { simulator, dispatcher } = await started.catch(() => ({ simulator: null, dispatcher: null }));
    await simulator?.stop();
    await dispatcher?.close();
  }
}
