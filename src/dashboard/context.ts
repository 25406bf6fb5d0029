import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import type { DashboardSession } from '../users/service.js';
import { Formats, langOf, type Lang } from './language.js';
import { messagesOf, type Messages } from './messages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard page reachable without a session (log-in, password link, assets). */
    signedOut?: boolean;
  }
  interface FastifyRequest {
    /** The dashboard session of the request; null before the session hook or on signed-out pages. */
    dashboard: DashboardSession | null;
  }
}

export type Env = 'test' | 'live';
export const envs: readonly Env[] = ['test', 'live'];
export const dashboardPrefix = '/dashboard';

/** What every signed-in page knows: who, which company, which environment. */
export interface Page {
  session: DashboardSession;
  env: Env;
  livemode: boolean;
  /** `/dashboard/test` or `/dashboard/live`. */
  base: string;
  /** The company and environment every service call of the page is scoped to. */
  scope: Scope;
  /** The reader's language, its texts and its formats. */
  lang: Lang;
  m: Messages;
  f: Formats;
  /** The URL of the page, where the language switch comes back to. */
  path: string;
}

export function pageOf(request: FastifyRequest, env: Env): Page {
  const session = request.dashboard;
  if (!session) throw new Error('dashboard page reached without a session');
  const livemode = env === 'live';
  const lang = langOf(request);
  return {
    lang,
    m: messagesOf(lang),
    f: new Formats(lang),
    path: request.url,
    session,
    env,
    livemode,
    base: `${dashboardPrefix}/${env}`,
    scope: { companyId: session.company.id, livemode },
  };
}

/**
 * What a service needs of a dashboard request, like `callContext` of the API: the session's
 * company (never anything the browser sent), the page's environment, the sandbox clock in test.
 */
export function callContextOf(deps: Pick<Deps, 'clock'>, request: FastifyRequest, page: Page): CallContext {
  return {
    scope: page.scope,
    requestId: request.id,
    idempotencyKey: null,
    apiVersion: currentVersion,
    now: scopeTime(deps.clock.now(), page.livemode, page.session.company.sandboxClockOffsetMs),
  };
}
