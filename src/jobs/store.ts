import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { companies } from '../companies/schema.js';
import { jobs } from './schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** Wakes the job workers of every node once the transaction that queued a job commits. */
export const jobChannel = 'facteur_jobs';

export async function insertJob(db: Executor, row: JobRow): Promise<void> {
  await db.insert(jobs).values(row);
  await db.execute(sql`select pg_notify(${jobChannel}, '')`);
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
  if (limit <= 0 || (companyIds && companyIds.length === 0)) return [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const due = await db.execute(sql`
    with due as (
      select j.company_id, j.id from ${jobs} j
      where j.status in ('queued', 'running') and j.run_after <= ${at}
        and (j.locked_until is null or j.locked_until < ${at})
        ${
          companyIds
            ? sql`and j.company_id in (${sql.join(
                companyIds.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql``
        }
      order by j.run_after
      limit ${limit}
      for update of j skip locked
    )
    update ${jobs} j set locked_until = ${at} + make_interval(secs => ${lockMs / 1000}::float8), lock_token = ${token},
      attempts = j.attempts + 1, status = 'running', updated = ${at}
    from due where j.company_id = due.company_id and j.id = due.id
    returning j.company_id, j.id`);
  const claimed = due.rows as { company_id: string; id: string }[];
  if (claimed.length === 0) return [];
  const rows = await Promise.all(
    claimed.map(async ({ company_id: companyId, id }) => {
      const [row] = await db
        .select({ job: jobs, offset: companies.sandboxClockOffsetMs })
        .from(jobs)
        .innerJoin(companies, eq(companies.id, jobs.companyId))
        .where(and(eq(jobs.companyId, companyId), eq(jobs.id, id), eq(jobs.lockToken, token)));
      return row ? { job: row.job, sandboxClockOffsetMs: Number(row.offset) } : null;
    }),
  );
  return rows.filter((row): row is ClaimedJob => row !== null);
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
