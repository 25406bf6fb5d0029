import { randomUUID } from 'node:crypto';
import { ConnectionError, errorOf } from './errors.js';
import { retryAfterSeconds, retryDelay } from './retry.js';

export interface ClientOptions {
  /** `svc_test_…` or `svc_live_…`: the key fixes `livemode`. */
  apiKey: string;
  /** The service's URL, without `/v1` (default https://localhost:8443, a local `facteur serve`). */
  baseUrl?: string;
  /** Pins the API version (`Service-Version`); the key's company default otherwise. */
  apiVersion?: string;
  /** Per attempt, in milliseconds (default 60 s). */
  timeoutMs?: number;
  /** Another fetch (a proxy's, a test's); Node's global one by default. */
  fetch?: typeof fetch;
  /** How the retries wait (default a timer): a test or a scheduler of its own can take it over. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  /** Path parameters, written into the `{name}` parts of the path. */
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** A POST's key; one is generated otherwise. The same key goes with every retry of the call. */
  idempotencyKey?: string;
}

interface Attempt {
  status: number | null;
  response?: Response;
  error?: unknown;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The URL of one call: the path's `{name}` parts filled (encoded), the defined query parameters appended. */
export function urlOf(baseUrl: string, path: string, options: RequestOptions): string {
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = options.path?.[name];
    if (value === undefined) throw new TypeError(`${path}: the path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {}))
    if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${search ? `?${search}` : ''}`;
}

async function once(
  options: ClientOptions,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
) {
  const fetchImpl = options.fetch ?? fetch;
  try {
    const response = await fetchImpl(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    return { status: response.status, response } satisfies Attempt;
  } catch (error) {
    return { status: null, error } satisfies Attempt;
  }
}

async function answerOf(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return response.json();
  // The files (PDF, XML, Factur-X, exports): their bytes.
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * One API call with the contract's retries (retry.ts): a POST carries an `Idempotency-Key`,
 * generated once and sent again with every retry, so that a retry after a lost answer replays
 * the first answer instead of acting twice. A refusal throws the error class of its `type`.
 */
export async function request(
  options: ClientOptions,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  call: RequestOptions = {},
): Promise<unknown> {
  const url = urlOf(options.baseUrl ?? 'https://localhost:8443', path, call);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    accept: 'application/json',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(method === 'POST' ? { 'idempotency-key': call.idempotencyKey ?? randomUUID() } : {}),
    ...(options.apiVersion ? { 'service-version': options.apiVersion } : {}),
  };
  const retries = new Map<string, number>();
  for (;;) {
    const attempt = await once(options, method, url, headers, body);
    const retryAfter = retryAfterSeconds(attempt.response?.headers.get('retry-after') ?? null);
    const kind = attempt.status === 502 || attempt.status === null ? '500' : String(attempt.status);
    const delay =
      attempt.status !== null && attempt.status < 400
        ? null
        : retryDelay(attempt.status, retries.get(kind) ?? 0, retryAfter);
    if (delay === null) {
      if (!attempt.response)
        throw new ConnectionError(`${method} ${url}: no answer (${String(attempt.error)})`, { cause: attempt.error });
      if (attempt.status! >= 400) {
        const parsed = await attempt.response.json().catch(() => null);
        throw errorOf(attempt.status!, parsed, retryAfter);
      }
      return answerOf(attempt.response);
    }
    await attempt.response?.body?.cancel();
    retries.set(kind, (retries.get(kind) ?? 0) + 1);
    await (options.sleep ?? timer)(delay);
  }
}
