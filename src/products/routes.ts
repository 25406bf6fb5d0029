import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './service.js';
import { natureField, productCreateBody, productUpdateBody } from './product-input.js';
import { nullable, idParams } from '../http/route-schemas.js';

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
        body: productCreateBody,
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
        body: productUpdateBody,
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
