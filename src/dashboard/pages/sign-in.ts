import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../kernel/errors.js';
import { logIn, logOut, sessionMaxMs, type LogInResult } from '../../users/service.js';
import { describePasswordLink, setPasswordWithLink } from '../../users/service.js';
import { minPasswordLength } from '../../users/password-rules.js';
import { looksLikeToken, newToken } from '../../users/tokens.js';
import { dashboardPrefix } from '../context.js';
import { clearCookie, formCookie, readCookie, sessionCookie, setCookie } from '../cookies.js';
import { formOf } from '../form.js';
import { html } from '../../http/html.js';
import { bareLayout, noticeOf } from '../layout.js';
import { langOf, type Lang } from '../language.js';
import { messagesOf, type Messages } from '../messages.js';

const signedOut = { signedOut: true };
const formCookieSeconds = 86_400;

/** The token of the forms shown before a session exists, kept in a cookie (double submit). */
function formToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, formCookie);
  if (looksLikeToken(existing)) return existing;
  const token = newToken();
  setCookie(reply, formCookie, token, formCookieSeconds);
  return token;
}

/** Only a path of the dashboard itself: never an open redirect. */
export function safeNext(value: unknown): string {
  const fallback = `${dashboardPrefix}/test/keys`;
  if (typeof value !== 'string' || !/^\/dashboard(\/[A-Za-z0-9_.-]+)*\/?(\?[A-Za-z0-9_.=&%-]*)?$/.test(value))
    return fallback;
  const segments = value.split('?')[0]!.split('/');
  return segments.some((segment) => segment === '.' || segment === '..') ? fallback : value;
}

interface LoginView {
  lang: Lang;
  csrf: string;
  next: string;
  email?: string | undefined;
  notice?: string | null;
  error?: { message: string; code: string } | null;
}

function loginPage(view: LoginView): string {
  const m = messagesOf(view.lang);
  const error = view.error
    ? html`<p class="error" role="alert" data-code="${view.error.code}">${view.error.message}</p>`
    : null;
  return bareLayout(
    { title: m.logIn, notice: view.notice ?? null, lang: view.lang, path: `${dashboardPrefix}/login` },
    html`${error}
<form method="post" action="${dashboardPrefix}/login" class="stack">
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <input type="hidden" name="next" value="${view.next}">
  <label for="email">${m.email}</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
  <label for="password">${m.password}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">${m.logIn}</button>
</form>
<p class="muted">${m.noPasswordYet}<code>facteur user create</code>${m.noPasswordYetEnd}</p>`,
  );
}

/** Whole minutes, rounded up, for a person reading the page. */
const minutes = (seconds: number) => Math.ceil(seconds / 60);

/** The refusal shown for a failed log-in: the same words whether the password was right or not. */
function refusalOf(result: Exclude<LogInResult, { ok: true }>, m: Messages): { message: string; code: string } {
  if (result.reason === 'invalid_credentials') return { message: m.invalidCredentials, code: 'invalid_credentials' };
  return { message: m.tooManyLogIns(minutes(result.retryAfter)), code: 'brute_force_blocked' };
}

export async function signInPages(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  app.get('/login', { config: signedOut }, async (request, reply) => {
    const query = request.query as { next?: string };
    return reply.type('text/html; charset=utf-8').send(
      loginPage({
        lang: langOf(request),
        csrf: formToken(request, reply),
        next: safeNext(query.next),
        notice: noticeOf(request.query, messagesOf(langOf(request))),
      }),
    );
  });

  app.post('/login', { config: signedOut }, async (request, reply) => {
    const form = formOf(request);
    const next = safeNext(form.get('next'));
    const result = await logIn(deps, {
      email: form.get('email') ?? '',
      password: form.get('password') ?? '',
      ip: request.ip,
    });
    if (!result.ok) {
      // A lock answers 429 with Retry-After, as the API does for its brute-force block.
      if (result.reason === 'brute_force_blocked') reply.code(429).header('Retry-After', String(result.retryAfter));
      else reply.code(401);
      return reply.type('text/html; charset=utf-8').send(
        loginPage({
          lang: langOf(request),
          csrf: formToken(request, reply),
          next,
          email: form.get('email'),
          error: refusalOf(result, messagesOf(langOf(request))),
        }),
      );
    }
    setCookie(reply, sessionCookie, result.token, sessionMaxMs / 1000);
    return reply.redirect(next, 303);
  });

  app.post('/logout', async (request, reply) => {
    await logOut(deps, request.dashboard!.token);
    clearCookie(reply, sessionCookie);
    return reply.redirect(`${dashboardPrefix}/login?notice=signed_out`, 303);
  });

  const passwordForm = (lang: Lang, token: string, csrf: string, email: string, error: string | null) => {
    const m = messagesOf(lang);
    return bareLayout(
      { title: m.setYourPassword, error, lang, path: `${dashboardPrefix}/password/${token}` },
      html`
<form method="post" action="${dashboardPrefix}/password/${token}" class="stack">
  <input type="hidden" name="_csrf" value="${csrf}">
  <p>${m.forEmail} <strong>${email}</strong>. ${m.atLeast(minPasswordLength)}</p>
  <label for="password">${m.newPassword}</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <label for="confirmation">${m.sameAgain}</label>
  <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <button type="submit">${m.setThePassword}</button>
</form>`,
    );
  };

  app.get('/password/:token', { config: signedOut }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const { email } = await describePasswordLink(deps, token);
    return reply
      .type('text/html; charset=utf-8')
      .send(passwordForm(langOf(request), token, formToken(request, reply), email, null));
  });

  app.post('/password/:token', { config: signedOut }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const form = formOf(request);
    try {
      await setPasswordWithLink(deps, token, form.get('password') ?? '', form.get('confirmation') ?? '');
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'validation_error') throw error;
      const { email } = await describePasswordLink(deps, token);
      return reply
        .code(error.status)
        .type('text/html; charset=utf-8')
        .send(passwordForm(langOf(request), token, formToken(request, reply), email, error.message));
    }
    return reply.redirect(`${dashboardPrefix}/login?notice=password_set`, 303);
  });
}
