/** Messages between the bench (parent, load generator) and its server process (child), over IPC. */

export interface DbTiming {
  /** Statements sent through pg clients (pool queries and transaction statements alike). */
  queries: number;
  /** Sum of their durations, from the call to the result (round trip + server time + parsing), in ms. */
  totalMs: number;
}

export type ToServer =
  | { type: 'createKeys'; id: number; env: 'test' | 'live'; count: number }
  /** The server's CPU time so far, and the database timing since the last sample (BENCH_DB_TIMING=1). */
  | { type: 'sample'; id: number }
  | { type: 'stop' };

export type FromServer =
  | { type: 'ready'; appPort: number; barePort: number; cert: string; companyId: string }
  | { type: 'keys'; id: number; secrets: string[] }
  | { type: 'sample'; id: number; cpu: NodeJS.CpuUsage; timing: DbTiming | null }
  | { type: 'failed'; id: number | null; message: string };
