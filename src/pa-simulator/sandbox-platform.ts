import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { selfSigned } from '../kernel/self-signed-certificate.js';
import { AfnorConnector } from '../platform/afnor-connector.js';
import type { PlatformConnector } from '../platform/connector.js';
import type { Scenario } from './scenario.js';
import { PlatformSimulator, ReportRefused, type ReportedStatusInput } from './simulator.js';

/**
 * The sandbox's approved platform, reached over HTTPS by the same AFNOR connector as a live one.
 * By default a `pa-simulator` this process runs on 127.0.0.1, started on first use, with a
 * certificate made for it in memory and pinned by its connectors (nothing to configure, nothing
 * written to disk), each company with its own client on it (its own flows, duplicates, cursor).
 * Its flows live as long as the process: a document it does not know (another node, a restart)
 * is simply deposited on it again. Several nodes may share one `facteur pa-simulator` instead
 * (FACTEUR_SANDBOX_PA_URL and its client; its admin bearer to script it): every company is then
 * its one client.
 */

export interface SharedSandboxPlatform {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The simulator's admin bearer: without it, statuses cannot be scripted on it. */
  adminToken: string | null;
}

export interface SandboxPlatformOptions {
  /** A shared simulator instead of one in this process. */
  shared?: SharedSandboxPlatform | null;
  /** What the in-process simulator keeps (default 10,000 flows, some tens of MB); older ones are deposited again when needed. */
  maxFlows?: number;
}

export class SandboxPlatform {
  private started: Promise<{ simulator: PlatformSimulator; dispatcher: Agent }> | null = null;
  private readonly connectors = new Map<string, AfnorConnector>();

  constructor(private readonly options: SandboxPlatformOptions = {}) {}

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
      // It lives as long as the process, and must not keep it alive on its own.
      simulator.unref();
      const dispatcher = new Agent({ connect: { ca: pems.cert, timeout: 5_000 }, connections: 16 });
      return { simulator, dispatcher };
    })().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  /** The simulator this process runs (tests read its counters); null when the platform is shared. */
  async simulator(): Promise<PlatformSimulator | null> {
    return this.options.shared ? null : (await this.start()).simulator;
  }

  /** Whether statuses can be scripted on it (always in process; with its admin bearer when shared). */
  get scriptable(): boolean {
    return !this.options.shared || this.options.shared.adminToken !== null;
  }

  /** The client id a company's flows are under. */
  clientIdOf(companyId: string): string {
    return this.options.shared?.clientId ?? `sandbox-${companyId}`;
  }

  /** The connector of a company's account (opened on first use). */
  async connectorOf(companyId: string): Promise<PlatformConnector> {
    const clientId = this.clientIdOf(companyId);
    let connector = this.connectors.get(clientId);
    if (connector) return connector;
    const shared = this.options.shared;
    if (shared) connector = new AfnorConnector({ connection: shared });
    else {
      const { simulator, dispatcher } = await this.start();
      const client = { clientId, clientSecret: randomBytes(18).toString('base64url') };
      simulator.admit(client);
      connector = new AfnorConnector({ connection: { baseUrl: simulator.url, ...client }, dispatcher });
    }
    this.connectors.set(clientId, connector);
    return connector;
  }

  /** What the platform does with the next deposit named `name` (a tracking id, an invoice number). */
  async script(name: string, scenario: Scenario): Promise<void> {
    if (!this.options.shared) return (await this.start()).simulator.script(name, scenario);
    await this.admin('/simulator/scenarios', { scenarios: { [name]: scenario } });
  }

  /** The next deposit under this tracking id gets no status by itself: the sandbox reports each one. */
  async quietDeposit(trackingId: string): Promise<void> {
    // In process, that is every deposit's scenario already.
    if (this.options.shared) await this.script(trackingId, { statuses: [] });
  }

  /**
   * The platform or the buyer reports a status now on the company's deposit of this tracking id;
   * answers the life-cycle flow's id. `ReportRefused` for an unknown deposit or a message the
   * rules refuse.
   */
  async report(companyId: string, trackingId: string, input: ReportedStatusInput): Promise<string> {
    const clientId = this.clientIdOf(companyId);
    if (!this.options.shared) return (await this.start()).simulator.report(clientId, trackingId, input);
    const answer = await this.admin('/simulator/statuses', { ...input, clientId, trackingId });
    return String(answer.flowId);
  }

  private async admin(path: string, body: unknown): Promise<Record<string, unknown>> {
    const shared = this.options.shared!;
    const answer = await request(`${shared.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shared.adminToken ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await answer.body.json().catch(() => ({}))) as Record<string, unknown>;
    if (answer.statusCode === 404) throw new ReportRefused('unknown_flow', String(json.errorMessage));
    if (answer.statusCode === 400) throw new ReportRefused('invalid_message', String(json.errorMessage));
    if (answer.statusCode >= 300)
      throw new Error(`the sandbox's platform answered ${answer.statusCode} to ${path}: ${JSON.stringify(json)}`);
    return json;
  }

  async stop(): Promise<void> {
    const started = this.started;
    this.started = null;
    const connectors = [...this.connectors.values()];
    this.connectors.clear();
    // The in-process simulator's connectors share its dispatcher, closed with it.
    if (this.options.shared) await Promise.all(connectors.map((connector) => connector.close()));
    if (!started) return;
    const { simulator, dispatcher } = await started.catch(() => ({ simulator: null, dispatcher: null }));
    await simulator?.stop();
    await dispatcher?.close();
  }
}
