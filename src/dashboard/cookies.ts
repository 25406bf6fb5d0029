import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The dashboard's cookies. The `__Host-` prefix makes browsers refuse them unless they are
 * Secure, for path `/`, and without a Domain, so no sibling host can plant or read them.
 */
export const sessionCookie = '__Host-facteur_session';
/** Before a session exists (log-in, password link): the double-submit token of those forms. */
export const formCookie = '__Host-facteur_form';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function setCookie(reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=Strict`;
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list.filter((c) => !c.startsWith(`${name}=`)), cookie]);
}

export function clearCookie(reply: FastifyReply, name: string): void {
  setCookie(reply, name, '', 0);
}
