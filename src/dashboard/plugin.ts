import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { ApiError } from '../kernel/errors.js';
import { resumeSession } from '../users/service.js';
import { looksLikeToken } from '../users/tokens.js';
import { dashboardPrefix, envs, pageOf } from './context.js';
import { clearCookie, readCookie, sessionCookie, setCookie } from './cookies.js';
import { defaultLang, isLang, langCookie, langCookieSeconds, langOf } from './language.js';
import { messagesOf, type Messages } from './messages.js';
import { installFormParser } from './form.js';
import { html } from '../http/html.js';
import { bareLayout, layout } from './layout.js';
import { describeError, PageError } from './page-error.js';
import { checkForm, installSecurityHeaders } from './security.js';
import { safeNext, signInPages } from './pages/sign-in.js';
import { keyPages } from './pages/keys.js';
import { webhookPages } from './pages/webhooks.js';
import { eventPages } from './pages/events.js';
import { accountPages } from './pages/account.js';
import { invoicePages } from './pages/invoices.js';
import { receivedPages } from './pages/received.js';
import { ereportingPages } from './pages/ereporting.js';
import { customerPages } from './pages/customers.js';
import { productPages } from './pages/products.js';

/** The page families of each environment (/dashboard/test, /dashboard/live), in the navigation's order. */
const envPages = [
  keyPages,
  webhookPages,
  eventPages,
  accountPages,
  invoicePages,
  receivedPages,
  ereportingPages,
  customerPages,
  productPages,
];

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

/**
 * The dashboard: server-rendered pages for account holders, mounted at /dashboard in its own
 * encapsulated context (its hooks, parser, headers and error pages never touch /v1). Every page
 * but the sign-in ones needs a session; every form carries a CSRF token; every service call is
 * scoped to the session's company and the environment in the URL (/dashboard/test, /dashboard/live).
 */
export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  await installSecurityHeaders(app);
  installFormParser(app);
  app.decorateRequest('dashboard', null);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (request.routeOptions.config.signedOut) return;
    const token = readCookie(request, sessionCookie);
    const session = looksLikeToken(token) ? await resumeSession(deps, token) : null;
    if (!session) {
      if (token !== undefined) clearCookie(reply, sessionCookie);
      return redirectToLogin(request, reply);
    }
    request.dashboard = session;
  });

  app.addHook('preHandler', async (request) => {
    if (request.method === 'POST') checkForm(request, deps.config.publicUrl);
  });

  app.setErrorHandler((error, request, reply) => {
    const m = messagesOf(langOf(request));
    let status = 500;
    let message = m.ourFault(request.id);
    let code: string | null = null;
    if (error instanceof PageError) ({ status, message, code } = error);
    else if (error instanceof ApiError)
      ({ status, message, code } = { status: error.status, message: describeError(error), code: error.code });
    else if (isClientFault(error)) ({ status, message } = { status: error.statusCode, message: refusedForm(error, m) });
    else request.log.error({ err: error }, 'dashboard page failed');
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(errorPage(request, status === 500 ? m.somethingWentWrong : m.notPossible, message, code));
  });

  app.setNotFoundHandler((request, reply) => {
    const m = messagesOf(langOf(request));
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(errorPage(request, m.pageNotFound, m.noSuchPage, 'not_found'));
  });

  // The language switch: a link, so it works without script; it only sets a preference.
  app.get('/language/:lang', { config: { signedOut: true } }, async (request, reply) => {
    const { lang } = request.params as { lang: string };
    if (!isLang(lang)) throw new PageError(404, messagesOf(langOf(request)).noSuchPage, 'not_found');
    setCookie(reply, langCookie, lang, langCookieSeconds);
    return reply.redirect(safeNext((request.query as { back?: unknown }).back), 303);
  });

  const css = asset('dashboard.css');
  const js = asset('dashboard.js');
  app.get('/assets/dashboard.css', { config: { signedOut: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'no-cache').send(css),
  );
  app.get('/assets/dashboard.js', { config: { signedOut: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(js),
  );

  await app.register(signInPages, { deps });
  app.get('/', async (_request, reply) => reply.redirect(`${dashboardPrefix}/test/keys`, 303));
  for (const env of envs) {
    await app.register(
      async (scoped) => {
        scoped.get('/', async (_request, reply) => reply.redirect(`${dashboardPrefix}/${env}/keys`, 303));
        for (const pages of envPages) await scoped.register(pages, { deps, env });
      },
      { prefix: `/${env}` },
    );
  }
}

function redirectToLogin(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
  return reply.redirect(`${dashboardPrefix}/login${next}`, 303);
}

/** A request Fastify refused before any page ran (a form too large, of another media type...). */
function isClientFault(error: unknown): error is { statusCode: number; code?: string } {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function refusedForm(error: { statusCode: number; code?: string }, m: Messages): string {
  if (error.statusCode === 413) return m.formTooLarge;
  if (error.statusCode === 415) return m.formMediaType;
  return m.malformed;
}

/** The page of a refusal made before the dashboard's own context ran (a malformed URL or request). */
export function dashboardRefusalPage(status: number, message: string, code: string): string {
  const m = messagesOf(defaultLang);
  const content = html`<p class="error" role="alert" data-code="${code}">${message}</p>
<p><a href="${dashboardPrefix}/">${m.backToDashboard}</a></p>`;
  return bareLayout({ title: status >= 500 ? m.somethingWentWrong : m.notPossible }, content);
}

function errorPage(request: FastifyRequest, title: string, message: string, code: string | null): string {
  const lang = langOf(request);
  const content = html`<p class="error" role="alert"${code ? html` data-code="${code}"` : null}>${message}</p>
<p><a href="${dashboardPrefix}/">${messagesOf(lang).backToDashboard}</a></p>`;
  if (!request.dashboard) return bareLayout({ title, lang }, content);
  const env = request.url.startsWith(`${dashboardPrefix}/live`) ? 'live' : 'test';
  return layout(pageOf(request, env), { title, section: null }, content);
}
