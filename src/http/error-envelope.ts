import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, refuse } from '../kernel/errors.js';
import { validationToApiError } from '../kernel/schema-validation.js';
import { currentVersion } from '../kernel/api-version.js';

export interface ErrorEnvelope {
  error: {
    type: string;
    code: string;
    message: string;
    param?: string;
    doc_url: string;
    hint?: string;
    request_id: string;
    issues?: { code: string; param: string | null; message: string }[];
  };
}

export function envelopeOf(error: ApiError, requestId: string, docsUrl: string): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param !== undefined ? { param: error.param } : {}),
      doc_url: `${docsUrl}#${error.code}`,
      ...(error.hint !== undefined ? { hint: error.hint } : {}),
      request_id: requestId,
      ...(error.issues ? { issues: error.issues } : {}),
    },
  };
}

const fastifyCodes: Record<string, (error: FastifyError) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('invalid_content_type', { values: { received: 'unsupported', accepted: '' } }),
  FST_ERR_CTP_INVALID_JSON_BODY: (error) =>
    refuse('invalid_field_value', `The request body is not valid JSON: ${error.message}`),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => refuse('invalid_field_value', 'The request body is empty but declared as JSON.'),
};

/** Turns whatever was thrown into a catalogue error. Anything unforeseen is an internal error. */
export function toApiError(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation)
    return validationToApiError(fastifyError.validation as never, fastifyError.validationContext ?? 'body');
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return refuse('payload_too_large', `The request body exceeds the limit of ${bodyLimit} bytes.`);
  const mapped = fastifyError.code ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped) return mapped(fastifyError);
  if (error instanceof SyntaxError && (fastifyError.statusCode ?? 0) === 400) {
    return refuse('invalid_field_value', `The request body is not valid JSON: ${error.message}`);
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // Other malformed requests Fastify refuses before routing (bad Content-Length, bad URL...).
    return refuse('invalid_field_value', 'The request is malformed.');
  }
  return new ApiError('internal_error');
}

export function sendApiError(
  reply: FastifyReply,
  request: FastifyRequest,
  error: ApiError,
  docsUrl: string,
): FastifyReply {
  const envelope = envelopeOf(error, request.id, docsUrl);
  // Whichever hook refused, and however early: the answer names its request and is never sniffed.
  reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
  if (!reply.hasHeader('Service-Version')) reply.header('Service-Version', currentVersion);
  reply.code(error.status).headers(error.headers);
  if (error.type === 'authentication_error') reply.header('WWW-Authenticate', 'Bearer realm="facteur"');
  return reply.type('application/json; charset=utf-8').send(envelope);
}

export function installErrorHandling(app: FastifyInstance, options: { docsUrl: string; bodyLimit: number }): void {
  app.setErrorHandler((error, request, reply) => {
    // A route may have its own body limit (the CSV import): name the one that applied.
    const apiError = toApiError(error, request.routeOptions.bodyLimit ?? options.bodyLimit);
    if (apiError.code === 'internal_error') {
      request.log.error({ err: error }, 'unhandled error');
      const withId = new ApiError('internal_error', { values: { requestId: request.id } });
      return sendApiError(reply, request, withId, options.docsUrl);
    }
    return sendApiError(reply, request, apiError, options.docsUrl);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const error = refuse('not_found', `No endpoint ${request.method} ${path}.`);
    return sendApiError(reply, request, error, options.docsUrl);
  });
}
