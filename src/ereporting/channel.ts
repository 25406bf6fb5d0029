import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { platformAccess } from '../establishments/platform-access.js';
import type { PlatformConnector } from '../platform/connector.js';

/**
 * Which platform a declaration goes to: the establishment's own connection when it has one
 * (establishments/platform-access.ts, the one answer for every capability), transmitting only
 * when the establishment allows e-reporting; a test establishment without one goes to the sandbox's
 * platform (platform/sandbox-platform.ts: a simulator this process runs, or the shared one of
 * `FACTEUR_SANDBOX_PA_URL`). Otherwise e-reporting is not enabled, and the declaration stays due
 * and visible.
 */

export type Channel = { enabled: true; connector: PlatformConnector } | { enabled: false; detail: string };

export async function reportingChannel(
  deps: Pick<Deps, 'config' | 'sandboxPlatform'>,
  db: Executor,
  scope: Scope,
  establishment: string | null,
): Promise<Channel> {
  const access = await platformAccess(deps, db, scope, { siret: establishment });
  const named = access.siret ?? establishment ?? '(none named)';
  if (access.state === 'connected')
    return access.ereportingEnabled
      ? { enabled: true, connector: access.connector }
      : {
          enabled: false,
          detail: `Establishment ${named} does not allow automatic e-reporting (\`ereportingEnabled: false\`). The obligation stays due; enable it with \`POST /v1/establishments/${access.establishmentId}\` or declare by other means.`,
        };
  if (access.state === 'not_configured')
    return {
      enabled: false,
      detail: `No approved platform is connected for establishment ${named}: live declarations cannot be transmitted. The obligation stays due; connect the establishment (\`platform\` on \`POST /v1/establishments/:id\`) or declare by other means.`,
    };
  return { enabled: true, connector: await deps.sandboxPlatform.connectorOf(scope.companyId) };
}
