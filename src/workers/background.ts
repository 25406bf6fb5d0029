import type { Deps } from '../deps.js';
import type { Registry } from '../capability.js';
import type { ClaimLoop } from './claim-loop.js';
import { createPassRunner } from './periodic-passes.js';

/**
 * The one home of background work: every capability's workers (claimed rows: deliveries, jobs,
 * e-mails) and periodic passes, started and stopped together by `serve` (roles `all`, `worker`).
 */
export interface BackgroundWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createBackgroundWork(deps: Deps, registry: Registry): BackgroundWork {
  const loops: ClaimLoop[] = [
    ...registry.capabilities.flatMap((capability) => (capability.workers ?? []).map((make) => make(deps, registry))),
    createPassRunner(deps, registry.passes),
  ];
  return {
    async start() {
      for (const loop of loops) await loop.start();
    },
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
