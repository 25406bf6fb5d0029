import type { Capability } from '../capability.js';
import { purgeExpiredIdempotencyKeys, purgeTestIdempotencyKeys } from './service.js';

/** Idempotency keys: a replayed POST answers what the first one answered, for 24 hours. */
export const idempotencyCapability: Capability = {
  name: 'idempotency',
  // The reset's own key stays, so that replaying the reset replays its answer.
  purgeTestData: async (tx, ctx) => ({
    idempotencyKeys: await purgeTestIdempotencyKeys(tx, ctx.scope, ctx.idempotencyKey),
  }),
  passes: [
    {
      name: 'idempotency.purge-expired',
      everyMs: 10 * 60_000,
      run: (deps) => purgeExpiredIdempotencyKeys(deps, deps.clock.now()),
    },
  ],
};
