import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { idParams, nullable } from '../http/route-schemas.js';
import { createEstablishment, getEstablishment, listEstablishments, updateEstablishment } from './service.js';

const addressSchema = Type.Object({
  line1: Type.String(),
  line2: nullable(Type.String()),
  postalCode: Type.String(),
  city: Type.String(),
  country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
});

const addressInput = Type.Object(
  {
    line1: Type.String({ maxLength: 200 }),
    line2: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 200 })),
    postalCode: Type.String({ maxLength: 20 }),
    city: Type.String({ maxLength: 100 }),
    country: Type.String({ minLength: 2, maxLength: 2 }),
  },
  { additionalProperties: false },
);

const einvoiceSyntaxField = Type.Union([Type.Literal('cii'), Type.Literal('ubl')], {
  description:
    "The syntax of this establishment's platform deposits when the buyer states none (the customer's `einvoiceSyntax`): `cii` (default: the Factur-X, its CII inside) or `ubl` (UBL 2.1).",
});

export const establishmentSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `est_`.' }),
    object: Type.Literal('establishment'),
    livemode: Type.Boolean(),
    siret: Type.String({ description: "14 digits: the company's SIREN, the establishment number, the Luhn key." }),
    name: nullable(Type.String()),
    address: addressSchema,
    electronicAddress: Type.String({
      description: "BT-34 (scheme 0225), the seller's electronic address; the SIREN unless set.",
    }),
    einvoiceSyntax: einvoiceSyntaxField,
    isDefault: Type.Boolean({
      description: 'The establishment of documents whose tax profile names none. Exactly one per environment.',
    }),
    platform: nullable(
      Type.Object({
        baseUrl: Type.String({
          description:
            "The platform's root: its Flow Service answers under `{baseUrl}/flow-service`, its Directory Service under `{baseUrl}/directory-service` (AFNOR XP Z12-013).",
        }),
        clientId: Type.String({ description: 'OAuth2 client id (client credentials).' }),
        tokenUrl: nullable(
          Type.String({ description: 'OAuth2 token endpoint; null: `{baseUrl}/auth-service/{clientId}/token`.' }),
        ),
        clientSecretSet: Type.Literal(true, {
          description: 'The client secret is stored encrypted and never returned.',
        }),
        connectedAt: Type.String(),
      }),
    ),
    depositEnabled: Type.Boolean({
      description:
        "Automatic deposit of this establishment's e-invoices on its platform (`deposit_not_enabled` when false).",
    }),
    ereportingEnabled: Type.Boolean({
      description: 'Automatic transmission of its e-reporting declarations (`ereporting_not_enabled` when false).',
    }),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'Establishment' },
);

const connectionInput = Type.Unsafe<{
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tokenUrl?: string | null;
} | null>({
  type: ['object', 'null'],
  description:
    'Connects the establishment to its approved platform: tried at once (the credentials, and the SIRET in its directory: `siret_not_found`), then stored with the secret encrypted. `null` disconnects it.',
  properties: {
    baseUrl: { type: 'string', maxLength: 500 },
    clientId: { type: 'string', minLength: 1, maxLength: 200 },
    clientSecret: { type: 'string', minLength: 1, maxLength: 500, writeOnly: true },
    tokenUrl: { type: ['string', 'null'], maxLength: 500 },
  },
  required: ['baseUrl', 'clientId', 'clientSecret'],
  additionalProperties: false,
});

const platformFields = {
  platform: Type.Optional(connectionInput),
  depositEnabled: Type.Optional(Type.Boolean()),
  ereportingEnabled: Type.Optional(Type.Boolean()),
};

const tags = ['Establishments'];
const optionalText = (maxLength: number) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength }));

export async function establishmentRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/establishments',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Create an establishment of the company',
        description:
          "The SIRET is one of the company's SIREN, with a valid key; a SIRET already declared in this environment is refused (`conflict`). The first establishment is the default; `isDefault: true` moves the mark.",
        body: Type.Object(
          {
            siret: Type.String({ maxLength: 20 }),
            name: optionalText(200),
            address: addressInput,
            electronicAddress: optionalText(125),
            einvoiceSyntax: Type.Optional(einvoiceSyntaxField),
            isDefault: Type.Optional(Type.Boolean()),
            ...platformFields,
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('Establishment') },
      },
    },
    async (request, reply) => reply.code(201).send(await createEstablishment(deps, callContext(request), request.body)),
  );

  app.get(
    '/establishments',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List the establishments, newest first',
        querystring: Type.Object(paginationQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Establishment')) },
      },
    },
    async (request) =>
      listEstablishments(deps, authOf(request).scope, {
        limit: request.query.limit ?? 25,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/establishments/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve an establishment',
        params: idParams,
        response: { 200: Type.Ref('Establishment') },
      },
    },
    async (request) => getEstablishment(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/establishments/:id',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Update an establishment',
        description:
          'The SIRET never changes. Issued documents keep the seller block frozen at their finalization. `isDefault: false` on the default is refused: make another one the default.',
        params: idParams,
        body: Type.Object(
          {
            name: optionalText(200),
            address: Type.Optional(addressInput),
            electronicAddress: optionalText(125),
            einvoiceSyntax: Type.Optional(einvoiceSyntaxField),
            isDefault: Type.Optional(Type.Boolean()),
            ...platformFields,
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Establishment') },
      },
    },
    async (request) => updateEstablishment(deps, callContext(request), request.params.id, request.body),
  );
}
