import { randomBytes } from 'node:crypto';
import { AdminService } from './admin.js';
import { SimulatedDirectory, type DirectoryLineSeed } from './directory.js';
import { DirectoryService } from './directory-service.js';
import { FlowService, type ReportedStatusInput } from './flow-service.js';
import { FlowStore } from './flow-store.js';
import { OAuthService, type SimulatorClient } from './oauth.js';
import { WebhookPush } from './push.js';
import type { DepositAnswer, Scenario } from './scenario.js';
import { SimulatorServer, type Exchange } from './server.js';
import { emptyStats, type SimulatorStats } from './stats.js';
import { SimulatorTimers } from './timers.js';

/**
 * `facteur pa-simulator`: the issuer's and the buyer's approved platforms in one HTTPS server,
 * speaking the AFNOR XP Z12-013 Flow Service (`/flow-service/v1/...`) and Directory Service
 * (`/directory-service/v1/...`) as their OpenAPI documents define them, behind an OAuth2
 * client-credentials token endpoint (`/auth-service/{custId}/token`). It stores the deposited
 * flows, answers duplicates, writes a CDAR life-cycle flow for each status of each invoice (read by
 * searching the flows, or pushed to the webhooks subscribed, signed), and follows a scenario per
 * invoice number (`/simulator/...`, an admin interface of its own, or in process).
 *
 * This class composes the services (server.ts, oauth.ts, flow-service.ts, directory-service.ts,
 * push.ts, admin.ts) over the state they share, and is the in-process interface.
 */

export interface SimulatorOptions {
  tls: { cert: string; key: string };
  /** The accepted client credentials; default one, generated. */
  clients?: SimulatorClient[];
  /** Life of an access token, seconds; default 3600. */
  tokenTtlSeconds?: number;
  scenarios?: Record<string, Scenario>;
  directory?: DirectoryLineSeed[];
  /** The bearer of `/simulator/...`; default generated. */
  adminToken?: string;
  /** Refuse (400) a request its OpenAPI document does not allow; default true. */
  checkRequests?: boolean;
  now?: () => number;
  /** Sees every exchange, callbacks included. */
  observe?: (exchange: Exchange) => void;
  /** Waits between the attempts of a callback delivery (ms); default 200, 1000, 5000. */
  callbackRetryDelaysMs?: number[];
  /**
   * Flows kept at most; the oldest are forgotten beyond (a long-running process's memory). A
   * forgotten invoice is as never deposited: the same number may come again. Default: all kept.
   */
  maxFlows?: number;
}

export class PlatformSimulator {
  readonly clients: SimulatorClient[];
  readonly adminToken: string;
  readonly directory = new SimulatedDirectory();
  private readonly counters: SimulatorStats = emptyStats();
  private readonly timers = new SimulatorTimers();
  private readonly oauth: OAuthService;
  private readonly push: WebhookPush;
  private readonly flows: FlowStore;
  private readonly flowService: FlowService;
  private readonly server: SimulatorServer;

  constructor(options: SimulatorOptions) {
    const now = () => options.now?.() ?? Date.now();
    this.oauth = new OAuthService({
      clients: options.clients,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      now,
      stats: this.counters,
    });
    this.clients = this.oauth.clients;
    this.adminToken = options.adminToken ?? randomBytes(18).toString('base64url');
    this.push = new WebhookPush({
      now,
      retryDelaysMs: options.callbackRetryDelaysMs ?? [200, 1_000, 5_000],
      observe: options.observe,
      stats: this.counters,
      timers: this.timers,
    });
    this.flows = new FlowStore({
      now,
      maxFlows: options.maxFlows ?? Infinity,
      onStored: (flow) => this.push.push(flow),
    });
    this.flowService = new FlowService({
      flows: this.flows,
      push: this.push,
      stats: this.counters,
      timers: this.timers,
      now,
    });
    const directoryService = new DirectoryService(this.directory);
    const admin = new AdminService(this.adminToken, this);
    this.server = new SimulatorServer(
      { tls: options.tls, checkRequests: options.checkRequests !== false, observe: options.observe },
      {
        token: (request) => this.oauth.token(request),
        admin: (request) => admin.handle(request),
        authenticate: (authorization) => this.oauth.authenticate(authorization),
        flow: (operation, owner) => this.flowService.operation(operation, owner),
        directory: (operation) => directoryService.operation(operation),
      },
    );
    for (const [number, scenario] of Object.entries(options.scenarios ?? {})) this.script(number, scenario);
    this.directory.seed(options.directory ?? []);
  }

  /** Listens; resolves with the base URL (`https://localhost:PORT`), the connector's `baseUrl`. */
  start(port = 0, host = '127.0.0.1'): Promise<string> {
    return this.server.start(port, host);
  }

  /** Lets the process exit while the server still listens (a simulator that lives as long as its process). */
  unref(): void {
    this.server.unref();
  }

  get url(): string {
    return this.server.url;
  }

  async stop(): Promise<void> {
    this.timers.cancelAll();
    await this.server.stop();
    await this.push.close();
  }

  // ---- the in-process interface ---------------------------------------------------------------

  /** What happens to the invoice of this number (`*`: every invoice without a scenario of its own). */
  script(invoiceNumber: string, scenario: Scenario): void {
    this.flowService.script(invoiceNumber, scenario);
  }

  /** Accepts another client from now on (an account opened on the platform). */
  admit(client: SimulatorClient): void {
    this.oauth.admit(client);
  }

  /**
   * The platform or the buyer reports a status now on the invoice a client deposited under this
   * tracking id: one life-cycle flow, readable by searching the flows and pushed to the client's
   * webhooks, as a scenario's statuses are. Answers its flow id; refuses (`ReportRefused`) an
   * unknown or refused deposit, and a status or reason a valid CDAR cannot carry.
   */
  report(clientId: string, trackingId: string, input: ReportedStatusInput): string {
    return this.flowService.report(clientId, trackingId, input);
  }

  /**
   * A life-cycle flow on the invoice a client deposited under this tracking id whose file is
   * `content` as given, not a CDAR the simulator writes: what a broken or hostile platform sends
   * (an entity bomb, an external DTD, anything), for the tests of what the service does with it.
   * Answers its flow id; refuses (`ReportRefused`) an unknown deposit.
   */
  reportRaw(clientId: string, trackingId: string, content: Buffer): string {
    return this.flowService.reportRaw(clientId, trackingId, content);
  }

  seedDirectory(lines: readonly DirectoryLineSeed[]): void {
    this.directory.seed(lines);
  }

  /** The number of directory lines it holds. */
  directorySize(): number {
    return this.directory.all().length;
  }

  /**
   * An invoice another platform carried to this one for a client (the buyer): stored as an
   * incoming flow (`In`, `CustomerInvoice`, acknowledged), readable by searching the flows and
   * pushed to that client's webhooks. Answers the flow id. `clientId` defaults to the first client.
   */
  deliverIncoming(file: Buffer, options: { clientId?: string; name?: string } = {}): string {
    return this.flowService.deliverIncoming(options.clientId ?? this.clients[0]!.clientId, file, options.name);
  }

  stats(): SimulatorStats {
    return structuredClone(this.counters);
  }

  /** Every token issued so far stops working (a platform that revoked them, or their expiry). */
  revokeTokens(): void {
    this.oauth.revokeAll();
  }

  /** Forgets the scenarios, flows, webhooks, directory and counters (the clients and tokens stay). */
  reset(): void {
    this.timers.cancelAll();
    this.flowService.clearScenarios();
    this.flows.clear();
    this.push.clear();
    this.directory.clear();
    Object.assign(this.counters, emptyStats());
  }
}

export { ReportRefused, type ReportedStatusInput } from './flow-service.js';
export type { SimulatorClient } from './oauth.js';
export type { Exchange } from './server.js';
export type { SimulatorStats } from './stats.js';
export type { Scenario, DepositAnswer, DirectoryLineSeed };
