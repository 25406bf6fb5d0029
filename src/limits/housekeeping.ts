import type { Deps } from '../deps.js';
import { deleteWindowsBefore } from './store.js';
import { purgeExpiredIdempotencyKeys } from '../idempotency/service.js';
import { purgeExpiredEvents } from '../webhooks/service.js';

const everyMs = 10 * 60_000;

/** Drops rate windows older than two days, idempotency keys past their 24 hours, events past their retention. */
export async function runHousekeeping(
  deps: Pick<Deps, 'db' | 'clock'>,
): Promise<{ windows: number; idempotencyKeys: number; events: number }> {
  const now = deps.clock.now().getTime();
  const windows = await deleteWindowsBefore(deps.db, new Date(now - 2 * 86_400_000));
  const idempotencyKeys = await purgeExpiredIdempotencyKeys(deps, new Date(now));
  const events = await purgeExpiredEvents(deps, new Date(now));
  return { windows, idempotencyKeys, events };
}

export function startHousekeeping(deps: Deps): { stop(): void } {
  const timer = setInterval(() => {
    runHousekeeping(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'housekeeping failed'));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
