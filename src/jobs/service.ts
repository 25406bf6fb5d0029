import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { JobProgress } from './schema.js';
import { deleteScopeJobs, dueJobStats, findJob, insertJob, type JobRow } from './store.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** The job resource of `GET /v1/jobs/:id`. */
export interface Job {
  id: string;
  object: 'job';
  livemode: boolean;
  kind: string;
  status: JobStatus;
  progress: JobProgress;
  /** The kind's result: partial while running, final once `succeeded`. */
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  created: string;
  updated: string;
  completedAt: string | null;
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    object: 'job',
    livemode: row.livemode,
    kind: row.kind,
    status: row.status as JobStatus,
    progress: row.progress,
    result: row.result ?? null,
    error: row.error ?? null,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

/**
 * Queues a job inside the caller's transaction: the job, its input and the request's
 * idempotency mark commit together, and the workers are woken once it commits.
 * `realNow` is real time: workers claim on it, whatever the sandbox clock says.
 */
export async function enqueueJob(
  tx: Tx,
  ctx: CallContext,
  realNow: Date,
  job: { kind: string; input: unknown; total: number; result?: Record<string, unknown> },
): Promise<Job> {
  const row: JobRow = {
    ...ctx.scope,
    id: newId('job', ctx.now),
    kind: job.kind,
    status: 'queued',
    input: job.input,
    progress: { total: job.total, processed: 0 },
    result: job.result ?? null,
    error: null,
    request: { id: ctx.requestId, idempotencyKey: ctx.idempotencyKey, apiVersion: ctx.apiVersion },
    attempts: 0,
    runAfter: realNow,
    lockedUntil: null,
    lockToken: null,
    created: ctx.now,
    updated: ctx.now,
    completedAt: null,
  };
  await insertJob(tx, row);
  return toJob(row);
}

export async function getJob(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Job> {
  const row = await findJob(deps.db, scope, id);
  if (!row) throw refuse('not_found', `No job ${id}.`, { param: 'id' });
  return toJob(row);
}

/** Sandbox reset: the company's test jobs go (their effects go with their own capabilities). */
export async function purgeTestJobs(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live jobs');
  return deleteScopeJobs(tx, scope);
}

/** What waits in the job queue now: the count of due jobs and the oldest one's wait (metrics). */
export async function jobQueueStats(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ due: number; oldestSeconds: number }> {
  return dueJobStats(deps.db, deps.clock.now());
}
