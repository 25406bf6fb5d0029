import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { recordEvent } from '../webhooks/service.js';
import type { Axes, DocumentKind } from './document-axes.js';
import { axesColumns, axesOf, documentEventData, type DocumentRow } from './document-record.js';
import { notFound } from './drafts.js';
import { lifecycleCodes, type LifecycleCode } from './lifecycle-status.js';
import { archiveAttempt, sendMove } from './submission.js';
import { applyReportedStatus } from './reported-status.js';
import { platformAccess } from '../establishments/platform-access.js';
import { filesSummaries, queueGeneration } from './files-store.js';
import { generationFailed } from './files.js';
import { queueDeposit } from './deposit-store.js';

import { later } from '../kernel/clock.js';
import { findAnyDocument, findDocument, updateDocument } from './store.js';
import { explained } from './refusals.js';

/**
 * The way of a finalized document to the buyer: the send operation (`POST /v1/invoices/:id/send`)
 * and the statuses the platform and the buyer report, simulated in the sandbox
 * (`POST /v1/sandbox/invoices/:id/simulate`). Test documents never leave the process: the send
 * hands them to the in-process simulated platform, and the simulate route plays its answers.
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
 * in this transaction (deposits.ts); a test establishment without a connection keeps the in-process
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

export const simulateBody = Type.Object(
  {
    status: Type.String({
      pattern: `^(fr:)?(${lifecycleCodes.join('|')})$`,
      description: `The life-cycle status reported, \`fr:200\` to \`fr:501\`: ${lifecycleCodes.map((code) => `\`fr:${code}\``).join(', ')}.`,
    }),
    reasonCode: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The reason code (`REJ_SEMAN`, `DOUBLON`, `TX_TVA_ERR`...).',
      }),
    ),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: "The platform's or buyer's words, kept verbatim." }),
    ),
    notes: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 20 }), Type.String({ maxLength: 2000 })], {
        description:
          'The notes that come with the status (a list, or one text): `einvoicing.rejectionNote` shows them one per line, null when none.',
      }),
    ),
  },
  { additionalProperties: false },
);

export type SimulateInput = Static<typeof simulateBody>;

/**
 * Test mode only: the simulated platform or buyer reports a status. It goes through the same pure
 * function as a real one (lifecycle-status.ts): idempotent, never downgrades, only observed moves
 * emit their event; every status received is kept in the history (`fr:211` as a mention only).
 */
export async function simulateStatus(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  input: SimulateInput,
): Promise<DocumentRow> {
  if (ctx.scope.livemode)
    throw refuse(
      'not_supported',
      'Statuses are simulated in the sandbox only; call it with a `svc_test_` key. Live statuses come from the approved platform.',
    );
  const code = input.status.replace(/^fr:/, '') as LifecycleCode;
  const notes = input.notes === undefined ? [] : typeof input.notes === 'string' ? [input.notes] : input.notes;
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findAnyDocument(tx, ctx.scope, id, true);
    if (!row) throw refuse('not_found', `No invoice or credit note ${id}.`, { param: 'id' });
    if (row.documentStatus !== 'finalized')
      throw refuse(
        'invalid_status_transition',
        `${row.id} is ${row.documentStatus}: only a finalized, sent document receives statuses.`,
        { param: 'id' },
      );
    if (row.transmissionStatus === 'not_applicable') {
      throw explained(
        'not_einvoicing_channel',
        `${row.id} is outside e-invoicing (its tax decision routes it to e-reporting): the platform reports nothing on it.`,
        { param: 'id' },
      );
    }
    if (row.transmissionStatus === 'pending')
      throw refuse(
        'invalid_status_transition',
        `${row.id} was not sent yet: send it (\`POST /v1/invoices/${row.id}/send\`) before the platform can report on it.`,
        { param: 'id' },
      );
    return applyReportedStatus(tx, ctx, row, {
      code,
      reasonCode: input.reasonCode ?? null,
      reason: input.reason ?? null,
      notes,
    });
  });
}
