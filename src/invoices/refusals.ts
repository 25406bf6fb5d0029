import { ApiError, type ApiErrorOptions, type ErrorCode } from '../kernel/errors.js';

/**
 * A refusal whose catalogue message is fixed (`tax_decision_required`, `self_invoicing_not_allowed`,
 * `credit_note_not_refundable`...): what this case adds goes in `hint`, so it reaches the client.
 */
export function explained(code: ErrorCode, hint: string, options: Omit<ApiErrorOptions, 'hint'> = {}): ApiError {
  return new ApiError(code, { ...options, hint });
}
