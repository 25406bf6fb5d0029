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

export interface RejectionInput {
  /** A code of the service's own pre-deposit check (`buyer_not_in_directory`). */
  localCode?: string | null;
  /** The tax administration's reason code (REJ_*, IRR_*, DOUBLON...) or a platform provider's reason. */
  reasonCode?: string | null;
  /** The HTTP status a platform answered, when that is all there is. */
  httpStatus?: number | null;
  /** The life-cycle status code (`213`, `221`, `501`, `210`, `207`, `208`). */
  statusCode?: string | null;
  /** The platform does not know the seller (for ROUTING_FAILURE). */
  sellerUnknown?: boolean;
}

// The contract's table, then LIFECYCLE.md's completion for the official codes it does not list.
const byReason: Record<string, RejectionCategory> = {
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
  SYNTAX_ERROR: 'format_invalid',
  SEMANTIC_ERROR: 'semantic_error',
  DUPLICATED_INVOICE: 'duplicate',
};

function byHttpStatus(status: number): RejectionCategory {
  if (status === 401 || status === 403) return 'platform_auth';
  if (status === 409) return 'duplicate';
  if (status === 422) return 'format_invalid';
  if (status === 429 || status >= 500) return 'platform_unavailable';
  return 'unknown';
}

/**
 * Classifies a rejection or refusal (contract, "Rejection and refusal fields"): the local code
 * first, then the tax administration's code, then the HTTP code. A 213 with no recognised reason
 * is `unknown`, never `semantic_error`.
 */
export function rejectionCategory(input: RejectionInput): RejectionCategory {
  if (input.localCode === 'buyer_not_in_directory') return 'buyer_not_in_directory';
  if (input.statusCode === '210') return 'refused_by_buyer';
  if (input.statusCode === '207' || input.statusCode === '208') return 'suspended';
  const reason = input.reasonCode?.trim().toUpperCase();
  if (reason === 'ROUTING_FAILURE') return input.sellerUnknown ? 'unknown' : 'buyer_not_in_directory';
  if (reason && byReason[reason]) return byReason[reason];
  if (reason?.startsWith('IRR_')) return 'format_invalid';
  if (!reason && input.statusCode === '221') return 'addressing_error';
  if (!reason && input.statusCode === '501') return 'format_invalid';
  if (input.httpStatus !== undefined && input.httpStatus !== null) return byHttpStatus(input.httpStatus);
  return 'unknown';
}
