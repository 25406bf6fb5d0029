import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import { Type } from 'typebox';
import { allScopes } from '../kernel/scopes.js';
import { currentVersion } from '../kernel/api-version.js';

export const errorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String(),
      message: Type.String(),
      param: Type.Optional(Type.String()),
      doc_url: Type.Optional(Type.String()),
      hint: Type.Optional(Type.String()),
      request_id: Type.String(),
      issues: Type.Optional(
        Type.Array(
          Type.Object({ code: Type.String(), param: Type.Union([Type.String(), Type.Null()]), message: Type.String() }),
          { minItems: 1, maxItems: 500 },
        ),
      ),
    }),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);

const scopeTable = `
| Resource | Scopes |
|---|---|
| invoices, tax decisions, EU threshold ledgers, e-reporting, recurring and received invoices, exports, tax profiles, establishments | \`invoices:read\` / \`invoices:write\` |
| customers | \`customers:read\` / \`customers:write\` |
| quotes | \`quotes:read\` / \`quotes:write\` |
| credit notes | \`credit_notes:read\` / \`credit_notes:write\` |
| products | \`products:read\` / \`products:write\` |
| webhook endpoints, events | \`webhooks:read\` / \`webhooks:write\` |
| payments | \`payments:read\` / \`payments:write\` |
| reading the account; reading the subscription | any valid key |
| sandbox reset; changing the subscription (a live key); changing the company's legal identity (\`POST /v1/account\`) | a key without scopes (full access) |

A key created without scopes has full access; \`write\` includes \`read\`.`;

const errorResponse = { description: 'Error envelope; see `error.code`.', $ref: 'ErrorEnvelope#' };

/** The OpenAPI document is generated from the route schemas; each operation says the scope it needs. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  app.addSchema(errorEnvelopeSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'facteur',
        version: currentVersion,
        description: `Electronic-invoicing API. Authenticate with \`Authorization: Bearer svc_test_...\` or \`svc_live_...\`; the key fixes \`livemode\`. Pin a version with \`Service-Version\`.\n\n## Scopes\n${scopeTable}`,
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: `API key; scopes: ${allScopes.join(', ')}` },
        },
      },
    },
    hideUntagged: true,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as { public?: boolean; access?: string };
      const transformed: FastifySchema & Record<string, unknown> = { ...(schema ?? {}) };
      if (!config.public) {
        transformed.security = [{ apiKey: [] }];
        transformed['x-required-scope'] = config.access ?? 'any valid key';
        transformed.response = { ...(schema?.response as object), '4xx': errorResponse, '5xx': errorResponse };
      }
      return { schema: transformed, url };
    },
  });
}
