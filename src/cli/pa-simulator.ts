import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { refuse } from '../kernel/errors.js';
import { loadCertificate } from '../http/tls.js';
import { PlatformSimulator, type SimulatorClient } from '../pa-simulator/simulator.js';
import type { DirectoryLineSeed } from '../pa-simulator/directory.js';
import type { Scenario } from '../pa-simulator/scenario.js';
import { parseOptions } from './arguments.js';

/**
 * `facteur pa-simulator --port P`: the approved-platform simulator as a server of its own, for an
 * integrator's laptop. Prints how to reach it and how to script it, then runs until stopped.
 */

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw refuse('invalid_field_value', `--${what}: ${(error as Error).message}`, { param: what });
  }
}

export async function startPaSimulator(
  config: Config,
  args: string[],
  say: (text: string) => void,
): Promise<PlatformSimulator> {
  const { values } = parseOptions(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    clients: { type: 'string' },
    scenarios: { type: 'string' },
    directory: { type: 'string' },
    'admin-token': { type: 'string' },
    'token-ttl': { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
  });
  const port = Number(values.port ?? 8443);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw refuse('invalid_field_value', '--port is a port number (0: any free port).', { param: 'port' });
  if ((values.cert === undefined) !== (values.key === undefined))
    throw refuse('invalid_field_value', '--cert and --key go together.', { param: 'cert' });
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl']);
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0))
    throw refuse('invalid_field_value', '--token-ttl is a number of seconds.', { param: 'token-ttl' });

  const clients: SimulatorClient[] = values.clients ? readJson<SimulatorClient[]>(values.clients, 'clients') : [];
  if (values['client-id'] || values['client-secret']) {
    if (!values['client-id'] || !values['client-secret'])
      throw refuse('invalid_field_value', '--client-id and --client-secret go together.', { param: 'client-id' });
    clients.push({ clientId: values['client-id'], clientSecret: values['client-secret'] });
  }
  const certificate = await loadCertificate(
    {
      ...config,
      dataDir: join(config.dataDir, 'pa-simulator'),
      tlsCertPath: values.cert ?? null,
      tlsKeyPath: values.key ?? null,
    },
    say,
  );
  const simulator = new PlatformSimulator({
    tls: { cert: certificate.cert, key: certificate.key },
    ...(clients.length ? { clients } : {}),
    ...(ttl ? { tokenTtlSeconds: ttl } : {}),
    ...(values.scenarios ? { scenarios: readJson<Record<string, Scenario>>(values.scenarios, 'scenarios') } : {}),
    ...(values.directory ? { directory: readJson<DirectoryLineSeed[]>(values.directory, 'directory') } : {}),
    ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
  });
  const url = await simulator.start(port, values.host ?? '127.0.0.1');
  const [client] = simulator.clients;
  say(
    [
      `pa-simulator: the AFNOR XP Z12-013 Flow and Directory services, at ${url}`,
      '',
      `  base URL (the establishment's platform URL)  ${url}`,
      `  Flow Service                                ${url}/flow-service/v1/...`,
      `  Directory Service                           ${url}/directory-service/v1/...`,
      `  OAuth2 token (client credentials, Basic)    ${url}/auth-service/${client!.clientId}/token`,
      ...simulator.clients.map(
        (known) => `  client id / secret                          ${known.clientId} / ${known.clientSecret}`,
      ),
      `  TLS certificate                             ${certificate.certPath} (NODE_EXTRA_CA_CERTS, curl --cacert)`,
      '',
      `Script it (admin bearer: ${simulator.adminToken}):`,
      `  curl --cacert ${certificate.certPath} -H 'Authorization: Bearer ${simulator.adminToken}' \\`,
      `    -H 'Content-Type: application/json' ${url}/simulator/scenarios \\`,
      `    -d '{"invoiceNumber":"F2026-000123","scenario":{"outcome":"refuse","reason":{"code":"TX_TVA_ERR","text":"Taux erroné"}}}'`,
      '  outcomes: deposited, approve (default), pay, partially_approve, dispute, suspend, refuse, reject',
      '  also: statuses, skip, order: "reverse", twice, paceMs, depositAnswers: [{"status":503,"retryAfterSeconds":30},',
      '        {"status":401}, {"status":409}, {"status":429,"retryAfterSeconds":2}, {"timeout":"after_store"}]',
      `  report now: POST ${url}/simulator/statuses {"trackingId":"<the deposit's>","status":"fr:208","reason":{"code":"JUSTIF_ABS"}}`,
      `  directory: POST ${url}/simulator/directory {"lines":[{"siren":"552120222","siret":"55212022200013"}]}`,
      `  counters:  GET ${url}/simulator/stats    reset: POST ${url}/simulator/reset`,
      '',
      'Stop with Ctrl-C.',
    ].join('\n'),
  );
  return simulator;
}
