import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';
import { companies } from '../companies/schema.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    livemode: boolean('livemode').notNull(),
    /** SHA-256 of the whole secret, hex: the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    /** The last four characters, so a holder can tell keys apart. */
    secretLast4: text('secret_last4').notNull(),
    scopes: text('scopes').array(),
    expiresAt: instant('expires_at'),
    revokedAt: instant('revoked_at'),
    lastUsedAt: instant('last_used_at'),
    created: instant('created').notNull(),
  },
  (t) => [uniqueIndex('api_keys_secret_hash').on(t.secretHash), index('api_keys_company').on(t.companyId, t.id)],
);
