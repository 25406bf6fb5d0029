import { html, type Html } from '../http/html.js';
import { dashboardPrefix, envs, type Page } from './context.js';
import { maxReauthFailures } from '../users/service.js';

export type Section = 'keys' | 'webhooks' | 'events' | 'account';

const sections: { id: Section; label: string }[] = [
  { id: 'keys', label: 'API keys' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'events', label: 'Events' },
  { id: 'account', label: 'Account' },
];

/** Messages shown after an action redirected (`?notice=`): fixed texts, never echoed input. */
export const notices = {
  key_revoked: 'The key is revoked. The API refuses it from now on.',
  endpoint_updated: 'The endpoint is saved.',
  endpoint_disabled: 'The endpoint is disabled: nothing is delivered to it until you enable it again.',
  endpoint_enabled: 'The endpoint is enabled.',
  endpoint_deleted: 'The endpoint is deleted.',
  ping_sent: 'A ping event was sent to the endpoint. Reload this page to follow its delivery.',
  replayed: 'The event is being delivered again, as a new generation. Reload this page to follow it.',
  nothing_to_replay: 'No endpoint has a failed delivery of this event: nothing was replayed.',
  password_changed: 'Your password is changed. Your other sessions are signed out.',
  password_set: 'Your password is set. Log in with it.',
  signed_out: 'You are logged out.',
  session_ended: `Your session ended after ${maxReauthFailures} wrong passwords, so that a stolen session cannot be used to guess yours. Log in again.`,
} as const;

export type Notice = keyof typeof notices;

export function noticeOf(query: unknown): string | null {
  const value = (query as { notice?: unknown } | undefined)?.notice;
  return typeof value === 'string' && Object.hasOwn(notices, value) ? notices[value as Notice] : null;
}

function head(title: string): Html {
  return html`<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · facteur</title><link rel="stylesheet" href="${dashboardPrefix}/assets/dashboard.css"><script src="${dashboardPrefix}/assets/dashboard.js" defer></script></head>`;
}

function messages(notice: string | null | undefined, error: string | null | undefined): Html {
  return html`${notice ? html`<p class="notice" role="status">${notice}</p>` : null}${error ? html`<p class="error" role="alert">${error}</p>` : null}`;
}

export interface LayoutOptions {
  title: string;
  section: Section | null;
  notice?: string | null;
  error?: string | null;
}

/** A signed-in page: the environment switch, the sections, the live warning, the content. */
export function layout(page: Page, options: LayoutOptions, content: Html): string {
  const { session, env } = page;
  const section = options.section ?? 'account';
  const switcher = envs.map(
    (target) =>
      html`<a href="${dashboardPrefix}/${target}/${section}" class="env-${target}"${target === env ? html` aria-current="page"` : null}>${target === 'live' ? 'Live' : 'Test'}</a>`,
  );
  const nav = sections.map(
    (item) =>
      html`<a href="${page.base}/${item.id}"${item.id === options.section ? html` aria-current="page"` : null}>${item.label}</a>`,
  );
  const banner = page.livemode
    ? html`<div class="banner banner-live" data-env="live"><strong>LIVE</strong> Real data: numbers are legally binding, invoices go to the platform, and calls count against the quota.</div>`
    : html`<div class="banner banner-test" data-env="test"><strong>TEST</strong> Sandbox data: nothing here leaves the service or counts against the quota.</div>`;
  return html`<!doctype html><html lang="en">${head(options.title)}
<body class="env-${env}">
<header class="top">
  <a class="brand" href="${page.base}/keys">facteur</a>
  <nav class="env-switch" aria-label="Environment">${switcher}</nav>
  <nav class="sections" aria-label="Sections">${nav}</nav>
  <div class="who"><span title="${session.company.name}">${session.user.email}</span>
    <form method="post" action="${dashboardPrefix}/logout" class="inline">${csrfField(page)}<button type="submit" class="link">Log out</button></form></div>
</header>
${banner}
<main>
<h1>${options.title}</h1>
${messages(options.notice, options.error)}
${content}
</main>
</body></html>`.value;
}

/** A page without a session: log-in, password link, errors before log-in. */
export function bareLayout(
  options: { title: string; notice?: string | null; error?: string | null },
  content: Html,
): string {
  return html`<!doctype html><html lang="en">${head(options.title)}
<body class="bare">
<main class="narrow">
<p class="brand">facteur</p>
<h1>${options.title}</h1>
${messages(options.notice, options.error)}
${content}
</main>
</body></html>`.value;
}

export function csrfField(page: Pick<Page, 'session'>): Html {
  return html`<input type="hidden" name="_csrf" value="${page.session.session.csrfToken}">`;
}

export function formatTime(value: string | Date | null | undefined): Html {
  if (!value) return html`<span class="muted">—</span>`;
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}
