import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';
import { companies } from '../companies/schema.js';

/** People who sign in to the dashboard; each belongs to one company and sees only its data. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** Lower-cased; one account per address across the service (it is the sign-in name). */
    email: text('email').notNull(),
    /** `scrypt$N$r$p$salt$hash`; null until the user sets a password through a link. */
    passwordHash: text('password_hash'),
    passwordChangedAt: instant('password_changed_at'),
    created: instant('created').notNull(),
  },
  (t) => [uniqueIndex('users_email').on(t.email), index('users_company').on(t.companyId, t.id)],
);

/** One-time password-setting links: only the SHA-256 of the token is kept. */
export const passwordLinks = pgTable(
  'password_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    created: instant('created').notNull(),
  },
  (t) => [index('password_links_user').on(t.userId)],
);

/** Dashboard sessions: the cookie carries a random token, the table its SHA-256. */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    companyId: text('company_id').notNull(),
    /** The synchronizer token every form of the session carries. */
    csrfToken: text('csrf_token').notNull(),
    /** Wrong passwords given inside the session (secret reveal, password change); too many end the session. */
    reauthFailures: integer('reauth_failures').notNull().default(0),
    created: instant('created').notNull(),
    lastSeenAt: instant('last_seen_at').notNull(),
    /** Idle expiry, pushed forward on use, never past `absolute_expires_at`. */
    expiresAt: instant('expires_at').notNull(),
    absoluteExpiresAt: instant('absolute_expires_at').notNull(),
  },
  (t) => [index('dashboard_sessions_user').on(t.userId), index('dashboard_sessions_expiry').on(t.expiresAt)],
);
