import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { claimLeased, renewLeased } from '../db/leased-claim.js';
import { notifyOnCommit } from '../db/commit-notice.js';
import { rawRow } from '../db/raw-row.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import type { FlowSyntax } from './connector.js';
import type { FlowState, OutgoingFlow } from './flows.js';
import { platformFlows } from './schema.js';

type FlowRow = typeof platformFlows.$inferSelect;

/** Wakes the outbox workers (outbox-worker.ts) of every node once a transaction that queued a flow commits. */
export const flowsChannel = 'facteur_platform_flows';

const flowOf = (row: FlowRow, clockOffsetMs: number): OutgoingFlow => ({
  companyId: row.companyId,
  livemode: row.livemode,
  kind: row.kind,
  ownerId: row.ownerId,
  trackingId: row.trackingId,
  establishmentId: row.establishmentId,
  file: row.file,
  name: row.name,
  syntax: row.syntax as FlowSyntax,
  detail: row.detail,
  state: row.state as FlowState,
  tries: row.tries,
  flowId: row.flowId,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt,
  lockToken: row.lockToken,
  clockOffsetMs,
});

export interface QueuedFlowInput {
  kind: string;
  ownerId: string;
  trackingId: string;
  establishmentId: string | null;
  file: Buffer;
  name: string;
  syntax: FlowSyntax;
  detail?: Record<string, unknown>;
}

/**
 * A flow queued in the transaction of the change that needs it, due at `now` (the scope's clock).
 * A tracking id already queued is queued again only when its last try ended (`failed`,
 * `abandoned`), with the new file and its tries kept (so its next try searches first); null when
 * it is pending or deposited. With `lease`, the caller holds it at once and makes its first try
 * itself (a route that answers with the platform's word).
 */
export async function queueFlow(
  tx: Executor,
  scope: Scope,
  input: QueuedFlowInput,
  now: Date,
  lease: { token: string; until: Date } | null = null,
): Promise<OutgoingFlow | null> {
  const held = lease ? { lockToken: lease.token, lockedUntil: lease.until } : { lockToken: null, lockedUntil: null };
  const [row] = await tx
    .insert(platformFlows)
    .values({
      ...scope,
      ...input,
      state: 'pending',
      tries: lease ? 1 : 0,
      nextAttemptAt: now,
      ...held,
      created: now,
      updated: now,
    })
    .onConflictDoUpdate({
      target: [platformFlows.companyId, platformFlows.livemode, platformFlows.trackingId],
      set: {
        file: input.file,
        name: input.name,
        syntax: input.syntax,
        detail: input.detail ?? {},
        establishmentId: input.establishmentId,
        state: 'pending',
        tries: lease ? sql`${platformFlows.tries} + 1` : platformFlows.tries,
        nextAttemptAt: now,
        ...held,
        lastError: null,
        updated: now,
      },
      setWhere: inArray(platformFlows.state, ['failed', 'abandoned']),
    })
    .returning();
  // Held by its caller, the flow is its caller's to try first; else a worker takes it at once.
  if (row && !lease) await notifyOnCommit(tx, flowsChannel);
  return row ? flowOf(row, 0) : null;
}

/**
 * The owner's pending flows of this kind taken back (`abandoned`, their leases cleared), in the
 * caller's transaction: a newer flow of the owner replaces them (a holder still trying one finds
 * its lease lost, and records nothing). Returns their tracking ids.
 */
export async function withdrawOwnerFlows(
  tx: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
  now: Date,
): Promise<string[]> {
  const withdrawn = await tx
    .update(platformFlows)
    .set({ state: 'abandoned', lockToken: null, lockedUntil: null, updated: now })
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.ownerId, ownerId),
        eq(platformFlows.kind, kind),
        eq(platformFlows.state, 'pending'),
      ),
    )
    .returning({ trackingId: platformFlows.trackingId });
  return withdrawn.map((flow) => flow.trackingId);
}

/** The leases of flows in hand, renewed in one statement; returns the flows still held. */
export function renewFlows(
  db: Executor,
  flows: readonly OutgoingFlow[],
  lease: { now: Date; leaseMs: number },
): Promise<OutgoingFlow[]> {
  return renewLeased(
    db,
    { table: 'platform_flows', key: ['company_id', 'livemode', 'tracking_id'] },
    flows,
    (flow) => ({ key: [flow.companyId, flow.livemode, flow.trackingId], token: flow.lockToken ?? '' }),
    lease,
  );
}

/** The owner's flow of this kind still under way (pending), if any. */
export async function pendingFlowOf(
  db: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
): Promise<OutgoingFlow | undefined> {
  const [row] = await db
    .select()
    .from(platformFlows)
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.ownerId, ownerId),
        eq(platformFlows.kind, kind),
        eq(platformFlows.state, 'pending'),
      ),
    )
    .limit(1);
  return row ? flowOf(row, 0) : undefined;
}

/** The flow of a tracking id, whatever its state (the inbox's word on it names it). */
export async function flowOfTracking(
  db: Executor,
  scope: Scope,
  trackingId: string,
): Promise<OutgoingFlow | undefined> {
  const [row] = await db
    .select()
    .from(platformFlows)
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.trackingId, trackingId),
      ),
    );
  return row ? flowOf(row, 0) : undefined;
}

/** The owner's latest flow of this kind (the last queued), whatever its state. */
export async function latestFlowOf(
  db: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
): Promise<OutgoingFlow | undefined> {
  const [row] = await db
    .select()
    .from(platformFlows)
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.ownerId, ownerId),
        eq(platformFlows.kind, kind),
      ),
    )
    .orderBy(desc(platformFlows.created), desc(platformFlows.trackingId))
    .limit(1);
  return row ? flowOf(row, 0) : undefined;
}

/**
 * A flow due again at `at` (pending, its tries kept), outside any holder's try, in the caller's
 * transaction: the platform's word on it, read by the inbox, says its owner has more to do with
 * it (a rejection the owner follows up). A holder trying it meanwhile finds its lease lost and
 * records nothing: the word read is the flow's last. False when no such flow.
 */
export async function rescheduleFlow(
  tx: Executor,
  scope: Scope,
  trackingId: string,
  at: Date,
  now: Date,
  flowId?: string,
): Promise<boolean> {
  const moved = await tx
    .update(platformFlows)
    .set({
      state: 'pending',
      nextAttemptAt: at,
      lockToken: null,
      lockedUntil: null,
      updated: now,
      ...(flowId ? { flowId } : {}),
    })
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.trackingId, trackingId),
      ),
    )
    .returning({ trackingId: platformFlows.trackingId });
  if (moved.length > 0) await notifyOnCommit(tx, flowsChannel);
  return moved.length > 0;
}

/**
 * A flow ended by the platform's word read by the inbox (an acknowledgement `Error` on it: it is
 * `failed`, whatever a holder was doing; or its receipt: `deposited` with its flow id), in the
 * caller's transaction; a holder trying it meanwhile records nothing. False when no such flow.
 */
export async function endFlow(
  tx: Executor,
  scope: Scope,
  trackingId: string,
  end: { state: 'failed'; lastError: string; flowId?: string } | { state: 'deposited'; flowId: string },
  now: Date,
): Promise<boolean> {
  const ended = await tx
    .update(platformFlows)
    .set({ ...end, lockToken: null, lockedUntil: null, updated: now })
    .where(
      and(
        eq(platformFlows.companyId, scope.companyId),
        eq(platformFlows.livemode, scope.livemode),
        eq(platformFlows.trackingId, trackingId),
      ),
    )
    .returning({ trackingId: platformFlows.trackingId });
  return ended.length > 0;
}

const claimed = rawRow(platformFlows);

/**
 * The due pending flows of these kinds, leased (a lease taken by a request that died lapses and
 * is taken here), their tries counted; each with its company's sandbox clock offset.
 */
export async function claimDueFlows(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  kinds: readonly string[],
  companyIds?: readonly string[],
): Promise<OutgoingFlow[]> {
  if (kinds.length === 0) return [];
  const row = { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') };
  const rows = await claimLeased(
    db,
    {
      table: 'platform_flows',
      key: ['company_id', 'livemode', 'tracking_id'],
      due: sql`t.state = 'pending' and t.kind in (${sql.join(
        kinds.map((kind) => sql`${kind}`),
        sql`, `,
      )}) and ${dueOnScopeClock(sql.raw('t.next_attempt_at'), row, lease.now)}`,
      order: sql`t.next_attempt_at`,
      set: sql`tries = t.tries + 1`,
      returning: sql`${claimed.columns('t')}, ${sandboxOffsetMs(row)} as offset_ms`,
      companyIds,
    },
    lease,
  );
  return rows.map((raw) => flowOf(claimed.read(raw)!, Number(raw.offset_ms)));
}

/**
 * A try's end, recorded if the flow is still the holder's (its lease token): false when the
 * lease was lost (lapsed, another holder took it), and the holder's outcome is dropped.
 */
export async function settleFlow(
  tx: Executor,
  flow: OutgoingFlow,
  changes: {
    state: FlowState;
    flowId?: string | null;
    lastError?: string | null;
    nextAttemptAt?: Date;
    tries?: number;
  },
  now: Date,
): Promise<boolean> {
  if (!flow.lockToken) return false;
  const settled = await tx
    .update(platformFlows)
    .set({ ...changes, lockToken: null, lockedUntil: null, updated: now })
    .where(
      and(
        eq(platformFlows.companyId, flow.companyId),
        eq(platformFlows.livemode, flow.livemode),
        eq(platformFlows.trackingId, flow.trackingId),
        eq(platformFlows.lockToken, flow.lockToken),
      ),
    )
    .returning({ trackingId: platformFlows.trackingId });
  return settled.length > 0;
}

/** Sandbox reset: the company's test flows go. */
export async function deleteTestFlows(tx: Executor, scope: Scope): Promise<number> {
  const removed = await tx
    .delete(platformFlows)
    .where(and(eq(platformFlows.companyId, scope.companyId), eq(platformFlows.livemode, false)))
    .returning({ trackingId: platformFlows.trackingId });
  return removed.length;
}
