import { reasonsOfStatus, type LifecycleStatusCode } from '../platform/cdar.js';

/**
 * What the simulated platforms do with one invoice: how they answer its deposit requests, then
 * which life-cycle statuses follow, in which order, how many times. Registered per invoice number
 * (in process, by `POST /simulator/scenarios`, or from a JSON file); `*` is the default.
 */

/** One answer to a deposit request, instead of accepting it. */
export type DepositAnswer =
  | {
      status: 400 | 401 | 403 | 409 | 413 | 422 | 429 | 500 | 502 | 503;
      /** `Retry-After` (seconds) of a 429 or 503. */
      retryAfterSeconds?: number;
      /** The error body's `errorCode` (a provider's reason: `SYNTAX_ERROR`, `DUPLICATED_INVOICE`...). */
      errorCode?: string;
      errorMessage?: string;
    }
  /** No answer at all: the request hangs until the client gives up; the flow is stored first or not. */
  | { timeout: 'after_store' | 'before_store' };

export const outcomes = [
  'deposited',
  'approve',
  'pay',
  'partially_approve',
  'dispute',
  'suspend',
  'refuse',
  'reject',
] as const;
export type Outcome = (typeof outcomes)[number];

export interface Scenario {
  /** Answers to the next deposit requests of this invoice, one per request, before one is accepted. */
  depositAnswers?: DepositAnswer[];
  /** The life cycle after acceptance; default `approve`. */
  outcome?: Outcome;
  /** The reason of the refusal, rejection, suspension, dispute or partial approval (MDT-113 and its text). */
  reason?: { code: string; text?: string };
  /** Notes that come with the status (MDT-126), verbatim. */
  notes?: string[];
  /** The statuses to emit, instead of the outcome's list. */
  statuses?: LifecycleStatusCode[];
  /** Statuses of the list to leave out (skip the intermediate ones). */
  skip?: string[];
  /** `reverse`: the last status is delivered first (each message keeps its own issue time). */
  order?: 'in_order' | 'reverse';
  /** Each status delivered twice: two life-cycle flows carrying the same message, each pushed. */
  twice?: boolean;
  /** Milliseconds between two statuses (0: all at once, as the deposit is accepted). */
  paceMs?: number;
}

const buyerProcessing = ['200', '202', '203', '204'] as const;

const defaultReasons: Partial<Record<Outcome, { code: string; text: string }>> = {
  partially_approve: { code: 'QTE_ERR', text: 'Quantité livrée inférieure' },
  dispute: { code: 'MONTANTTOTAL_ERR', text: 'Montant total erroné' },
  suspend: { code: 'JUSTIF_ABS', text: 'Justificatif absent' },
  refuse: { code: 'TX_TVA_ERR', text: 'Taux de TVA erroné' },
  reject: { code: 'REJ_SEMAN', text: 'Rejet sémantique' },
};

/** BR-FR-CDV-CL-09: the reasons a 213 may carry. */
const rejectionReasons = new Set(reasonsOfStatus['213']);

export type Plan =
  /** The flow is refused at its acknowledgement (an AFNOR reason, or a code no life-cycle status may carry). */
  | { kind: 'acknowledgement_error'; reasonCode: string; reasonMessage: string }
  | {
      kind: 'lifecycle';
      /** In delivery order; `position` is the status's place in the logical order (its issue time). */
      statuses: { code: LifecycleStatusCode; position: number; reason: { code: string; text?: string } | null }[];
      notes: string[];
      paceMs: number;
    };

/**
 * The life cycle a scenario gives. A rejection whose code is an irrecevability (IRR_*) is a 501,
 * a routing one (ROUTAGE_ERR) a 221, one of the 213 list a 213; any other code (REJ_SYNT, REJ_XSD,
 * REJ_DOUBLON, a provider's SYNTAX_ERROR) cannot be carried by a valid life-cycle message, so the
 * platform refuses the flow at its acknowledgement with that code.
 */
export function planOf(scenario: Scenario): Plan {
  const outcome = scenario.outcome ?? 'approve';
  const reason = scenario.reason ?? defaultReasons[outcome] ?? null;
  let codes: LifecycleStatusCode[];
  if (scenario.statuses) codes = [...scenario.statuses];
  else
    switch (outcome) {
      case 'deposited':
        codes = ['200'];
        break;
      case 'approve':
        codes = [...buyerProcessing, '205'];
        break;
      case 'pay':
        codes = [...buyerProcessing, '205', '211'];
        break;
      case 'partially_approve':
        codes = [...buyerProcessing, '206'];
        break;
      case 'dispute':
        codes = [...buyerProcessing, '207'];
        break;
      case 'suspend':
        codes = [...buyerProcessing, '208'];
        break;
      case 'refuse':
        codes = [...buyerProcessing, '210'];
        break;
      case 'reject': {
        const code = reason?.code ?? 'REJ_SEMAN';
        if (code.startsWith('IRR_')) codes = ['501'];
        else if (code === 'ROUTAGE_ERR') codes = ['200', '221'];
        else if (rejectionReasons.has(code)) codes = ['213'];
        else return { kind: 'acknowledgement_error', reasonCode: code, reasonMessage: reason?.text ?? code };
        break;
      }
    }
  const skipped = new Set(scenario.skip ?? []);
  const kept = codes.filter((code) => !skipped.has(code));
  const needsReason = new Set(['206', '207', '208', '210', '213', '221', '501']);
  let statuses = kept.map((code, position) => ({
    code,
    position,
    reason: needsReason.has(code) ? (code === '221' ? { code: 'ROUTAGE_ERR', text: reason?.text } : reason) : null,
  }));
  if (scenario.order === 'reverse') statuses = statuses.reverse();
  if (scenario.twice) statuses = statuses.flatMap((status) => [status, status]);
  return { kind: 'lifecycle', statuses, notes: scenario.notes ?? [], paceMs: scenario.paceMs ?? 0 };
}
