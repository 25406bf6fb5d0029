import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { claimLeased } from '../db/leased-claim.js';
import { rawRow } from '../db/raw-row.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import type { FlowSyntax } from './connector.js';
import type { FlowState, OutgoingFlow } from './flows.js';
import { platformFlows } from './schema.js';

type FlowRow = typeof platformFlows.$inferSelect;

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
  return row ? flowOf(row, 0) : null;
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
  changes: { state: FlowState; flowId?: string | null; lastError?: string | null; nextAttemptAt?: Date },
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
