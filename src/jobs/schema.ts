import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export interface JobProgress {
  /** Units of work in the job (CSV lines for an import). */
  total: number;
  /** Units done and committed; also where the next batch starts. */
  processed: number;
}

export interface JobRequest {
  id: string | null;
  idempotencyKey: string | null;
  apiVersion: string;
}

/**
 * Durable background work (`job_`): its input, its progress and its result, committed batch by
 * batch together with the batch's effects, so a worker that dies resumes after the last commit.
 */
export const jobs = pgTable(
  'jobs',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    /** `queued`, `running`, `succeeded` or `failed`. */
    status: text('status').notNull(),
    input: jsonb('input').$type<unknown>().notNull(),
    progress: jsonb('progress').$type<JobProgress>().notNull(),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    error: jsonb('error').$type<{ code: string; message: string } | null>(),
    /** The request that created the job: its events carry it. */
    request: jsonb('request').$type<JobRequest>().notNull(),
    /** Claims so far (a claim that ends in a crash counts). */
    attempts: integer('attempts').notNull(),
    /** Real time (never the sandbox clock) from which a worker may claim it. */
    runAfter: instant('run_after').notNull(),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
    completedAt: instant('completed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('jobs_due')
      .on(t.runAfter)
      .where(sql`status in ('queued', 'running')`),
  ],
);
