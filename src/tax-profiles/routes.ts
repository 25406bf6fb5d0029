import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import {
  createTaxProfile,
  getTaxProfile,
  listTaxProfiles,
  periodicities,
  regimes,
  setTaxProfileEnd,
} from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T | null>({
    anyOf: [...values.map((value) => ({ type: 'string', const: value })), { type: 'null' }],
    description,
  });

const regimeField = literals(
  regimes,
  '`normal`, `simplified` or `franchise` (franchise en base, art. 293 B du CGI); null: not declared.',
);
const periodicityField = literals(
  periodicities,
  'E-reporting periodicity: `three_per_month` (réel normal mensuel), `monthly` (réel normal trimestriel, régime simplifié), `bimonthly` (franchise en base).',
);
const boolField = (description: string) => Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description });

export const taxProfileSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `txp_`.' }),
    object: Type.Literal('tax_profile'),
    livemode: Type.Boolean(),
    validFrom: Type.String(),
    validTo: nullable(Type.String()),
    establishment: Type.Object({
      siret: nullable(Type.String()),
      postalCode: nullable(Type.String()),
      country: Type.String(),
      territory: nullable(
        Type.String({
          description:
            'VAT territory of the establishment (`FR`, `FR-COR`, `FR-GP`, `FR-MQ`, `FR-RE`...), null when it resolves to none.',
        }),
      ),
    }),
    vatNumber: nullable(Type.String()),
    regime: nullable(Type.String()),
    vatOnDebits: nullable(Type.Boolean()),
    ossRegistered: nullable(Type.Boolean()),
    ereportingPeriodicity: nullable(Type.String()),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'TaxProfile' },
);

const tags = ['Tax profiles'];

export async function taxProfileRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/tax-profiles',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: "Declare a dated revision of the seller's tax profile",
        description:
          'Revisions never overlap (`tax_profile_ambiguous`): close the current one with `POST /v1/tax-profiles/:id` first. A declaration left out is not declared, and refused where a decision needs it (`tax_profile_incomplete`).',
        body: Type.Object(
          {
            validFrom: Type.String({ format: 'date' }),
            validTo: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date' })),
            establishment: Type.Object(
              {
                siret: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 20 })),
                postalCode: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 20 })),
                country: Type.String({ minLength: 1, maxLength: 2 }),
              },
              { additionalProperties: false },
            ),
            vatNumber: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 30 })),
            regime: Type.Optional(regimeField),
            vatOnDebits: Type.Optional(
              boolField('The option for paying VAT on debits (services); false: VAT on collection.'),
            ),
            ossRegistered: Type.Optional(boolField('Registered in the One-Stop Shop (Union scheme).')),
            ereportingPeriodicity: Type.Optional(periodicityField),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('TaxProfile') },
      },
    },
    async (request, reply) => reply.code(201).send(await createTaxProfile(deps, callContext(request), request.body)),
  );

  app.get(
    '/tax-profiles',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List tax profile revisions, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            date: Type.Optional(Type.String({ format: 'date', description: 'Only the revision covering this day.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('TaxProfile')) },
      },
    },
    async (request) =>
      listTaxProfiles(
        deps,
        authOf(request).scope,
        { limit: request.query.limit ?? 25, startingAfter: request.query.starting_after },
        request.query.date,
      ),
  );

  app.get(
    '/tax-profiles/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve a tax profile revision',
        params: idParams,
        response: { 200: Type.Ref('TaxProfile') },
      },
    },
    async (request) => getTaxProfile(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/tax-profiles/:id',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Move the end of a revision',
        description:
          'Only `validTo` changes; the declarations of a revision are never rewritten (declare a new revision). It must not overlap another revision.',
        params: idParams,
        body: Type.Object(
          { validTo: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date' }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('TaxProfile') },
      },
    },
    async (request) => setTaxProfileEnd(deps, callContext(request), request.params.id, request.body.validTo),
  );
}
