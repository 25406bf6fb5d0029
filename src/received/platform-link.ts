import type { Scope } from '../db/scope.js';
import type { DepositReceipt, DepositRequest, PlatformFlow, PlatformResult } from '../platform/connector.js';

/**
 * Which platform a company's received invoices come from and its answers go to. Live platform
 * connections per establishment are not stored yet (issue 15, second part): until then a live
 * company has none (actions answer `pa_not_configured`, nothing is polled), and a test company
 * uses the sandbox: in process (statuses recorded, nothing sent), or a platform attached to it
 * (`pa-simulator` in the end-to-end tests). This file is the one place that decides.
 */

/** What the received invoices need of a platform (the AFNOR connector has it). */
export interface ReceivingPlatform {
  deposit(request: DepositRequest): Promise<PlatformResult<DepositReceipt>>;
  /** The invoice flows addressed to the company since `cursor`. */
  listIncoming(
    cursor: string | null,
  ): Promise<PlatformResult<{ flows: PlatformFlow[]; cursor: string; hasMore: boolean }>>;
  /** A flow's file, byte for byte. */
  downloadFlow(flowId: string): Promise<PlatformResult<Buffer>>;
}

export interface AttachedPlatform {
  platform: ReceivingPlatform;
  /** The key the platform signs its callbacks with (the webhook subscription's), or null: polling only. */
  signingKey: string | null;
  /** Where polling stands (kept in memory: a restart reads again, ingestion is idempotent on the flow). */
  cursor: string | null;
}

export type PlatformLink = { kind: 'platform'; attached: AttachedPlatform } | { kind: 'sandbox' } | { kind: 'none' };

const attachedToTestCompanies = new Map<string, AttachedPlatform>();

/** Attaches a platform to a company's test environment (null detaches it). */
export function attachSandboxPlatform(companyId: string, attached: Omit<AttachedPlatform, 'cursor'> | null): void {
  if (attached) attachedToTestCompanies.set(companyId, { ...attached, cursor: null });
  else attachedToTestCompanies.delete(companyId);
}

export function platformFor(scope: Scope): PlatformLink {
  if (scope.livemode) return { kind: 'none' };
  const attached = attachedToTestCompanies.get(scope.companyId);
  return attached ? { kind: 'platform', attached } : { kind: 'sandbox' };
}

/** The test companies with a platform to poll. */
export function polledCompanies(): string[] {
  return [...attachedToTestCompanies.keys()];
}
