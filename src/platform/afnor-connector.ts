import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { refuseInsideTransaction } from '../kernel/transaction-mark.js';
import { CdarParseError, parseCdarMessage, type CdarStatus } from './cdar.js';
import { checkCallbackSignature } from './callback-signature.js';
import type {
  AcknowledgementDetail,
  CallOptions,
  DepositReceipt,
  DepositRequest,
  DirectoryAddress,
  DirectoryAnswer,
  DirectoryLookup,
  Facility,
  LifecycleEvent,
  LifecyclePage,
  PlatformConnection,
  PlatformConnector,
  PlatformFailure,
  PlatformFlow,
  PlatformResult,
  PushedFlow,
  Rejection,
  UnreadableFlow,
  SubscriptionFilter,
  WebhookSubscription,
} from './connector.js';
import { isUnreadableFlowFailure, notAnAfnorAnswer, unreadableFlow } from './connector.js';
import { readAnswer, type AnswerOperation } from './answer-schemas.js';
import { nextStep } from './next-step.js';
import {
  isTaxAdministrationCode,
  rejectionCategory,
  rejectionSource,
  type RejectionInput,
} from './rejection-classification.js';
import { retryDecision, type RetryRule } from './retry-policy.js';
import { multipartBody } from './multipart-body.js';
import {
  BlockedAddress,
  blockedLiteral,
  isBlockedAddress,
  pinnedLookup,
  type OutboundPolicy,
} from '../kernel/outbound-address.js';

/**
 * The live connector: AFNOR XP Z12-013 Flow Service and Directory Service 1.3.0 over HTTPS
 * (undici), OAuth2 client credentials with the token kept until shortly before it expires and
 * renewed once on a 401, time-outs, and the contract's retry table.
 */

export interface AfnorConnectorOptions {
  connection: PlatformConnection;
  /** Shared connection pool; default one of its own (keep-alive). */
  dispatcher?: Dispatcher;
  /**
   * For a platform a user named: every host (base and token URL) must resolve to addresses the
   * policy allows, and the connection dials the address checked (pinned, no DNS rebinding).
   * Applies to the connector's own pool only (not to a given `dispatcher`). Without it, any
   * address: the operator's own sandbox platform.
   */
  addressPolicy?: OutboundPolicy;
  /** Time to connect (ms); default 10 s. */
  connectTimeoutMs?: number;
  /** Time for the answer's headers, then between body chunks (ms); default 30 s. */
  requestTimeoutMs?: number;
  /** The clock (ms), for the token's expiry and the retry windows. */
  now?: () => number;
  /** Waits between attempts; the tests give a fast one. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Renew the token this long before it expires (ms); default 30 s (or a tenth of a shorter life). */
  tokenRenewalMarginMs?: number;
  /** Sent as `Request-Id` (uuid) on each call, for the platform's logs; default a new uuid per call. */
  requestId?: () => string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A success answer; `json` its body, parsed and checked when the call names its schema, else empty. */
interface Answered {
  ok: true;
  answer: Answer;
  json: Record<string, unknown>;
  attempts: number;
}

class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * What a failed exchange is said to be: a category, never the socket's or the TLS layer's own
 * words (they would describe what listens at an address: refused, reset, self-signed).
 */
function transportFailure(error: unknown): TransportError {
  const failure = error as { code?: string; cause?: { code?: string } };
  if (isBlockedAddress(error)) return new TransportError('the address is not a public address', 'EBLOCKED');
  const code = failure.code ?? failure.cause?.code ?? 'UND_ERR';
  if (timeoutCodes.has(code)) return new TransportError('no answer from the platform in time', code);
  return new TransportError('could not connect to the platform', code);
}

/** An answer the service acts on: 2xx only (a redirect is never followed, nor taken as an answer). */
const succeeded = (status: number) => status >= 200 && status < 300;

const flowTypesRead = ['CustomerInvoice', 'CustomerInvoiceLC'];
const rejectionStatuses = new Set(['207', '208', '210', '213', '221', '501']);

const header = (headers: Answer['headers'], name: string): string | null => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/**
 * What the connector reads of an answer, at most: the platform (or whoever answers at its address)
 * is untrusted, so no answer is buffered without a bound. A JSON answer (token, search, directory)
 * is small; a flow's file (a received invoice, a CDAR) is taken up to the received-invoice PDF
 * limit (`maxIncomingPdfBytes` in received/incoming-file.ts, 50 MiB: kept equal by a test).
 */
export const maxJsonAnswerBytes = 4 * 1024 * 1024;
export const maxFlowFileBytes = 50 * 1024 * 1024;

/** An answer over its bound: reading stopped (the connection cut), the call fails for good. */
class OversizedAnswer extends Error {
  constructor(readonly limit: number) {
    super(`the platform's answer is over ${limit} bytes`);
  }
}

/** The answer's body, read up to `limit` bytes: a larger declared or sent body is cut off unread. */
async function boundedBody(response: Dispatcher.ResponseData, limit: number): Promise<Buffer> {
  const declared = Number(header(response.headers, 'content-length') ?? Number.NaN);
  if (declared > limit) {
    response.body.destroy();
    throw new OversizedAnswer(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      response.body.destroy();
      throw new OversizedAnswer(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** An answer the connector writes itself, in the AFNOR `Error` shape, for a fault it found in the platform's. */
const syntheticAnswer = (
  status: number,
  errorCode: string,
  errorMessage: string,
  headers: Answer['headers'] = {},
): Answer => ({ status, headers, body: Buffer.from(JSON.stringify({ errorCode, errorMessage })) });

function jsonOf(answer: Answer): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An AFNOR `Flow` as the service reads it. */
export function flowOf(raw: Record<string, unknown>): PlatformFlow {
  const acknowledgement = (raw.acknowledgement ?? {}) as Record<string, unknown>;
  const details = Array.isArray(acknowledgement.details) ? acknowledgement.details : [];
  return {
    flowId: String(raw.flowId ?? ''),
    trackingId: text(raw.trackingId),
    name: String(raw.name ?? ''),
    flowType: String(raw.flowType ?? 'Undefined'),
    flowDirection: raw.flowDirection === 'In' ? 'In' : 'Out',
    flowSyntax: String(raw.flowSyntax ?? ''),
    submittedAt: String(raw.submittedAt ?? ''),
    updatedAt: String(raw.updatedAt ?? raw.submittedAt ?? ''),
    ackStatus:
      acknowledgement.status === 'Ok' || acknowledgement.status === 'Error' ? acknowledgement.status : 'Pending',
    ackDetails: details.map((detail: Record<string, unknown>) => ({
      level: detail.level === 'Warning' ? 'Warning' : 'Error',
      item: String(detail.item ?? ''),
      reasonCode: String(detail.reasonCode ?? ''),
      reasonMessage: String(detail.reasonMessage ?? ''),
    })),
  };
}

function rejectionOf(input: RejectionInput, code: string | null, reason: string | null, notes: string[]): Rejection {
  const category = rejectionCategory(input);
  return { input, category, source: rejectionSource(input), code, reason, notes, next: nextStep(category) };
}

/** The acknowledgement of an invoice flow, as a life-cycle event (an `Error` one classified). */
export function acknowledgementEvent(flow: PlatformFlow): LifecycleEvent {
  let rejection: Rejection | null = null;
  if (flow.ackStatus === 'Error') {
    const detail: AcknowledgementDetail | undefined =
      flow.ackDetails.find((candidate) => candidate.level === 'Error') ?? flow.ackDetails[0];
    const code = detail?.reasonCode || null;
    const input: RejectionInput =
      code && isTaxAdministrationCode(code) ? { reasonCode: code } : { providerReason: code };
    rejection = rejectionOf(input, code, detail?.reasonMessage || null, []);
  }
  return { kind: 'acknowledgement', key: `ack:${flow.flowId}:${flow.ackStatus}`, flow, rejection };
}

/** The statuses of a CDAR carried by a life-cycle flow, as events (the refusals and rejections classified). */
export function statusEvents(
  flowId: string,
  statuses: CdarStatus[],
  trackingId: string | null = null,
): LifecycleEvent[] {
  return statuses.map((status) => {
    const reason = status.reasons[0] ?? null;
    const rejection = rejectionStatuses.has(status.statusCode)
      ? rejectionOf(
          { reasonCode: reason?.code ?? null, statusCode: status.statusCode },
          reason?.code ?? null,
          reason?.text ?? null,
          status.notes,
        )
      : null;
    return {
      kind: 'status',
      key: `status:${status.messageId ?? flowId}:${status.invoiceNumber ?? ''}:${status.statusCode}`,
      flowId,
      trackingId,
      status,
      rejection,
    };
  });
}

/**
 * A callback the platform pushed: its signature checked against the raw body, then its `Flow`
 * read. The events follow with `connector.eventsOfFlow(flow)` (a life-cycle flow's CDAR is
 * downloaded, as the callback carries only the flow's description).
 */
export function readPushedFlow(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  signingKey: string,
  nowSeconds: number,
): { ok: true; value: PushedFlow } | { ok: false; reason: string } {
  const signature = checkCallbackSignature(rawBody, headers, signingKey, nowSeconds);
  if (!signature.ok) return signature;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody);
  } catch {
    return { ok: false, reason: 'the callback body is not JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || typeof (parsed as { flowId?: unknown }).flowId !== 'string')
    return { ok: false, reason: 'the callback body is not a flow' };
  return { ok: true, value: { flow: flowOf(parsed as Record<string, unknown>), signedAt: signature.timestamp } };
}

interface Cursor {
  /** The `updatedAfter` of the traversal (strict). */
  after: string | null;
  /** The platform's own cursor within the traversal. */
  page: string | null;
  /** The latest `updatedAt` seen in the traversal. */
  latest: string | null;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
function decodeCursor(value: string | null): Cursor {
  if (!value) return { after: null, page: null, latest: null };
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Cursor>;
    return { after: parsed.after ?? null, page: parsed.page ?? null, latest: parsed.latest ?? null };
  } catch {
    return { after: null, page: null, latest: null };
  }
}

const directoryRank = (line: DirectoryAddress) => (line.routingIdentifier ? 0 : line.siret ? 1 : 2);

export class AfnorConnector implements PlatformConnector {
  private readonly base: string;
  private readonly tokenUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly marginMs: number;
  private readonly requestId: () => string;
  private token: { value: string; expiresAt: number } | null = null;
  private pendingToken: Promise<string> | null = null;
  /** Tokens fetched from the token endpoint (the tests count the cache's hits by it). */
  tokensFetched = 0;

  constructor(private readonly options: AfnorConnectorOptions) {
    this.base = options.connection.baseUrl.replace(/\/+$/, '');
    this.tokenUrl =
      options.connection.tokenUrl ??
      `${this.base}/auth-service/${encodeURIComponent(options.connection.clientId)}/token`;
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connect: {
          timeout: options.connectTimeoutMs ?? 10_000,
          ...(options.addressPolicy ? { lookup: pinnedLookup(options.addressPolicy) } : {}),
        },
        headersTimeout: options.requestTimeoutMs ?? 30_000,
        bodyTimeout: options.requestTimeoutMs ?? 30_000,
        keepAliveTimeout: 30_000,
      });
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.marginMs = options.tokenRenewalMarginMs ?? 30_000;
    this.requestId = options.requestId ?? (() => crypto.randomUUID());
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // ---- the token ------------------------------------------------------------------------------

  /** A valid access token: the cached one until shortly before it expires, else a new one (one fetch at a time). */
  private async accessToken(signal?: AbortSignal): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt) return this.token.value;
    this.pendingToken ??= this.fetchToken(signal).finally(() => {
      this.pendingToken = null;
    });
    return this.pendingToken;
  }

  private async fetchToken(signal?: AbortSignal): Promise<string> {
    const { clientId, clientSecret } = this.options.connection;
    // RFC 6749 §2.3.1: the client authenticates with HTTP Basic; no scope (the AFNOR documents define none).
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const answer = await this.send(
      'POST',
      this.tokenUrl,
      {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      'grant_type=client_credentials',
      signal,
    );
    if (!succeeded(answer.status)) {
      const refusal = jsonOf(answer);
      throw new TokenRefused(
        answer,
        text(refusal?.error) ?? text(refusal?.errorCode),
        text(refusal?.error_description),
      );
    }
    const read = readAnswer('token', answer.status, header(answer.headers, 'content-type'), answer.body);
    if (!read.ok)
      throw new TokenRefused(syntheticAnswer(502, notAnAfnorAnswer, read.problem), notAnAfnorAnswer, read.problem);
    const body = read.body as { access_token: string; expires_in?: unknown };
    this.tokensFetched += 1;
    const lifeMs = (typeof body.expires_in === 'number' ? body.expires_in : 300) * 1000;
    const margin = Math.min(this.marginMs, lifeMs / 10);
    this.token = { value: body.access_token, expiresAt: this.now() + lifeMs - margin };
    return body.access_token;
  }

  // ---- one call, with its retries -------------------------------------------------------------

  private async send(
    method: Dispatcher.HttpMethod,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal?: AbortSignal,
    maxAnswerBytes = maxJsonAnswerBytes,
  ): Promise<Answer> {
    // A literal address never reaches the pinned lookup: judged here, before any connection.
    const policy = this.options.addressPolicy;
    if (policy && blockedLiteral(url, policy) !== null) throw transportFailure(new BlockedAddress(url));
    try {
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.dispatcher,
        ...(signal ? { signal } : {}),
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        body: await boundedBody(response, maxAnswerBytes),
      };
    } catch (error) {
      if (signal?.aborted || error instanceof OversizedAnswer) throw error;
      throw transportFailure(error);
    }
  }

  /** One API call: the token, the request, a renewed token once on a 401, and the retry table. */
  private async call(
    operation: string,
    build: () => {
      method: Dispatcher.HttpMethod;
      url: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** The answer's bound: `maxJsonAnswerBytes` unless the call downloads a flow's file. */
      maxAnswerBytes?: number;
      /** The AFNOR operation whose answer schema a success body must follow (none for a flow's file). */
      expects?: AnswerOperation;
    },
    options: CallOptions & { settledBeforeRetry?: () => Promise<boolean> } = {},
  ): Promise<Answered | { ok: 'settled'; attempts: number } | PlatformFailure> {
    refuseInsideTransaction(operation);
    const firstAttemptAt = this.now();
    let attempts = 0;
    let waited = 0;
    let renewed = false;
    for (;;) {
      attempts += 1;
      let answer: Answer | null = null;
      let transport: TransportError | null = null;
      // The token endpoint's answer, when it refused: never the answer of the call itself.
      let tokenAnswer = false;
      let expects: AnswerOperation | undefined;
      try {
        const token = await this.accessToken(options.signal);
        const { method, url, headers, body, maxAnswerBytes, expects: schema } = build();
        expects = schema;
        answer = await this.send(
          method,
          url,
          { authorization: `Bearer ${token}`, 'request-id': this.requestId(), accept: 'application/json', ...headers },
          body,
          options.signal,
          maxAnswerBytes,
        );
        if (answer.status === 401 && !renewed) {
          // The token may have been revoked or expired early: one new token, one new try.
          renewed = true;
          this.token = null;
          attempts -= 1;
          continue;
        }
      } catch (error) {
        if (error instanceof TokenRefused) {
          answer = error.answer;
          tokenAnswer = true;
        } else if (error instanceof TransportError) transport = error;
        else if (error instanceof OversizedAnswer)
          // The same answer would come again: no retry, said as the platform's fault.
          return this.failure(
            operation,
            syntheticAnswer(502, 'ANSWER_TOO_LARGE', error.message),
            null,
            attempts,
            'permanent',
            null,
          );
        else throw error;
      }
      if (answer && !tokenAnswer && succeeded(answer.status)) {
        if (!expects) return { ok: true, answer, json: {}, attempts };
        const read = readAnswer(expects, answer.status, header(answer.headers, 'content-type'), answer.body);
        if (read.ok) return { ok: true, answer, json: read.body, attempts };
        // The platform's fault, maybe passing (a proxy's page): said as a gateway's 502 and retried as
        // one; a deposit searches for its flow before it is sent again (the platform may hold it).
        answer = syntheticAnswer(502, notAnAfnorAnswer, read.problem);
      }
      const failed = {
        httpStatus: answer?.status ?? null,
        retryAfter: answer ? header(answer.headers, 'retry-after') : null,
      };
      const decision = retryDecision(failed, { attempts, firstAttemptAt }, this.now());
      if (!decision.retry) return this.failure(operation, answer, transport, attempts, decision.rule, null);
      const budget = options.retryBudgetMs ?? Number.POSITIVE_INFINITY;
      if (waited + decision.delayMs > budget)
        return this.failure(
          operation,
          answer,
          transport,
          attempts,
          decision.rule,
          new Date(this.now() + decision.delayMs),
        );
      await this.sleep(decision.delayMs, options.signal);
      waited += decision.delayMs;
      if (options.settledBeforeRetry && (await options.settledBeforeRetry())) return { ok: 'settled', attempts };
    }
  }

  /** A call that nothing settles between attempts. */
  private async api(
    operation: string,
    build: Parameters<AfnorConnector['call']>[1],
    options: CallOptions = {},
  ): Promise<Answered | PlatformFailure> {
    const result = await this.call(operation, build, options);
    if (result.ok === 'settled') throw new Error('a call without a settling search was settled');
    return result;
  }

  private failure(
    operation: string,
    answer: Answer | null,
    transport: TransportError | null,
    attempts: number,
    rule: RetryRule,
    retryAt: Date | null,
  ): PlatformFailure {
    const body = answer ? jsonOf(answer) : null;
    // A token endpoint speaks OAuth2 (`error`), the AFNOR services their `Error` (`errorCode`).
    const errorCode = text(body?.errorCode) ?? text(body?.error);
    const message =
      text(body?.errorMessage) ??
      text(body?.error_description) ??
      text(body?.details) ??
      transport?.message ??
      `HTTP ${answer?.status ?? 'error'}`;
    const input: RejectionInput = {
      httpStatus: answer?.status ?? null,
      ...(answer ? {} : { unreachable: true }),
      ...(errorCode && isTaxAdministrationCode(errorCode) ? { reasonCode: errorCode } : { providerReason: errorCode }),
      message,
    };
    const category = rejectionCategory(input);
    const status = answer?.status ?? null;
    const paErrorCode =
      status === null || status === 429 || (status >= 500 && status !== 501)
        ? 'pa_unavailable'
        : status === 501
          ? 'pa_operation_not_supported'
          : (errorCode ?? `http_${status}`);
    return {
      ok: false,
      operation,
      input,
      category,
      next: nextStep(category),
      paErrorCode,
      httpStatus: status,
      errorCode: errorCode ?? transport?.code ?? null,
      message,
      attempts,
      rule,
      retryAt,
    };
  }

  private flowUrl(path: string) {
    return `${this.base}/flow-service${path}`;
  }

  private directoryUrl(path: string) {
    return `${this.base}/directory-service${path}`;
  }

  private json(body: unknown) {
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }

  // ---- the Flow Service -----------------------------------------------------------------------

  async deposit(request: DepositRequest, options: CallOptions = {}): Promise<PlatformResult<DepositReceipt>> {
    const sha256 = createHash('sha256').update(request.file).digest('hex');
    const flowInfo = {
      trackingId: request.trackingId,
      name: request.name,
      flowSyntax: request.syntax,
      ...(request.syntax === 'CDAR' ? {} : { flowProfile: request.profile ?? 'Extended-CTC-FR' }),
      ...(request.processingRule ? { processingRule: request.processingRule } : {}),
      sha256,
    };
    const contentType = request.syntax === 'Factur-X' ? 'application/pdf' : 'application/xml';
    let reconciled: PlatformFlow | null = null;
    const result = await this.call(
      'deposit',
      () => {
        const form = multipartBody([
          { name: 'flowInfo', content: JSON.stringify(flowInfo), contentType: 'application/json' },
          { name: 'file', content: request.file, contentType, filename: request.name },
        ]);
        return {
          method: 'POST',
          url: this.flowUrl('/v1/flows'),
          headers: { 'content-type': form.contentType },
          body: form.body,
          expects: 'createFlow',
        };
      },
      {
        ...options,
        // Before depositing again after a failure, look for the flow: the platform may hold it already.
        settledBeforeRetry: async () => {
          const found = await this.findDeposit(request.trackingId, { ...options, retryBudgetMs: 0 });
          if (found.ok && found.value) reconciled = found.value;
          return reconciled !== null;
        },
      },
    );
    if (result.ok === 'settled') {
      const flow = reconciled as PlatformFlow | null;
      return {
        ok: true,
        attempts: result.attempts,
        value: {
          flowId: flow!.flowId,
          submittedAt: flow!.submittedAt,
          trackingId: request.trackingId,
          sha256,
          reconciled: true,
        },
      };
    }
    if (!result.ok) return result;
    return {
      ok: true,
      attempts: result.attempts,
      value: {
        flowId: String(result.json.flowId),
        submittedAt: String(result.json.submittedAt),
        trackingId: request.trackingId,
        sha256,
        reconciled: false,
      },
    };
  }

  async findDeposit(trackingId: string, options: CallOptions = {}): Promise<PlatformResult<PlatformFlow | null>> {
    const result = await this.api(
      'findDeposit',
      () => ({
        method: 'POST',
        url: this.flowUrl('/v1/flows/search'),
        ...this.json({ where: { trackingId, flowDirection: ['Out'] }, limit: 10 }),
        expects: 'searchFlows',
      }),
      options,
    );
    if (!result.ok) return result;
    const results = (result.json.results ?? []) as Record<string, unknown>[];
    const flows = results.map(flowOf).filter((flow) => flow.trackingId === trackingId);
    return { ok: true, attempts: result.attempts, value: flows[0] ?? null };
  }

  async getFlow(flowId: string, options: CallOptions = {}): Promise<PlatformResult<PlatformFlow>> {
    const result = await this.api(
      'getFlow',
      () => ({
        method: 'GET',
        url: this.flowUrl(`/v1/flows/${encodeURIComponent(flowId)}?docType=Metadata`),
        expects: 'getFlow',
      }),
      options,
    );
    if (!result.ok) return result;
    return { ok: true, attempts: result.attempts, value: flowOf(result.json) };
  }

  async eventsOfFlow(flow: PlatformFlow, options: CallOptions = {}): Promise<PlatformResult<LifecycleEvent[]>> {
    // An invoice flow, or a life-cycle flow the service itself sent: its acknowledgement. A life-cycle
    // flow received: its CDAR, downloaded and read.
    if (!flow.flowType.endsWith('LC') || flow.flowDirection === 'Out')
      return { ok: true, attempts: 0, value: flow.ackStatus === 'Pending' ? [] : [acknowledgementEvent(flow)] };
    const result = await this.api(
      'getFlow',
      () => ({
        method: 'GET',
        url: this.flowUrl(`/v1/flows/${encodeURIComponent(flow.flowId)}?docType=Original`),
        headers: { accept: 'application/octet-stream' },
        maxAnswerBytes: maxFlowFileBytes,
      }),
      options,
    );
    if (!result.ok) return result;
    try {
      return {
        ok: true,
        attempts: result.attempts,
        value: statusEvents(flow.flowId, parseCdarMessage(result.answer.body.toString('utf8')), flow.trackingId),
      };
    } catch (error) {
      if (!(error instanceof CdarParseError)) throw error;
      // An unreadable life-cycle message is the platform's fault: said as such, never guessed.
      return this.failure(
        'getFlow',
        syntheticAnswer(502, 'CDAR_UNREADABLE', error.message, result.answer.headers),
        null,
        result.attempts,
        'permanent',
        null,
      );
    }
  }

  async readLifecycle(
    cursorText: string | null,
    options: CallOptions & { limit?: number } = {},
  ): Promise<PlatformResult<LifecyclePage>> {
    const cursor = decodeCursor(cursorText);
    const where: Record<string, unknown> = { flowType: flowTypesRead };
    if (cursor.after) where.updatedAfter = cursor.after;
    const search = await this.api(
      'readLifecycle',
      () => ({
        method: 'POST',
        url: this.flowUrl('/v1/flows/search'),
        ...this.json({
          where,
          limit: Math.min(100, options.limit ?? 100),
          ...(cursor.page ? { cursor: cursor.page } : {}),
        }),
        expects: 'searchFlows',
      }),
      options,
    );
    if (!search.ok) return search;
    const body = search.json;
    const flows = ((body.results ?? []) as Record<string, unknown>[]).map(flowOf);
    const events: LifecycleEvent[] = [];
    const unreadable: UnreadableFlow[] = [];
    let attempts = search.attempts;
    for (const flow of flows) {
      const read = await this.eventsOfFlow(flow, options);
      attempts += read.attempts;
      if (read.ok) events.push(...read.value);
      // One flow that can never be read must not hold the cursor before it (and the flows after it).
      else if (isUnreadableFlowFailure(read)) unreadable.push(unreadableFlow(flow, read));
      else return read;
    }
    const latest = flows.reduce<string | null>(
      (max, flow) => (max === null || flow.updatedAt > max ? flow.updatedAt : max),
      cursor.latest,
    );
    const nextPage = text(body.nextCursor);
    const next: Cursor = nextPage
      ? { after: cursor.after, page: nextPage, latest }
      : { after: latest, page: null, latest };
    return {
      ok: true,
      attempts,
      value: { events, unreadable, cursor: encodeCursor(next), hasMore: Boolean(nextPage) },
    };
  }

  /**
   * The invoice flows the platform received for the company (direction `In`), since `cursor`
   * (null: from the start), in the platform's update order: the received invoices' polling.
   */
  async listIncoming(
    cursorText: string | null,
    options: CallOptions & { limit?: number } = {},
  ): Promise<PlatformResult<{ flows: PlatformFlow[]; cursor: string; hasMore: boolean }>> {
    const cursor = decodeCursor(cursorText);
    const where: Record<string, unknown> = { flowType: ['CustomerInvoice'], flowDirection: ['In'] };
    if (cursor.after) where.updatedAfter = cursor.after;
    const search = await this.api(
      'listIncoming',
      () => ({
        method: 'POST',
        url: this.flowUrl('/v1/flows/search'),
        ...this.json({
          where,
          limit: Math.min(100, options.limit ?? 100),
          ...(cursor.page ? { cursor: cursor.page } : {}),
        }),
        expects: 'searchFlows',
      }),
      options,
    );
    if (!search.ok) return search;
    const body = search.json;
    const flows = ((body.results ?? []) as Record<string, unknown>[]).map(flowOf);
    const latest = flows.reduce<string | null>(
      (max, flow) => (max === null || flow.updatedAt > max ? flow.updatedAt : max),
      cursor.latest,
    );
    const nextPage = text(body.nextCursor);
    const next: Cursor = nextPage
      ? { after: cursor.after, page: nextPage, latest }
      : { after: latest, page: null, latest };
    return {
      ok: true,
      attempts: search.attempts,
      value: { flows, cursor: encodeCursor(next), hasMore: Boolean(nextPage) },
    };
  }

  /** GET /v1/flows/{flowId}?docType=Original: the flow's file, byte for byte. */
  async downloadFlow(flowId: string, options: CallOptions = {}): Promise<PlatformResult<Buffer>> {
    const result = await this.api(
      'downloadFlow',
      () => ({
        method: 'GET',
        url: this.flowUrl(`/v1/flows/${encodeURIComponent(flowId)}?docType=Original`),
        headers: { accept: 'application/octet-stream' },
        maxAnswerBytes: maxFlowFileBytes,
      }),
      options,
    );
    if (!result.ok) return result;
    return { ok: true, attempts: result.attempts, value: result.answer.body };
  }

  async subscribe(
    callbackUrl: string,
    options: CallOptions & SubscriptionFilter = {},
  ): Promise<PlatformResult<WebhookSubscription>> {
    const { flowTypes = flowTypesRead, flowDirection } = options;
    const result = await this.api(
      'subscribe',
      () => ({
        method: 'POST',
        url: this.flowUrl('/v1/webhooks'),
        ...this.json({ callbackUrl, flowTypes, ...(flowDirection ? { flowDirection } : {}) }),
        expects: 'createWebhook',
      }),
      options,
    );
    if (!result.ok) return result;
    return {
      ok: true,
      attempts: result.attempts,
      value: { webhookId: String(result.json.webhookId), signingKey: String(result.json.signingKey) },
    };
  }

  // ---- the Directory Service ------------------------------------------------------------------

  async lookupDirectory(lookup: DirectoryLookup, options: CallOptions = {}): Promise<PlatformResult<DirectoryAnswer>> {
    // Every line of the company, then the most precise one that fits: a SIRET falls back to its
    // SIREN's line, a routing code to its SIRET's, then its SIREN's.
    const siren = lookup.by === 'siren' ? lookup.siren : lookup.siret.slice(0, 9);
    const filters = { siren: { op: 'strict', value: siren } };
    const result = await this.api(
      'lookupDirectory',
      () => ({
        method: 'POST',
        url: this.directoryUrl('/v1/directory-line/search'),
        ...this.json({ filters, limit: 100, ignore: 0 }),
        expects: 'searchDirectoryLine',
      }),
      options,
    );
    if (!result.ok) {
      // A search that finds nothing may be answered 404 by a platform: no line, not a failure.
      if (result.httpStatus === 404)
        return { ok: true, attempts: result.attempts, value: { address: null, lines: [] } };
      return result;
    }
    const rows = (result.json.results ?? []) as Record<string, unknown>[];
    const lines: DirectoryAddress[] = rows
      .map((row) => {
        const status =
          row.directoryLineStatus === 'Enabled' || row.directoryLineStatus === 'Upcoming'
            ? row.directoryLineStatus
            : 'Disabled';
        return {
          electronicAddress: String(row.addressingIdentifier),
          status,
          active: status === 'Enabled',
          siren: String(row.siren),
          siret: text(row.siret),
          routingIdentifier: text(row.routingIdentifier),
          platformType: row.platformType === 'WK' || row.platformType === 'DFH' ? row.platformType : null,
        } satisfies DirectoryAddress;
      })
      .sort((a, b) => directoryRank(a) - directoryRank(b));
    const sirenLine = (line: DirectoryAddress) => !line.siret && !line.routingIdentifier;
    const siretLine = (line: DirectoryAddress) =>
      lookup.by !== 'siren' && line.siret === lookup.siret && !line.routingIdentifier;
    const routingLine = (line: DirectoryAddress) =>
      lookup.by === 'routing_code' &&
      line.siret === lookup.siret &&
      line.routingIdentifier === lookup.routingIdentifier;
    const address = lines.find(routingLine) ?? lines.find(siretLine) ?? lines.find(sirenLine) ?? null;
    return { ok: true, attempts: result.attempts, value: { address, lines } };
  }

  async lookupFacility(siret: string, options: CallOptions = {}): Promise<PlatformResult<Facility | null>> {
    const result = await this.api(
      'lookupFacility',
      () => ({
        method: 'GET',
        url: this.directoryUrl(`/v1/siret/code-insee:${encodeURIComponent(siret)}`),
        expects: 'getFacilityBySiret',
      }),
      options,
    );
    if (!result.ok) return result.httpStatus === 404 ? { ok: true, attempts: result.attempts, value: null } : result;
    const body = result.json;
    return {
      ok: true,
      attempts: result.attempts,
      value: {
        siret: String(body.siret),
        siren: String(body.siren ?? siret.slice(0, 9)),
        name: text(body.name),
        active: body.administrativeStatus !== 'C',
      },
    };
  }
}

class TokenRefused extends Error {
  constructor(
    readonly answer: Answer,
    readonly errorCode: string | null,
    readonly description: string | null,
  ) {
    super(`the token endpoint answered ${answer.status}`);
  }
}
