import type { Deps } from '../deps.js';
import type { CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { advanceSandboxClock } from '../companies/service.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import type { Registry } from '../capability.js';
import { runSandboxClockFollowers } from '../workers/periodic-passes.js';
import { latestYear } from '../kernel/iso-date.js';

const lastInstant = Date.UTC(latestYear, 11, 31, 23, 59, 59, 999);

export interface SandboxClock {
  object: 'sandbox_clock';
  livemode: false;
  now: string;
  offsetSeconds: number;
}

function testOnly(ctx: CallContext): void {
  if (ctx.scope.livemode)
    throw refuse(
      'not_supported',
      'The sandbox clock only exists in test mode; call it with a `svc_test_` key. Live data always follows real time.',
    );
}

export function readSandboxClock(deps: Pick<Deps, 'clock'>, ctx: CallContext, offsetMs: number): SandboxClock {
  testOnly(ctx);
  return {
    object: 'sandbox_clock',
    livemode: false,
    now: scopeTime(deps.clock.now(), false, offsetMs).toISOString(),
    offsetSeconds: offsetMs / 1000,
  };
}

/**
 * Moves the company's sandbox clock forward; whatever falls due on it happens now: the passes
 * that follow the sandbox clock run for the company (overdue invoices, expired quotes), and each
 * capability that waits on it is told (webhook retries).
 */
export async function advanceClock(
  deps: Deps,
  ctx: CallContext,
  seconds: number,
  registry: Registry,
): Promise<SandboxClock> {
  testOnly(ctx);
  // The sandbox's time stays in the years every date of the service holds (kernel/iso-date.ts).
  if (ctx.now.getTime() + seconds * 1000 > lastInstant)
    throw refuse('invalid_field_value', `The sandbox clock cannot go past the year ${latestYear}.`, {
      param: 'seconds',
    });
  const companyId = ctx.scope.companyId;
  const offsetMs = await advanceSandboxClock(deps, companyId, seconds * 1000);
  await runSandboxClockFollowers(deps, registry.passes, [companyId]);
  for (const capability of registry.capabilities) await capability.onSandboxClockMoved?.(deps, companyId);
  return readSandboxClock(deps, ctx, offsetMs);
}
