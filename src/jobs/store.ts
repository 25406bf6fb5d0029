import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { rowsAfter } from '../db/keyset.js';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { claimLeased } from '../db/leased-claim.js';
import { sandboxOffsetMs } from '../db/sandbox-clock.js';
import { jobs } from './schema.js';
import { notifyOnCommit } from '../db/commit-notice.js';

export type JobRow = typeof jobs.$inferSelect;

/** Wakes the job workers of every node once the transaction that queued a job commits. */
export const jobChannel = 'facteur_jobs';

export async function insertJob(db: Executor, row: JobRow): Promise<void> {
  await db.insert(jobs).values(row);
  await notifyOnCommit(db, jobChannel);
}

export async function findJob(db: Executor, scope: Scope, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(inScope(jobs, scope), eq(jobs.id, id)))
    .limit(1);
  return row;
}

export interface ClaimedJob {
  job: JobRow;
  sandboxClockOffsetMs: number;
}

/**
 * Claims due jobs for one worker: queued ones, and running ones whose claim expired (their
 * worker died). Each claim counts as an attempt. `now` is real time.
 */
export async function claimDueJobs(
  db: Executor,
  now: Date,
  limit: number,
  lockMs: number,
  token: string,
  companyIds?: string[],
): Promise<ClaimedJob[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const claimed = await claimLeased(
    db,
    {
      table: 'jobs',
      key: ['company_id', 'id'],
      due: sql`t.status in ('queued', 'running') and t.run_after <= ${at}`,
      order: sql`t.run_after`,
      set: sql`attempts = t.attempts + 1, status = 'running', updated = ${at}`,
      returning: sql`t.company_id, t.id, ${sandboxOffsetMs({ companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') })} as offset_ms`,
      companyIds,
    },
    { now, limit, leaseMs: lockMs, token },
  );
  if (claimed.length === 0) return [];
  const offsets = new Map(claimed.map((row) => [`${row.company_id}/${row.id}`, Number(row.offset_ms)]));
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(
        sql`(${jobs.companyId}, ${jobs.id}) in (${sql.join(
          claimed.map((row) => sql`(${row.company_id}, ${row.id})`),
          sql`, `,
        )})`,
        eq(jobs.lockToken, token),
      ),
    );
  return rows.map((job) => ({ job, sandboxClockOffsetMs: offsets.get(`${job.companyId}/${job.id}`) ?? 0 }));
}

const { input: _input, ...columnsButInput } = getTableColumns(jobs);

/**
 * The job, locked for this transaction, if this worker's claim still holds. The input never
 * changes, so it is not read again: the worker keeps the one its claim read.
 */
export async function lockClaimedJob(
  db: Executor,
  job: Pick<JobRow, 'companyId' | 'id'>,
  token: string,
): Promise<Omit<JobRow, 'input'> | undefined> {
  const [row] = await db
    .select(columnsButInput)
    .from(jobs)
    .where(and(eq(jobs.companyId, job.companyId), eq(jobs.id, job.id), eq(jobs.lockToken, token)))
    .for('update');
  return row;
}

/** Updates a claimed job; false when the claim was lost (another worker took over). */
export async function updateClaimedJob(
  db: Executor,
  job: Pick<JobRow, 'companyId' | 'id'>,
  token: string,
  changes: Partial<JobRow>,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set(changes)
    .where(and(eq(jobs.companyId, job.companyId), eq(jobs.id, job.id), eq(jobs.lockToken, token)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function deleteScopeJobs(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(jobs).where(inScope(jobs, scope)).returning({ id: jobs.id });
  return rows.length;
}

/** Jobs due now (queued, or running with a lapsed claim) and how long the oldest has waited. */
export async function dueJobStats(db: Executor, now: Date): Promise<{ due: number; oldestSeconds: number }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    select count(*)::int as due, coalesce(extract(epoch from ${at} - min(run_after)), 0)::float8 as oldest
    from jobs where status in ('queued', 'running') and run_after <= ${at}
      and (locked_until is null or locked_until < ${at})`);
  const stats = result.rows[0] as { due: number; oldest: number };
  return { due: stats.due, oldestSeconds: Math.max(0, stats.oldest) };
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function jobRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, jobs, scope, after, limit);
}
