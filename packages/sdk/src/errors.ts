/** The contract's error envelope: `{"error": {type, code, message, param?, doc_url, hint?, request_id, issues?}}`. */
export interface ErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  doc_url?: string;
  hint?: string;
  request_id?: string;
  issues?: { code: string; param: string | null; message: string }[];
}

/** Every refusal of the API: branch on `code` (the contract's catalogue), never on the message. */
export class FacteurError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | undefined;
  readonly docUrl: string | undefined;
  readonly hint: string | undefined;
  readonly requestId: string | undefined;
  readonly issues: ErrorBody['issues'];
  /** Seconds, when the service said when to come back (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ErrorBody, retryAfter?: number) {
    super(body.message);
    this.name = new.target.name;
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.docUrl = body.doc_url;
    this.hint = body.hint;
    this.requestId = body.request_id;
    this.issues = body.issues;
    this.retryAfter = retryAfter;
  }
}

export class InvalidRequestError extends FacteurError {}
export class ValidationError extends FacteurError {}
export class AuthenticationError extends FacteurError {}
export class PermissionError extends FacteurError {}
export class NotFoundError extends FacteurError {}
export class ConflictError extends FacteurError {}
export class RateLimitError extends FacteurError {}
export class PlanLimitError extends FacteurError {}
export class ApiError extends FacteurError {}

/** No answer at all (network error, time-out), after the retries. */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** A webhook whose `Service-Signature` does not verify. */
export class SignatureVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureVerificationError';
  }
}

const classOfType: Record<string, typeof FacteurError> = {
  invalid_request_error: InvalidRequestError,
  validation_error: ValidationError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  plan_limit_error: PlanLimitError,
  api_error: ApiError,
};

/** The error class of an answer's `error.type` (an unknown type, or a body that is no envelope: FacteurError). */
export function errorOf(status: number, body: unknown, retryAfter?: number): FacteurError {
  const envelope = (body as { error?: ErrorBody } | null)?.error;
  const error: ErrorBody =
    envelope && typeof envelope.code === 'string'
      ? envelope
      : {
          type: status >= 500 ? 'api_error' : 'invalid_request_error',
          code: `http_${status}`,
          message: `HTTP ${status}`,
        };
  const ErrorClass = classOfType[error.type] ?? FacteurError;
  return new ErrorClass(status, error, retryAfter);
}
