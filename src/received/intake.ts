import type { Scope } from '../db/scope.js';
import { encryptionKeyOf, openSecret } from '../kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { connectedEstablishments } from '../establishments/service.js';
import { platformAccess } from '../establishments/platform-access.js';
import type { PlatformFlow } from '../platform/connector.js';
import type { FormerSubscriptions, IncomingHandler, InboxConnections } from '../platform/inbox.js';
import { deleteReaderOf, receivedReaderOf } from './reader-store.js';
import { ingestReceivedInvoice, platformContext, receivedFlowKnown } from './service.js';

/**
 * How an invoice flow reaches the service from an establishment's platform connection (live, or a
 * test establishment pointed at a `pa-simulator`): the inbox (platform/inbox.ts) reads every
 * connection, by polling and by its callback, and hands each invoice flow here once. Ingestion is
 * keyed on the flow id besides: each invoice is made once. A test establishment without a
 * connection is the sandbox's: its invoices come by `POST /v1/received-invoices`.
 */

const isIncomingInvoice = (flow: PlatformFlow) => flow.flowDirection === 'In' && flow.flowType === 'CustomerInvoice';

/** The received invoices' part of the inbox: the invoice flows addressed to the company. */
export const incomingInvoices: IncomingHandler = {
  takes: isIncomingInvoice,
  known: (deps, scope, flowId) => receivedFlowKnown(deps, scope, flowId),
  async take(deps, scope, establishmentId, flow, file) {
    const result = await ingestReceivedInvoice(deps, platformContext(scope, deps.clock.now()), {
      flowId: flow.flowId,
      bytes: 'bytes' in file ? file.bytes : new Uint8Array(0),
      name: flow.name || null,
      establishmentId,
      ...('notTaken' in file ? { notTaken: file.notTaken } : {}),
    });
    return { ownerId: result.invoice.id, created: result.created };
  },
};

/** The connections the inbox reads: every establishment connected to a platform. */
export const establishmentConnections: InboxConnections = {
  connected: (db, companyIds) => connectedEstablishments(db, companyIds),
  async connectionOf(deps, scope, establishmentId) {
    const access = await platformAccess(deps, deps.db, scope, { establishmentId });
    return access.state === 'connected' ? { connector: access.connector, connectionKey: access.connectionKey } : null;
  },
};

/**
 * The received invoices' own subscription, made before the one inbox (`received_readers`, its
 * callback `/platform-callbacks/received/...`): its key still authenticates that path's callbacks
 * until the connection changes.
 */
export const receivedSubscriptions: FormerSubscriptions = {
  async signingKey(deps, scope: Scope, establishmentId) {
    const reader = await receivedReaderOf(deps.db, scope, establishmentId);
    if (!reader?.signingKey) return null;
    return openSecret(
      encryptionKeyOf(deps.config),
      reader.signingKey,
      sealContext(sealedColumns.receivedReaderSigningKey, [scope.companyId, scope.livemode, establishmentId]),
    );
  },
  forget: (db, scope, establishmentId) => deleteReaderOf(db, scope, establishmentId),
};
