import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { unitCodes, units } from './units.js';
import {
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  productNatures,
  updateProduct,
  vatCategories,
} from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';
import { metadataField } from '../kernel/metadata.js';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    anyOf: values.map((value) => ({ type: 'string', const: value })),
    ...(description ? { description } : {}),
  });

const unitField = literals(
  unitCodes,
  `UN/ECE Recommendation 20 code: ${unitCodes.map((code) => `\`${code}\` (${units[code]})`).join(', ')}. Default \`C62\`.`,
);
const natureField = literals(
  productNatures,
  '`goods`, `services` or `electronic_service` (services supplied electronically, whose place of supply follows the customer).',
);
const vatCategoryField = literals(
  vatCategories,
  'Default VAT rate category: `standard` (20 % in mainland France), `intermediate` (10 %), `reduced` (5.5 %), `super_reduced` (2.1 %), `zero`, `exempt`. Default `standard`.',
);
const unitPriceField = Type.String({
  minLength: 1,
  maxLength: 20,
  description:
    'Price of one unit excluding VAT, a decimal string such as "12.50" (at most 6 decimals), never a number.',
});

export const productSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `prod_`.' }),
    object: Type.Literal('product'),
    livemode: Type.Boolean(),
    name: Type.String(),
    description: nullable(Type.String()),
    unitPrice: Type.String(),
    unit: Type.String(),
    nature: Type.String(),
    vatCategory: Type.String(),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created: Type.String(),
    updated: Type.String(),
    deleted: Type.Boolean({ description: 'A deleted product stays readable but is no longer listed nor modifiable.' }),
  },
  { $id: 'Product' },
);

const tags = ['Products'];

export async function productRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/products',
    {
      config: { access: 'products:write' },
      schema: {
        tags,
        summary: 'Create a product',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 })),
            unitPrice: unitPriceField,
            unit: Type.Optional(unitField),
            nature: natureField,
            vatCategory: Type.Optional(vatCategoryField),
            metadata: Type.Optional(metadataField),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('Product') },
      },
    },
    async (request, reply) => reply.code(201).send(await createProduct(deps, callContext(request), request.body)),
  );

  app.get(
    '/products',
    {
      config: { access: 'products:read' },
      schema: {
        tags,
        summary: 'List products, newest first',
        description: 'Deleted products are not listed.',
        querystring: Type.Object(
          { ...paginationQuery, nature: Type.Optional(natureField) },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('Product')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, nature } = request.query;
      return listProducts(deps, authOf(request).scope, { limit, startingAfter: starting_after }, { nature });
    },
  );

  app.get(
    '/products/:id',
    {
      config: { access: 'products:read' },
      schema: {
        tags,
        summary: 'Retrieve a product (a deleted one too, with `deleted: true`)',
        params: idParams,
        response: { 200: Type.Ref('Product') },
      },
    },
    async (request) => getProduct(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/products/:id',
    {
      config: { access: 'products:write' },
      schema: {
        tags,
        summary: 'Update a product',
        description:
          'Absent fields are kept; `description: null` clears it; `metadata` is replaced whole. A deleted product answers `resource_deleted`.',
        params: idParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 })),
            unitPrice: Type.Optional(unitPriceField),
            unit: Type.Optional(unitField),
            nature: Type.Optional(natureField),
            vatCategory: Type.Optional(vatCategoryField),
            metadata: Type.Optional(metadataField),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Product') },
      },
    },
    async (request) => updateProduct(deps, callContext(request), request.params.id, request.body),
  );

  app.delete(
    '/products/:id',
    {
      config: { access: 'products:write' },
      schema: {
        tags,
        summary: 'Delete a product',
        description:
          'Soft deletion: the product stays readable (documents refer to it); it leaves the list, and later writes answer `resource_deleted`.',
        params: idParams,
        response: {
          200: Type.Object({ id: Type.String(), object: Type.Literal('product'), deleted: Type.Literal(true) }),
        },
      },
    },
    async (request) => deleteProduct(deps, callContext(request), request.params.id),
  );
}
