import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { readCookie, formCookie } from './cookies.js';
import { formOf } from './form.js';
import { PageError } from './page-error.js';

/**
 * Security headers of every dashboard response, in the dashboard's context only (the API keeps
 * its own): a CSP allowing only this origin's stylesheet and script, no framing at all, no
 * referrer sent to other sites (password links carry their token in the path).
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        // A document's PDF is shown in its page, from this origin only.
        frameSrc: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // HSTS is the whole server's, over TLS only (src/http/security-headers.ts).
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const forged = () =>
  new PageError(
    403,
    'This form expired or did not come from this site. Reload the page and submit it again.',
    'csrf_token_invalid',
  );

/**
 * Every POST of the dashboard: the form's `_csrf` must match the session's token (or, before a
 * session, the form cookie: double submit), and a browser that says the request comes from
 * another site (Origin, Sec-Fetch-Site) is refused whatever the token.
 */
export function checkForm(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw forged();
  const origin = request.headers.origin;
  if (origin === 'null') {
    // Privacy settings make some browsers hide the origin; only their own word that the form is
    // from this origin (Sec-Fetch-Site) then stands in for it.
    if (site !== 'same-origin') throw forged();
  } else if (
    origin !== undefined &&
    ![new URL(publicUrl).origin, `https://${request.headers.host ?? ''}`].includes(origin)
  ) {
    throw forged();
  }
  const given = formOf(request).get('_csrf');
  const expected = request.routeOptions.config.signedOut
    ? readCookie(request, formCookie)
    : request.dashboard?.session.csrfToken;
  if (!given || !expected || !sameToken(given, expected)) throw forged();
}
