import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import type { Tx } from '../db/database.js';
import { euros } from '../kernel/money.js';
import { flowConnector, platformAccess } from '../establishments/platform-access.js';
import { buildCdarMessage } from '../platform/cdar.js';
import type { FlowKind, OutgoingFlow } from '../platform/flows.js';
import { deliverDueFlows, queuePlatformFlow, type QueuedFlowInput } from '../platform/service.js';
import {
  creditNoteVatBreakdown,
  invoiceCollectionFacts,
  invoiceStatementSubject,
  type InvoiceCollectionFacts,
} from '../invoices/service.js';
import {
  collectedByRate,
  failedAttemptFr212,
  nextFr212,
  sentFr212,
  statementSendable,
  type Fr212,
} from './collection-statement.js';
import { statementSources, type Statement } from './statement-sources.js';
import { eachStatement, recordStatementChange } from './service.js';

/**
 * The payment statements (CDAR status 212) sent to the platform of the invoice's seller
 * establishment, by a pass: each due statement is locked (`FOR UPDATE SKIP LOCKED`) and its CDAR
 * queued in the outbox in the same transaction; the outbox deposits it outside any transaction
 * and hands the platform's word back (`statementFlow`). Its tracking id is the payment's
 * (`fr212-<payment id>`): a statement the platform took before a crash is found again by that id
 * rather than sent twice. A test establishment without a connection has the sandbox's platform
 * (the pa-simulator this process runs), which takes it the same way, over HTTPS.
 * A failure keeps the statement `pending` with the platform's code, tried again after
 * `statementRetryMs`; `payment.obligation_updated` when the code changes and when it is sent.
 */

export const statementTrackingId = (paymentId: string) => `fr212-${paymentId}`.slice(0, 64);

/**
 * The VAT breakdown a statement's amount is split by: the invoice's for a payment; for a refund,
 * its credit note's (a credit note of some lines gives back money at their rates only).
 */
async function breakdownOf(
  tx: Tx,
  scope: Scope,
  statement: Statement,
  facts: InvoiceCollectionFacts,
): Promise<InvoiceCollectionFacts['vatBreakdown']> {
  if (!statement.creditNoteId) return facts.vatBreakdown;
  const credited = await creditNoteVatBreakdown(tx, scope, statement.creditNoteId);
  return credited.length > 0 ? credited : facts.vatBreakdown;
}

/** What the pass makes of a due statement: nothing yet, a change of its own, or its flow to queue. */
type Step = { change: Fr212; quiet?: boolean } | { flow: QueuedFlowInput } | null;

async function nextStep(deps: Pick<Deps, 'config'>, tx: Tx, scope: Scope, row: Statement, now: Date): Promise<Step> {
  const [facts, subject] = await Promise.all([
    invoiceCollectionFacts(tx, scope, row.invoiceId),
    invoiceStatementSubject(tx, scope, row.invoiceId),
  ]);
  if (!facts || !subject) return null;
  // The invoice was rejected or refused since: the statement waits on it again, unsent.
  const wait = nextFr212(row.fr212, facts, now);
  if (wait) return { change: wait };
  const access = await platformAccess(deps, tx, scope, { siret: subject.seller.siret });
  if (access.state === 'not_configured') {
    const next = failedAttemptFr212(
      'pa_not_configured',
      'The seller establishment has no platform connection: the statement waits for one.',
      now,
    );
    // A repeated failure with the same code changes nothing of how it is handled: stored, no event.
    return { change: next, quiet: row.fr212.lastErrorCode === next.lastErrorCode };
  }
  const trackingId = statementTrackingId(row.id);
  const cdar = buildCdarMessage({
    messageId: trackingId,
    issuedAt: now,
    status: '212',
    invoice: {
      number: subject.number,
      issueDate: subject.issueDate,
      typeCode: '380',
      sellerSiren: subject.seller.siren,
    },
    issuer: { role: 'SE', siren: subject.seller.siren, name: subject.seller.name },
    recipient: {
      siren: subject.seller.siren,
      electronicAddress: subject.seller.electronicAddress ?? subject.seller.siren,
      name: subject.seller.name,
    },
    collected: collectedByRate(row.amount, await breakdownOf(tx, scope, row, facts)).map((share) => ({
      amount: euros(share.amount),
      vatRate: share.vatRate,
    })),
  });
  return {
    flow: {
      kind: statementFlow.kind,
      ownerId: row.id,
      trackingId,
      establishmentId: access.establishmentId,
      file: Buffer.from(cdar),
      name: `${trackingId}.xml`,
      syntax: 'CDAR',
    },
  };
}

/** The statement's change for the platform's word on its flow, its event when that is news. */
async function settleStatement(tx: Tx, flow: OutgoingFlow, now: Date, next: (current: Fr212) => Fr212) {
  const scope: Scope = { companyId: flow.companyId, livemode: flow.livemode };
  const source = statementSources[flow.ownerId.startsWith('ref_') ? 'refund' : 'payment'];
  const statement = await source.lock(tx, scope, flow.ownerId);
  if (!statement || statement.fr212.sentAt) return;
  const changed = next(statement.fr212);
  if (!changed.sentAt && changed.lastErrorCode === statement.fr212.lastErrorCode)
    await source.update(tx, scope, statement.id, changed);
  else await recordStatementChange(tx, scope, statement, changed, now);
}

/**
 * The payment statement as a kind of the outbox's flows: deposited, it is sent; refused or not
 * taken, it keeps `pending` with the platform's code, and a later pass queues it again (tried
 * again after `statementRetryMs`, searched by its tracking id first).
 */
export const statementFlow: FlowKind = {
  kind: 'payments.statement',
  afterLapse: 'deposit',
  // A pass does not wait out a platform's whole retry table: the statement comes back later.
  call: { retryBudgetMs: 10_000 },
  connector: (deps, scope, flow) =>
    flowConnector(deps, scope, flow.establishmentId ? { establishmentId: flow.establishmentId } : { siret: null }),
  deposited: (_deps, tx, flow, _receipt, now) => settleStatement(tx, flow, now, () => sentFr212(now)),
  failed: (_deps, tx, flow, failure, now) =>
    settleStatement(tx, flow, now, () => failedAttemptFr212(failure.code, failure.message, now)),
};

/** Queues the due statements of these companies (all when not given) in the outbox; returns how many. */
export async function queueDueStatements(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  return eachStatement(deps, 'due', { batch: 20, ...options }, async (tx, statement, scope, now) => {
    if (!statementSendable(statement.fr212, now)) return 0;
    const step = await nextStep(deps, tx, scope, statement, now);
    if (!step) return 0;
    if ('flow' in step) return (await queuePlatformFlow(tx, scope, step.flow, now)) ? 1 : 0;
    if (step.quiet) await statementSources[statement.kind].update(tx, scope, statement.id, step.change);
    else await recordStatementChange(tx, scope, statement, step.change, now);
    return 0;
  });
}

/** Queues the due statements, then delivers the due statement flows; returns how many the platform took. */
export async function sendDueStatements(
  deps: Deps,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  await queueDueStatements(deps, options);
  return deliverDueFlows(deps, [statementFlow], options.companyIds ? { companyIds: options.companyIds } : {});
}
