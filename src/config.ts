import { parseEncryptionKey, readEncryptionKeyFile } from './kernel/sealed-secret.js';
import { resolve } from 'node:path';
import { isPlanName, type PlanName } from './kernel/plans.js';
import { HostListError, parseHostList } from './db/host-list.js';

/** The whole environment of the service, read once and checked: a bad value stops the start. */
export interface Config {
  port: number;
  httpPort: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** The owner (or a superuser) the migrations run as, when DATABASE_URL is the service's own login. */
  migrationDatabaseUrl: string | null;
  tlsCertPath: string | null;
  tlsKeyPath: string | null;
  publicUrl: string;
  /** True when FACTEUR_PUBLIC_URL was given: redirects then go there rather than to the Host asked for. */
  publicUrlSet: boolean;
  production: boolean;
  logLevel: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  authBlockSeconds: number;
  idempotencyLockSeconds: number;
  /**
   * How long a stopping API node answers `/readyz` 503 `draining` while it still serves
   * (FACTEUR_DRAIN_SECONDS), so that a load balancer takes it out before it closes.
   */
  drainSeconds: number;
  /** SMTP server for every e-mail, operational or a document to a customer (`smtp://user:pass@host:587`); without it they are only logged. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Lets webhooks reach private addresses (a receiver on 127.0.0.1 in tests); refused in production. */
  allowPrivateWebhooks: boolean;
  /**
   * Lets an establishment's platform connection reach private addresses (a `facteur pa-simulator`
   * on the same host); refused in production. The sandbox's own platform is never subject to it.
   */
  allowPrivatePlatforms: boolean;
  /** The bearer token of `GET /metrics`; without it the endpoint is off (404). */
  metricsToken: string | null;
  /**
   * The test mode's platform, shared by every node (FACTEUR_SANDBOX_PA_URL, _CLIENT_ID,
   * _CLIENT_SECRET: a `facteur pa-simulator`; _ADMIN_TOKEN, its admin bearer, lets the simulate
   * route script it); without it, each node runs one in process.
   */
  sandboxPlatform: { baseUrl: string; clientId: string; clientSecret: string; adminToken: string | null } | null;
  /**
   * The key that seals the secrets stored by the service (FACTEUR_ENCRYPTION_KEY, 32 bytes in base64
   * or hex, or FACTEUR_ENCRYPTION_KEY_FILE, a file holding it); without it, `<dataDir>/encryption.key`,
   * created on first use (the start warns in production: the key then sits beside the data).
   */
  encryptionKey: Buffer | null;
  /** The EU's VIES REST service (FACTEUR_VIES_URL), asked about live customers' intra-EU VAT numbers. */
  viesUrl: string;
  /** How long a VIES consultation may take (FACTEUR_VIES_TIMEOUT_MS) before the number counts as unverified. */
  viesTimeoutMs: number;
  /** INSEE's Sirene API key (FACTEUR_SIRENE_API_KEY): when set, live SIRETs are checked against Sirene 3.11. */
  sireneApiKey: string | null;
  /** The Sirene API (FACTEUR_SIRENE_URL). */
  sireneUrl: string;
  /** How long a directory look-up may take (FACTEUR_SIRENE_TIMEOUT_MS) before the SIRET counts as unverified. */
  sireneTimeoutMs: number;
  /** Stripe's API (FACTEUR_STRIPE_API_URL): the companies' card payments open Checkout Sessions there. */
  stripeApiUrl: string;
  /** How long a call to Stripe may take (FACTEUR_STRIPE_TIMEOUT_MS) before the payment page says to retry. */
  stripeTimeoutMs: number;
  /**
   * The operator's Stripe Billing, when set: the plans are Stripe prices and each subscription
   * follows its Stripe subscription's events (FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET,
   * FACTEUR_STRIPE_BILLING_PRICES). The subscriptions are made in Stripe (its Checkout or
   * dashboard), with `metadata.facteur_company`.
   */
  stripeBilling: StripeBillingConfig | null;
}

export interface StripeBillingConfig {
  /** The signing secret of the operator's Stripe webhook endpoint for `/billing/stripe`. */
  webhookSecret: string;
  /** Each paid plan's Stripe price (`price_…`); the free plan has none. */
  prices: Partial<Record<PlanName, string>>;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}; got "${raw}".`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false; got "${raw}".`);
}

function pathOrNull(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw ? resolve(raw) : null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8443, 0, 65535);
  const tlsCertPath = pathOrNull(env, 'FACTEUR_TLS_CERT');
  const tlsKeyPath = pathOrNull(env, 'FACTEUR_TLS_KEY');
  if ((tlsCertPath === null) !== (tlsKeyPath === null)) {
    throw new ConfigError('FACTEUR_TLS_CERT and FACTEUR_TLS_KEY go together: set both or neither.');
  }
  const allowPrivateWebhooks = boolean(env, 'FACTEUR_ALLOW_PRIVATE_WEBHOOKS', false);
  if (allowPrivateWebhooks && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'FACTEUR_ALLOW_PRIVATE_WEBHOOKS=true is refused in production: it would let webhooks reach internal addresses.',
    );
  }
  const allowPrivatePlatforms = boolean(env, 'FACTEUR_ALLOW_PRIVATE_PLATFORMS', false);
  if (allowPrivatePlatforms && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'FACTEUR_ALLOW_PRIVATE_PLATFORMS=true is refused in production: it would let platform connections reach internal addresses.',
    );
  }
  const metricsToken = env.FACTEUR_METRICS_TOKEN || null;
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('FACTEUR_METRICS_TOKEN must have at least 16 characters.');
  }
  if (env.FACTEUR_MIGRATION_DATABASE_URL && !env.DATABASE_URL) {
    // The embedded server migrates as its own superuser; the setting would be silently ignored.
    throw new ConfigError('FACTEUR_MIGRATION_DATABASE_URL needs DATABASE_URL (the login the service works as).');
  }
  for (const name of ['DATABASE_URL', 'FACTEUR_MIGRATION_DATABASE_URL']) checkDatabaseUrl(name, env[name]);
  if (env.FACTEUR_SMTP_URL && !/^smtps?:\/\/[^/]/.test(env.FACTEUR_SMTP_URL))
    throw new ConfigError('FACTEUR_SMTP_URL must be an smtp:// or smtps:// address (smtp://user:pass@host:587).');
  const publicUrl = (env.FACTEUR_PUBLIC_URL || `https://localhost:${port}`).replace(/\/+$/, '');
  if (!publicUrl.startsWith('https://')) throw new ConfigError('FACTEUR_PUBLIC_URL must be an https:// address.');
  return {
    port,
    httpPort: integer(env, 'HTTP_PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.FACTEUR_DATA_DIR || './.facteur'),
    databaseUrl: env.DATABASE_URL || null,
    migrationDatabaseUrl: env.FACTEUR_MIGRATION_DATABASE_URL || null,
    tlsCertPath,
    tlsKeyPath,
    publicUrl,
    publicUrlSet: Boolean(env.FACTEUR_PUBLIC_URL),
    production: env.NODE_ENV === 'production',
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: boolean(env, 'FACTEUR_TRUST_PROXY', false),
    bodyLimitBytes: integer(env, 'FACTEUR_BODY_LIMIT', 1_048_576, 1024, 104_857_600),
    authFailureLimit: integer(env, 'FACTEUR_AUTH_FAILURE_LIMIT', 20, 1, 20),
    authFailureWindowSeconds: integer(env, 'FACTEUR_AUTH_FAILURE_WINDOW', 600, 1, 86_400),
    authBlockSeconds: integer(env, 'FACTEUR_AUTH_BLOCK', 600, 1, 86_400),
    idempotencyLockSeconds: integer(env, 'FACTEUR_IDEMPOTENCY_LOCK', 60, 1, 3600),
    drainSeconds: integer(env, 'FACTEUR_DRAIN_SECONDS', 0, 0, 300),
    smtpUrl: env.FACTEUR_SMTP_URL || null,
    // FACTEUR_SMTP_FROM names the From of every e-mail; FACTEUR_MAIL_FROM is its older name.
    mailFrom: env.FACTEUR_SMTP_FROM || env.FACTEUR_MAIL_FROM || 'facteur <no-reply@localhost>',
    allowPrivateWebhooks,
    allowPrivatePlatforms,
    metricsToken,
    sandboxPlatform: sandboxPlatformOf(env),
    encryptionKey: encryptionKeyFrom(env),
    viesUrl: (env.FACTEUR_VIES_URL || 'https://ec.europa.eu/taxation_customs/vies/rest-api').replace(/\/+$/, ''),
    viesTimeoutMs: integer(env, 'FACTEUR_VIES_TIMEOUT_MS', 10_000, 100, 120_000),
    sireneApiKey: env.FACTEUR_SIRENE_API_KEY || null,
    sireneUrl: (env.FACTEUR_SIRENE_URL || 'https://api.insee.fr/api-sirene/3.11').replace(/\/+$/, ''),
    sireneTimeoutMs: integer(env, 'FACTEUR_SIRENE_TIMEOUT_MS', 5_000, 100, 120_000),
    stripeApiUrl: (env.FACTEUR_STRIPE_API_URL || 'https://api.stripe.com').replace(/\/+$/, ''),
    stripeTimeoutMs: integer(env, 'FACTEUR_STRIPE_TIMEOUT_MS', 10_000, 100, 120_000),
    stripeBilling: stripeBillingOf(env),
  };
}

/** FACTEUR_STRIPE_BILLING_*: all or nothing, each price a paid plan's, no price for two plans. */
function stripeBillingOf(env: NodeJS.ProcessEnv): StripeBillingConfig | null {
  const secret = env.FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET;
  const list = env.FACTEUR_STRIPE_BILLING_PRICES;
  if (!secret && !list) return null;
  if (!secret || !/^whsec_[A-Za-z0-9+/=_-]{10,240}$/.test(secret))
    throw new ConfigError(
      'FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET must be the signing secret (whsec_…) of the Stripe endpoint for /billing/stripe when Stripe Billing is configured.',
    );
  if (!list)
    throw new ConfigError(
      "FACTEUR_STRIPE_BILLING_PRICES must give the paid plans' Stripe prices: essential=price_…,pro=price_….",
    );
  const prices: Partial<Record<PlanName, string>> = {};
  for (const pair of list.split(',')) {
    const [plan, price] = pair.split('=').map((part) => part.trim());
    if (!plan || !isPlanName(plan) || plan === 'free' || !price || !/^price_[A-Za-z0-9]{4,200}$/.test(price))
      throw new ConfigError(
        `FACTEUR_STRIPE_BILLING_PRICES: "${pair}" is not a paid plan and its Stripe price (essential=price_…, pro=price_…).`,
      );
    if (prices[plan] || Object.values(prices).includes(price))
      throw new ConfigError(`FACTEUR_STRIPE_BILLING_PRICES: "${pair}" repeats a plan or a price.`);
    prices[plan] = price;
  }
  return { webhookSecret: secret, prices };
}

/** A host list (libpq's syntax) read now: a bad port or an unsupported target_session_attrs stops the start. */
function checkDatabaseUrl(name: string, url: string | undefined): void {
  if (!url || !/^postgres(?:ql)?:\/\//.test(url)) return;
  try {
    parseHostList(url);
  } catch (error) {
    if (error instanceof HostListError) throw new ConfigError(`${name}: ${error.message}`);
    throw error;
  }
}

function encryptionKeyFrom(env: NodeJS.ProcessEnv): Buffer | null {
  const raw = env.FACTEUR_ENCRYPTION_KEY;
  const file = env.FACTEUR_ENCRYPTION_KEY_FILE;
  if (raw && file) throw new ConfigError('Set FACTEUR_ENCRYPTION_KEY or FACTEUR_ENCRYPTION_KEY_FILE, not both.');
  if (file) {
    try {
      return readEncryptionKeyFile(resolve(file));
    } catch (error) {
      throw new ConfigError(`FACTEUR_ENCRYPTION_KEY_FILE: ${(error as Error).message}`);
    }
  }
  if (!raw) return null;
  const key = parseEncryptionKey(raw);
  if (!key) throw new ConfigError('FACTEUR_ENCRYPTION_KEY must be 32 bytes: 64 hex digits or base64.');
  return key;
}

function sandboxPlatformOf(env: NodeJS.ProcessEnv): Config['sandboxPlatform'] {
  const baseUrl = env.FACTEUR_SANDBOX_PA_URL;
  if (!baseUrl) return null;
  if (!baseUrl.startsWith('https://')) throw new ConfigError('FACTEUR_SANDBOX_PA_URL must be an https:// address.');
  const clientId = env.FACTEUR_SANDBOX_PA_CLIENT_ID;
  const clientSecret = env.FACTEUR_SANDBOX_PA_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new ConfigError(
      'FACTEUR_SANDBOX_PA_URL needs FACTEUR_SANDBOX_PA_CLIENT_ID and FACTEUR_SANDBOX_PA_CLIENT_SECRET.',
    );
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    clientId,
    clientSecret,
    adminToken: env.FACTEUR_SANDBOX_PA_ADMIN_TOKEN || null,
  };
}
