import { html, type Html } from '../http/html.js';
import { dashboardPrefix, envs, type Page } from './context.js';
import { maxReauthFailures } from '../users/service.js';
import { defaultLang, langs, type Lang } from './language.js';
import { messagesOf, type Messages } from './messages.js';

export type Section =
  'invoices' | 'received' | 'ereporting' | 'customers' | 'products' | 'keys' | 'webhooks' | 'events' | 'account';

const sections: Section[] = [
  'invoices',
  'received',
  'ereporting',
  'customers',
  'products',
  'keys',
  'webhooks',
  'events',
  'account',
];

/** Messages shown after an action redirected (`?notice=`): fixed texts, never echoed input. */
export type Notice = keyof Messages['notices'];

export function noticeOf(query: unknown, m: Messages): string | null {
  const value = (query as { notice?: unknown } | undefined)?.notice;
  if (typeof value !== 'string' || !Object.hasOwn(m.notices, value)) return null;
  const notice = m.notices[value as Notice];
  return typeof notice === 'function' ? notice(maxReauthFailures) : notice;
}

/** Links to the same page in each language: a plain GET that sets the cookie, so no script is needed. */
function languageSwitch(lang: Lang, back: string): Html {
  const m = messagesOf(lang);
  const links = langs.map(
    (target) =>
      html`<a href="${dashboardPrefix}/language/${target}?back=${encodeURIComponent(back)}" hreflang="${target}" lang="${target}"${target === lang ? html` aria-current="true"` : null}>${target === 'fr' ? 'Français' : 'English'}</a>`,
  );
  return html`<nav class="lang-switch" aria-label="${m.language}">${links}</nav>`;
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
  const { session, env, m } = page;
  const section = options.section ?? 'account';
  const switcher = envs.map(
    (target) =>
      html`<a href="${dashboardPrefix}/${target}/${section}" class="env-${target}"${target === env ? html` aria-current="page"` : null}>${target === 'live' ? m.live : m.test}</a>`,
  );
  const nav = sections.map(
    (item) =>
      html`<a href="${page.base}/${item}"${item === options.section ? html` aria-current="page"` : null}>${m.sections[item]}</a>`,
  );
  const banner = page.livemode
    ? html`<div class="banner banner-live" data-env="live"><strong>LIVE</strong> ${m.liveBanner}</div>`
    : html`<div class="banner banner-test" data-env="test"><strong>TEST</strong> ${m.testBanner}</div>`;
  return html`<!doctype html><html lang="${page.lang}">${head(options.title)}
<body class="env-${env}">
<header class="top">
  <a class="brand" href="${page.base}/keys">facteur</a>
  <nav class="env-switch" aria-label="${m.environment}">${switcher}</nav>
  <nav class="sections" aria-label="${m.sectionsLabel}">${nav}</nav>
  ${languageSwitch(page.lang, page.path)}
  <div class="who"><span title="${session.company.name}">${session.user.email}</span>
    <form method="post" action="${dashboardPrefix}/logout" class="inline">${csrfField(page)}<button type="submit" class="link">${m.logOut}</button></form></div>
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
  options: { title: string; notice?: string | null; error?: string | null; lang?: Lang; path?: string },
  content: Html,
): string {
  const lang = options.lang ?? defaultLang;
  return html`<!doctype html><html lang="${lang}">${head(options.title)}
<body class="bare">
<main class="narrow">
<p class="brand">facteur</p>
${languageSwitch(lang, options.path ?? `${dashboardPrefix}/login`)}
<h1>${options.title}</h1>
${messages(options.notice, options.error)}
${content}
</main>
</body></html>`.value;
}

export function csrfField(page: Pick<Page, 'session'>): Html {
  return html`<input type="hidden" name="_csrf" value="${page.session.session.csrfToken}">`;
}

/** A moment in the reader's locale; the machine-readable ISO form stays in `datetime`. */
export function formatTime(page: Pick<Page, 'f'>, value: string | Date | null | undefined): Html {
  if (!value) return html`<span class="muted">—</span>`;
  const date = typeof value === 'string' ? new Date(value) : value;
  return html`<time datetime="${date.toISOString()}">${page.f.time(date)}</time>`;
}

/** A calendar date (`2026-12-02`) in the reader's locale: "2 décembre 2026". */
export function formatDate(page: Pick<Page, 'f'>, value: string | null | undefined): Html {
  if (!value) return html`<span class="muted">—</span>`;
  return html`<time datetime="${value.slice(0, 10)}">${page.f.date(value)}</time>`;
}
