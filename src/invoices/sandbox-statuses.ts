import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { later } from '../kernel/clock.js';
import { platformAccess } from '../establishments/platform-access.js';
import { isNonconformantContractRow, reasonRefusal } from '../platform/cdar.js';
import type { LifecycleEvent, PlatformFailure, PlatformFlow, PlatformResult } from '../platform/connector.js';
import type { DocumentRow } from './document-record.js';
import { lifecycleCodes, type LifecycleCode } from './lifecycle-status.js';
import { ciiOfDocument } from './generation.js';
import { applyEventToDocument } from './platform-statuses.js';
import { trackingIdOf } from './deposit-flow.js';
import { receiveInboxEvent as receiveEvent } from '../platform/service.js';
import { explained } from './refusals.js';
import { findAnyDocument, updateDocument } from './store.js';

/**
 * `POST /v1/sandbox/invoices/:id/simulate`: the sandbox's platform or buyer reports a status, and
 * it comes back the way a live one does. The test mode's platform is a pa-simulator this process
 * runs (platform/sandbox-platform.ts): on the first status of a submission the document's CII is
 * deposited there over HTTPS under the submission's tracking id; the simulator writes the status as
 * a CDAR life-cycle message; the service reads that flow back with the AFNOR connector, parses the
 * CDAR and applies it through the same function as a polled or pushed status (once, by the
 * event's key). So a status or reason no platform could send (BR-FR-CDV-15, BR-FR-CDV-CL-09) is
 * refused here too, and a rejection at the deposit (`REJ_XSD`...) arrives as the platform's
 * acknowledgement, as it would live. The contract's rows no conformant CDAR carries (`fr:213`
 * alone...) are played on request (`conformant: false`), as a platform that sends them imperfectly.
 */

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
        description:
          'The reason code (MDT-113). Required by `fr:206`, `fr:207`, `fr:208`, `fr:210`, `fr:213` and `fr:501`, from the list each status allows (BR-FR-CDV-CL-09: `REJ_SEMAN`, `DOUBLON`, `TX_TVA_ERR`...). A `fr:213` whose code no life-cycle message carries (`REJ_XSD`, a platform’s own code) as the first status of a submission is the platform refusing the deposit at its acknowledgement.',
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
    conformant: Type.Optional(
      Type.Boolean({
        description:
          '`false`: play a row of the contract’s rejection table that no conformant life-cycle message carries, as a platform that sends it imperfectly: `fr:213` alone (BR-FR-CDV-15; classed `unknown`, never semantic), or `fr:213` with `REJ_SYNT`, `REJ_XSD`, `REJ_DOUBLON` or `AUTRE` (BR-FR-CDV-CL-09), even as the first status of a submission. The status comes as such a CDAR and is classified as the contract says. Refused (`invalid_field_value`) on a conformant message (`param: conformant`) and on any other message the rules refuse (`param: reasonCode`). Default `true`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export type SimulateInput = Static<typeof simulateBody>;

/** A submission's name at the sandbox platform: the document and its attempt, as a live deposit's. */
export function sandboxTrackingId(row: Pick<DocumentRow, 'id' | 'einvoicing'>): string {
  return trackingIdOf(row.id, row.einvoicing.previousSubmissions.length + 1);
}

/** The sandbox platform failed to answer (it runs in this process: a fault, said plainly). */
function unavailable(failure: PlatformFailure): ApiError {
  return refuse('pa_unavailable', `The sandbox's platform did not answer: ${failure.message}`);
}

function valueOf<T>(result: PlatformResult<T>): T {
  if (!result.ok) throw unavailable(result);
  return result.value;
}

/** The document, checked as one that receives statuses (read without a lock: nothing is written yet). */
async function reportableDocument(deps: Pick<Deps, 'db'>, ctx: CallContext, id: string): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findAnyDocument(tx, ctx.scope, id, false);
    if (!row) throw refuse('not_found', `No invoice or credit note ${id}.`, { param: 'id' });
    if (row.documentStatus !== 'finalized')
      throw refuse(
        'invalid_status_transition',
        `${row.id} is ${row.documentStatus}: only a finalized, sent document receives statuses.`,
        { param: 'id' },
      );
    if (row.transmissionStatus === 'not_applicable')
      throw explained(
        'not_einvoicing_channel',
        `${row.id} is outside e-invoicing (its tax decision routes it to e-reporting): the platform reports nothing on it.`,
        { param: 'id' },
      );
    if (row.transmissionStatus === 'pending')
      throw refuse(
        'invalid_status_transition',
        `${row.id} was not sent yet: send it (\`POST /v1/invoices/${row.id}/send\`) before the platform can report on it.`,
        { param: 'id' },
      );
    return row;
  });
}

export async function simulateStatus(
  deps: Pick<Deps, 'db' | 'config' | 'sandboxPlatform'>,
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
  const reasonCode = input.reasonCode ?? null;
  const notes = input.notes === undefined ? [] : typeof input.notes === 'string' ? [input.notes] : input.notes;
  const row = await reportableDocument(deps, ctx, id);
  const access = await platformAccess(deps, deps.db, ctx.scope, { siret: row.seller?.siret ?? null });
  if (access.state === 'connected')
    throw explained(
      'not_supported',
      `${row.id} goes to the platform of establishment ${access.establishmentId}: its statuses come from that platform (script a pa-simulator with \`POST /simulator/statuses\`).`,
      { param: 'id' },
    );

  const refusal = refusalOf(code, reasonCode, input);
  // A code no life-cycle message carries, on a submission the platform has not seen: it refuses the deposit.
  const refusedAtDeposit =
    code === '213' && refusal !== null && reasonCode !== null && !/^(IRR_|ROUTAGE_ERR$)/.test(reasonCode);
  const platform = deps.sandboxPlatform;
  if (!platform.scriptable)
    throw explained(
      'not_supported',
      'The sandbox’s platform is a shared `facteur pa-simulator` (FACTEUR_SANDBOX_PA_URL) without its admin bearer: set FACTEUR_SANDBOX_PA_ADMIN_TOKEN so that statuses can be scripted on it.',
    );
  const connector = await platform.connectorOf(ctx.scope.companyId);
  const trackingId = sandboxTrackingId(row);

  let deposit: PlatformFlow | null = valueOf(await connector.findDeposit(trackingId, { retryBudgetMs: 0 }));
  let events: LifecycleEvent[];
  if (!deposit) {
    if (refusal && !refusedAtDeposit) throw reasonRefused(refusal, reasonCode);
    if (refusedAtDeposit)
      await platform.script(trackingId, {
        outcome: 'reject',
        reason: { code: reasonCode, text: input.reason ?? reasonCode },
      });
    else await platform.quietDeposit(trackingId);
    const cii = await ciiOfDocument(deps, ctx.scope, row);
    if (cii === null) throw new Error(`${row.id} is finalized without its frozen content`);
    const receipt = valueOf(
      await connector.deposit(
        { file: Buffer.from(cii, 'utf8'), name: `${row.number}.xml`, syntax: 'CII', trackingId },
        { retryBudgetMs: 0 },
      ),
    );
    deposit = valueOf(await connector.getFlow(receipt.flowId, { retryBudgetMs: 0 }));
    if (deposit.ackStatus === 'Error' && !refusedAtDeposit) {
      // Another request deposited this submission meanwhile: the platform holds that flow.
      const first = valueOf(await connector.findDeposit(trackingId, { retryBudgetMs: 0 }));
      if (first?.ackStatus !== 'Ok')
        throw new Error(
          `the sandbox's platform refused ${row.id}: ${deposit.ackDetails.map((d) => d.reasonMessage).join('; ')}`,
        );
      deposit = first;
    }
  } else if (deposit.ackStatus === 'Error')
    throw refuse(
      'invalid_status_transition',
      `The platform refused this submission of ${row.id} at its deposit: nothing more comes on it. Send it again (\`POST /v1/invoices/${row.id}/send\`) to make a new one.`,
      { param: 'id' },
    );
  else if (refusal) throw reasonRefused(refusal, reasonCode);

  if (deposit.ackStatus === 'Error') events = valueOf(await connector.eventsOfFlow(deposit, { retryBudgetMs: 0 }));
  else {
    const flowId = await platform.report(ctx.scope.companyId, trackingId, {
      status: code,
      reason: reasonCode === null ? null : { code: reasonCode, text: input.reason ?? null },
      notes,
      ...(input.conformant === false ? { conformant: false } : {}),
    });
    const flow = valueOf(await connector.getFlow(flowId, { retryBudgetMs: 0 }));
    events = valueOf(await connector.eventsOfFlow(flow, { retryBudgetMs: 0 }));
  }
  return applySandboxEvents(deps, ctx, row.id, { trackingId, flowId: deposit.flowId }, events);
}

/** The contract's rows `conformant: false` plays, as the refusals name them. */
const nonconformantRows = '`fr:213` alone; `fr:213` with `REJ_SYNT`, `REJ_XSD`, `REJ_DOUBLON` or `AUTRE`';

/**
 * Why no platform sends this status and reason (null when one does): a reason's text without its
 * code (MDT-113), or what the CDAR rules refuse. With `conformant: false`, null for a contract row
 * no conformant CDAR carries, and a refusal thrown for anything else: a conformant message (nothing
 * to play imperfectly) or one the rules refuse that is no such row (refused now, whatever the
 * submission, rather than played as the deposit's acknowledgement).
 */
function refusalOf(code: LifecycleCode, reasonCode: string | null, input: SimulateInput): string | null {
  // A life-cycle message carries a reason's text under its code (MDT-113), never alone.
  const textAlone = reasonCode === null && input.reason !== undefined;
  const refusal = textAlone
    ? 'a reason’s text goes with its code (MDT-113): give `reasonCode` too'
    : reasonRefusal(code, reasonCode);
  if (input.conformant !== false) return refusal;
  if (refusal === null)
    throw refuse(
      'invalid_field_value',
      `fr:${code}${reasonCode === null ? '' : ` with ${reasonCode}`} is a conformant life-cycle message: \`conformant: false\` plays only the contract’s rows none carries (${nonconformantRows}).`,
      { param: 'conformant' },
    );
  if (!textAlone && isNonconformantContractRow(code, reasonCode)) return null;
  throw reasonRefused(`${refusal}; \`conformant: false\` plays only ${nonconformantRows}`, reasonCode);
}

function reasonRefused(refusal: string, reasonCode: string | null): ApiError {
  const detail = `No platform can send this status: ${refusal}.`;
  return reasonCode === null
    ? explained('missing_required_field', detail, { param: 'reasonCode' })
    : refuse('invalid_field_value', detail, { param: 'reasonCode' });
}

/** The events read back, applied once each in one transaction; the submission's platform references kept. */
async function applySandboxEvents(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  references: { trackingId: string; flowId: string },
  events: LifecycleEvent[],
): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    let row = await findAnyDocument(tx, ctx.scope, id, true);
    if (!row) throw refuse('not_found', `No invoice or credit note ${id}.`, { param: 'id' });
    // Sent again meanwhile: these events are the earlier submission's.
    if (sandboxTrackingId(row) !== references.trackingId) return row;
    if (row.einvoicing.paTrackingId !== references.trackingId || row.einvoicing.paFlowId !== references.flowId)
      row = await updateDocument(tx, ctx.scope, id, {
        einvoicing: { ...row.einvoicing, paTrackingId: references.trackingId, paFlowId: references.flowId },
      });
    for (const [index, event] of events.entries()) {
      const now = later(ctx.now, index);
      if (!(await receiveEvent(tx, ctx.scope, event.key, id, now))) continue;
      row = (await applyEventToDocument(tx, { ...ctx, now }, row, event)).row;
    }
    return row;
  });
}
