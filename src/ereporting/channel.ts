import { Agent } from 'undici';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { platformAccess } from '../establishments/platform-access.js';
import { AfnorConnector } from '../platform/afnor-connector.js';
import type { PlatformConnection, PlatformConnector } from '../platform/connector.js';
import { PlatformSimulator } from '../platform/simulator/simulator.js';

/**
 * Which platform a declaration goes to: the establishment's own connection when it has one
 * (establishments/platform-access.ts, the one answer for every capability), transmitting only
 * when the establishment allows e-reporting; a test establishment without one goes to the sandbox
 * platform (`FACTEUR_SANDBOX_PA_URL`, a `facteur pa-simulator`), or to a simulator started in this
 * process when none is configured. Otherwise e-reporting is not enabled, and the declaration
 * stays due and visible.
 */

export type Channel = { enabled: true; connector: PlatformConnector } | { enabled: false; detail: string };

const connectors = new Map<string, PlatformConnector>();
let inProcess: Promise<{ connection: PlatformConnection; dispatcher: Agent }> | null = null;

async function inProcessSimulator() {
  inProcess ??= (async () => {
    // A certificate of its own, trusted by this connector only.
    const now = Date.now();
    // Loaded when a certificate is made: rarely, and ~15 MB.
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 3_600_000),
      notAfterDate: new Date(now + 825 * 86_400_000),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    const certificate = { cert: pems.cert, key: pems.private };
    const simulator = new PlatformSimulator({ tls: certificate });
    const url = await simulator.start(0, '127.0.0.1');
    // The simulator lives as long as the process and must not keep it alive on its own.
    (simulator as unknown as { server: { unref(): void } }).server.unref();
    return {
      connection: { baseUrl: url, ...simulator.clients[0]! },
      dispatcher: new Agent({ connect: { ca: certificate.cert } }),
    };
  })();
  return inProcess;
}

export async function reportingChannel(
  deps: Pick<Deps, 'config'>,
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
  const configured = deps.config.sandboxPlatform;
  const key = configured ? `${configured.baseUrl}|${configured.clientId}` : 'in-process';
  let connector = connectors.get(key);
  if (!connector) {
    if (configured) connector = new AfnorConnector({ connection: configured });
    else {
      const { connection, dispatcher } = await inProcessSimulator();
      connector = new AfnorConnector({ connection, dispatcher });
    }
    connectors.set(key, connector);
  }
  return { enabled: true, connector };
}
