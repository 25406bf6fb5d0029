import { randomUUID } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import { refuse } from '../kernel/errors.js';

/** A running facteur's API as `facteur listen` and `facteur trigger` call it: one test key, JSON both ways. */
export interface ServiceClient {
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export interface ServiceClientOptions {
  apiUrl: string;
  apiKey: string;
  /** PEM certificates trusted besides the system's: the data directory's self-signed one. */
  ca?: string;
}

/** These commands act on test data only: a live key is refused before any request. */
export function testKeyOnly(apiKey: string | undefined): string {
  if (!apiKey)
    throw refuse('missing_required_field', '--api-key (or FACTEUR_API_KEY) is required.', { param: 'api-key' });
  if (!apiKey.startsWith('svc_test_'))
    throw refuse('invalid_field_value', 'This command works on test events only: give a test key (svc_test_…).', {
      param: 'api-key',
    });
  return apiKey;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const dispatcher: Dispatcher = new Agent(options.ca ? { connect: { ca: options.ca } } : {});
  const base = options.apiUrl.replace(/\/+$/, '');
  return {
    async call(method, path, body) {
      const response = await request(`${base}${path}`, {
        method,
        dispatcher,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      const parsed = text ? JSON.parse(text) : null;
      if (response.statusCode >= 400) {
        const error = parsed?.error;
        throw new Error(
          `${method} ${path} answered ${response.statusCode}${error?.code ? ` ${error.code}: ${error.message}` : ''}`,
        );
      }
      return parsed;
    },
    close: () => dispatcher.close(),
  };
}
