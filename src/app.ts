import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import type { SecureContextOptions } from 'node:tls';
import type { Deps } from './deps.js';
import { newId } from './kernel/ids.js';
import { listenForAuthChanges } from './api-keys/key-cache.js';
import { compileValidator } from './http/validation.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installInputGuard } from './http/input-rules.js';
import { hostHeaderLeftToTheGuard, maxParamLength, protocolRefusals } from './http/protocol-refusals.js';
import { installErrorHandling } from './http/error-envelope.js';
import { apiPlatform, defaultV1Headers } from './http/api-platform.js';
import { currentVersion } from './http/api-version.js';
import { registerOpenApi } from './http/openapi.js';
import { eventSchema, eventRoutes, eventWithDeliveriesSchema } from './events/routes.js';
import { endpointSchema, webhookRoutes } from './webhooks/routes.js';
import { accountRoutes } from './account/routes.js';
import { sandboxRoutes } from './sandbox/routes.js';
import { customerRoutes, customerSchema } from './customers/routes.js';
import { productRoutes, productSchema } from './products/routes.js';
import { jobRoutes, jobSchema } from './jobs/routes.js';
import { taxProfileRoutes, taxProfileSchema } from './tax-profiles/routes.js';
import { taxDecisionRoutes, taxDecisionSchema } from './tax/routes.js';
import { ledgerEntrySchema, ledgerRoutes, ledgerSchema } from './ledgers/routes.js';
import { creditNoteSchema, invoiceRoutes, invoiceSchema } from './invoices/routes.js';
import { creditNoteRoutes, refundSchema } from './credit-notes/routes.js';
import { paymentRoutes, paymentSchema } from './payments/routes.js';
import { quoteRoutes, quoteSchema } from './quotes/routes.js';
import { paymentPortalRoutes } from './payment-portal/routes.js';
import { quotePortalRoutes } from './quote-portal/routes.js';
import { docsRoutes } from './docs/routes.js';
import { dashboardRefusalPage, dashboardRoutes } from './dashboard/plugin.js';

export interface AppOptions {
  https?: SecureContextOptions & { minVersion?: 'TLSv1.2' | 'TLSv1.3' };
  /** Routes added inside /v1 with all its rules (tests use it for probe routes). */
  extraV1Routes?: FastifyPluginAsync<{ deps: Deps }>;
}

/** Each capability's routes, mounted under /v1 behind the platform rules. */
const capabilities: FastifyPluginAsync<{ deps: Deps }>[] = [
  accountRoutes,
  eventRoutes,
  webhookRoutes,
  sandboxRoutes,
  customerRoutes,
  productRoutes,
  jobRoutes,
  taxProfileRoutes,
  taxDecisionRoutes,
  ledgerRoutes,
  invoiceRoutes,
  creditNoteRoutes,
  paymentRoutes,
  quoteRoutes,
];

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const docsUrl = `${deps.config.publicUrl}/docs/errors`;
  const serverOptions: FastifyServerOptions & { https?: unknown } = {
    loggerInstance: deps.log,
    genReqId: () => newId('request'),
    requestIdHeader: false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength },
    ...protocolRefusals({
      docsUrl,
      now: () => deps.clock.now(),
      htmlPages: { prefix: '/dashboard', render: dashboardRefusalPage },
    }),
  };
  if (options.https) serverOptions.https = { ...options.https, ...hostHeaderLeftToTheGuard };
  const app = Fastify(serverOptions) as unknown as FastifyInstance;

  app.setValidatorCompiler(compileValidator);
  installErrorHandling(app, { docsUrl, bodyLimit: deps.config.bodyLimitBytes });
  installJsonBodyParser(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    reply.header('Service-Version', currentVersion);
    reply.header('X-Content-Type-Options', 'nosniff');
  });
  installInputGuard(app);
  app.addHook('onSend', async (request, reply, payload) => {
    defaultV1Headers(request, reply, deps.clock.now());
    return payload;
  });

  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopListening = await listenForAuthChanges(deps.pool, deps.keyCache, (error) =>
      deps.log.warn({ err: error }, 'key cache listener lost; reading keys from the database'),
    );
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
  });

  await registerOpenApi(app, deps.config.publicUrl);
  for (const schema of [
    eventSchema,
    eventWithDeliveriesSchema,
    endpointSchema,
    customerSchema,
    productSchema,
    jobSchema,
    taxProfileSchema,
    taxDecisionSchema,
    ledgerEntrySchema,
    ledgerSchema,
    invoiceSchema,
    creditNoteSchema,
    paymentSchema,
    refundSchema,
    quoteSchema,
  ])
    app.addSchema(schema);

  await app.register(
    async (v1) => {
      await v1.register(apiPlatform, { deps });
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      for (const capability of capabilities) await v1.register(capability, { deps });
      if (options.extraV1Routes) await v1.register(options.extraV1Routes, { deps });
    },
    { prefix: '/v1' },
  );

  // Health checks are internal calls: no key, no rate limit (Limits, rule 2).
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await deps.pool.query('select 1');
    return { status: 'ok' };
  });
  await app.register(docsRoutes);
  // The public pages of an invoice (payment) and of a quote: no key, outside /v1.
  await app.register(paymentPortalRoutes, { deps });
  await app.register(quotePortalRoutes, { deps });
  // The dashboard: its own encapsulated context (sessions, forms, security headers), not under /v1.
  await app.register(dashboardRoutes, { deps, prefix: '/dashboard' });
  return app;
}
