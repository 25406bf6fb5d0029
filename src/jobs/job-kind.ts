import type { Registry } from '../capability.js';
import type { Config } from '../config.js';
import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import type { RequiredAccess } from '../kernel/scopes.js';
import type { JobProgress, JobRequest } from './schema.js';

/**
 * What a batch may need besides its job: every capability's descriptor (a job that works across
 * them, the data export) and the configuration (the public address of links).
 */
export interface JobEnvironment {
  registry: Registry;
  config: Pick<Config, 'publicUrl'>;
}

/** A job as its kind's handler sees it. */
export interface JobRecord {
  id: string;
  companyId: string;
  livemode: boolean;
  kind: string;
  input: unknown;
  progress: JobProgress;
  result: Record<string, unknown> | null;
  request: JobRequest;
  attempts: number;
}

export interface BatchOutcome {
  progress: JobProgress;
  /** The result so far; the job's final result once `done`. */
  result: Record<string, unknown>;
  done: boolean;
}

/**
 * What a kind of job does. `runBatch` does the next slice of work inside `tx`, which also
 * commits the job's new progress: a batch happens entirely or not at all. It must be safe to
 * run again from the last committed progress (a crash between two batches).
 */
export interface JobKind {
  kind: string;
  /** What a key must grant to read a job of this kind (`GET /v1/jobs/:id`). */
  readAccess: RequiredAccess;
  runBatch(tx: Tx, job: JobRecord, ctx: CallContext, environment: JobEnvironment): Promise<BatchOutcome>;
}
