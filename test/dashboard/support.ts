/**
 * A cookie-keeping client over `app.inject` for the dashboard's fast tests: it follows no
 * redirect by itself, keeps what Set-Cookie says, and reads the CSRF token of the last page.
 */
import type { LightMyRequestResponse } from 'fastify';
import { randomIp, type Harness } from '../support/harness.js';
import { createUserWithPassword } from '../../src/users/service.js';
import type { Deps } from '../../src/deps.js';
import { langCookie } from '../../src/dashboard/language.js';

export type Fields = Record<string, string | string[]>;

export class PageClient {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` of the last page read that had one. */
  csrf: string | null = null;

  /**
   * `lang`: the language cookie the client starts with. The older page tests read English
   * texts, so they choose it; `null` is a first visit (French, the default).
   */
  constructor(
    readonly h: Harness,
    readonly ip: string = randomIp(),
    lang: 'fr' | 'en' | null = 'en',
  ) {
    if (lang) this.cookies.set(langCookie, lang);
  }

  private remember(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
    for (const cookie of list) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/max-age=0/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body);
    if (token) this.csrf = token[1]!;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0
      ? {}
      : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.h.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.ip,
      headers: { ...this.cookieHeader(), ...headers },
    });
    this.remember(response);
    return response;
  }

  /** Posts a form; the page's CSRF token is added unless `_csrf` is given (null: none at all). */
  async post(
    url: string,
    fields: Fields = {},
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (csrf !== null) body.append('_csrf', csrf);
    for (const [name, value] of Object.entries(fields))
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    const response = await this.h.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader(), ...options.headers },
      payload: body.toString(),
    });
    this.remember(response);
    return response;
  }

  /** Opens the log-in page and submits it; returns the answer to the submission. */
  async logIn(email: string, password: string, extra: Fields = {}): Promise<LightMyRequestResponse> {
    await this.get('/dashboard/login');
    return this.post('/dashboard/login', { email, password, ...extra });
  }
}

let counter = 0;

/** A user with a known password in the company. */
export async function userOf(
  deps: Pick<Deps, 'db' | 'clock'>,
  companyId: string,
): Promise<{ email: string; password: string }> {
  const email = `user${Date.now()}.${counter++}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery staple';
  await createUserWithPassword(deps, { companyId, email, password });
  return { email, password };
}

/** A client signed in as a new user of a new company. */
export async function signedIn(
  h: Harness,
  lang: 'fr' | 'en' | null = 'en',
): Promise<{ client: PageClient; companyId: string; user: { email: string; password: string } }> {
  const companyId = await h.company();
  const user = await userOf(h.deps, companyId);
  const client = new PageClient(h, randomIp(), lang);
  const response = await client.logIn(user.email, user.password);
  if (response.statusCode !== 303)
    throw new Error(`log-in failed: ${response.statusCode} ${response.body.slice(0, 500)}`);
  return { client, companyId, user };
}
