import type { Deps } from '../deps.js';
import { deleteWindowsBefore } from './store.js';
import { purgeExpiredIdempotencyKeys } from '../idempotency/service.js';

const everyMs = 10 * 60_000;

/** Drops rate windows older than a day and idempotency keys past their 24 hours. */
export async function runHousekeeping(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ windows: number; idempotencyKeys: number }> {
  const now = deps.clock.now().getTime();
  const windows = await deleteWindowsBefore(deps.db, new Date(now - 2 * 86_400_000));
  const idempotencyKeys = await purgeExpiredIdempotencyKeys(deps, new Date(now));
  return { windows, idempotencyKeys };
}

export function startHousekeeping(deps: Deps): { stop(): void } {
  const timer = setInterval(() => {
    runHousekeeping(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'housekeeping failed'));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
