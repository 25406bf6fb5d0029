/**
 * What went wrong with an outgoing HTTP call that got no answer (undici or fetch errors), in a
 * few words kept with the failed exchange: a time-out, a refused or reset connection, an unknown
 * host, a TLS error.
 */
export function describeNetworkFailure(error: unknown, timeoutMs: number): string {
  const failure = error as { name?: string; code?: string; cause?: { code?: string } };
  const code = failure.code ?? failure.cause?.code;
  if (
    failure.name === 'TimeoutError' ||
    failure.name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return `timeout: no answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) return `TLS error: ${code}`;
  return `network error${code ? `: ${code}` : ''}`;
}
