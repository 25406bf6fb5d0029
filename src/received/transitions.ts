/**
 * The buyer's answers to a received invoice, as the reform's life-cycle statuses (research
 * fr-einvoicing-domain.md §1, §3): each action is one CDAR status the company sends back through
 * its platform, allowed from some states only.
 *
 * - approve (205), from received, disputed or suspended: the dispute or the suspension is settled.
 * - refuse (210), from received, disputed or suspended; terminal. Not after an approval: an
 *   approved invoice is contested by a dispute, as the reform's use cases do (UC4, UC5).
 * - dispute (207), from received, approved or suspended.
 * - suspend (208), from received or disputed: waiting for a missing piece (the seller answers 209).
 * - payment-transmitted (211), from received or approved; terminal for the buyer's side.
 */

export const receivedStatuses = [
  'received',
  'approved',
  'refused',
  'disputed',
  'suspended',
  'payment_transmitted',
] as const;
export type ReceivedStatus = (typeof receivedStatuses)[number];

export const receivedActions = ['approve', 'refuse', 'dispute', 'suspend', 'payment-transmitted'] as const;
export type ReceivedAction = (typeof receivedActions)[number];

export interface ActionRule {
  /** The CDAR status sent (MDT-105). */
  statusCode: '205' | '207' | '208' | '210' | '211';
  to: ReceivedStatus;
  from: readonly ReceivedStatus[];
  /** The reason codes the CDAR rules allow with this status (BR-FR-CDV-CL-09); empty: none taken. */
  reasons: readonly string[];
  /** Required by the route (refuse); otherwise a default is used when the status needs one. */
  reasonRequired: boolean;
  defaultReason: string | null;
}

/** BR-FR-CDV-CL-09, with 210 (the non-B2G list). */
export const refusalReasons = [
  'DOUBLON',
  'ADR_ERR',
  'MONTANTTOTAL_ERR',
  'CALCUL_ERR',
  'TX_TVA_ERR',
  'NON_CONFORME',
  'DEST_ERR',
  'TRANSAC_INC',
  'EMMET_INC',
  'CONTRAT_TERM',
  'DOUBLE_FACT',
  'CMD_ERR',
  'REF_CT_ABSENT',
] as const;

/** BR-FR-CDV-CL-09, with 207. */
export const disputeReasons = [
  'DOUBLON',
  'DEST_INC',
  'ADR_ERR',
  'MONTANTTOTAL_ERR',
  'CALCUL_ERR',
  'TX_TVA_ERR',
  'NON_CONFORME',
  'DEST_ERR',
  'TRANSAC_INC',
  'EMMET_INC',
  'CONTRAT_TERM',
  'DOUBLE_FACT',
  'CMD_ERR',
  'REF_CT_ABSENT',
  'SIRET_ERR',
  'CODE_ROUTAGE_ERR',
  'REF_ERR',
  'PU_ERR',
  'REM_ERR',
  'QTE_ERR',
  'ART_ERR',
  'MODPAI_ERR',
  'QUALITE_ERR',
  'LIVR_INCOMP',
  'AUTRE',
] as const;

/** BR-FR-CDV-CL-09, with 208. */
export const suspensionReasons = ['JUSTIF_ABS', 'CMD_ERR', 'REF_CT_ABSENT', 'COORD_BANC_ERR'] as const;

export const actionRules: Record<ReceivedAction, ActionRule> = {
  approve: {
    statusCode: '205',
    to: 'approved',
    from: ['received', 'disputed', 'suspended'],
    reasons: [],
    reasonRequired: false,
    defaultReason: null,
  },
  refuse: {
    statusCode: '210',
    to: 'refused',
    from: ['received', 'disputed', 'suspended'],
    reasons: refusalReasons,
    reasonRequired: true,
    defaultReason: null,
  },
  dispute: {
    statusCode: '207',
    to: 'disputed',
    from: ['received', 'approved', 'suspended'],
    reasons: disputeReasons,
    reasonRequired: false,
    defaultReason: 'AUTRE',
  },
  suspend: {
    statusCode: '208',
    to: 'suspended',
    from: ['received', 'disputed'],
    reasons: suspensionReasons,
    reasonRequired: false,
    defaultReason: 'JUSTIF_ABS',
  },
  'payment-transmitted': {
    statusCode: '211',
    to: 'payment_transmitted',
    from: ['received', 'approved'],
    reasons: [],
    reasonRequired: false,
    defaultReason: null,
  },
};

export type TransitionCheck =
  | { ok: true; rule: ActionRule; reasonCode: string | null }
  | { ok: false; problem: 'transition' | 'reason_missing' | 'reason_invalid'; detail: string };

/** Whether `action` may follow `status`, and the reason code it sends. */
export function checkTransition(
  status: ReceivedStatus,
  action: ReceivedAction,
  reasonCode: string | null | undefined,
): TransitionCheck {
  const rule = actionRules[action];
  if (!rule.from.includes(status))
    return {
      ok: false,
      problem: 'transition',
      detail: `A received invoice in status \`${status}\` cannot be answered with \`${action}\` (allowed from ${rule.from.map((from) => `\`${from}\``).join(', ')}).`,
    };
  if (reasonCode === undefined || reasonCode === null) {
    if (rule.reasonRequired) return { ok: false, problem: 'reason_missing', detail: 'reasonCode' };
    return { ok: true, rule, reasonCode: rule.defaultReason };
  }
  if (!rule.reasons.includes(reasonCode))
    return {
      ok: false,
      problem: 'reason_invalid',
      detail:
        rule.reasons.length === 0
          ? `\`${action}\` takes no reason code.`
          : `\`${reasonCode}\` is not a reason code of status ${rule.statusCode}: one of ${rule.reasons.join(', ')}.`,
    };
  return { ok: true, rule, reasonCode };
}
