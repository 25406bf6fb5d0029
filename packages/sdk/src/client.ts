import type { paths } from './openapi.js';
import { request, type ClientOptions, type RequestOptions } from './request.js';
import { autoPaginated, type AutoPaginated } from './pagination.js';
import type { AnswerOf, BodyOf, ItemOf, ListPage, Operation, PathOf, QueryOf } from './types.js';
import { verify } from './webhooks.js';

type Post<P extends PathOf<'post'>> = Operation<P, 'post'>;
type Get<P extends PathOf<'get'>> = Operation<P, 'get'>;
type Extra = Pick<RequestOptions, 'idempotencyKey'>;

/** Every typed call of the API, by its path as the OpenAPI document writes it (`/v1/invoices/{id}`). */
export class FacteurClient {
  constructor(readonly options: ClientOptions) {}

  get<P extends PathOf<'get'>>(
    path: P,
    call: { path?: Record<string, string>; query?: QueryOf<Get<P>> } = {},
  ): Promise<AnswerOf<Get<P>>> {
    return request(this.options, 'GET', path, call as RequestOptions) as Promise<AnswerOf<Get<P>>>;
  }

  post<P extends PathOf<'post'>>(
    path: P,
    call: { path?: Record<string, string>; body?: BodyOf<Post<P>> } & Extra = {},
  ): Promise<AnswerOf<Post<P>>> {
    return request(this.options, 'POST', path, call) as Promise<AnswerOf<Post<P>>>;
  }

  delete<P extends PathOf<'delete'>>(
    path: P,
    call: { path?: Record<string, string> } = {},
  ): Promise<AnswerOf<Operation<P, 'delete'>>> {
    return request(this.options, 'DELETE', path, call) as Promise<AnswerOf<Operation<P, 'delete'>>>;
  }

  /** A list path's items, auto-paginated (pagination.ts). */
  list<P extends PathOf<'get'>>(
    path: P,
    query?: QueryOf<Get<P>>,
    params?: Record<string, string>,
  ): AutoPaginated<ItemOf<AnswerOf<Get<P>>>> {
    return autoPaginated(
      (startingAfter) =>
        this.get(path, {
          ...(params ? { path: params } : {}),
          query: { ...(query as object), ...(startingAfter ? { starting_after: startingAfter } : {}) } as QueryOf<
            Get<P>
          >,
        }) as Promise<ListPage<ItemOf<AnswerOf<Get<P>>>>>,
    );
  }
}

/** create / list on `L`, retrieve / update / del on `I` (each typed by its operation). */
function resource<L extends PathOf<'post'> & PathOf<'get'>, I extends PathOf<'get'>>(
  client: FacteurClient,
  listPath: L,
  itemPath: I,
) {
  return {
    create: (body: BodyOf<Post<L>>, extra: Extra = {}) => client.post(listPath, { body, ...extra }),
    list: (query?: QueryOf<Get<L>>) => client.list(listPath, query),
    retrieve: (id: string) => client.get(itemPath, { path: { id } }),
    update: (id: string, body: I extends PathOf<'post'> ? BodyOf<Post<I>> : never, extra: Extra = {}) =>
      client.post(itemPath as I & PathOf<'post'>, { path: { id }, body, ...extra }),
    del: (id: string) => client.delete(itemPath as I & PathOf<'delete'>, { path: { id } }),
  };
}

/** An action on one document: `POST <path>` with its id (finalize, send, ping…). */
function action<P extends PathOf<'post'>>(client: FacteurClient, path: P) {
  return (id: string, body?: BodyOf<Post<P>>, extra: Extra = {}) =>
    client.post(path, { path: { id }, ...(body === undefined ? {} : { body }), ...extra });
}

/**
 * facteur's API, typed from its OpenAPI document. Resources for the usual documents; `client`
 * reaches every other path with the same types, retries and pagination.
 */
export class Facteur {
  readonly client: FacteurClient;
  readonly account;
  readonly customers;
  readonly products;
  readonly invoices;
  readonly creditNotes;
  readonly quotes;
  readonly taxDecisions;
  readonly payments;
  readonly webhookEndpoints;
  readonly events;
  readonly webhooks = { verify };

  constructor(options: ClientOptions) {
    const client = new FacteurClient(options);
    this.client = client;
    this.account = { retrieve: () => client.get('/v1/account') };
    this.customers = resource(client, '/v1/customers', '/v1/customers/{id}');
    this.products = resource(client, '/v1/products', '/v1/products/{id}');
    this.invoices = {
      ...resource(client, '/v1/invoices', '/v1/invoices/{id}'),
      finalize: action(client, '/v1/invoices/{id}/finalize'),
      send: action(client, '/v1/invoices/{id}/send'),
      payments: (id: string) => client.get('/v1/invoices/{id}/payments', { path: { id } }),
    };
    this.creditNotes = {
      ...resource(client, '/v1/credit-notes', '/v1/credit-notes/{id}'),
      finalize: action(client, '/v1/credit-notes/{id}/finalize'),
      send: action(client, '/v1/credit-notes/{id}/send'),
    };
    this.quotes = {
      ...resource(client, '/v1/quotes', '/v1/quotes/{id}'),
      finalize: action(client, '/v1/quotes/{id}/finalize'),
      send: action(client, '/v1/quotes/{id}/send'),
      accept: action(client, '/v1/quotes/{id}/accept'),
      refuse: action(client, '/v1/quotes/{id}/refuse'),
      convert: action(client, '/v1/quotes/{id}/convert'),
    };
    this.taxDecisions = {
      create: (body: BodyOf<Post<'/v1/tax-decisions'>>, extra: Extra = {}) =>
        client.post('/v1/tax-decisions', { body, ...extra }),
      retrieve: (id: string) => client.get('/v1/tax-decisions/{id}', { path: { id } }),
    };
    this.payments = resource(client, '/v1/payments', '/v1/payments/{id}');
    this.webhookEndpoints = {
      ...resource(client, '/v1/webhook-endpoints', '/v1/webhook-endpoints/{id}'),
      ping: action(client, '/v1/webhook-endpoints/{id}/ping'),
      rotateSecret: action(client, '/v1/webhook-endpoints/{id}/rotate-secret'),
    };
    this.events = {
      list: (query?: QueryOf<Get<'/v1/events'>>) => client.list('/v1/events', query),
      retrieve: (id: string) => client.get('/v1/events/{id}', { path: { id } }),
      retry: action(client, '/v1/events/{id}/retry'),
    };
  }
}

export type { paths };
