import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ...tenantColumns(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** Which request holds the key: only that one may mark its effect or store its response. */
    lockToken: text('lock_token').notNull(),
    /** `started` while the first request runs; `completed` once its response is stored. */
    state: text('state').notNull(),
    lockedAt: instant('locked_at').notNull(),
    /** Set in the transaction that commits the request's effect, so a crash after it is never re-executed. */
    effectCommitted: boolean('effect_committed').notNull().default(false),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: text('response_body'),
    created: instant('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.key] }), index('idempotency_keys_created').on(t.created)],
);
