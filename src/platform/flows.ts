import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type {
  CallOptions,
  FlowProfile,
  FlowSyntax,
  PlatformConnector,
  PlatformFailure,
  ProcessingRule,
} from './connector.js';

/**
 * What a capability declares of each kind of flow it sends to a platform (its descriptor's
 * `flows`): where the flow goes and what the platform's word does to the flow's owner. The outbox
 * (outbox.ts) does the rest, the same for every kind: the lease, the search by tracking id after
 * an earlier try, the deposit, the reconciliation of a duplicate, the record.
 */

export type FlowState = 'pending' | 'deposited' | 'failed' | 'abandoned';

/** A flow of the outbox (`platform_flows`), as its holder reads it. */
export interface OutgoingFlow {
  companyId: string;
  livemode: boolean;
  kind: string;
  ownerId: string;
  trackingId: string;
  establishmentId: string | null;
  file: Buffer;
  name: string;
  syntax: FlowSyntax;
  /** What the owner keeps with the flow to record the platform's word on it later (its kind's own shape). */
  detail: Record<string, unknown>;
  state: FlowState;
  /** Tries so far, this one included: a try after the first searches the platform first. */
  tries: number;
  flowId: string | null;
  lastError: string | null;
  nextAttemptAt: Date;
  /** The lease its holder took; null when read without one. */
  lockToken: string | null;
  /** The company's sandbox clock offset (0 in live): the owner's records are on the scope's clock. */
  clockOffsetMs: number;
}

/** Why a flow did not reach the platform: the platform's classified answer, or no connection at all. */
export interface FlowFailure {
  /** The contract's `paErrorCode` (`pa_unavailable`, `pa_not_configured`, the provider's code). */
  code: string;
  message: string;
  /** The platform's answer, classified; null when no call was made (no connection). */
  platform: PlatformFailure | null;
}

/**
 * What a kind says of a flow just before a try, outside any transaction: deposit it (with its
 * file when the file is made lazily, after the flow was queued), not yet (it stays pending until
 * `at`, on the scope's clock: its file is still being made), or never (refused by the service
 * itself, without a platform call: the kind's `failed` records it).
 */
export type FlowPreparation =
  | { state: 'ready'; file?: Pick<OutgoingFlow, 'file' | 'name' | 'syntax'> }
  | { state: 'later'; at: Date; reason: string }
  | { state: 'refused'; failure: FlowFailure };

export interface FlowKind {
  /** Unique across capabilities: `<capability>.<what>` (`payments.statement`). */
  kind: string;
  /**
   * A flow whose holder died (its lease lapsed) and that the platform does not hold under its
   * tracking id: `deposit` it (a statement a pass queued: nobody waits on it), or `abandon` it (an
   * answer a request was sending: the request is gone, and the company may answer again).
   */
  afterLapse: 'deposit' | 'abandon';
  /** How long one deposit may wait between the connector's own attempts before the flow fails for now. */
  call?: Pick<CallOptions, 'retryBudgetMs'>;
  /** The AFNOR `processingRule` its deposit states (an e-reporting declaration's B2C or B2BInt); none: the platform's default. */
  processingRule?(flow: OutgoingFlow): ProcessingRule | undefined;
  /** The AFNOR `flowProfile` its deposit states (an invoice's); none: the connector's default. */
  flowProfile?(flow: OutgoingFlow): FlowProfile | undefined;
  /**
   * Delivered by an outbox worker (outbox-worker.ts: woken when a flow commits, its leases renewed
   * while in hand) rather than by the periodic pass: flows a client waits to see deposited.
   */
  worker?: { concurrency: number; prefetch?: number; refillAt?: number };
  /** Before each try, outside any transaction, once the connection is known; none: the queued file is deposited. */
  prepare?(deps: Deps, flow: OutgoingFlow, connector: PlatformConnector): Promise<FlowPreparation>;
  /**
   * A failure the kind tries again by itself: the flow stays pending until the time answered (the
   * scope's clock; `failed` still records the failure); null, or none declared: the flow ends `failed`.
   */
  retryAt?(flow: OutgoingFlow, failure: FlowFailure, now: Date): Date | null;
  /** The connection that carries the flow, resolved outside any transaction; null: none is configured. */
  connector(deps: Deps, scope: Scope, flow: OutgoingFlow): Promise<PlatformConnector | null>;
  /** The platform holds the flow: in the transaction that records it. */
  deposited(deps: Deps, tx: Tx, flow: OutgoingFlow, receipt: DepositedFlow, now: Date): Promise<void>;
  /** The flow did not reach the platform this time: in the transaction that records it. */
  failed(deps: Deps, tx: Tx, flow: OutgoingFlow, failure: FlowFailure, now: Date): Promise<void>;
}

export interface DepositedFlow {
  flowId: string;
  /** Found by its tracking id after a lost answer or a lapsed lease, not deposited by this try. */
  reconciled: boolean;
}
