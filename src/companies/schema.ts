import { sql } from 'drizzle-orm';
import { bigint, check, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';

export const companies = pgTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    siren: text('siren').notNull(),
    /** Where operational e-mails go (failing webhook endpoints); null: they are only logged. */
    email: text('email'),
    /**
     * The legal identity an invoice names (shared by both environments, like the company): null
     * until declared with `POST /v1/account`; the finalization names what is missing.
     */
    legalName: text('legal_name'),
    tradeName: text('trade_name'),
    legalForm: text('legal_form'),
    /** Euros, a decimal string ("10000", "1500.50"). */
    shareCapital: text('share_capital'),
    registration: jsonb('registration').$type<{ kind: 'RCS' | 'RM'; place: string } | null>(),
    vatNumber: text('vat_number'),
    iban: text('iban'),
    bic: text('bic'),
    contact: jsonb('contact').$type<{ name: string | null; email: string | null; phone: string | null } | null>(),
    /** How far the sandbox clock of this company runs ahead of real time (test mode only). */
    sandboxClockOffsetMs: bigint('sandbox_clock_offset_ms', { mode: 'number' }).notNull().default(0),
    created: instant('created').notNull(),
  },
  // A sandbox clock only moves forward (advanced, or reset to real time): the due test of every
  // queue (db/sandbox-clock.ts) stops at real time on that premise.
  (t) => [check('companies_sandbox_clock_forward', sql`${t.sandboxClockOffsetMs} >= 0`)],
);
