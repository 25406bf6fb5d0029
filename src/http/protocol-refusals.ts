import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { currentVersion } from '../kernel/api-version.js';
import { envelopeOf, sendApiError } from './error-envelope.js';
import { defaultV1Headers } from './api-platform.js';
import { addSecurityHeaders, strictTransportSecurity } from './security-headers.js';

/**
 * Requests refused before any route runs, by Fastify's router (`frameworkErrors`) or by Node's HTTP
 * parser (`clientError`), answered like every other refusal: the contract's envelope with a
 * request id and `X-Request-Id` (an HTML page on the dashboard's paths). Statuses keep their HTTP
 * meaning and carry the contract code that fits:
 *
 * - 400 `invalid_field_value`: a path that is not percent-encoded UTF-8 (`%zz`), a malformed
 *   request line (unknown method, space or control character in the path), a header with a
 *   character HTTP forbids, a malformed `Content-Length` or chunked body;
 * - 408 `invalid_field_value`: a request that did not arrive in time;
 * - 414 `not_found`: a path parameter longer than `maxParamLength` (no id is that long);
 * - 431 `payload_too_large`: a request line and headers over Node's limit (16 KiB).
 *
 * An HTTP/1.1 request without `Host` is refused by the input guard (400 `invalid_field_value`,
 * `param: Host`), not by Node, whose own answer would carry neither envelope nor request id.
 */
export const maxParamLength = 100;

/** Node's server options (HTTP and HTTPS): `requireHostHeader` off, see `hostRefusal`. */
export const hostHeaderLeftToTheGuard = { requireHostHeader: false } as const;

/** The dashboard's own error page, for refusals on its paths. */
export interface HtmlRefusalPages {
  prefix: string;
  render(status: number, message: string, code: string): string;
}

export interface ProtocolRefusalOptions {
  docsUrl: string;
  now(): Date;
  htmlPages?: HtmlRefusalPages;
}

/** The headers of every refusal page: never cached, never sniffed, never framed, no script. */
const htmlPageHeaders = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'",
} as const;

function frameworkRefusal(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return refuse(
        'invalid_field_value',
        'The path is not valid: every `%` must start the percent-encoding of a UTF-8 character.',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('not_found', {
        status: 414,
        values: { detail: `No resource has such an id: a path parameter holds at most ${maxParamLength} characters.` },
      });
    default:
      return new ApiError('internal_error');
  }
}

/** Fastify's and Node's refusals, answered in the contract's shape: server options for `Fastify()`. */
export function protocolRefusals(
  options: ProtocolRefusalOptions,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> & { http: typeof hostHeaderLeftToTheGuard } {
  const { htmlPages } = options;

  const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let refusal = frameworkRefusal(error);
    if (refusal.code === 'internal_error') {
      request.log.error({ err: error }, 'unforeseen framework error');
      refusal = new ApiError('internal_error', { values: { requestId: request.id } });
    }
    reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
    // Fastify runs no onSend hook for these answers: HSTS set here (the page's framing headers below).
    addSecurityHeaders(request, reply);
    if (htmlPages && request.url.startsWith(htmlPages.prefix)) {
      void reply
        .code(refusal.status)
        .headers(htmlPageHeaders)
        .type('text/html; charset=utf-8')
        .send(htmlPages.render(refusal.status, refusal.message, refusal.code));
      return;
    }
    reply.header('Service-Version', currentVersion);
    defaultV1Headers(request, reply, options.now());
    void sendApiError(reply, request, refusal, options.docsUrl);
  };

  return {
    frameworkErrors,
    clientErrorHandler: answerClientError(options) as FastifyServerOptions['clientErrorHandler'],
    // Node would answer a missing Host with a bare 400 of its own: the input guard answers it.
    http: hostHeaderLeftToTheGuard,
  };
}

/**
 * Node's `clientError` listener: the envelope (or the HTML page) written on the socket itself,
 * since no request object exists. Also used by the plain HTTP port that redirects to HTTPS.
 */
export function answerClientError(
  options: Pick<ProtocolRefusalOptions, 'docsUrl' | 'htmlPages'>,
): (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => void {
  const { htmlPages } = options;
  return (error, socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newId('request');
    const refusal = clientRefusal(error.code);
    const path = requestPathOf(error.rawPacket);
    const html = htmlPages && path?.startsWith(htmlPages.prefix);
    const body = html
      ? htmlPages.render(refusal.status, refusal.message, refusal.code)
      : JSON.stringify(envelopeOf(refusal, requestId, options.docsUrl));
    const headers: Record<string, string> = {
      'Content-Type': html ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': requestId,
      ...(html ? htmlPageHeaders : { 'Service-Version': currentVersion, 'X-Content-Type-Options': 'nosniff' }),
      // No Fastify hook sees this answer: HSTS added here, on the HTTPS port only.
      ...('encrypted' in socket ? { 'Strict-Transport-Security': strictTransportSecurity } : {}),
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // Ended, not destroyed: closing with unread input would reset the connection and lose the
    // answer. A client that never closes its side is cut off after a while.
    socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n${head}\r\n${body}`);
    setTimeout(() => socket.destroy(), 5000).unref();
  };
}

/** What Node's parser refused, in the contract's words. */
export function clientRefusal(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new ApiError('payload_too_large', {
      status: 431,
      values: { detail: 'The request line and headers exceed 16 KiB.' },
    });
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT')
    return refuse('invalid_field_value', 'The request did not arrive in time.', { status: 408 });
  const detail =
    code === 'HPE_INVALID_METHOD'
      ? 'The method is not one HTTP defines.'
      : code === 'HPE_INVALID_URL' || code === 'HPE_INVALID_CONSTANT' || code === 'HPE_INVALID_VERSION'
        ? 'The request line is malformed: a path holds no space, control character or byte outside ASCII (percent-encode them), and the version is HTTP/1.1.'
        : code === 'HPE_INVALID_HEADER_TOKEN' || code === 'HPE_INVALID_HEADER_VALUE'
          ? 'A header holds a character HTTP does not allow (a control character, or a space in its name).'
          : code && /CONTENT_LENGTH|CHUNK|TRANSFER_ENCODING/.test(code)
            ? 'The body is framed wrongly: a malformed Content-Length or chunked encoding.'
            : 'The request is not valid HTTP/1.1.';
  return refuse('invalid_field_value', detail);
}

/** The path of the request line in the bytes Node could not parse, when they start with it. */
function requestPathOf(raw: unknown): string | null {
  if (!Buffer.isBuffer(raw)) return null;
  return /^[A-Za-z]+ (\/\S*)/.exec(raw.subarray(0, 512).toString('latin1'))?.[1] ?? null;
}
