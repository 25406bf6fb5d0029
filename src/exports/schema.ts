import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Exports (`exp_`): an accounting file (FEC) or the data-protection archive of a company, made
 * by a job and kept for download until `expires_at`. `cursor` is where the job stands: it is
 * written with each batch's chunks, so a job that resumes after a crash continues from it.
 */
export const exportsTable = pgTable(
  'exports',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** `fec` or `data`. */
    kind: text('kind').notNull(),
    /** `pending` until the job writes the last byte, then `ready`. */
    status: text('status').notNull(),
    jobId: text('job_id').notNull(),
    /** The FEC's period, calendar days, inclusive; null for a data export. */
    periodFrom: text('period_from'),
    periodTo: text('period_to'),
    /** What the request asked (the FEC's accounts, journals and separator). */
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    cursor: jsonb('cursor').$type<Record<string, unknown>>().notNull(),
    /** Entries of a FEC, records of a data export: written so far, final once ready. */
    count: integer('count').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    /** Bytes and chunks of the file, and its SHA-256 (hex) once ready. */
    size: bigint('size', { mode: 'number' }).notNull(),
    chunks: integer('chunks').notNull(),
    sha256: text('sha256'),
    created: instant('created').notNull(),
    completedAt: instant('completed_at'),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('exports_list').on(t.companyId, t.livemode, t.id),
    index('exports_expiry').on(t.expiresAt),
  ],
);

/**
 * The bytes of the exports, in chunks of about a megabyte, so that every API node serves a file
 * and none holds one in memory. `part` is empty for the file itself; a data export stages each
 * kind's JSON lines under the kind's name before they are zipped.
 */
export const exportChunks = pgTable(
  'export_chunks',
  {
    ...tenantColumns(),
    exportId: text('export_id').notNull(),
    part: text('part').notNull(),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.exportId, t.part, t.seq] })],
);
