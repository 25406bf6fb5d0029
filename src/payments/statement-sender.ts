import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import type { Tx } from '../db/database.js';
import { euros } from '../kernel/money.js';
import { platformAccess } from '../establishments/platform-access.js';
import { buildCdarMessage } from '../platform/cdar.js';
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
 * establishment, by a pass: each due statement is locked (`FOR UPDATE SKIP LOCKED`), sent, and
 * recorded in the same transaction. Its tracking id is the payment's (`fr212-<payment id>`): a
 * statement the platform took before a crash is found again by that id rather than sent twice.
 * A test establishment without a connection has the sandbox's platform (the pa-simulator this
 * process runs), which takes it the same way, over HTTPS.
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

type Outcome = { sent: true } | { sent: false; code: string; reason: string } | { wait: Fr212 } | null;

async function sendStatement(
  deps: Pick<Deps, 'config' | 'sandboxPlatform'>,
  tx: Tx,
  scope: Scope,
  row: Statement,
  now: Date,
): Promise<Outcome> {
  const [facts, subject] = await Promise.all([
    invoiceCollectionFacts(tx, scope, row.invoiceId),
    invoiceStatementSubject(tx, scope, row.invoiceId),
  ]);
  if (!facts || !subject) return null;
  // The invoice was rejected or refused since: the statement waits on it again, unsent.
  const wait = nextFr212(row.fr212, facts, now);
  if (wait) return { wait };
  const access = await platformAccess(deps, tx, scope, { siret: subject.seller.siret });
  if (access.state === 'not_configured')
    return {
      sent: false,
      code: 'pa_not_configured',
      reason: 'The seller establishment has no platform connection: the statement waits for one.',
    };
  const connector =
    access.state === 'sandbox' ? await deps.sandboxPlatform.connectorOf(scope.companyId) : access.connector;
  const trackingId = statementTrackingId(row.id);
  const found = await connector.findDeposit(trackingId);
  if (!found.ok) return { sent: false, code: found.paErrorCode, reason: found.message };
  if (found.value) return { sent: true };
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
  const result = await connector.deposit({
    file: Buffer.from(cdar),
    name: `${trackingId}.xml`,
    syntax: 'CDAR',
    trackingId,
  });
  return result.ok ? { sent: true } : { sent: false, code: result.paErrorCode, reason: result.message };
}

/** Sends the due statements of these companies (all when not given); returns how many were sent. */
export async function sendDueStatements(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'sandboxPlatform'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  return eachStatement(deps, 'due', { batch: 20, ...options }, async (tx, statement, scope, now) => {
    const current = statement.fr212;
    if (!statementSendable(current, now)) return 0;
    const outcome = await sendStatement(deps, tx, scope, statement, now);
    if (!outcome) return 0;
    const next =
      'wait' in outcome
        ? outcome.wait
        : outcome.sent
          ? sentFr212(now)
          : failedAttemptFr212(outcome.code, outcome.reason, now);
    // A repeated failure with the same code changes nothing of how it is handled: stored, no event.
    if ('sent' in outcome && !outcome.sent && current.lastErrorCode === next.lastErrorCode)
      await statementSources[statement.kind].update(tx, scope, statement.id, next);
    else await recordStatementChange(tx, scope, statement, next, now);
    return 'sent' in outcome && outcome.sent ? 1 : 0;
  });
}
