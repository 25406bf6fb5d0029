import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { recordEvent } from '../webhooks/service.js';
import type { Axes, DocumentKind } from './document-axes.js';
import { axesColumns, axesOf, documentEventData, type DocumentRow } from './document-record.js';
import { notFound } from './drafts.js';
import { archiveAttempt, sendMove } from './submission.js';
import { platformAccess } from '../establishments/platform-access.js';
import { filesSummaries, queueGeneration } from './files-store.js';
import { generationFailed } from './files.js';
import { queueDeposit } from './deposit-flow.js';
import { sandboxTrackingId } from './sandbox-statuses.js';

import { later } from '../kernel/clock.js';
import { findDocument, updateDocument } from './store.js';
import { explained } from './refusals.js';
import { emailDocument } from './document-email.js';

/**
 * The way of a finalized document to the buyer: the send operation (`POST /v1/invoices/:id/send`).
 * A test document of an establishment without a connection stays with the sandbox's platform,
 * which receives it on its first simulated status (sandbox-statuses.ts).
 */

export interface SendOptions {
  /** In the sending transaction, once the document is on its way (a recurring run records it there). */
  beforeCommit?: (tx: Tx, sent: DocumentRow) => Promise<void>;
}

/**
 * `POST /v1/invoices/:id/send` and `POST /v1/credit-notes/:id/send`. The guards in the contract's
 * order: the document's own state (draft, cancelled, already on its way, `not_einvoicing_channel`),
 * then the platform of the seller's establishment (`pa_not_configured`, `deposit_not_enabled`),
 * then its files (failed validation: refused; still generating: the deposit job waits for them).
 * A connected establishment (live, or a test one pointed at a platform) gets a durable deposit job
 * in this transaction (deposit-flow.ts, an outbox flow); a test establishment without a connection keeps the in-process
 * sandbox, whose statuses come from the simulate route.
 */
export async function sendDocument(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  options: SendOptions = {},
): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findDocument(tx, ctx.scope, kind, id, true);
    if (!row) throw notFound(kind, id);
    const move = sendMove(row);
    const access = await platformAccess(deps, tx, ctx.scope, { siret: row.seller?.siret ?? null });
    if (access.state === 'not_configured') {
      throw explained(
        'pa_not_configured',
        'No approved platform is connected for this establishment yet: live documents cannot be deposited. Connect it (`POST /v1/establishments/:id` with `platform`), or test the flow with a test key.',
        { param: 'id' },
      );
    }
    if (access.state === 'connected') {
      if (!access.depositEnabled)
        throw explained(
          'deposit_not_enabled',
          `Establishment ${access.establishmentId} (SIRET ${access.siret}) has a platform but deposits are off: set \`depositEnabled\` on it.`,
          { param: 'id' },
        );
      const files = (await filesSummaries(tx, ctx.scope, [row.id])).get(row.id);
      if (files?.state === 'failed') throw generationFailed(row, files);
      // A document finalized before files existed gets its generation now; the job waits for it.
      if (!files) await queueGeneration(tx, ctx.scope, row.id, row.kind, ctx.now);
    }
    const before = axesOf(row);
    const axes: Axes = { ...before, transmissionStatus: 'sending', transmissionDetail: null };
    let einvoicing = move === 'resubmission' ? archiveAttempt(row.einvoicing, before, ctx.now) : row.einvoicing;
    if (access.state === 'connected') {
      const job = await queueDeposit(
        tx,
        ctx.scope,
        {
          documentId: row.id,
          documentKind: row.kind,
          establishmentId: access.establishmentId,
          connectionKey: access.connectionKey,
        },
        ctx.now,
      );
      einvoicing = { ...einvoicing, paFlowId: null, paTrackingId: job.trackingId };
    } else if (access.state === 'sandbox') {
      // The sandbox's platform receives this submission under that name on its first status.
      einvoicing = { ...einvoicing, paFlowId: null, paTrackingId: sandboxTrackingId({ id: row.id, einvoicing }) };
    }
    const sent = await updateDocument(tx, ctx.scope, id, { ...axesColumns(axes, kind), einvoicing, updated: ctx.now });
    if (kind === 'invoice') {
      await recordEvent(tx, ctx, 'invoice.sent', documentEventData(sent, row.status), ctx.now);
      await recordEvent(tx, ctx, 'invoice.sending', documentEventData(sent, row.status), later(ctx.now, 1));
    } else {
      await recordEvent(
        tx,
        ctx,
        'credit_note.sent',
        { ...documentEventData(sent, row.status), paStatus: sent.transmissionStatus, paInvoiceId: null },
        ctx.now,
      );
    }
    await options.beforeCommit?.(tx, sent);
    return sent;
  });
}

/** A finalized document e-mailed to its buyer (document-email.ts), in one transaction holding its row. */
export function emailToBuyer(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findDocument(tx, ctx.scope, kind, id, true);
    if (!row) throw notFound(kind, id);
    return emailDocument(tx, ctx, deps.config, row);
  });
}
