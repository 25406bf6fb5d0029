/** The contract's eleven rejection categories. Consumers route on these, never on the text. */
export const rejectionCategories = [
  'buyer_not_in_directory',
  'addressing_error',
  'other',
  'format_invalid',
  'semantic_error',
  'duplicate',
  'platform_auth',
  'platform_unavailable',
  'refused_by_buyer',
  'suspended',
  'unknown',
] as const;
export type RejectionCategory = (typeof rejectionCategories)[number];

/** Who the rejection fields name as the source (contract, "Source recording"). */
export type RejectionSource = 'platform' | 'buyer' | 'service';

/**
 * What a rejection is classified from: each level of the contract's priority is its own field, so
 * a caller never has to guess which kind of code it holds.
 */
export interface RejectionInput {
  /** A code of the service's own pre-deposit check (`buyer_not_in_directory`). */
  localCode?: string | null;
  /** The tax administration's reason code (MDT-113 of a CDAR: REJ_*, IRR_*, DOUBLON...). */
  reasonCode?: string | null;
  /**
   * A platform provider's own reason (`SYNTAX_ERROR`, `ROUTING_FAILURE`), or the AFNOR
   * acknowledgement reason of a flow (`InvalidSchema`, `AlreadyExistingFlow`...).
   */
  providerReason?: string | null;
  /** The HTTP status a platform answered. */
  httpStatus?: number | null;
  /** No answer came (time-out, connection refused or cut): classed as the upstream 5xx it stands for. */
  unreachable?: boolean;
  /** The life-cycle status code (`213`, `221`, `501`, `210`, `207`, `208`). */
  statusCode?: string | null;
  /** The platform does not know the seller (for ROUTING_FAILURE). */
  sellerUnknown?: boolean;
  /**
   * The answer came from the directory pre-check of a deposit: only there may the text of a 400
   * say that the buyer is not in the directory (the contract's one textual fallback).
   */
  directoryPrecheck?: boolean;
  /** The platform's words, read only for that fallback. */
  message?: string | null;
}

// The contract's table, then LIFECYCLE.md's completion for the official codes it does not list.
const byReasonCode: Record<string, RejectionCategory> = {
  REJ_ADR: 'addressing_error',
  ADR_ERR: 'addressing_error',
  ROUTAGE_ERR: 'addressing_error',
  REJ_SEMAN: 'semantic_error',
  REJ_COH: 'semantic_error',
  MONTANTTOTAL_ERR: 'semantic_error',
  CALCUL_ERR: 'semantic_error',
  REJ_SYNT: 'format_invalid',
  REJ_XSD: 'format_invalid',
  REJ_REF_PJ: 'format_invalid',
  REJ_ASS_PJ: 'format_invalid',
  REJ_DOUBLON: 'duplicate',
  REJ_UNI: 'duplicate',
  DOUBLON: 'duplicate',
  AUTRE: 'other',
  REJ_CONT_B2G: 'other',
  DEST_INC: 'buyer_not_in_directory',
  NON_TRANSMISE: 'buyer_not_in_directory',
};

// Platform providers' reasons (the contract's table), and the AFNOR Flow Service's acknowledgement
// reasons, each mapped as the official code the OpenAPI document names beside it (IRR_* → format).
const byProviderReason: Record<string, RejectionCategory> = {
  SYNTAX_ERROR: 'format_invalid',
  SEMANTIC_ERROR: 'semantic_error',
  DUPLICATED_INVOICE: 'duplicate',
  INVALIDSCHEMA: 'format_invalid',
  EMPTYFLOW: 'format_invalid',
  EMPTYATTACHEMENT: 'format_invalid',
  ATTACHMENTTYPEERROR: 'format_invalid',
  FILESIZEEXCEEDED: 'format_invalid',
  FLOWTYPEERROR: 'format_invalid',
  VIRUSFOUND: 'format_invalid',
  CHECKSUMMISMATCH: 'format_invalid',
  ALREADYEXISTINGFLOW: 'duplicate',
  OTHERTECHNICALERROR: 'other',
};

/** A code of the tax administration's list (or of the contract's REJ_* names), rather than a provider's own. */
export function isTaxAdministrationCode(code: string): boolean {
  const upper = code.trim().toUpperCase();
  return Object.hasOwn(byReasonCode, upper) || upper.startsWith('REJ_') || upper.startsWith('IRR_');
}

function byHttpStatus(status: number): RejectionCategory {
  if (status === 401 || status === 403) return 'platform_auth';
  if (status === 409) return 'duplicate';
  if (status === 422) return 'format_invalid';
  if (status === 429 || status >= 500) return 'platform_unavailable';
  return 'unknown';
}

/** The words by which a directory pre-check's 400 says the buyer has no address there. */
const directoryHint = /\b(directory|annuaire|not registered|no (active )?address|unknown (recipient|addressee))\b/i;

/**
 * Classifies a rejection or refusal (contract, "Rejection and refusal fields"): the local code
 * first, then the tax administration's code, then the platform provider's reason, then the HTTP
 * code. A buyer's refusal (210) or suspension (207, 208) is classed by the status whatever its
 * reason. A 213 with no recognised reason is `unknown`, never `semantic_error`.
 */
export function rejectionCategory(input: RejectionInput): RejectionCategory {
  if (input.localCode === 'buyer_not_in_directory') return 'buyer_not_in_directory';
  if (input.statusCode === '210') return 'refused_by_buyer';
  if (input.statusCode === '207' || input.statusCode === '208') return 'suspended';
  const reason = input.reasonCode?.trim().toUpperCase();
  if (reason && byReasonCode[reason]) return byReasonCode[reason];
  if (reason?.startsWith('IRR_')) return 'format_invalid';
  const provider = input.providerReason?.trim().toUpperCase();
  if (provider === 'ROUTING_FAILURE') return input.sellerUnknown ? 'unknown' : 'buyer_not_in_directory';
  if (provider && byProviderReason[provider]) return byProviderReason[provider];
  if (input.unreachable) return 'platform_unavailable';
  if (input.httpStatus !== undefined && input.httpStatus !== null) {
    if (input.httpStatus === 400 && input.directoryPrecheck && directoryHint.test(input.message ?? ''))
      return 'buyer_not_in_directory';
    return byHttpStatus(input.httpStatus);
  }
  if (!reason && input.statusCode === '221') return 'addressing_error';
  if (!reason && input.statusCode === '501') return 'format_invalid';
  return 'unknown';
}

/** The source the rejection fields record (contract): the buyer for its statuses, else the platform. */
export function rejectionSource(input: RejectionInput): RejectionSource {
  if (input.localCode) return 'service';
  if (input.statusCode === '210' || input.statusCode === '207' || input.statusCode === '208') return 'buyer';
  return 'platform';
}
