/**
 * What never reaches a log line: the one-time secrets some URLs carry (password links, payment and
 * quote pages), query parameters named like secrets, and the service's own secret shapes (API
 * keys, webhook signing secrets). Applied once, in the logger (cli/logger.ts), to every line.
 */
export const redacted = '[redacted]';

/** The pages whose next path segment is a one-time secret (`/dashboard/password/:token`, `/pay/:token`, `/quote/:token`). */
const secretPathPrefixes = ['/dashboard/password/', '/pay/', '/quote/'];
// The segment ends at a slash, a query, a space, or a JSON string's quote or escape.
const secretPath = new RegExp(`(${secretPathPrefixes.join('|')})[^/?#\\s"\\\\]+`, 'g');

/** Query parameters that carry a secret on whatever route they are sent. */
const secretQueryName = /^(token|secret|password|api_key|apikey|key|access_token|client_secret|signature)$/i;

/** API keys (`svc_test_…`, `svc_live_…`; `sk_`/`pk_` for keys pasted from elsewhere) and webhook signing secrets. */
const secretShape = /\b(?:svc|sk|pk|rk)_(?:test|live)_[0-9A-Za-z]+|\bwhsec_[A-Za-z0-9_-]+/g;

/** A request URL with its secret path segment and secret query values replaced by `[redacted]`. */
export function redactedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(secretPath, `$1${redacted}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && secretQueryName.test(safeDecode(name)) ? `${name}=${redacted}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A serialized log line with every secret shape and secret page path replaced, whatever field
 * holds it (an error message, a hint, a URL the code logged itself).
 */
export function scrubbedLine(line: string): string {
  return line.replace(secretShape, redacted).replace(secretPath, `$1${redacted}`);
}
