import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { customerCreateBody, customerUpdateBody } from './customer-input.js';
import { csvColumns, maxImportLines } from './customer-csv.js';
import { nonDisclosableFields } from './directory.js';
import { syncImportMaxLines } from './import.js';
import {
  createCustomer,
  csvBodyLimit,
  deleteCustomer,
  getCustomer,
  importCustomers,
  listCustomers,
  updateCustomer,
} from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

const addressSchema = nullable(
  Type.Object({
    line1: nullable(Type.String()),
    line2: nullable(Type.String()),
    postalCode: nullable(Type.String()),
    city: nullable(Type.String()),
    country: Type.String(),
    territory: nullable(
      Type.String({
        description:
          'VAT territory: `FR` (mainland), `FR-COR` (Corsica), `FR-GP`, `FR-MQ`, `FR-GF`, `FR-RE`, `FR-YT`, `FR-BL`, `FR-MF`, `FR-PM`, `MC`, `ES-CN`...; the country code elsewhere; null for a French address without postal code.',
      }),
    ),
  }),
);

export const customerSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `cus_`.' }),
    object: Type.Literal('customer'),
    livemode: Type.Boolean(),
    type: Type.Union([Type.Literal('company'), Type.Literal('individual')]),
    name: Type.String(),
    email: nullable(Type.String()),
    siren: nullable(Type.String()),
    siret: nullable(Type.String()),
    vatNumber: nullable(Type.String()),
    electronicAddress: nullable(Type.String()),
    routingCode: nullable(Type.String()),
    address: addressSchema,
    deliveryAddress: addressSchema,
    registryNonDisclosure: Type.Array(Type.Union(nonDisclosableFields.map((field) => Type.Literal(field)))),
    einvoiceSyntax: nullable(
      Type.Union([Type.Literal('cii'), Type.Literal('ubl')], {
        description:
          "The syntax this buyer takes its e-invoices in (`cii`: the Factur-X; `ubl`: UBL 2.1); null: the issuing establishment's default.",
      }),
    ),
    vatValidation: nullable(
      Type.Object(
        {
          status: Type.Union([Type.Literal('valid'), Type.Literal('unverified'), Type.Literal('invalid')]),
          checkedAt: nullable(Type.String({ description: 'When VIES was asked; null while not yet asked.' })),
          requestIdentifier: nullable(
            Type.String({ description: "VIES's consultation number: the proof of the check, kept." }),
          ),
          requestDate: nullable(Type.String({ description: "VIES's date of its answer." })),
        },
        {
          description:
            'Live, an intra-EU VAT number (outside France) checked with VIES: `valid`; `unverified` when VIES did not answer or for a CSV-imported customer, checked again every 10 minutes; `invalid` when a re-check found the number unknown. Null in test mode and for other numbers.',
        },
      ),
    ),
    directoryVerification: nullable(
      Type.Union([Type.Literal('verified'), Type.Literal('unverified'), Type.Literal('not_found')], {
        description:
          "Live, the SIRET (else the SIREN) looked up in the company directory (Sirene, else the connected platform's for a SIRET): `verified`; `unverified` when no directory answered or for a CSV-imported customer, checked again every 10 minutes; `not_found` when a re-check found it unknown or closed. Null in test mode and without a SIRET or SIREN.",
      }),
    ),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created: Type.String(),
    updated: Type.String(),
    deleted: Type.Boolean({
      description:
        'A deleted customer stays readable (its documents refer to it) but is no longer listed nor modifiable.',
    }),
  },
  { $id: 'Customer' },
);

const importResultSchema = Type.Object({
  object: Type.Literal('customer_import'),
  livemode: Type.Boolean(),
  lines: Type.Integer({ description: 'Data lines in the file, the header not counted.' }),
  imported: Type.Integer(),
  refused: Type.Integer(),
  refusals: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'Line of the file (the header is line 1).' }),
      code: Type.String(),
      param: nullable(Type.String()),
      message: Type.String(),
    }),
    { description: 'One entry per refused line, in file order; refused lines are not imported.' },
  ),
});

const deletedSchema = Type.Object({ id: Type.String(), object: Type.Literal('customer'), deleted: Type.Literal(true) });
const tags = ['Customers'];

export async function customerRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  // The one non-JSON body of the API, parsed in this plugin only.
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: csvBodyLimit }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/customers',
    {
      config: { access: 'customers:write' },
      schema: { tags, summary: 'Create a customer', body: customerCreateBody, response: { 201: Type.Ref('Customer') } },
    },
    async (request, reply) => reply.code(201).send(await createCustomer(deps, callContext(request), request.body)),
  );

  app.get(
    '/customers',
    {
      config: { access: 'customers:read' },
      schema: {
        tags,
        summary: 'List customers, newest first',
        description: 'Deleted customers are not listed. Filters combine with the cursor.',
        querystring: Type.Object(
          {
            ...paginationQuery,
            email: Type.Optional(Type.String({ maxLength: 254, description: 'Exact e-mail, case-insensitive.' })),
            siren: Type.Optional(Type.String({ maxLength: 20 })),
            type: Type.Optional(Type.Union([Type.Literal('company'), Type.Literal('individual')])),
            date_from: Type.Optional(
              Type.String({
                maxLength: 40,
                format: 'date-or-date-time',
                description: '`created` on or after: a calendar date (UTC) or an ISO 8601 date-time.',
              }),
            ),
            date_to: Type.Optional(
              Type.String({
                maxLength: 40,
                format: 'date-or-date-time',
                description: '`created` on or before: a calendar date (the whole day, UTC) or an ISO 8601 date-time.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('Customer')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, email, siren, type, date_from, date_to } = request.query;
      return listCustomers(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { email, siren, type, dateFrom: date_from, dateTo: date_to },
      );
    },
  );

  app.post(
    '/customers/import',
    {
      config: {
        access: 'customers:write',
        contentTypes: ['text/csv'],
        routeLimit: { name: 'customers-import', max: 2, per: 'hour' },
      },
      bodyLimit: csvBodyLimit,
      // An empty body reaches the handler as an empty file, refused with a clear message.
      preValidation: async (request) => {
        if (typeof request.body !== 'string') request.body = '';
      },
      schema: {
        tags,
        summary: 'Import customers from a CSV file',
        description: `Body \`text/csv\` (UTF-8, \`,\` or \`;\`): a header row naming columns among ${csvColumns.map((c) => `\`${c}\``).join(', ')} (any subset with \`name\`, any order), then at most ${maxImportLines.toLocaleString('en')} lines. Each line is checked as \`POST /v1/customers\` would; valid lines are imported, refused ones are listed with their line, code and param. Up to ${syncImportMaxLines.toLocaleString('en')} lines: \`200\` with the result. More: \`202\` with a job, whose \`result\` is the same object. Live: 2 imports per hour per key.`,
        consumes: ['text/csv'],
        body: Type.String({ description: 'The CSV file.' }),
        response: { 200: importResultSchema, 202: Type.Ref('Job') },
      },
    },
    async (request, reply) => {
      const answer = await importCustomers(deps, callContext(request), request.body);
      return answer.kind === 'result' ? reply.code(200).send(answer.result) : reply.code(202).send(answer.job);
    },
  );

  app.get(
    '/customers/:id',
    {
      config: { access: 'customers:read' },
      schema: {
        tags,
        summary: 'Retrieve a customer (a deleted one too, with `deleted: true`)',
        params: idParams,
        response: { 200: Type.Ref('Customer') },
      },
    },
    async (request) => getCustomer(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/customers/:id',
    {
      config: { access: 'customers:write' },
      schema: {
        tags,
        summary: 'Update a customer',
        description:
          'Absent fields are kept; `null` clears a field; `address`, `deliveryAddress` and `metadata` are replaced whole. The whole customer is checked again. A deleted customer answers `resource_deleted`.',
        params: idParams,
        body: customerUpdateBody,
        response: { 200: Type.Ref('Customer') },
      },
    },
    async (request) => updateCustomer(deps, callContext(request), request.params.id, request.body),
  );

  app.delete(
    '/customers/:id',
    {
      config: { access: 'customers:write' },
      schema: {
        tags,
        summary: 'Delete a customer',
        description:
          'Soft deletion: the customer stays on its documents and readable; it leaves the lists, and later writes answer `resource_deleted`.',
        params: idParams,
        response: { 200: deletedSchema },
      },
    },
    async (request) => deleteCustomer(deps, callContext(request), request.params.id),
  );
}
