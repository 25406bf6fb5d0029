import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from 'typebox';
import type { Deps } from './deps.js';
import type { Tx } from './db/database.js';
import type { CallContext } from './db/transaction.js';
import type { JobKind } from './jobs/job-kind.js';
import type { DataExportSource } from './exports/data-source.js';
import type { ClaimLoop } from './workers/claim-loop.js';
import type { PeriodicPass } from './workers/periodic-passes.js';
import type { FlowKind } from './platform/flows.js';
import { inboxOf, type Inbox, type InboxDeclaration } from './platform/inbox.js';
import { inboxPass, outboxPass } from './platform/service.js';

/**
 * What a business capability brings to the service, in one descriptor (its `index.ts`). The
 * server, the workers, the sandbox reset and clock, and the boundary test read the list of
 * descriptors (`capabilities.ts`): a new capability is one folder and one line there.
 */
export interface Capability {
  /** The folder's name. */
  name: string;
  /** Routes under `/v1`, behind the platform rules (key, version, rate limit, idempotency). */
  routes?: CapabilityRoutes;
  /**
   * Routes outside `/v1` (public pages, the dashboard), with their own rules; `refusalPage`
   * renders, under `prefix`, the refusals made before any route runs (protocol errors).
   */
  pages?: {
    routes: CapabilityRoutes;
    prefix?: string;
    refusalPage?: (status: number, message: string, code: string) => string;
  };
  /** Response schemas referenced by `$ref` in the OpenAPI document. */
  schemas?: readonly TSchema[];
  /**
   * Files other capabilities may import besides `service.ts` (its use cases): pure modules of
   * rules or types they share. Stores and routes are never published.
   */
  published?: readonly string[];
  /** Sandbox reset: removes the company's test rows, in the reset's transaction; rows removed by kind. */
  purgeTestData?: (tx: Tx, ctx: CallContext) => Promise<Record<string, number>>;
  /** Sandbox reset: injects the fixtures once every capability has purged (list order). */
  seedFixtures?: (tx: Tx, ctx: CallContext) => Promise<number>;
  /** Kinds of durable jobs (`GET /v1/jobs/:id`) this capability queues and runs. */
  jobKinds?: readonly JobKind[];
  /** Work that falls due with time. */
  passes?: readonly PeriodicPass[];
  /** The kinds of flows it sends to the platforms, through the one outbox (platform/flows.ts). */
  flows?: readonly FlowKind[];
  /**
   * What it takes from the platforms through the one inbox (platform/inbox.ts): the statuses of
   * the flows it owns, the incoming flows of its kind, the connections to read.
   */
  inbox?: InboxDeclaration;
  /** Workers that claim this capability's queued rows (deliveries, jobs, e-mails). */
  workers?: readonly ((deps: Deps, registry: Registry) => ClaimLoop)[];
  /** Called when a company's sandbox clock moved (after the passes that follow it ran). */
  onSandboxClockMoved?: (deps: Deps, companyId: string) => Promise<void>;
  /** What it holds of a company, for the data-protection export (one file per source). */
  dataExport?: readonly DataExportSource[];
}

export type CapabilityRoutes = FastifyPluginAsync<{ deps: Deps; registry: Registry }>;

/** What is gathered from every capability, for the few that act across all of them. */
export interface Registry {
  capabilities: readonly Capability[];
  jobKinds: Readonly<Record<string, JobKind>>;
  passes: readonly PeriodicPass[];
  /** Every capability's data-export sources, in the list's order. */
  dataExport: readonly DataExportSource[];
  /** Every capability's inbox declarations, gathered (the callback route and the inbox pass). */
  inbox: Inbox;
}

export function registryOf(capabilities: readonly Capability[]): Registry {
  const jobKinds: Record<string, JobKind> = {};
  for (const kind of capabilities.flatMap((capability) => capability.jobKinds ?? [])) {
    if (jobKinds[kind.kind]) throw new Error(`two capabilities declare the job kind ${kind.kind}`);
    jobKinds[kind.kind] = kind;
  }
  const dataExport = capabilities.flatMap((capability) => capability.dataExport ?? []);
  const names = new Set(dataExport.map((source) => source.name));
  if (names.size !== dataExport.length) throw new Error('two data-export sources share a name');
  const flowKinds = capabilities.flatMap((capability) => capability.flows ?? []);
  if (new Set(flowKinds.map((kind) => kind.kind)).size !== flowKinds.length)
    throw new Error('two capabilities declare the same flow kind');
  const inbox = inboxOf(capabilities.flatMap((capability) => (capability.inbox ? [capability.inbox] : [])));
  return {
    capabilities,
    jobKinds,
    passes: [
      ...capabilities.flatMap((capability) => capability.passes ?? []),
      ...(flowKinds.length > 0 ? [outboxPass(flowKinds)] : []),
      ...(inbox.connections ? [inboxPass(inbox)] : []),
    ],
    dataExport,
    inbox,
  };
}
