import { and, eq } from 'drizzle-orm';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import type { LifecycleEvent } from '../platform/connector.js';
import type { EventReference, StatusHandler } from '../platform/inbox.js';
import { applyPlatformWord } from './einvoicing.js';
import { invoices } from './schema.js';
import { findAnyDocument } from './store.js';
import type { DocumentRow } from './document-record.js';
import type { OutgoingFlow } from '../platform/flows.js';
import { latestPlatformFlow, platformFlowOf } from '../platform/service.js';
import { depositDetailOf, depositFlowKind } from './deposit-flow.js';

/**
 * The statuses back from the platform of the invoices' deposits: what it acknowledged of a
 * deposit, and the CDAR life-cycle statuses of the platforms and the buyer. The inbox
 * (platform/inbox.ts) reads them from each connection, by polling or by its callback, and hands
 * each to its owner once; here, the owner: the document whose deposit the event names by its
 * tracking id (else by the invoice number), its word applied by the same function as the
 * sandbox's simulate route (einvoicing.ts).
 */

/** The document's deposit an event reports on. */
async function depositOf(db: Executor, scope: Scope, reference: EventReference): Promise<OutgoingFlow | undefined> {
  if (reference.trackingId) {
    const found = await platformFlowOf(db, scope, reference.trackingId);
    if (found?.kind === depositFlowKind) return found;
  }
  if (!reference.invoiceNumber) return undefined;
  const [document] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, scope.companyId),
        eq(invoices.livemode, scope.livemode),
        eq(invoices.number, reference.invoiceNumber),
      ),
    );
  return document ? latestPlatformFlow(db, scope, depositFlowKind, document.id) : undefined;
}

const referenceOf = (event: LifecycleEvent): EventReference =>
  event.kind === 'acknowledgement'
    ? { trackingId: event.flow.trackingId, invoiceNumber: null }
    : { trackingId: event.trackingId, invoiceNumber: event.status.invoiceNumber ?? null };

/** The invoices' part of the inbox: the statuses of the documents' deposits (the owner: the document). */
export const depositStatuses: StatusHandler = {
  ownerOf: async (db, scope, reference) => (await depositOf(db, scope, reference))?.ownerId ?? null,
  async apply(tx, ctx, documentId, event) {
    const deposit = await depositOf(tx, ctx.scope, referenceOf(event));
    if (!deposit || deposit.ownerId !== documentId) return false;
    const row = await findAnyDocument(tx, ctx.scope, documentId, true);
    if (!row) return false;
    // A late word on an earlier attempt does not move the current one.
    const latest = await latestPlatformFlow(tx, ctx.scope, depositFlowKind, documentId);
    if (latest && depositDetailOf(latest).attempt !== depositDetailOf(deposit).attempt) return false;
    return (await applyPlatformWord(tx, ctx, row, event, deposit)).changed;
  },
};

/**
 * One event of the sandbox's platform applied to its document (locked by the caller, in its
 * transaction, once): the same as a live platform's (einvoicing.ts), without a deposit job to
 * follow a rejection up.
 */
export function applyEventToDocument(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  event: LifecycleEvent,
): Promise<{ row: DocumentRow; changed: boolean }> {
  return applyPlatformWord(tx, ctx, row, event, null);
}
