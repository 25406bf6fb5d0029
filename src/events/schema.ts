import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export const events = pgTable(
  'events',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    apiVersion: text('api_version').notNull(),
    created: instant('created').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** 90 days after creation, pushed to 90 days after the last successful delivery. */
    retainedUntil: instant('retained_until').notNull(),
    request: jsonb('request').$type<{ id: string | null; idempotency_key: string | null } | null>(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('events_list').on(t.companyId, t.livemode, t.id),
    index('events_by_type').on(t.companyId, t.livemode, t.type, t.id),
    index('events_retention').on(t.retainedUntil),
  ],
);
