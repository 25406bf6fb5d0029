import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import type { JobKind, JobRecord } from './job-kind.js';
import { registryOf, type Registry } from '../capability.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { claimDueJobs, jobChannel, lockClaimedJob, updateClaimedJob, type ClaimedJob, type JobRow } from './store.js';

export type JobWorker = ClaimLoop;

export interface JobWorkerOptions {
  concurrency?: number;
  pollMs?: number;
  /** Only these companies' jobs: a worker dedicated to large tenants, or a test's own. */
  companies?: string[];
  /** The kinds this worker runs (every capability's: `registry.jobKinds`). */
  kinds: Readonly<Record<string, JobKind>>;
  /** What every capability brings, handed to each batch (the data export reads every capability's sources). */
  registry?: Registry;
  /** How long a claim lasts without a committed batch before another worker may take the job over. */
  lockMs?: number;
  maxAttempts?: number;
  /**
   * Called after each committed batch; returning true drops the job right there, as a worker
   * that died would: the claim is left to expire and another worker resumes (tests).
   */
  interruptAfterBatch?: (job: JobRow, committedBatches: number) => boolean;
}

export const defaultJobLockMs = 60_000;
/** A finished job keeps its result, not its input: an import's file holds personal data. */
const droppedInput = {};
export const defaultMaxAttempts = 5;

/** Seconds before a failed attempt is retried: 2, 4, 8... at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts)) * 1000;
}

function recordOf(row: JobRow): JobRecord {
  return {
    id: row.id,
    companyId: row.companyId,
    livemode: row.livemode,
    kind: row.kind,
    input: row.input,
    progress: row.progress,
    result: row.result ?? null,
    request: row.request,
    attempts: row.attempts,
  };
}

/**
 * Runs queued jobs batch by batch. Each batch commits with the job's progress, and the claim
 * is renewed with it; a worker that dies leaves a claim that expires, and the next worker resumes
 * after the last committed batch. Woken by the NOTIFY of every queued job, and every second by
 * a timer (expired claims, retries coming due).
 */
export function createJobWorker(deps: Deps, options: JobWorkerOptions): JobWorker {
  const concurrency = options.concurrency ?? 2;
  const kinds = options.kinds;
  const lockMs = options.lockMs ?? defaultJobLockMs;
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
  const registry = options.registry ?? registryOf([]);

  /** Ends a job that cannot run (unknown kind, attempts used up): what its batches did stays done. */
  async function fail(job: JobRow, token: string, message: string): Promise<void> {
    const realNow = deps.clock.now();
    await updateClaimedJob(deps.db, job, token, {
      status: 'failed',
      lockedUntil: null,
      lockToken: null,
      updated: realNow,
      completedAt: realNow,
      error: { code: 'internal_error', message },
      input: droppedInput,
    });
    deps.log.warn({ job: job.id, kind: job.kind, attempts: job.attempts }, message);
  }

  async function run({ job, sandboxClockOffsetMs }: ClaimedJob): Promise<void> {
    const token = job.lockToken!;
    const kind = kinds[job.kind];
    if (!kind) return fail(job, token, `No handler for jobs of kind ${job.kind}.`);
    if (job.attempts > maxAttempts)
      return fail(
        job,
        token,
        `The job was given up after ${maxAttempts} attempts; what its committed batches did stays done.`,
      );
    let batches = 0;
    try {
      for (;;) {
        const realNow = deps.clock.now();
        const now = scopeTime(realNow, job.livemode, sandboxClockOffsetMs);
        const ctx: CallContext = {
          scope: { companyId: job.companyId, livemode: job.livemode },
          requestId: job.request.id,
          idempotencyKey: job.request.idempotencyKey,
          apiVersion: job.request.apiVersion,
          now,
        };
        const outcome = await inTransaction(deps.db, ctx, async (tx) => {
          const current = await lockClaimedJob(tx, job, token);
          if (!current) return null; // the claim expired and another worker took the job over
          const batch = await kind.runBatch(tx, recordOf({ ...current, input: job.input }), ctx, {
            registry,
            config: deps.config,
          });
          await updateClaimedJob(tx, job, token, {
            progress: batch.progress,
            result: batch.result,
            updated: now,
            ...(batch.done
              ? { status: 'succeeded', completedAt: now, lockedUntil: null, lockToken: null, input: droppedInput }
              : { lockedUntil: new Date(realNow.getTime() + lockMs) }),
          });
          return batch;
        });
        if (!outcome || outcome.done) return;
        batches += 1;
        if (options.interruptAfterBatch?.(job, batches)) return;
      }
    } catch (error) {
      // The failed batch rolled back; the job resumes later from its last committed batch.
      const realNow = deps.clock.now();
      const last = job.attempts >= maxAttempts;
      deps.log.error({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'job batch failed');
      await updateClaimedJob(
        deps.db,
        job,
        token,
        last
          ? {
              status: 'failed',
              lockedUntil: null,
              lockToken: null,
              updated: realNow,
              completedAt: realNow,
              input: droppedInput,
              error: {
                code: 'internal_error',
                message: `The job failed ${maxAttempts} times; what its committed batches did stays done.`,
              },
            }
          : {
              lockedUntil: null,
              lockToken: null,
              updated: realNow,
              runAfter: new Date(realNow.getTime() + retryDelayMs(job.attempts)),
            },
      ).catch((releaseError: unknown) =>
        deps.log.error({ err: releaseError, job: job.id }, 'could not release the job; its claim will expire'),
      );
    }
  }

  return createClaimLoop<ClaimedJob>({
    pool: deps.pool,
    channel: jobChannel,
    log: deps.log,
    concurrency,
    pollMs: options.pollMs ?? 1000,
    // Cross-tenant: the claim runs as the worker role (row-level security lets it see every tenant).
    claim: (limit) =>
      inTransaction(deps.db, null, (tx) =>
        claimDueJobs(tx, deps.clock.now(), limit, lockMs, randomUUID(), options.companies),
      ),
    handle: run,
    describe: (item) => ({ job: item.job.id }),
  });
}
