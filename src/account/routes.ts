import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf } from '../http/request-context.js';
import { nullable } from '../http/route-schemas.js';
import { accountServices, changeIdentity, toAccount } from './service.js';

const limitsSchema = Type.Object({
  requestsPerMinute: Type.Integer(),
  monthlyQuota: Type.Integer({ description: 'Live documents per calendar month (UTC).' }),
  webhookEndpoints: Type.Integer({ description: 'Per environment.' }),
  storageBytes: Type.Integer(),
  connectedEstablishments: Type.Integer({ description: 'Establishments connected to a platform, per environment.' }),
});

const companySchema = Type.Object(
  {
    name: Type.String(),
    siren: Type.String(),
    legalName: nullable(Type.String({ description: 'BT-27: the name invoices give their issuer.' })),
    tradeName: nullable(Type.String()),
    legalForm: nullable(Type.String({ description: 'SAS, SARL, EI...' })),
    shareCapital: nullable(Type.String({ description: 'Euros, a decimal string ("10000", "1500.50").' })),
    registration: nullable(
      Type.Object({
        kind: Type.String({ description: '`RCS` (registre du commerce) or `RM` (répertoire des métiers).' }),
        place: Type.String({ description: 'The city of the registry.' }),
      }),
    ),
    vatNumber: nullable(Type.String({ description: "The company's French VAT number (key of its SIREN)." })),
    iban: nullable(Type.String({ description: 'For transfers (BT-84), mod-97 checked.' })),
    bic: nullable(Type.String()),
    contact: nullable(
      Type.Object({ name: nullable(Type.String()), email: nullable(Type.String()), phone: nullable(Type.String()) }),
    ),
  },
  {
    description:
      'The legal identity every finalized document freezes in its `seller` block, shared by both environments.',
  },
);

const accountSchema = Type.Object({
  id: Type.String({ description: 'The company, prefix `co_`.' }),
  object: Type.Literal('account'),
  livemode: Type.Boolean({ description: 'Fixed by the API key: true for `svc_live_` keys.' }),
  name: Type.String(),
  siren: Type.String(),
  plan: Type.String(),
  limits: limitsSchema,
  company: companySchema,
  apiKey: Type.Object({
    id: Type.String(),
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
  }),
  created: Type.String(),
});

const outsideServiceSchema = (what: string) =>
  Type.Object(
    {
      configured: Type.Boolean(),
      provider: nullable(
        Type.String({
          description:
            '`sirene`, `platform` (its Directory Service), `vies`, `smtp`, `stripe`; `sandbox` in test mode (simulated).',
        }),
      ),
      status: Type.Union(
        [Type.Literal('operational'), Type.Literal('failing'), Type.Literal('unknown'), Type.Literal('not_configured')],
        {
          description: '`unknown`: configured, no exchange yet. Read from the last exchange, not probed on each call.',
        },
      ),
      lastExchangeAt: nullable(Type.String()),
      lastFailure: nullable(Type.String({ description: 'Why the last exchange failed (`HTTP 503`, `timeout`...).' })),
    },
    { description: what },
  );

const accountServicesSchema = Type.Object({
  object: Type.Literal('account_services'),
  livemode: Type.Boolean(),
  directory: outsideServiceSchema(
    'The company directory live SIRETs are checked against: Sirene when the operator set `FACTEUR_SIRENE_API_KEY`, else the Directory Service of the platform the default establishment is connected to.',
  ),
  vies: outsideServiceSchema("The EU's VIES, which intra-EU VAT numbers are checked with."),
  email: outsideServiceSchema("The operator's SMTP server (`FACTEUR_SMTP_URL`) documents are e-mailed through."),
  cardPayments: outsideServiceSchema(
    'The card payment provider the company connected (`PUT /v1/account/card-payments`): live only, since the sandbox takes no online payment.',
  ),
});

const optionalText = (maxLength: number) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength }));

const identityBody = Type.Object(
  {
    legalName: optionalText(200),
    tradeName: optionalText(200),
    legalForm: optionalText(100),
    shareCapital: optionalText(20),
    registration: Type.Optional(
      nullable(
        Type.Object(
          { kind: Type.String({ maxLength: 10 }), place: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
      ),
    ),
    vatNumber: optionalText(30),
    iban: optionalText(50),
    bic: optionalText(20),
    contact: Type.Optional(
      nullable(
        Type.Object(
          { name: optionalText(200), email: optionalText(254), phone: optionalText(30) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export async function accountRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/account',
    {
      schema: {
        tags: ['Account'],
        summary: 'Retrieve the account of the calling key',
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const { scope, key, company } = authOf(request);
      // The identity came with the authentication (the key cache, forgotten on every change): no read.
      return toAccount(scope, key, company, {
        id: company.id,
        name: company.name,
        siren: company.siren,
        ...company.identity,
      });
    },
  );

  app.get(
    '/account/services',
    {
      schema: {
        tags: ['Account'],
        summary: 'The outside services and how they answer',
        description:
          "Whether each outside service facteur reaches for the key's environment is configured, and how its last exchange for this company went (`operational`, `failing` with why, `unknown` before the first). Test mode simulates them all (`provider: sandbox`). The approved platform's connection is on each establishment (`GET /v1/establishments`).",
        response: { 200: accountServicesSchema },
      },
    },
    async (request) => accountServices(deps, authOf(request).scope),
  );

  app.post(
    '/account',
    {
      config: { access: 'full_access' },
      schema: {
        tags: ['Account'],
        summary: "Update the company's legal identity",
        description:
          'A partial update: a key left out keeps its value, null clears it (`legalName` cannot be cleared). Shared by both environments; a key without scopes (full access) of either environment. Documents already finalized keep their frozen `seller`.',
        body: identityBody,
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return toAccount(auth.scope, auth.key, auth.company, await changeIdentity(deps, auth.company.id, request.body));
    },
  );
}
