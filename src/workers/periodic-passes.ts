import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import { claimLeased, renewLeased } from '../db/leased-claim.js';
import { inTransaction } from '../db/transaction.js';
import { createClaimLoop, type ClaimLoop } from './claim-loop.js';
import { periodicPasses } from './schema.js';

/**
 * A periodic pass of a capability: work that falls due with time rather than with a request
 * (overdue invoices, expiring quotes, purges). Each pass is a row leased to one worker at a
 * time, so with several nodes a pass runs once per period, and a pass whose node died is run
 * by another once its lease lapses. A node that starts runs every pass at once, then each period.
 */
export interface PeriodicPass {
  /** Unique across capabilities: `<capability>.<what>`. */
  name: string;
  everyMs: number;
  /** Runs a company's pass as soon as its sandbox clock moves (test data falls due on that clock). */
  followsSandboxClock?: boolean;
  /** Runs the pass over every company, or only these; returns how many items it handled. */
  run(deps: Deps, companyIds?: string[]): Promise<number>;
}

/**
 * A pass's lease, renewed every third of it while its node runs it: a lapsed lease means the node
 * died. Its last renewal (at most a third before the death) outlasts the readers' lease
 * (db/reader-claim.ts): the first run of a polling pass after a death finds the readers free.
 */
export const passLeaseMs = 40_000;
const passLease = { table: 'periodic_passes', key: ['name'] };

async function registerPasses(db: Executor, passes: readonly PeriodicPass[], now: Date): Promise<void> {
  if (passes.length === 0) return;
  await db
    .insert(periodicPasses)
    .values(passes.map((pass) => ({ name: pass.name, everyMs: pass.everyMs, nextRunAt: now })))
    // Due at once on a start: a node that (re)starts does not wait a period for its first run.
    .onConflictDoUpdate({
      target: periodicPasses.name,
      set: {
        everyMs: sql`excluded.every_ms`,
        nextRunAt: sql`least(${periodicPasses.nextRunAt}, excluded.next_run_at)`,
      },
    });
}

async function settlePass(
  db: Executor,
  name: string,
  token: string,
  changes: { nextRunAt: Date; lastRunAt: Date; lastError: string | null },
): Promise<void> {
  await db
    .update(periodicPasses)
    .set({ ...changes, lockedUntil: null, lockToken: null })
    .where(and(eq(periodicPasses.name, name), eq(periodicPasses.lockToken, token)));
}

/**
 * How long the sandbox clock's runs wait, in all, for background runs of the same passes: longer
 * than a pass runs, shorter than the lease a dead node leaves behind.
 */
export const followerWaitMs = 10_000;

/** Whether a node runs the pass now (its lease held and not lapsed). */
async function passRunning(deps: Deps, name: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ lockToken: periodicPasses.lockToken, lockedUntil: periodicPasses.lockedUntil })
    .from(periodicPasses)
    .where(eq(periodicPasses.name, name));
  return !!row?.lockToken && !!row.lockedUntil && row.lockedUntil > deps.clock.now();
}

/**
 * Runs every pass that follows the sandbox clock, for these companies, now: their clock moved.
 * A background run of a pass skips the rows this run holds and this run skips the rows it holds:
 * when one was running, this run waits for it to end (at most `followerWaitMs` in all) and runs
 * again, so what fell due is done when the clock's move answers.
 */
export async function runSandboxClockFollowers(
  deps: Deps,
  passes: readonly PeriodicPass[],
  companyIds: string[],
  waitMs = followerWaitMs,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (const pass of passes) {
    if (!pass.followsSandboxClock) continue;
    await pass.run(deps, companyIds);
    let waited = false;
    while (Date.now() < deadline && (await passRunning(deps, pass.name))) {
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (waited) await pass.run(deps, companyIds);
  }
}

export function createPassRunner(deps: Deps, passes: readonly PeriodicPass[]): ClaimLoop {
  const byName = new Map(passes.map((pass) => [pass.name, pass]));
  if (byName.size !== passes.length) throw new Error('two periodic passes share a name');
  const loop = createClaimLoop<{ name: string; token: string }>({
    pool: deps.pool,
    // No notification wakes a pass: they fall due with time only.
    channel: 'facteur_periodic_passes',
    log: deps.log,
    concurrency: 2,
    pollMs: 1000,
    claim: async (limit) => {
      const token = randomUUID();
      const rows = await inTransaction(deps.db, null, (tx) =>
        claimLeased(
          tx,
          {
            table: 'periodic_passes',
            key: ['name'],
            due: sql`t.next_run_at <= ${deps.clock.now().toISOString()}::timestamptz and t.name in (${sql.join(
              [...byName.keys()].map((name) => sql`${name}`),
              sql`, `,
            )})`,
            order: sql`t.next_run_at`,
            returning: sql`t.name`,
          },
          { now: deps.clock.now(), limit, leaseMs: passLeaseMs, token },
        ),
      );
      return rows.map((row) => ({ name: String(row.name), token }));
    },
    handle: async ({ name, token }) => {
      const pass = byName.get(name)!;
      let lastError: string | null = null;
      try {
        await pass.run(deps);
      } catch (error) {
        lastError = (error as Error).message.slice(0, 500);
        deps.log.error({ err: error, pass: name }, 'periodic pass failed; it runs again next period');
      }
      const now = deps.clock.now();
      await settlePass(deps.db, name, token, {
        nextRunAt: new Date(now.getTime() + pass.everyMs),
        lastRunAt: now,
        lastError,
      });
    },
    lease: {
      leaseMs: passLeaseMs,
      renew: (held) =>
        renewLeased(deps.db, passLease, held, (item) => ({ key: [item.name], token: item.token }), {
          now: deps.clock.now(),
          leaseMs: passLeaseMs,
        }),
    },
    describe: ({ name }) => ({ pass: name }),
  });
  return {
    ...loop,
    async start() {
      await registerPasses(deps.db, passes, deps.clock.now());
      await loop.start();
    },
  };
}
