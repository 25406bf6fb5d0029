import { bigint, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/**
 * The legal archive: one append-only chain of entries per company (live documents only; the
 * column `livemode` is there for the tenant fence and is always true). Each entry names a
 * document and its files' SHA-256, and carries the previous entry's hash; `entry_hash` is the
 * SHA-256 of the entry's canonical JSON (entry-hash.ts). A trigger (migration) refuses UPDATE,
 * DELETE and TRUNCATE.
 */
export const archiveEntries = pgTable(
  'archive_entries',
  {
    ...tenantColumns(),
    /** 1, 2, 3... per company, without gap. */
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    documentId: text('document_id').notNull(),
    documentKind: text('document_kind').notNull(),
    documentNumber: text('document_number').notNull(),
    /** The files' SHA-256 by kind (`facturx`, `xml`, `pdf`). */
    fileHashes: jsonb('file_hashes').$type<Record<string, string>>().notNull(),
    /** The rule set (FNFE-MPE version) that validated the files; null in entries made before it was recorded. */
    ruleSet: text('rule_set'),
    archivedAt: instant('archived_at').notNull(),
    /** The previous entry's `entry_hash`; 64 zeros for the first entry. */
    previousHash: text('previous_hash').notNull(),
    entryHash: text('entry_hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.livemode, t.sequence] }),
    uniqueIndex('archive_entries_document').on(t.companyId, t.livemode, t.documentId),
  ],
);
