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
function safeNext(value: unknown): string {
  const fallback = `${dashboardPrefix}/test/keys`;
  if (typeof value !== 'string' || !/^\/dashboard(\/[A-Za-z0-9_.-]+)*\/?(\?[A-Za-z0-9_.=&%-]*)?$/.test(value))
    return fallback;
  const segments = value.split('?')[0]!.split('/');
  return segments.some((segment) => segment === '.' || segment === '..') ? fallback : value;
}

interface LoginView {
  csrf: string;
  next: string;
  email?: string | undefined;
  notice?: string | null;
  error?: { message: string; code: string } | null;
}

function loginPage(view: LoginView): string {
  const error = view.error
    ? html`<p class="error" role="alert" data-code="${view.error.code}">${view.error.message}</p>`
    : null;
  return bareLayout(
    { title: 'Log in', notice: view.notice ?? null },
    html`${error}
<form method="post" action="${dashboardPrefix}/login" class="stack">
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <input type="hidden" name="next" value="${view.next}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Log in</button>
</form>
<p class="muted">No password yet? Use the link you were given (<code>facteur user create</code> prints one).</p>`,
  );
}

const invalidCredentials = { message: 'The e-mail address or the password is not right.', code: 'invalid_credentials' };

/** Whole minutes, rounded up, for a person reading the page. */
const minutes = (seconds: number) => Math.ceil(seconds / 60);

/** The refusal shown for a failed log-in: the same words whether the password was right or not. */
function refusalOf(result: Exclude<LogInResult, { ok: true }>): { message: string; code: string } {
  if (result.reason === 'invalid_credentials') return invalidCredentials;
  const wait = minutes(result.retryAfter);
  return {
    message: `Too many failed log-ins for this account or from your network. Log-ins are refused for ${wait} minute${wait === 1 ? '' : 's'}; try again after that.`,
    code: 'brute_force_blocked',
  };
}

export async function signInPages(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  app.get('/login', { config: signedOut }, async (request, reply) => {
    const query = request.query as { next?: string };
    return reply.type('text/html; charset=utf-8').send(
      loginPage({
        csrf: formToken(request, reply),
        next: safeNext(query.next),
        notice: noticeOf(request.query),
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
          csrf: formToken(request, reply),
          next,
          email: form.get('email'),
          error: refusalOf(result),
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

  const passwordForm = (token: string, csrf: string, email: string, error: string | null) =>
    bareLayout(
      { title: 'Set your password', error },
      html`
<form method="post" action="${dashboardPrefix}/password/${token}" class="stack">
  <input type="hidden" name="_csrf" value="${csrf}">
  <p>For <strong>${email}</strong>. At least ${minPasswordLength} characters.</p>
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <label for="confirmation">The same again</label>
  <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <button type="submit">Set the password</button>
</form>`,
    );

  app.get('/password/:token', { config: signedOut }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const { email } = await describePasswordLink(deps, token);
    return reply.type('text/html; charset=utf-8').send(passwordForm(token, formToken(request, reply), email, null));
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
        .send(passwordForm(token, formToken(request, reply), email, error.message));
    }
    return reply.redirect(`${dashboardPrefix}/login?notice=password_set`, 303);
  });
}
