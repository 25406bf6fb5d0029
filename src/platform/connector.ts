import type { CdarStatus } from './cdar.js';
import type { RejectionCategory, RejectionInput } from './rejection-classification.js';
import type { NextStep } from './next-step.js';
import type { RetryRule } from './retry-policy.js';

/**
 * The one interface the service uses to talk to an approved platform (PA): deposit a Factur-X,
 * find a flow again (proof of reception), read the life-cycle statuses since a cursor, look a
 * company up in the directory, and read what the platform pushes to the service's callback.
 *
 * Every call answers a `PlatformResult`: the value, or a `PlatformFailure` that carries the
 * contract's classification input (local code, tax-administration reason, provider reason, HTTP
 * status), the category it gives and the next step of that category. Nothing throws for a
 * platform's answer; only a programming error does.
 */

/** How the service reaches one establishment's platform (stored by the establishment, secret encrypted). */
export interface PlatformConnection {
  /**
   * The platform's root: the Flow Service answers under `{baseUrl}/flow-service` and the
   * Directory Service under `{baseUrl}/directory-service` (the default service names of the AFNOR
   * server URL templates, `{sub-domain}.{domain}{base-path}/{service-name}`).
   */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * The OAuth2 token endpoint (client credentials). The AFNOR documents give it per platform
   * (template `https://auth.company.com/auth-service/{custId}/token`); default
   * `{baseUrl}/auth-service/{clientId}/token`.
   */
  tokenUrl?: string;
}

export type FlowSyntax = 'CII' | 'UBL' | 'Factur-X' | 'CDAR' | 'FRR';
/** AFNOR Flow Service 1.3.0 `flowProfile`: `CIUS` is EN 16931 with the French rules (BR-FR). */
export type FlowProfile = 'Basic' | 'CIUS' | 'Extended-CTC-FR' | 'Undefined';
export type ProcessingRule =
  | 'B2B'
  | 'B2BInt'
  | 'B2C'
  | 'B2G'
  | 'B2GInt'
  | 'OutOfScope'
  | 'B2GOutOfScope'
  | 'ArchiveOnly'
  | 'NotApplicable'
  | 'Undefined';
export type FlowAckStatus = 'Pending' | 'Ok' | 'Error';

/** A flow to deposit: one invoice file and what the AFNOR `flowInfo` says of it. */
export interface DepositRequest {
  /** The file: a Factur-X PDF, or a CII/CDAR XML. */
  file: Uint8Array;
  /** File name (`F2026-000123.pdf`), at most 255 characters. */
  name: string;
  syntax: FlowSyntax;
  /** `trackingId`: the service's own id of this deposit attempt, at most 64 characters; the key of the proof-of-reception search. */
  trackingId: string;
  processingRule?: ProcessingRule;
  /** Default `Extended-CTC-FR` for an invoice, none for a CDAR. */
  profile?: FlowProfile;
}

export interface DepositReceipt {
  flowId: string;
  submittedAt: string;
  trackingId: string;
  sha256: string;
  /**
   * True when the platform's answer was lost (time-out, connection cut) and the flow was found
   * by a search on the tracking id: the platform holds it, nothing was sent twice.
   */
  reconciled: boolean;
}

export interface AcknowledgementDetail {
  level: 'Error' | 'Warning';
  item: string;
  reasonCode: string;
  reasonMessage: string;
}

/** A flow as the platform describes it (AFNOR `Flow`). */
export interface PlatformFlow {
  flowId: string;
  trackingId: string | null;
  name: string;
  flowType: string;
  flowDirection: 'In' | 'Out';
  flowSyntax: string;
  submittedAt: string;
  updatedAt: string;
  ackStatus: FlowAckStatus;
  ackDetails: AcknowledgementDetail[];
}

/** What the life-cycle stream carries: the acknowledgement of a deposited flow, or one CDAR status. */
export type LifecycleEvent =
  | {
      kind: 'acknowledgement';
      /** Stable across repeats: the same acknowledgement read twice has the same key. */
      key: string;
      flow: PlatformFlow;
      /** For an `Error` acknowledgement, how it is classified and what follows. */
      rejection: Rejection | null;
    }
  | {
      kind: 'status';
      /** Stable across repeats (poll and push, or a platform sending twice): the message, the invoice, the code. */
      key: string;
      /** The life-cycle flow that carried it. */
      flowId: string;
      /** The tracking id that flow echoes (the deposit it reports on), when the platform gives it. */
      trackingId: string | null;
      status: CdarStatus;
      /** For 206, 207, 208, 210, 213, 221, 501: how it is classified and what follows. */
      rejection: Rejection | null;
    };

export interface Rejection {
  input: RejectionInput;
  category: RejectionCategory;
  source: 'platform' | 'buyer' | 'service';
  /** The code recorded as `rejectionCode` (the reason code, else the provider's, else the HTTP status). */
  code: string | null;
  /** The platform's or buyer's words, verbatim. */
  reason: string | null;
  notes: string[];
  next: NextStep;
}

/**
 * A life-cycle flow whose statuses cannot be read, for good (its CDAR unreadable or hostile, its
 * file over the bound, gone): the reader records it and moves past it, rather than read it again
 * at every pass and never reach the flows after it.
 */
export interface UnreadableFlow {
  /** Stable across repeats, like an event's: the flow and its version. */
  key: string;
  flow: PlatformFlow;
  failure: PlatformFailure;
}

export interface LifecyclePage {
  events: LifecycleEvent[];
  /** The flows of the page skipped as unreadable (their failure permanent, not the connection's). */
  unreadable: UnreadableFlow[];
  /** Pass it to the next read; it moves past what this page returned (with a small overlap: dedupe on `key`). */
  cursor: string;
  /** More is waiting: read again at once. */
  hasMore: boolean;
}

export type DirectoryLookup =
  | { by: 'siren'; siren: string }
  | { by: 'siret'; siret: string }
  | { by: 'routing_code'; siret: string; routingIdentifier: string };

export interface DirectoryAddress {
  /** The electronic address (BT-49), the directory line's addressing identifier. */
  electronicAddress: string;
  /** `Enabled` only is active; `Upcoming` is a line whose platform starts later. */
  status: 'Enabled' | 'Disabled' | 'Upcoming';
  active: boolean;
  siren: string;
  siret: string | null;
  routingIdentifier: string | null;
  platformType: 'WK' | 'DFH' | null;
}

export interface DirectoryAnswer {
  /** The most precise line for the lookup (routing code, then SIRET, then SIREN), or null when none. */
  address: DirectoryAddress | null;
  /** Every line found, most precise first. */
  lines: DirectoryAddress[];
}

export interface Facility {
  siret: string;
  siren: string;
  name: string | null;
  active: boolean;
}

/** A callback the platform pushed (AFNOR webhook), checked and read. */
export interface PushedFlow {
  flow: PlatformFlow;
  /** Its signature timestamp (epoch seconds). */
  signedAt: number;
}

/** Which flows a webhook subscription pushes (AFNOR `WebhookParams`). */
export interface SubscriptionFilter {
  flowTypes?: string[];
  flowDirection?: 'In' | 'Out';
}

export interface WebhookSubscription {
  webhookId: string;
  /** The key that signs every callback (base64); kept secret by the service. */
  signingKey: string;
}

export interface PlatformFailure {
  ok: false;
  /** Which call failed. */
  operation: string;
  /** What the platform said, as the contract's classification takes it. */
  input: RejectionInput;
  category: RejectionCategory;
  next: NextStep;
  /** The contract's `paErrorCode` value for this failure: the provider's code, else `pa_unavailable`, `pa_auth_failed`... */
  paErrorCode: string;
  httpStatus: number | null;
  /** The AFNOR error body's `errorCode` and `errorMessage`, verbatim; or the transport error. */
  errorCode: string | null;
  message: string;
  attempts: number;
  /** The retry rule that stopped the attempts (or `permanent`). */
  rule: RetryRule;
  /** When the caller may try again by itself (the retry rule allows more, beyond what this call waited); null: do not. */
  retryAt: Date | null;
}

export type PlatformResult<T> = { ok: true; value: T; attempts: number } | PlatformFailure;

/**
 * A failure as the service records it of its own passes (a reader's last error): the category and
 * what happened, never the answer's words (an address a user gave may answer anything).
 */
export function failureSummary(failure: PlatformFailure): string {
  const what = failure.httpStatus === null ? failure.message : `the platform answered HTTP ${failure.httpStatus}`;
  return `${failure.category}: ${what}`;
}

/**
 * The `errorCode` of a failure whose success answer did not follow the AFNOR documents (not JSON,
 * a web page, a field missing or of the wrong type): said as a gateway's 502, the platform's fault
 * (`platform_unavailable`, retried as a 5xx), its message naming the operation and the first problem.
 */
export const notAnAfnorAnswer = 'NOT_AN_AFNOR_ANSWER';

/** Whether the platform answered, but not as an AFNOR XP Z12-013 platform does. */
export const isNotAnAfnorAnswer = (failure: PlatformFailure): boolean => failure.errorCode === notAnAfnorAnswer;

/**
 * Whether a flow's failure is the flow's own and final: a retry cannot mend it (`permanent`), and
 * it is not the connection's (a refused token would refuse every flow: the reader stops instead).
 */
export const isUnreadableFlowFailure = (failure: PlatformFailure): boolean =>
  failure.rule === 'permanent' && failure.category !== 'platform_auth';

/** A flow skipped as unreadable, keyed on the flow and its version (read again, recorded once). */
export const unreadableFlow = (flow: PlatformFlow, failure: PlatformFailure): UnreadableFlow => ({
  key: `unreadable:${flow.flowId}:${flow.updatedAt}`,
  flow,
  failure,
});

export interface CallOptions {
  /** Give up the call (and its retries) when this fires. */
  signal?: AbortSignal;
  /**
   * How long this call may wait between attempts, in all (ms). A wait beyond it ends the call with
   * `retryAt`, for a durable job to come back later. Default: the whole retry table.
   */
  retryBudgetMs?: number;
}

export interface PlatformConnector {
  /** POST /v1/flows: deposit one file. A lost answer is reconciled by a search on `trackingId` before any new attempt. */
  deposit(request: DepositRequest, options?: CallOptions): Promise<PlatformResult<DepositReceipt>>;
  /** POST /v1/flows/search by tracking id: the proof of reception of an earlier deposit, or null. */
  findDeposit(trackingId: string, options?: CallOptions): Promise<PlatformResult<PlatformFlow | null>>;
  /** GET /v1/flows/{flowId}: a flow's metadata (its acknowledgement). */
  getFlow(flowId: string, options?: CallOptions): Promise<PlatformResult<PlatformFlow>>;
  /**
   * The life-cycle since `cursor` (null: from the start): acknowledgements of the deposited flows
   * and the CDAR statuses of their life-cycle flows, in the platform's update order.
   */
  readLifecycle(
    cursor: string | null,
    options?: CallOptions & { limit?: number },
  ): Promise<PlatformResult<LifecyclePage>>;
  /** The statuses of a life-cycle flow (downloads its CDAR), or the acknowledgement of an invoice flow. */
  eventsOfFlow(flow: PlatformFlow, options?: CallOptions): Promise<PlatformResult<LifecycleEvent[]>>;
  /** Directory Service: the buyer's electronic address by SIREN, SIRET or routing code. */
  lookupDirectory(lookup: DirectoryLookup, options?: CallOptions): Promise<PlatformResult<DirectoryAnswer>>;
  /** Directory Service: a facility by SIRET, or null when the directory does not know it (`siret_not_found`). */
  lookupFacility(siret: string, options?: CallOptions): Promise<PlatformResult<Facility | null>>;
  /** POST /v1/webhooks: have the platform push flows to `callbackUrl` (by default every invoice and life-cycle flow). */
  subscribe(
    callbackUrl: string,
    options?: CallOptions & SubscriptionFilter,
  ): Promise<PlatformResult<WebhookSubscription>>;
  /** The invoice flows addressed to the connection (direction `In`) since `cursor` (null: from the start). */
  listIncoming(
    cursor: string | null,
    options?: CallOptions & { limit?: number },
  ): Promise<PlatformResult<{ flows: PlatformFlow[]; cursor: string; hasMore: boolean }>>;
  /** GET /v1/flows/{flowId}: a flow's file, byte for byte. */
  downloadFlow(flowId: string, options?: CallOptions): Promise<PlatformResult<Buffer>>;
}
