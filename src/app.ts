import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { SecureContextOptions } from 'node:tls';
import type { Deps } from './deps.js';
import type { CapabilityRoutes, Registry } from './capability.js';
import { registry as everyCapability } from './capabilities.js';
import { newId } from './kernel/ids.js';
import { httpRequestDuration } from './kernel/metrics.js';
import { currentVersion } from './kernel/api-version.js';
import { listenForAuthChanges } from './api-keys/service.js';
import { compileValidator } from './http/validation.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installInputGuard } from './http/input-rules.js';
import { hostHeaderLeftToTheGuard, maxParamLength, protocolRefusals } from './http/protocol-refusals.js';
import { installErrorHandling } from './http/error-envelope.js';
import { apiPlatform, defaultV1Headers } from './http/api-platform.js';
import { registerOpenApi } from './http/openapi.js';
import { installHstsAndFrameRefusal } from './http/security-headers.js';
import { RequestLogLevels } from './http/request-log-levels.js';
import { createReadiness, registerHealthRoutes, type Readiness } from './http/readiness.js';

export interface AppOptions {
  https?: SecureContextOptions & { minVersion?: 'TLSv1.2' | 'TLSv1.3' };
  /** Routes added inside /v1 with all its rules (tests use it for probe routes). */
  extraV1Routes?: CapabilityRoutes;
  /** The capabilities served (tests may serve fewer); every one by default. */
  registry?: Registry;
  /** Whether the node is draining (`serve` drains it on a stop signal); never, by default. */
  readiness?: Readiness;
}

/** The HTTP server: the platform's rules, then each capability's routes, schemas and pages. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const registry = options.registry ?? everyCapability;
  const docsUrl = `${deps.config.publicUrl}/docs/errors`;
  // The capability whose pages answer refusals with their own HTML page (the dashboard).
  const htmlPages = registry.capabilities.find((capability) => capability.pages?.refusalPage)?.pages;
  const serverOptions: FastifyServerOptions & { https?: unknown } = {
    loggerInstance: deps.log,
    logController: new RequestLogLevels(),
    genReqId: () => newId('request'),
    requestIdHeader: false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength },
    ...protocolRefusals({
      docsUrl,
      now: () => deps.clock.now(),
      ...(htmlPages?.prefix && htmlPages.refusalPage
        ? { htmlPages: { prefix: htmlPages.prefix, render: htmlPages.refusalPage } }
        : {}),
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
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.labels(request.method, route, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    defaultV1Headers(request, reply, deps.clock.now());
    return payload;
  });
  installHstsAndFrameRefusal(app);

  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopListening = await listenForAuthChanges(deps.pool, deps.keyCache, (error) =>
      deps.log.warn({ err: error }, 'key cache listener lost; reading keys from the database'),
    );
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
    await deps.sandboxPlatform.stop();
  });

  await registerOpenApi(app, deps.config.publicUrl);
  for (const capability of registry.capabilities) for (const schema of capability.schemas ?? []) app.addSchema(schema);

  const options_ = { deps, registry };
  await app.register(
    async (v1) => {
      await v1.register(apiPlatform, { deps });
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      for (const capability of registry.capabilities) {
        if (capability.routes) await v1.register(capability.routes, options_);
      }
      if (options.extraV1Routes) await v1.register(options.extraV1Routes, options_);
    },
    { prefix: '/v1' },
  );

  registerHealthRoutes(app, deps.pool, options.readiness ?? createReadiness());
  // Public pages (payment, quote, error docs) and the dashboard: no key, each with its own rules.
  for (const capability of registry.capabilities) {
    if (!capability.pages) continue;
    const { routes, prefix } = capability.pages;
    await app.register(routes, prefix ? { ...options_, prefix } : options_);
  }
  return app;
}
