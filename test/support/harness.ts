import { randomBytes } from 'node:crypto';
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import type { Readiness } from '../../src/http/readiness.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connect, disconnect } from '../../src/db/database.js';
import { makeDeps, type Deps } from '../../src/deps.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { createCompany, updateLegalIdentity } from '../../src/companies/service.js';
import { seedHeadOffices } from '../../src/establishments/service.js';
import { createApiKey } from '../../src/api-keys/service.js';
import { hashSecret } from '../../src/api-keys/key-secret.js';

export interface Harness {
  app: FastifyInstance;
  deps: Deps;
  clock: ManualClock;
  /** The client address this harness's requests come from (each harness has its own). */
  ip: string;
  company(options?: { plan?: string; name?: string }): Promise<string>;
  key(companyId: string, options?: { env?: 'test' | 'live'; scopes?: string[]; expiresAt?: string }): Promise<string>;
  /** A new company with a full-access key: the usual start of a test. */
  tenant(options?: { env?: 'test' | 'live'; plan?: string }): Promise<{ companyId: string; key: string }>;
  call(method: InjectOptions['method'], url: string, options?: CallOptions): Promise<Response>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
}

export interface Response extends LightMyRequestResponse {
  data: any;
}

export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

// SIRENs with valid check digits, for companies made by tests.
const sirens = ['732829320', '552100554', '123456782', '100000009'];

export interface HarnessOptions {
  config?: Partial<Config>;
  clockStart?: string;
  extraV1Routes?: FastifyPluginAsync<{ deps: Deps }>;
  poolSize?: number;
  deps?: Partial<Deps>;
  /** The node's readiness (a test drains it); a fresh one by default. */
  readiness?: Readiness;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // A test of a whole-database command (the key rotation) gives a database of its own.
  const url = options.config?.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('run the suite with `npm test`: it provides the database');
  const config: Config = {
    ...loadConfig({ FACTEUR_PUBLIC_URL: 'https://api.facteur.test' }),
    databaseUrl: url,
    // Platform secrets sealed with a key of this run, not a file in the working directory.
    encryptionKey: randomBytes(32),
    // The suite's platform simulators listen on 127.0.0.1 (test/security/platform-urls.test.ts turns it off).
    allowPrivatePlatforms: true,
    // No test reaches the EU's VIES: a test of the check gives its local server (test/support/vies-server.ts).
    viesUrl: 'https://127.0.0.1:9/vies',
    ...options.config,
  };
  const connection = connect(url, options.poolSize ?? 6);
  const clock = new ManualClock(options.clockStart ?? new Date().toISOString());
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) as unknown as Deps['log'];
  const deps: Deps = makeDeps(connection, config, log, { clock, mailer: null, ...options.deps });
  const app = await buildApp(deps, {
    ...(options.extraV1Routes ? { extraV1Routes: options.extraV1Routes } : {}),
    ...(options.readiness ? { readiness: options.readiness } : {}),
  });
  await app.ready();
  const ip = randomIp();

  const harness: Harness = {
    app,
    deps,
    clock,
    ip,
    async company(opts = {}) {
      const company = await createCompany(deps, {
        name: opts.name ?? 'Test SAS',
        siren: sirens[randomInt(sirens.length)]!,
        plan: opts.plan ?? 'pro',
      });
      await equipSeller(deps, company.id, company.siren);
      return company.id;
    },
    async key(companyId, opts = {}) {
      const { secret } = await createApiKey(deps, {
        companyId,
        env: opts.env ?? 'test',
        ...(opts.scopes ? { scopes: opts.scopes } : {}),
        ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}),
      });
      return secret;
    },
    async tenant(opts = {}) {
      const companyId = await harness.company(opts.plan ? { plan: opts.plan } : {});
      return { companyId, key: await harness.key(companyId, { env: opts.env ?? 'test' }) };
    },
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let payload: string | undefined;
      if (opts.body !== undefined) {
        payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({
        method,
        url,
        headers,
        remoteAddress: opts.ip ?? ip,
        ...(payload !== undefined ? { payload } : {}),
      });
      const type = String(response.headers['content-type'] ?? '');
      return Object.assign(response, {
        data: type.includes('json') && response.body ? JSON.parse(response.body) : response.body,
      });
    },
    async close() {
      await app.close();
      await disconnect(connection);
    },
  };
  return harness;
}

/** The French VAT number of a SIREN: `FR`, the key (12 + 3 x (SIREN mod 97)) mod 97, the SIREN. */
export const vatNumberOfSiren = (siren: string) =>
  `FR${String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0')}${siren}`;

/**
 * A test company as a complete seller: its legal identity and a default head office (SIRET
 * `<SIREN>0001<key>`, 75002 Paris) in both environments, so finalizations pass the own checks.
 */
export async function equipSeller(deps: Deps, companyId: string, siren: string): Promise<void> {
  await updateLegalIdentity(deps, companyId, {
    legalForm: 'SAS',
    shareCapital: '10000',
    registration: { kind: 'RCS', place: 'Paris' },
    vatNumber: vatNumberOfSiren(siren),
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP',
    contact: { name: null, email: 'factures@vendeur.example', phone: null },
  });
  await seedHeadOffices(deps, companyId, siren);
}

/** A call context as a service sees one, for tests that call services directly. */
export function contextFor(
  companyId: string,
  livemode: boolean,
  now: Date,
  requestId: string | null = null,
): import('../../src/db/transaction.js').CallContext {
  return { scope: { companyId, livemode }, requestId, idempotencyKey: null, apiVersion: '2026-09-01', now };
}

/**
 * Repeats `request` on `node` until the node serves `key` from memory, within 2 s: a change heard
 * while a read is in flight (the seller's identity set up by the harness, announced at commit and
 * heard a moment later) rightly keeps that read out of the cache.
 */
export async function untilKeyCached(node: Harness, key: string, request: () => Promise<Response>): Promise<boolean> {
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    const response = await request();
    if (response.statusCode >= 300) throw new Error(`${response.statusCode}: ${response.body}`);
    if (node.deps.keyCache.get(hashSecret(key), Date.now())) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}
