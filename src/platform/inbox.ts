import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import type { LifecycleEvent, PlatformConnector, PlatformFlow } from './connector.js';

/**
 * What a capability declares of what the platforms send it (its descriptor's `inbox`): the
 * statuses of the flows it owns, the incoming flows of a kind it takes, the connections to read.
 * The inbox (inbox-dispatch.ts, inbox-reader.ts) does the rest, the same for every connection:
 * one reader, one subscription (every flow type), one cursor and one callback route; each event
 * deduplicated by its key, then handed to exactly one owner.
 */

/** What an event names of the flow it reports on: how its owner is found. */
export interface EventReference {
  /** The tracking id the platform echoes (the deposit it reports on), when it gives one. */
  trackingId: string | null;
  /** The invoice number a CDAR status names, when it carries no tracking id. */
  invoiceNumber: string | null;
}

/** The statuses of the flows a capability owns (the acknowledgement and life cycle of its deposits). */
export interface StatusHandler {
  /** The owner (its id in the capability) of the flow an event reports on, if it is this capability's. */
  ownerOf(db: Executor, scope: Scope, reference: EventReference): Promise<string | null>;
  /** The event applied to its owner, in the transaction that records its receipt; whether it changed anything. */
  apply(tx: Tx, ctx: CallContext, ownerId: string, event: LifecycleEvent): Promise<boolean>;
}

/** A flow of the incoming kind, as the inbox hands it: its file, or why it could not be taken for good. */
export type IncomingFile = { bytes: Uint8Array } | { notTaken: string };

/** The flows addressed to the company that a capability takes (received invoices). */
export interface IncomingHandler {
  /** Whether a flow the platform lists or pushes is of this kind. */
  takes(flow: PlatformFlow): boolean;
  /** Whether the flow was already taken (by its flow id): it is not downloaded again. */
  known(deps: Pick<Deps, 'db'>, scope: Scope, flowId: string): Promise<boolean>;
  /** The flow made into its owner's record, once (keyed on the flow id); the owner's id. */
  take(
    deps: Pick<Deps, 'db' | 'config' | 'clock'>,
    scope: Scope,
    establishmentId: string,
    flow: PlatformFlow,
    file: IncomingFile,
  ): Promise<{ ownerId: string; created: boolean }>;
}

/** An establishment's platform connection, resolved outside any transaction. */
export interface InboxConnection {
  connector: PlatformConnector;
  /** Names the connection (base URL, client, a digest of the secret): the key of its cursor. */
  connectionKey: string;
}

/** Where the inbox finds the connections to read. */
export interface InboxConnections {
  /** The establishments connected to a platform (all, or these companies'). */
  connected(
    db: Executor,
    companyIds?: readonly string[],
  ): Promise<{ companyId: string; livemode: boolean; id: string }[]>;
  /** An establishment's connection now; null: it has none (any more). */
  connectionOf(deps: Deps, scope: Scope, establishmentId: string): Promise<InboxConnection | null>;
}

/**
 * A subscription made before the one inbox (the received invoices' own, on its own callback
 * path): kept until replaced, its key still authenticates the platform's callbacks on that path.
 */
export interface FormerSubscriptions {
  /** The former subscription's signing key (opened), if the connection has one. */
  signingKey(deps: Pick<Deps, 'db' | 'config'>, scope: Scope, establishmentId: string): Promise<string | null>;
  /** The connection changed or has its one subscription: the former one is forgotten. */
  forget(db: Executor, scope: Scope, establishmentId: string): Promise<void>;
}

export interface InboxDeclaration {
  statuses?: StatusHandler;
  incoming?: IncomingHandler;
  connections?: InboxConnections;
  formerSubscriptions?: FormerSubscriptions;
}

/** Every capability's inbox declarations, gathered: the statuses' owners in list order, one incoming kind, one source of connections. */
export interface Inbox {
  statuses: readonly StatusHandler[];
  incoming: IncomingHandler | null;
  connections: InboxConnections | null;
  formerSubscriptions: readonly FormerSubscriptions[];
}

export function inboxOf(declarations: readonly InboxDeclaration[]): Inbox {
  const incoming = declarations.flatMap((declared) => (declared.incoming ? [declared.incoming] : []));
  const connections = declarations.flatMap((declared) => (declared.connections ? [declared.connections] : []));
  if (incoming.length > 1) throw new Error('two capabilities declare the incoming kind');
  if (connections.length > 1) throw new Error('two capabilities declare the inbox connections');
  return {
    statuses: declarations.flatMap((declared) => (declared.statuses ? [declared.statuses] : [])),
    incoming: incoming[0] ?? null,
    connections: connections[0] ?? null,
    formerSubscriptions: declarations.flatMap((declared) =>
      declared.formerSubscriptions ? [declared.formerSubscriptions] : [],
    ),
  };
}
