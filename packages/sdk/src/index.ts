export { Facteur, FacteurClient } from './client.js';
export type { ClientOptions, RequestOptions } from './request.js';
export type { AutoPaginated } from './pagination.js';
export type { ListPage } from './types.js';
export { verify, defaultToleranceSeconds, type Event } from './webhooks.js';
export * from './errors.js';
export type { paths, components } from './openapi.js';
