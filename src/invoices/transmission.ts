import { isDeepStrictEqual } from 'node:util';
import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { recordEvent } from '../webhooks/service.js';
import type { Axes, DocumentKind } from './document-axes.js';
import {
  axesColumns,
  axesOf,
  documentEventData,
  obligationEventData,
  obligationOf,
  type DocumentRow,
  type HistoryEntry,
} from './document-record.js';
import { notFound } from './drafts.js';
import { applyLifecycleStatus, lifecycleCodes, type LifecycleCode } from './lifecycle-status.js';
import { archiveAttempt, rejectionAfter, sendMove } from './submission.js';

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

/** `POST /v1/invoices/:id/send` and `POST /v1/credit-notes/:id/send`. */
export async function sendDocument(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  options: SendOptions = {},
): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findDocument(tx, ctx.scope, kind, id, true);
    if (!row) throw notFound(kind, id);
    const move = sendMove(row);
    if (ctx.scope.livemode) {
      throw explained(
        'pa_not_configured',
        'No approved platform is connected for this establishment yet: live documents cannot be deposited. Test the flow with a test key.',
        { param: 'id' },
      );
    }
    const before = axesOf(row);
    const axes: Axes = { ...before, transmissionStatus: 'sending', transmissionDetail: null };
    const einvoicing = move === 'resubmission' ? archiveAttempt(row.einvoicing, before, ctx.now) : row.einvoicing;
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
    const kind = row.kind as DocumentKind;
    const applied = applyLifecycleStatus(axesOf(row), kind, {
      code,
      reasonCode: input.reasonCode ?? null,
      reason: input.reason ?? null,
      notes,
    });
    const entry: HistoryEntry = {
      status: `fr:${code}`,
      reasonCode: input.reasonCode ?? null,
      reason: input.reason ?? null,
      notes,
      receivedAt: ctx.now.toISOString(),
      applied: applied.changed,
      event: applied.event,
    };
    const history = [...row.history, entry];
    if (!applied.changed) return updateDocument(tx, ctx.scope, id, { history });
    const updated = await updateDocument(tx, ctx.scope, id, {
      ...axesColumns(applied.axes, kind),
      einvoicing: rejectionAfter(row.einvoicing, applied.axes, applied.rejection, code),
      history,
      updated: ctx.now,
    });
    if (applied.event) await recordEvent(tx, ctx, applied.event, documentEventData(updated, row.status), ctx.now);
    else {
      // A move without an event of its own (a credit note rejected by the platform, or made
      // available) still tells a changed obligation: `<kind>.obligation_updated` (LIFECYCLE.md).
      const obligation = obligationOf(updated);
      if (obligation && !isDeepStrictEqual(obligation, obligationOf(row))) {
        await recordEvent(
          tx,
          ctx,
          `${kind}.obligation_updated`,
          obligationEventData(updated, obligation, input.reason ?? null),
          ctx.now,
        );
      }
    }
    return updated;
  });
}
