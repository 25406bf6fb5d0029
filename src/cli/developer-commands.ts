import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { refuse } from '../kernel/errors.js';
import { parseOptions, required } from './arguments.js';
import { listen } from './listen.js';
import { createServiceClient, testKeyOnly, type ServiceClient } from './service-client.js';
import { trigger } from './trigger.js';

const clientOptions = {
  'api-key': { type: 'string' },
  'api-url': { type: 'string' },
  ca: { type: 'string' },
} as const;

/**
 * The service these commands call: `--api-url` (default the local `facteur serve`), trusting
 * `--ca` or, by default, the certificate the local service generated in its data directory.
 */
function clientOf(
  config: Config,
  values: { 'api-key'?: string; 'api-url'?: string; ca?: string },
  env: NodeJS.ProcessEnv,
): ServiceClient {
  const apiKey = testKeyOnly(values['api-key'] ?? env.FACTEUR_API_KEY);
  const localCertificate = join(config.dataDir, 'tls', 'cert.pem');
  const caFile = values.ca ?? (existsSync(localCertificate) ? localCertificate : undefined);
  return createServiceClient({
    apiUrl: values['api-url'] ?? `https://localhost:${config.port}`,
    apiKey,
    ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
  });
}

/** `facteur listen --forward-to URL [--secret whsec_…] [--interval-ms 1000] [--skip-verify]`: runs until `signal`. */
export async function runListen(
  config: Config,
  args: string[],
  print: (line: string) => void,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { values } = parseOptions(args, {
    ...clientOptions,
    'forward-to': { type: 'string' },
    secret: { type: 'string' },
    'interval-ms': { type: 'string' },
    'skip-verify': { type: 'boolean' },
  });
  const forwardTo = required(values['forward-to'], 'forward-to');
  if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol))
    throw refuse('invalid_field_value', '--forward-to is an http:// or https:// URL.', { param: 'forward-to' });
  const intervalMs = Number(values['interval-ms'] ?? 1000);
  if (!Number.isInteger(intervalMs) || intervalMs < 100)
    throw refuse('invalid_field_value', '--interval-ms is a whole number of milliseconds, 100 or more.', {
      param: 'interval-ms',
    });
  const client = clientOf(config, values, env);
  try {
    await listen({
      client,
      forwardTo,
      // The shape of an endpoint's secret (webhooks/endpoint-secret.ts): a receiver's checks see no difference.
      secret: values.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
      intervalMs,
      skipVerify: values['skip-verify'] === true,
      print,
      signal,
    });
  } finally {
    await client.close();
  }
}

/** `facteur trigger <event type>`: prints one JSON document naming the object acted on. */
export async function runTrigger(
  config: Config,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const { values, positionals } = parseOptions(args, clientOptions);
  const client = clientOf(config, values, env);
  try {
    return await trigger(client, positionals[0]);
  } finally {
    await client.close();
  }
}

/** `facteur listen` (until SIGINT or SIGTERM) and `facteur trigger`, as main.ts runs them. */
export async function runDeveloperCommand(
  config: Config,
  command: 'listen' | 'trigger',
  args: string[],
): Promise<void> {
  if (command === 'trigger') {
    process.stdout.write(`${JSON.stringify(await runTrigger(config, args), null, 2)}\n`);
    return;
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  await runListen(config, args, (line) => process.stdout.write(`${line}\n`), stop.signal);
}
