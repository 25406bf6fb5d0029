import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, request } from 'undici';
import { extractFacturXml, readCii } from '../einvoice/cii-reader.js';
import {
  buildCdarMessage,
  isLifecycleStatusCode,
  parseCdarMessage,
  reasonRefusal,
  type LifecycleStatusCode,
} from '../platform/cdar.js';
import { signCallback, signatureHeader, signatureTimestampHeader } from '../platform/callback-signature.js';
import { afnorDocuments } from '../platform/openapi-validator.js';
import { SimulatedDirectory, type DirectoryLine, type DirectoryLineSeed } from './directory.js';
import { planOf, type DepositAnswer, type Scenario } from './scenario.js';

/**
 * `facteur pa-simulator`: the issuer's and the buyer's approved platforms in one HTTPS server,
 * speaking the AFNOR XP Z12-013 Flow Service (`/flow-service/v1/...`) and Directory Service
 * (`/directory-service/v1/...`) as their OpenAPI documents define them, behind an OAuth2
 * client-credentials token endpoint (`/auth-service/{custId}/token`). It stores the deposited
 * flows, answers duplicates, writes a CDAR life-cycle flow for each status of each invoice (read by
 * searching the flows, or pushed to the webhooks subscribed, signed), and follows a scenario per
 * invoice number (`/simulator/...`, an admin interface of its own, or in process).
 */

export interface SimulatorClient {
  clientId: string;
  clientSecret: string;
}

/** One request and its answer, as the simulator saw them (the tests check both against the documents). */
export interface Exchange {
  service: 'flow' | 'directory' | 'auth' | 'admin' | 'callback' | 'other';
  method: string;
  /** Path and query, as received (`/flow-service/v1/flows/search`), or the callback's URL. */
  path: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  /** The JSON body; a multipart form's fields (JSON parts parsed, a file as the string `binary`). */
  requestBody: unknown;
  status: number;
  contentType: string | null;
  /** The JSON answer, or undefined (a file, nothing). */
  responseBody: unknown;
}

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

interface StoredFlow {
  seq: number;
  owner: string;
  json: Record<string, unknown>;
  content: Buffer;
  invoiceNumber: string | null;
  /** An accepted invoice flow: what its life-cycle messages name, and its key against duplicates. */
  invoice?: { facts: InvoiceFacts; key: string };
}

interface Webhook {
  webhookId: string;
  signingKey: string;
  createdAt: string;
  owner: string;
  callbackUrl: string;
  flowTypes?: string[];
  flowDirection?: string;
  ackStatus?: string;
}

interface InvoiceFacts {
  number: string;
  issueDate: string;
  typeCode: string;
  sellerSiren: string;
  sellerAddress: string;
  buyerSiren: string | null;
}

/** A status the platform or the buyer reports now on a deposited invoice (`report`). */
export interface ReportedStatusInput {
  status: LifecycleStatusCode;
  reason?: { code: string; text?: string | null } | null;
  notes?: readonly string[];
}

/** Why the simulator cannot report that status: no such accepted deposit, or a message the rules refuse. */
export class ReportRefused extends Error {
  constructor(
    readonly reason: 'unknown_flow' | 'invalid_message',
    message: string,
  ) {
    super(message);
  }
}

export interface SimulatorStats {
  /** Invoice flows stored and accepted (acknowledgement Ok): the platform's deposits. */
  deposits: number;
  /** Requests to POST /v1/flows, whatever their answer. */
  depositRequests: number;
  /** Invoice flows stored, per invoice number (a duplicate counts here too). */
  flowsByInvoice: Record<string, number>;
  /** Flows refused at their acknowledgement because the invoice was already deposited. */
  duplicates: number;
  lifecycleFlows: number;
  /** Invoices delivered to a client as the buyer (`deliverIncoming`, `POST /simulator/incoming`). */
  incomingFlows: number;
  callbacksDelivered: number;
  callbacksFailed: number;
  tokensIssued: number;
}

const platformStatuses = new Set(['200', '201', '202', '203', '213', '221', '501']);

const errorBody = (errorCode: string, errorMessage: string) => ({ errorCode, errorMessage });

export class PlatformSimulator {
  readonly clients: SimulatorClient[];
  readonly adminToken: string;
  readonly directory = new SimulatedDirectory();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly documents = afnorDocuments();
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly scenarios = new Map<string, Scenario>();
  private readonly pendingAnswers = new Map<string, DepositAnswer[]>();
  private readonly flows = new Map<string, StoredFlow>();
  private readonly invoiceFlows = new Map<string, { flowId: string; sha256: string }>();
  private readonly webhooks = new Map<string, Webhook>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly callbackAgent = new Agent({
    connect: { timeout: 5_000 },
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  private seq = 0;
  private lastTick = 0;
  private counters: SimulatorStats = {
    deposits: 0,
    depositRequests: 0,
    flowsByInvoice: {},
    duplicates: 0,
    lifecycleFlows: 0,
    incomingFlows: 0,
    callbacksDelivered: 0,
    callbacksFailed: 0,
    tokensIssued: 0,
  };
  private port = 0;

  constructor(private readonly options: SimulatorOptions) {
    this.clients = options.clients ?? [
      { clientId: `sim-client-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(18).toString('base64url') },
    ];
    this.adminToken = options.adminToken ?? randomBytes(18).toString('base64url');
    for (const [number, scenario] of Object.entries(options.scenarios ?? {})) this.script(number, scenario);
    this.directory.seed(options.directory ?? []);
    this.server = createServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, (req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) this.reply(req, res, 'other', undefined, 500, errorBody('INTERNAL_ERROR', String(error)));
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens; resolves with the base URL (`https://localhost:PORT`), the connector's `baseUrl`. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.url;
  }

  /** Lets the process exit while the server still listens (a simulator that lives as long as its process). */
  unref(): void {
    this.server.unref();
  }

  get url(): string {
    return `https://localhost:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const res of this.hanging) res.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
    await this.callbackAgent.close();
  }

  // ---- the in-process interface ---------------------------------------------------------------

  /** What happens to the invoice of this number (`*`: every invoice without a scenario of its own). */
  script(invoiceNumber: string, scenario: Scenario): void {
    this.scenarios.set(invoiceNumber, scenario);
    this.pendingAnswers.set(invoiceNumber, [...(scenario.depositAnswers ?? [])]);
  }

  /** Accepts another client from now on (an account opened on the platform). */
  admit(client: SimulatorClient): void {
    if (!this.clients.some((known) => known.clientId === client.clientId)) this.clients.push(client);
  }

  /**
   * The platform or the buyer reports a status now on the invoice a client deposited under this
   * tracking id: one life-cycle flow, readable by searching the flows and pushed to the client's
   * webhooks, as a scenario's statuses are. Answers its flow id; refuses (`ReportRefused`) an
   * unknown or refused deposit, and a status or reason a valid CDAR cannot carry.
   */
  report(clientId: string, trackingId: string, input: ReportedStatusInput): string {
    const deposit = [...this.flows.values()]
      .filter((flow) => flow.owner === clientId && flow.invoice && flow.json.trackingId === trackingId)
      .at(-1);
    if (!deposit?.invoice)
      throw new ReportRefused('unknown_flow', `no accepted invoice deposited with tracking id ${trackingId}`);
    if (!isLifecycleStatusCode(input.status) || input.status === '212')
      throw new ReportRefused('invalid_message', `${input.status} is not a status a platform or a buyer reports`);
    const refusal = reasonRefusal(input.status, input.reason?.code ?? null);
    if (refusal) throw new ReportRefused('invalid_message', refusal);
    return this.emitStatus(clientId, deposit.json, deposit.invoice.facts, {
      ...input,
      messageId: `LC-${String(deposit.json.flowId)}-${randomUUID()}-${input.status}`,
      issuedAt: new Date(this.now()),
    });
  }

  /**
   * A life-cycle flow on the invoice a client deposited under this tracking id whose file is
   * `content` as given, not a CDAR the simulator writes: what a broken or hostile platform sends
   * (an entity bomb, an external DTD, anything), for the tests of what the service does with it.
   * Answers its flow id; refuses (`ReportRefused`) an unknown deposit.
   */
  reportRaw(clientId: string, trackingId: string, content: Buffer): string {
    const deposit = [...this.flows.values()]
      .filter((flow) => flow.owner === clientId && flow.invoice && flow.json.trackingId === trackingId)
      .at(-1);
    if (!deposit?.invoice)
      throw new ReportRefused('unknown_flow', `no accepted invoice deposited with tracking id ${trackingId}`);
    const facts = deposit.invoice.facts;
    return this.storeLifecycle(clientId, deposit.json, `${facts.number}-raw.xml`, content, facts);
  }

  seedDirectory(lines: readonly DirectoryLineSeed[]): void {
    this.directory.seed(lines);
  }

  /**
   * An invoice another platform carried to this one for a client (the buyer): stored as an
   * incoming flow (`In`, `CustomerInvoice`, acknowledged), readable by searching the flows and
   * pushed to that client's webhooks. Answers the flow id. `clientId` defaults to the first client.
   */
  deliverIncoming(file: Buffer, options: { clientId?: string; name?: string } = {}): string {
    const owner = options.clientId ?? this.clients[0]!.clientId;
    const isPdf = file.subarray(0, 5).toString('latin1') === '%PDF-';
    const text = isPdf ? '' : file.subarray(0, 4096).toString('utf8');
    const syntax = isPdf ? 'Factur-X' : /<(?:\w+:)?(?:Invoice|CreditNote)[\s>]/.test(text) ? 'UBL' : 'CII';
    const flowId = randomUUID();
    const at = this.tick();
    const json: Record<string, unknown> = {
      flowId,
      submittedAt: at,
      updatedAt: at,
      name: options.name ?? `${flowId}.${isPdf ? 'pdf' : 'xml'}`,
      flowSyntax: syntax,
      flowProfile: 'CIUS',
      processingRule: 'B2B',
      processingRuleSource: 'Computed',
      flowType: 'CustomerInvoice',
      flowDirection: 'In',
      sha256: createHash('sha256').update(file).digest('hex'),
      acknowledgement: { status: 'Ok' },
    };
    this.counters.incomingFlows += 1;
    this.store({ seq: ++this.seq, owner, json, content: file, invoiceNumber: null });
    return flowId;
  }

  stats(): SimulatorStats {
    return structuredClone(this.counters);
  }

  /** Every token issued so far stops working (a platform that revoked them, or their expiry). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  reset(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.scenarios.clear();
    this.pendingAnswers.clear();
    this.flows.clear();
    this.invoiceFlows.clear();
    this.webhooks.clear();
    this.directory.clear();
    this.counters = {
      deposits: 0,
      depositRequests: 0,
      flowsByInvoice: {},
      duplicates: 0,
      lifecycleFlows: 0,
      incomingFlows: 0,
      callbacksDelivered: 0,
      callbacksFailed: 0,
      tokensIssued: 0,
    };
  }

  // ---- plumbing -------------------------------------------------------------------------------

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** An update time strictly after the previous one: `updatedAfter` never skips nor repeats a flow. */
  private tick(): string {
    this.lastTick = Math.max(this.now(), this.lastTick + 1);
    return new Date(this.lastTick).toISOString();
  }

  private reply(
    req: IncomingMessage,
    res: ServerResponse,
    service: Exchange['service'],
    requestBody: unknown,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
    raw?: { content: Buffer; contentType: string },
  ): void {
    const contentType = raw?.contentType ?? (body === undefined ? null : 'application/json');
    const payload = raw?.content ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
    res.writeHead(status, {
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(payload ? { 'content-length': String(payload.length) } : {}),
      ...headers,
    });
    res.end(payload);
    this.options.observe?.({
      service,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      requestHeaders: req.headers,
      requestBody,
      status,
      contentType,
      responseBody: raw ? undefined : body,
    });
  }

  private async readBody(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 110 * 1024 * 1024) throw new Error('body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const raw = await this.readBody(req);
    if (path.startsWith('/auth-service/')) return this.token(req, res, raw);
    if (path.startsWith('/simulator/')) return this.admin(req, res, raw);
    const service = path.startsWith('/flow-service/')
      ? 'flow'
      : path.startsWith('/directory-service/')
        ? 'directory'
        : null;
    if (!service)
      return this.reply(req, res, 'other', undefined, 404, errorBody('MISSING_RESOURCE', 'no such service'));
    const document = this.documents[service];

    const contentType = (req.headers['content-type'] ?? '').toLowerCase();
    let body: unknown;
    let form: { flowInfo: unknown; file: Buffer | null; fileType: string | null } | null = null;
    try {
      if (contentType.startsWith('multipart/form-data')) {
        form = await this.readForm(raw, contentType);
        body = { flowInfo: form.flowInfo, ...(form.file ? { file: 'binary' } : {}) };
      } else if (raw.length > 0) body = JSON.parse(raw.toString('utf8'));
    } catch {
      return this.reply(req, res, service, undefined, 400, errorBody('INVALID_REQUEST', 'the body cannot be read'));
    }

    const owner = this.authenticate(req);
    const match = document.match(req.method ?? 'GET', path);
    if (!match) return this.reply(req, res, service, body, 404, errorBody('MISSING_RESOURCE', 'no such operation'));
    if (!owner && match.operationId !== 'getHealth')
      return this.reply(req, res, service, body, 401, errorBody('INVALID_TOKEN', 'a valid bearer token is required'));
    if (this.options.checkRequests !== false) {
      const problems = document.checkRequest({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (problems.length > 0)
        return this.reply(req, res, service, body, 400, errorBody('INVALID_REQUEST', problems.slice(0, 10).join('; ')));
    }
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    if (service === 'flow')
      return this.flowOperation(req, res, match.operationId, match.params, query, body, form, owner ?? '');
    return this.directoryOperation(req, res, match.operationId, match.params, body as Record<string, unknown>);
  }

  private async readForm(raw: Buffer, contentType: string) {
    const data = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
    const info = data.get('flowInfo');
    const infoText = typeof info === 'string' ? info : info ? await info.text() : null;
    const file = data.get('file');
    return {
      flowInfo: infoText === null ? undefined : (JSON.parse(infoText) as unknown),
      file: file && typeof file !== 'string' ? Buffer.from(await file.arrayBuffer()) : null,
      fileType: file && typeof file !== 'string' ? file.type : null,
    };
  }

  private authenticate(req: IncomingMessage): string | null {
    const match = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    const token = match ? this.tokens.get(match[1]!) : undefined;
    if (!token || token.expiresAt <= this.now()) return null;
    return token.clientId;
  }

  // ---- OAuth2 ---------------------------------------------------------------------------------

  private token(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const form = new URLSearchParams(raw.toString('utf8'));
    const oauthError = (status: number, error: string, description: string) =>
      this.reply(
        req,
        res,
        'auth',
        Object.fromEntries(form),
        status,
        { error, error_description: description },
        {
          'cache-control': 'no-store',
        },
      );
    if (req.method !== 'POST' || !/^\/auth-service\/[^/]+\/token$/.test(req.url ?? ''))
      return oauthError(404, 'invalid_request', 'the token endpoint is POST /auth-service/{custId}/token');
    if (form.get('grant_type') !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    const client = this.clients.find((candidate) => candidate.clientId === clientId);
    if (!client || client.clientSecret !== clientSecret)
      return oauthError(401, 'invalid_client', 'unknown client or wrong secret');
    const ttl = this.options.tokenTtlSeconds ?? 3600;
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { clientId: client.clientId, expiresAt: this.now() + ttl * 1000 });
    this.counters.tokensIssued += 1;
    this.reply(
      req,
      res,
      'auth',
      { grant_type: 'client_credentials' },
      200,
      { access_token: accessToken, token_type: 'Bearer', expires_in: ttl },
      { 'cache-control': 'no-store' },
    );
  }

  // ---- the Flow Service -----------------------------------------------------------------------

  private flowOperation(
    req: IncomingMessage,
    res: ServerResponse,
    operationId: string,
    params: Record<string, string>,
    query: URLSearchParams,
    body: unknown,
    form: { flowInfo: unknown; file: Buffer | null; fileType: string | null } | null,
    owner: string,
  ): Promise<void> | void {
    const answer = (status: number, value?: unknown, headers?: Record<string, string>) =>
      this.reply(req, res, 'flow', body, status, value, headers);
    switch (operationId) {
      case 'createFlow':
        return this.createFlow(req, res, body, form!, owner);
      case 'searchFlows':
        return answer(200, this.searchFlows(body as Record<string, unknown>, owner));
      case 'getFlow': {
        const stored = this.flows.get(params.flowId ?? '');
        if (!stored || stored.owner !== owner) return answer(404, errorBody('MISSING_RESOURCE', 'no such flow'));
        const docType = query.get('docType') ?? 'Metadata';
        if (docType === 'Metadata') return answer(200, stored.json);
        if (docType !== 'Original')
          return answer(404, errorBody('MISSING_RESOURCE', `no ${docType} document for this flow`));
        return this.reply(
          req,
          res,
          'flow',
          body,
          200,
          undefined,
          {
            'content-disposition': `attachment;filename=${String(stored.json.name)}`,
          },
          { content: stored.content, contentType: 'application/octet-stream' },
        );
      }
      case 'listWebhooks': {
        const mine = [...this.webhooks.values()].filter((webhook) => webhook.owner === owner);
        // The document requires `webhookIds` and describes `webhooks`: both are given.
        return answer(200, {
          count: mine.length,
          webhookIds: mine.map((webhook) => webhook.webhookId),
          webhooks: mine.map((webhook) => this.webhookJson(webhook)),
        });
      }
      case 'createWebhook': {
        const params = body as {
          callbackUrl: string;
          flowTypes?: string[];
          flowDirection?: string;
          ackStatus?: string;
        };
        const webhook: Webhook = {
          webhookId: randomUUID(),
          signingKey: randomBytes(32).toString('base64'),
          createdAt: new Date(this.now()).toISOString(),
          owner,
          callbackUrl: params.callbackUrl,
          ...(params.flowTypes ? { flowTypes: params.flowTypes } : {}),
          ...(params.flowDirection ? { flowDirection: params.flowDirection } : {}),
          ...(params.ackStatus ? { ackStatus: params.ackStatus } : {}),
        };
        this.webhooks.set(webhook.webhookId, webhook);
        return answer(201, {
          webhookId: webhook.webhookId,
          signingKey: webhook.signingKey,
          createdAt: webhook.createdAt,
        });
      }
      case 'deleteWebhook': {
        const webhook = this.webhooks.get(params.webhookUid ?? '');
        if (!webhook || webhook.owner !== owner) return answer(404, errorBody('MISSING_RESOURCE', 'no such webhook'));
        this.webhooks.delete(webhook.webhookId);
        return answer(204);
      }
      case 'getHealth':
        return answer(200);
      default:
        return answer(404, errorBody('MISSING_RESOURCE', 'no such operation'));
    }
  }

  private webhookJson(webhook: Webhook) {
    return {
      webhookId: webhook.webhookId,
      createdAt: webhook.createdAt,
      callbackUrl: webhook.callbackUrl,
      ...(webhook.flowTypes ? { flowTypes: webhook.flowTypes } : {}),
      ...(webhook.flowDirection ? { flowDirection: webhook.flowDirection } : {}),
      ...(webhook.ackStatus ? { ackStatus: webhook.ackStatus } : {}),
    };
  }

  private async invoiceFacts(file: Buffer, syntax: string): Promise<InvoiceFacts | null> {
    try {
      const isPdf = file.subarray(0, 5).toString('latin1') === '%PDF-';
      const xml = isPdf ? (await extractFacturXml(file))?.xml : syntax === 'Factur-X' ? null : file.toString('utf8');
      if (!xml) return null;
      const document = readCii(xml);
      if (!document.number || !document.seller.siren) return null;
      return {
        number: document.number,
        issueDate: document.issueDate,
        typeCode: document.typeCode,
        sellerSiren: document.seller.siren,
        sellerAddress: document.sellerEndpoint?.value ?? document.seller.siren,
        buyerSiren: document.buyer.siren ?? null,
      };
    } catch {
      return null;
    }
  }

  private async createFlow(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    form: { flowInfo: unknown; file: Buffer | null },
    owner: string,
  ): Promise<void> {
    this.counters.depositRequests += 1;
    const info = form.flowInfo as Record<string, unknown>;
    const file = form.file!;
    const syntax = String(info.flowSyntax);
    const sha256 = createHash('sha256').update(file).digest('hex');
    const report = syntax === 'FRR' ? reportFacts(file) : null;
    const facts = syntax === 'CDAR' || syntax === 'FRR' ? null : await this.invoiceFacts(file, syntax);
    // An e-reporting declaration follows the scenario of its id, as an invoice that of its number.
    const number = report?.id ?? facts?.number ?? null;
    // A scenario of the deposit's tracking id first, then of its invoice number, then the default.
    const trackingId = typeof info.trackingId === 'string' ? info.trackingId : null;
    const scripted_ = [trackingId, number].find((name) => name !== null && this.scenarios.has(name)) ?? '*';
    const scenario = this.scenarios.get(scripted_) ?? {};
    const queue = this.pendingAnswers.get(scripted_);
    const scripted = queue?.shift();
    if (scripted && 'status' in scripted) {
      const headers: Record<string, string> =
        scripted.retryAfterSeconds !== undefined ? { 'retry-after': String(scripted.retryAfterSeconds) } : {};
      return this.reply(
        req,
        res,
        'flow',
        body,
        scripted.status,
        errorBody(
          scripted.errorCode ?? defaultErrorCode(scripted.status),
          scripted.errorMessage ?? `scripted answer ${scripted.status}`,
        ),
        headers,
      );
    }
    if (scripted?.timeout === 'before_store') return this.hang(res);

    const submittedAt = this.tick();
    const flowId = randomUUID();
    let ack: { status: 'Ok' | 'Error'; details?: unknown[] } = { status: 'Ok' };
    const error = (reasonCode: string, reasonMessage: string, item = 'file') => ({
      status: 'Error' as const,
      details: [{ level: 'Error', item, reasonCode, reasonMessage }],
    });
    const plan = planOf(scenario);
    let invoice: StoredFlow['invoice'];
    if (typeof info.sha256 === 'string' && info.sha256 !== sha256)
      ack = error('ChecksumMismatch', 'the sha256 given is not the file’s');
    else if (syntax === 'CDAR') {
      try {
        parseCdarMessage(file.toString('utf8'));
      } catch (failure) {
        ack = error('InvoiceLCStatusError', (failure as Error).message);
      }
    } else if (syntax === 'FRR') {
      // A declaration is accepted or rejected at its acknowledgement: flow 10 has no life cycle.
      if (!report) ack = error('InvalidSchema', 'the file is not a readable flow 10 report');
      else if (scenario.outcome === 'reject') {
        const reason = scenario.reason ?? { code: 'REJ_SEMAN', text: 'Rejet sémantique' };
        ack = error(reason.code, reason.text ?? reason.code);
      }
    } else if (!facts) ack = error('InvalidSchema', 'the file is not a readable CII or Factur-X invoice');
    else {
      const key = invoiceKey(owner, facts);
      const earlier = this.invoiceFlows.get(key);
      if (earlier) {
        // The same file again: the flow exists; another file with the same number: a duplicate invoice.
        ack =
          earlier.sha256 === sha256
            ? error('AlreadyExistingFlow', `flow ${earlier.flowId} holds this file already`)
            : error(
                'REJ_UNI',
                `invoice ${facts.number} of ${facts.sellerSiren} was deposited as flow ${earlier.flowId}`,
              );
        this.counters.duplicates += 1;
      } else if (plan.kind === 'acknowledgement_error') ack = error(plan.reasonCode, plan.reasonMessage);
      if (ack.status === 'Ok') {
        this.invoiceFlows.set(key, { flowId, sha256 });
        invoice = { facts, key };
      }
    }

    const json: Record<string, unknown> = {
      flowId,
      submittedAt,
      updatedAt: submittedAt,
      name: info.name,
      flowSyntax: syntax,
      flowProfile: info.flowProfile ?? 'Undefined',
      processingRule: info.processingRule ?? (syntax === 'CDAR' ? 'NotApplicable' : 'B2B'),
      processingRuleSource: info.processingRule ? 'Input' : 'Computed',
      flowType: report?.flowType ?? (syntax === 'CDAR' ? 'CustomerInvoiceLC' : 'CustomerInvoice'),
      flowDirection: 'Out',
      ...(info.trackingId ? { trackingId: info.trackingId } : {}),
      sha256,
      acknowledgement: ack,
    };
    this.store({ seq: ++this.seq, owner, json, content: file, invoiceNumber: number, ...(invoice ? { invoice } : {}) });
    if (number) this.counters.flowsByInvoice[number] = (this.counters.flowsByInvoice[number] ?? 0) + 1;
    if (ack.status === 'Ok' && syntax !== 'CDAR') {
      this.counters.deposits += 1;
      if (facts && plan.kind === 'lifecycle') this.playLifecycle(owner, json, facts, plan);
    }
    if (scripted?.timeout === 'after_store') return this.hang(res);
    const {
      updatedAt: _updatedAt,
      processingRuleSource: _source,
      flowType: _type,
      flowDirection: _direction,
      acknowledgement: _ack,
      ...full
    } = json;
    this.reply(req, res, 'flow', body, 202, full);
  }

  private hang(res: ServerResponse): void {
    this.hanging.add(res);
    res.on('close', () => this.hanging.delete(res));
  }

  private store(flow: StoredFlow): void {
    this.flows.set(String(flow.json.flowId), flow);
    this.push(flow);
    const max = this.options.maxFlows ?? Infinity;
    // A Map keeps insertion order: the first entries are the oldest flows.
    for (const [flowId, old] of this.flows) {
      if (this.flows.size <= max) break;
      this.flows.delete(flowId);
      if (old.invoice && this.invoiceFlows.get(old.invoice.key)?.flowId === flowId)
        this.invoiceFlows.delete(old.invoice.key);
    }
  }

  private playLifecycle(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    facts: InvoiceFacts,
    plan: Extract<ReturnType<typeof planOf>, { kind: 'lifecycle' }>,
  ): void {
    const base = Date.parse(String(invoiceFlow.submittedAt));
    plan.statuses.forEach((status, index) => {
      const emit = () =>
        this.emitStatus(owner, invoiceFlow, facts, {
          messageId: `LC-${String(invoiceFlow.flowId)}-${status.position}-${status.code}`,
          // The logical order, whatever the delivery order: one second per status after the deposit.
          issuedAt: new Date(base + (status.position + 1) * 1000),
          status: status.code,
          reason: status.reason,
          notes: status.reason ? plan.notes : [],
        });
      if (plan.paceMs <= 0) emit();
      else {
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            emit();
          },
          plan.paceMs * (index + 1),
        );
        this.timers.add(timer);
      }
    });
  }

  /** One life-cycle flow on an invoice flow, stored and pushed; answers its flow id. */
  private emitStatus(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    facts: InvoiceFacts,
    message: ReportedStatusInput & { messageId: string; issuedAt: Date },
  ): string {
    const cdar = buildCdarMessage({
      messageId: message.messageId,
      issuedAt: message.issuedAt,
      status: message.status,
      invoice: {
        number: facts.number,
        issueDate: facts.issueDate,
        typeCode: facts.typeCode,
        sellerSiren: facts.sellerSiren,
      },
      issuer: platformStatuses.has(message.status)
        ? { role: 'WK' }
        : { role: 'BY', siren: facts.buyerSiren ?? '000000000' },
      recipient: { siren: facts.sellerSiren, electronicAddress: facts.sellerAddress },
      reason: message.reason ?? null,
      notes: message.notes ?? [],
    });
    // A rejected or misrouted invoice was never received: the same number may be deposited again.
    if (['213', '221', '501'].includes(message.status)) this.invoiceFlows.delete(invoiceKey(owner, facts));
    return this.storeLifecycle(owner, invoiceFlow, `${facts.number}-${message.status}.xml`, Buffer.from(cdar), facts);
  }

  /** A life-cycle flow carrying `content`, stored and pushed; answers its flow id. */
  private storeLifecycle(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    name: string,
    content: Buffer,
    facts: InvoiceFacts,
  ): string {
    const updatedAt = this.tick();
    const json = {
      flowId: randomUUID(),
      submittedAt: updatedAt,
      updatedAt,
      name,
      flowSyntax: 'CDAR',
      flowProfile: 'Undefined',
      processingRule: invoiceFlow.processingRule,
      processingRuleSource: 'Computed',
      flowType: 'CustomerInvoiceLC',
      flowDirection: 'In',
      // The deposit's tracking id, echoed so that the issuer can tie the status to its deposit.
      ...(invoiceFlow.trackingId ? { trackingId: invoiceFlow.trackingId } : {}),
      acknowledgement: { status: 'Ok' },
    };
    this.counters.lifecycleFlows += 1;
    this.store({ seq: ++this.seq, owner, json, content, invoiceNumber: facts.number });
    return json.flowId;
  }

  private searchFlows(params: Record<string, unknown>, owner: string) {
    const where = (params.where ?? {}) as Record<string, unknown>;
    const limit = Math.min(100, Number(params.limit ?? 25));
    const after =
      typeof params.cursor === 'string' ? Number(Buffer.from(params.cursor, 'base64url').toString('utf8')) || 0 : 0;
    const within = (list: unknown, value: unknown) => !Array.isArray(list) || list.includes(value);
    const matching = [...this.flows.values()]
      .filter((flow) => {
        const json = flow.json;
        const ack = (json.acknowledgement as { status: string }).status;
        return (
          flow.owner === owner &&
          flow.seq > after &&
          (typeof where.updatedAfter !== 'string' ||
            Date.parse(String(json.updatedAt)) > Date.parse(where.updatedAfter)) &&
          (typeof where.updatedBefore !== 'string' ||
            Date.parse(String(json.updatedAt)) < Date.parse(where.updatedBefore)) &&
          within(where.processingRule, json.processingRule) &&
          within(where.flowType, json.flowType) &&
          within(where.flowDirection, json.flowDirection) &&
          (typeof where.trackingId !== 'string' || json.trackingId === where.trackingId) &&
          (typeof where.ackStatus !== 'string' || ack === where.ackStatus)
        );
      })
      .sort((a, b) => a.seq - b.seq);
    const page = matching.slice(0, limit);
    const more = matching.length > limit;
    return {
      limit,
      ...(more ? { nextCursor: Buffer.from(String(page.at(-1)!.seq)).toString('base64url') } : {}),
      filters: where,
      results: page.map((flow) => flow.json),
    };
  }

  // ---- pushes ---------------------------------------------------------------------------------

  private push(flow: StoredFlow): void {
    const json = flow.json;
    const ack = (json.acknowledgement as { status: string }).status;
    for (const webhook of this.webhooks.values()) {
      if (webhook.owner !== flow.owner) continue;
      if (webhook.flowTypes && !webhook.flowTypes.includes(String(json.flowType))) continue;
      if (webhook.flowDirection && webhook.flowDirection !== json.flowDirection) continue;
      if (webhook.ackStatus && webhook.ackStatus !== ack) continue;
      void this.deliver(webhook, json);
    }
  }

  private async deliver(webhook: Webhook, flow: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify(flow);
    const delays = this.options.callbackRetryDelaysMs ?? [200, 1_000, 5_000];
    for (let attempt = 0; attempt <= delays.length; attempt += 1) {
      const timestamp = Math.floor(this.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        [signatureHeader]: signCallback(body, webhook.signingKey, timestamp),
        [signatureTimestampHeader]: String(timestamp),
      };
      let status = 0;
      try {
        const response = await request(webhook.callbackUrl, {
          method: 'POST',
          headers,
          body,
          dispatcher: this.callbackAgent,
        });
        status = response.statusCode;
        await response.body.dump();
      } catch {
        status = 0;
      }
      this.options.observe?.({
        service: 'callback',
        method: 'POST',
        path: webhook.callbackUrl,
        requestHeaders: headers,
        requestBody: flow,
        status,
        contentType: null,
        responseBody: undefined,
      });
      if (status >= 200 && status < 300) {
        this.counters.callbacksDelivered += 1;
        return;
      }
      const wait = delays[attempt];
      if (wait === undefined) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, wait);
        this.timers.add(timer);
      });
    }
    this.counters.callbacksFailed += 1;
  }

  // ---- the Directory Service ------------------------------------------------------------------

  private directoryOperation(
    req: IncomingMessage,
    res: ServerResponse,
    operationId: string,
    params: Record<string, string>,
    body: Record<string, unknown> | undefined,
  ): void {
    const answer = (status: number, value?: unknown) => this.reply(req, res, 'directory', body, status, value);
    const notFound = () => answer(404, errorBody('MISSING_RESOURCE', 'Requested resource is Not Found'));
    const filters = (body?.filters ?? {}) as Record<string, { op?: string; value?: string }>;
    const page = <T>(items: T[]) => {
      const ignore = Number(body?.ignore ?? 0);
      const limit = body?.limit === undefined ? items.length : Number(body.limit);
      return { search: body ?? {}, totalNumberOfResults: items.length, results: items.slice(ignore, ignore + limit) };
    };
    const unit = (siren: string, businessName: string) => ({
      siren,
      businessName,
      entityType: 'PrivateVatRegistered',
      administrativeStatus: 'A',
    });
    const facility = (line: DirectoryLine) => ({
      siret: line.siret!,
      siren: line.siren,
      name: line.businessName.slice(0, 100),
      facilityType: 'P',
      administrativeStatus: line.facilityStatus,
    });
    const routingCode = (line: DirectoryLine) => ({
      routingIdentifier: line.routingIdentifier!,
      siret: line.siret ?? undefined,
      routingIdentifierType: '0224',
      routingCodeName: line.routingIdentifier!,
      administrativeStatus: 'A',
    });
    const directoryLine = (line: DirectoryLine, single: boolean) => ({
      addressingIdentifier: line.addressingIdentifier,
      platformType: line.platformType,
      // The single-line answer knows only Enabled and Disabled.
      directoryLineStatus: single && line.status === 'Upcoming' ? 'Disabled' : line.status,
      siren: line.siren,
      ...(line.siret ? { siret: line.siret } : {}),
      ...(line.routingIdentifier ? { routingIdentifier: line.routingIdentifier } : {}),
      ...(line.addressingSuffix ? { addressingSuffix: line.addressingSuffix } : {}),
    });
    switch (operationId) {
      case 'searchCompanyBySiren':
        return answer(
          200,
          page(this.directory.legalUnits(filters).map((found) => unit(found.siren, found.businessName))),
        );
      case 'getCompanyBySiren': {
        const found = this.directory.legalUnit(params.siren ?? '');
        return found ? answer(200, unit(found.siren, found.businessName)) : notFound();
      }
      case 'searchFacilityBySiret':
        return answer(200, page(this.directory.facilities(filters).map(facility)));
      case 'getFacilityBySiret': {
        const found = this.directory.facility(params.siret ?? '');
        return found ? answer(200, facility(found)) : notFound();
      }
      case 'searchRoutingCode':
        return answer(200, page(this.directory.routingCodes(filters).map(routingCode)));
      case 'getRoutingCodeBySiretAndId': {
        const found = this.directory.routingCodes({
          siret: { value: params.siret ?? '' },
          routingIdentifier: { value: params['routing-identifier'] ?? '' },
        })[0];
        return found ? answer(200, routingCode(found)) : notFound();
      }
      case 'searchDirectoryLine':
        return answer(200, page(this.directory.searchLines(filters).map((line) => directoryLine(line, false))));
      case 'getDirectoryLineById': {
        const found = this.directory.line(params['addressing-identifier'] ?? '');
        return found ? answer(200, directoryLine(found, true)) : notFound();
      }
      case 'getHealth':
        return answer(200);
      default:
        return notFound();
    }
  }

  // ---- the admin interface --------------------------------------------------------------------

  private admin(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    let body: Record<string, unknown> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      return this.reply(req, res, 'admin', undefined, 400, errorBody('INVALID_REQUEST', 'the body is not JSON'));
    }
    const answer = (status: number, value?: unknown) => this.reply(req, res, 'admin', body, status, value);
    if (req.headers.authorization !== `Bearer ${this.adminToken}`)
      return answer(401, errorBody('INVALID_TOKEN', 'the admin token is required'));
    const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
    switch (route) {
      case 'GET /simulator/stats':
        return answer(200, this.stats());
      case 'POST /simulator/scenarios': {
        const scenarios = (body.scenarios ??
          (body.invoiceNumber ? { [String(body.invoiceNumber)]: body.scenario ?? {} } : {})) as Record<
          string,
          Scenario
        >;
        for (const [number, scenario] of Object.entries(scenarios)) this.script(number, scenario);
        return answer(201, { scripted: Object.keys(scenarios) });
      }
      case 'POST /simulator/directory': {
        const lines = (body.lines ?? []) as DirectoryLineSeed[];
        this.seedDirectory(lines);
        return answer(201, { lines: this.directory.all().length });
      }
      case 'POST /simulator/incoming': {
        if (typeof body.file !== 'string' || body.file === '')
          return answer(400, errorBody('INVALID_REQUEST', '`file` (base64) is required'));
        const flowId = this.deliverIncoming(Buffer.from(body.file, 'base64'), {
          ...(typeof body.clientId === 'string' ? { clientId: body.clientId } : {}),
          ...(typeof body.name === 'string' ? { name: body.name } : {}),
        });
        return answer(201, { flowId });
      }
      case 'POST /simulator/statuses': {
        if (typeof body.trackingId !== 'string' || typeof body.status !== 'string')
          return answer(400, errorBody('INVALID_REQUEST', '`trackingId` and `status` are required'));
        try {
          const flowId = this.report(
            typeof body.clientId === 'string' ? body.clientId : this.clients[0]!.clientId,
            body.trackingId,
            {
              status: body.status.replace(/^fr:/, '') as LifecycleStatusCode,
              reason: (body.reason ?? null) as ReportedStatusInput['reason'],
              notes: Array.isArray(body.notes) ? body.notes.map(String) : [],
            },
          );
          return answer(201, { flowId });
        } catch (error) {
          if (!(error instanceof ReportRefused)) throw error;
          return answer(
            error.reason === 'unknown_flow' ? 404 : 400,
            errorBody(error.reason === 'unknown_flow' ? 'MISSING_RESOURCE' : 'INVALID_REQUEST', error.message),
          );
        }
      }
      case 'POST /simulator/revoke-tokens':
        this.revokeTokens();
        return answer(200, { revoked: true });
      case 'POST /simulator/reset':
        this.reset();
        return answer(200, { reset: true });
      default:
        return answer(
          404,
          errorBody(
            'MISSING_RESOURCE',
            'admin routes: GET /simulator/stats, POST /simulator/scenarios, /simulator/statuses, /simulator/directory, /simulator/incoming, /simulator/revoke-tokens, /simulator/reset',
          ),
        );
    }
  }
}

/** What makes two deposits of a client's account the same invoice: its seller, its number, its year. */
const invoiceKey = (owner: string, facts: InvoiceFacts) =>
  `${owner}:${facts.sellerSiren}:${facts.number}:${facts.issueDate.slice(0, 4)}`;

/** The id and flow type of a flow 10 report (facteur's format), or null when the file is not one. */
function reportFacts(file: Buffer): { id: string; flowType: string } | null {
  const xml = file.toString('utf8');
  if (!xml.includes('<rep:Report')) return null;
  const id = /<rep:Id>([^<]+)<\/rep:Id>/.exec(xml)?.[1];
  const flowType = /<rep:FlowType>([^<]+)<\/rep:FlowType>/.exec(xml)?.[1];
  return id && flowType ? { id, flowType } : null;
}

function defaultErrorCode(status: number): string {
  switch (status) {
    case 400:
      return 'MISSING_REQUIRED_FIELD';
    case 401:
      return 'INVALID_TOKEN';
    case 403:
      return 'FORBIDDEN_ACCESS';
    case 409:
      return 'DUPLICATED_INVOICE';
    case 413:
      return 'FILE_SIZE_EXCEEDED';
    case 422:
      return 'UNPROCESSABLE_ENTITY';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'RESOURCE_ERROR';
    default:
      return 'INTERNAL_ERROR';
  }
}

export type { Scenario, DepositAnswer, DirectoryLineSeed };
