/**
 * The one catalogue of error codes. Codes, types and statuses are the contract's (Errors section);
 * a status written here overrides the type's only where the contract writes one in the code's row
 * or names the cause in its HTTP status table. Nothing but an ApiError ever reaches a client.
 */
export const errorTypes = {
  invalid_request_error: 400,
  validation_error: 422,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  rate_limit_error: 429,
  plan_limit_error: 402,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof errorTypes;

interface CatalogueEntry {
  type: ErrorType;
  status?: number;
  message: string;
  hint?: string;
}

const invalid = (message: string, hint?: string): CatalogueEntry => ({
  type: 'invalid_request_error',
  message,
  ...(hint ? { hint } : {}),
});

export const catalogue = {
  // Authentication
  missing_api_key: {
    type: 'authentication_error',
    message: 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.',
  },
  invalid_api_key: {
    type: 'authentication_error',
    message: 'The API key is invalid: it has an unknown format or does not exist.',
  },
  api_key_revoked: {
    type: 'authentication_error',
    message: 'This API key has been revoked.',
    hint: 'Create a new key from the dashboard or with `facteur key create`.',
  },
  api_key_expired: {
    type: 'authentication_error',
    message: 'This API key expired at {expiresAt}.',
    hint: 'Create a new key from the dashboard or with `facteur key create`.',
  },
  captcha_required: {
    type: 'authentication_error',
    message: 'Too many failed attempts from this address; solve the challenge before retrying.',
  },
  brute_force_blocked: {
    type: 'authentication_error',
    message: 'Too many failed attempts from this address; retry later.',
  },
  scope_insufficient: {
    type: 'permission_error',
    status: 403,
    message: 'This API key lacks the scope `{scope}` needed for this request.',
    hint: 'Use a key created with that scope, or a key without scopes.',
  },
  // Limits
  rate_limit_exceeded: {
    type: 'rate_limit_error',
    message: '{detail}',
    hint: 'Wait the number of seconds given by the Retry-After header.',
  },
  plan_limit_error: { type: 'plan_limit_error', message: 'This feature is reserved to a higher plan than `{plan}`.' },
  quota_exceeded: {
    type: 'plan_limit_error',
    message: 'The monthly quota of {limit} {metric} of the `{plan}` plan is used up for {period}.',
    hint: 'Upgrade the plan or wait for the next month.',
  },
  storage_quota_exceeded: {
    type: 'plan_limit_error',
    message: 'The file storage quota of the `{plan}` plan is used up.',
  },
  // Resources and state
  not_found: { type: 'not_found_error', message: '{detail}' },
  conflict: { type: 'conflict_error', message: '{detail}' },
  idempotency_error: { type: 'conflict_error', message: 'Idempotency-Key reused with other content.' },
  resource_deleted: {
    type: 'conflict_error',
    message: 'The {resource} {id} is deleted and can no longer be modified.',
  },
  validation_error: { type: 'validation_error', message: '{detail}' },
  internal_error: {
    type: 'api_error',
    message: 'Something went wrong on our side; the operator is notified. Quote request {requestId} to support.',
  },
  missing_required_field: invalid('The field `{param}` is required.'),
  invalid_field_value: invalid('{detail}'),
  invalid_content_type: invalid('Content-Type must be `application/json`{accepted}; got `{received}`.'),
  payload_too_large: invalid('{detail}'),
  invalid_status_transition: { type: 'invalid_request_error', status: 400, message: '{detail}' },
  invoice_not_editable: invalid(
    'Invoice {id} is finalized and cannot be edited.',
    'Issue a credit note through `POST /v1/credit-notes`.',
  ),
  method_not_allowed: invalid('{detail}'),
  not_supported: invalid('{detail}'),
  not_implemented: { type: 'invalid_request_error', status: 501, message: 'This endpoint is not available yet.' },
  // Approved platform and documents
  pa_operation_not_supported: {
    type: 'invalid_request_error',
    status: 422,
    message: 'The connected platform does not support this operation.',
  },
  pa_unavailable: {
    type: 'invalid_request_error',
    status: 503,
    message: 'The approved platform is unreachable; retry after some seconds.',
  },
  pa_not_configured: invalid('No approved platform is connected for this establishment.'),
  deposit_not_enabled: invalid('Automatic platform deposit is not enabled for this establishment.'),
  not_einvoicing_channel: invalid(
    'The tax decision routes this operation outside e-invoicing: do not deposit it; any e-reporting remains due.',
  ),
  self_invoicing_not_allowed: invalid('The document is addressed to its own issuer (same SIREN).'),
  document_not_conformant: invalid('{detail}'),
  schematron_validation_failed: invalid('{detail}'),
  buyer_identity_not_disclosed: {
    type: 'invalid_request_error',
    status: 400,
    message: 'The buyer field `{param}` carries a registry non-disclosure marker; nothing was numbered or deposited.',
  },
  buyer_not_in_directory: invalid('No active directory address was found for the buyer.'),
  siret_not_found: {
    type: 'invalid_request_error',
    status: 422,
    message: 'SIRET {siret} is not in the company directory.',
  },
  vat_validation_failed: {
    type: 'invalid_request_error',
    status: 422,
    message: 'The intra-EU VAT number was not validated by the EU VAT validation service.',
  },
  // Payments and refunds
  invalid_payment_amount: invalid('A payment amount must be a positive integer number of cents.'),
  payment_exceeds_amount_due: invalid('The payment of {amount} cents exceeds the {amountDue} cents still due.'),
  livemode_mismatch: invalid('{detail}'),
  sandbox_payment_unavailable: invalid(
    'Online payment is unavailable for a test invoice.',
    'Test the flow with a live key on a live invoice.',
  ),
  email_mismatch: invalid('The invitation was issued for another e-mail address than the connected account.'),
  subscription_paused: invalid('The subscription is suspended; the operation is blocked until it is regularized.'),
  related_invoice_not_found: invalid('The invoice linked to the credit note was not found.'),
  credit_note_not_refundable: invalid('The credit note is not finalized or is already fully refunded.'),
  invalid_refund_amount: invalid('A refund amount must be a positive integer number of cents.'),
  refund_exceeds_credit_note: invalid(
    'The refund of {amount} cents exceeds the {remaining} cents left on the credit note.',
  ),
  endpoint_not_subscribed: invalid('Webhook endpoint {id} is inactive or not subscribed to `{type}`.'),
  // Tax decisions
  integration_vat_incoherent: invalid('{detail}'),
  tax_decision_required: invalid(
    'No frozen tax decision authorizes this operation.',
    'Create one with `POST /v1/tax-decisions`.',
  ),
  tax_decision_not_final: invalid(
    'Tax decision {id} is {status}: no amount is fixed and no document can be finalized on it.',
  ),
  tax_decision_expired: invalid('Tax decision {id} expired at {expiresAt}.', 'Create a new decision.'),
  tax_decision_input_rejected: invalid('{detail}'),
  tax_decision_retry_invalid: invalid('{detail}'),
  tax_decision_customer_mismatch: invalid('{detail}'),
  tax_decision_buyer_drifted: invalid('{detail}'),
  tax_decision_currency_mismatch: invalid('{detail}'),
  tax_decision_totals_inconsistent: invalid('{detail}'),
  tax_decision_lines_mismatch: invalid('{detail}'),
  tax_decision_seller_territory_unresolved: invalid('{detail}'),
  tax_snapshot_inconsistent: invalid('{detail}'),
  tax_profile_missing: invalid('{detail}'),
  tax_profile_incomplete: invalid('{detail}'),
  tax_profile_ambiguous: invalid('{detail}'),
  location_evidence_relief_undetermined: invalid('{detail}'),
  eu_b2c_rate_supplied_mismatch: invalid('{detail}'),
  destination_regional_regime_not_sourced: invalid('{detail}'),
  // EU threshold ledgers
  eu_threshold_state_missing: invalid('{detail}'),
  eu_threshold_external_coverage_incomplete: invalid('{detail}'),
  eu_threshold_backdated_operation: invalid('{detail}'),
  eu_threshold_year_already_open: invalid('{detail}'),
  eu_threshold_decrease_not_sourced: invalid('{detail}'),
  eu_threshold_entry_conflict: invalid('{detail}'),
  eu_threshold_correction_target_unknown: invalid('{detail}'),
  eu_threshold_correction_target_not_correctable: invalid('{detail}'),
  eu_threshold_correction_exceeds_counted: invalid('{detail}'),
  eu_threshold_reconciliation_stale: invalid('{detail}'),
  eu_threshold_reconciliation_mismatch: invalid('{detail}'),
  eu_threshold_reservation_lost: { type: 'invalid_request_error', status: 409, message: '{detail}' },
  eu_threshold_review_required: invalid('{detail}'),
  eu_threshold_not_under_review: invalid('{detail}'),
  eu_threshold_year_invalid: invalid('{detail}'),
  eu_threshold_date_outside_year: invalid('{detail}'),
  eu_threshold_date_in_future: invalid('{detail}'),
  eu_threshold_concurrent_decision_pending: invalid('{detail}'),
  // E-reporting
  ereporting_not_enabled: invalid('{detail}'),
  ereporting_declaration_rejected: { type: 'invalid_request_error', status: 422, message: '{detail}' },
  ereporting_declaration_not_rejected: invalid('{detail}'),
  ereporting_declaration_already_superseded: invalid('{detail}'),
  ereporting_attempt_limit_reached: invalid('{detail}'),
  ereporting_declaration_incomplete: invalid('{detail}'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof catalogue;

export interface Issue {
  code: string;
  param: string | null;
  message: string;
}

export interface ApiErrorOptions {
  /** Values for the message template; `detail` fills templates that are the whole message. */
  values?: Record<string, string | number | null | undefined>;
  param?: string;
  hint?: string;
  issues?: Issue[];
  /** A status for codes whose status depends on the route (sandbox_payment_unavailable). */
  status?: number;
  headers?: Record<string, string>;
}

export const maxIssues = 500;
export const maxIssueMessageLength = 2000;

function fill(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly status: number;
  readonly param: string | undefined;
  readonly hint: string | undefined;
  readonly issues: Issue[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry: CatalogueEntry = catalogue[code];
    const values = { param: options.param, ...options.values };
    super(fill(entry.message, values));
    this.name = 'ApiError';
    this.code = code;
    this.type = entry.type;
    this.status = options.status ?? entry.status ?? errorTypes[entry.type];
    this.param = options.param;
    this.hint = options.hint ?? entry.hint;
    // The contract: `issues` is absent rather than empty, bounded in count and message length.
    this.issues =
      options.issues && options.issues.length > 0
        ? options.issues
            .slice(0, maxIssues)
            .map((issue) => ({ ...issue, message: issue.message.slice(0, maxIssueMessageLength) }))
        : undefined;
    this.headers = options.headers ?? {};
  }
}

/** Shorthand for the many refusals whose message is written at the throw site. */
export function refuse(code: ErrorCode, detail: string, options: Omit<ApiErrorOptions, 'values'> = {}): ApiError {
  return new ApiError(code, { ...options, values: { detail } });
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(catalogue, value);
}
