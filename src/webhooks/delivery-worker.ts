import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { scopeTime } from '../companies/sandbox-clock.js';
import { companies } from '../companies/schema.js';
import { events } from '../events/schema.js';
import { retentionMs, toEvent } from '../events/service.js';
import { queueEmail, sendPendingEmails } from '../notifications/service.js';
import { unixSeconds } from '../limits/fixed-window.js';
import { createDeliveryClient, type DeliveryClient } from './delivery-client.js';
import { afterFailure, afterSuccess, type HealthChange } from './endpoint-health.js';
import { afterAttempt, deliveryTimeoutMs, maxAttempts, type Outcome } from './retry-schedule.js';
import { signatureHeader } from './signature.js';
import { webhookEndpoints } from './schema.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { claimDueDeliveries, deliveryChannel, insertAttempt, loadTarget, settleDelivery, type ClaimedDelivery, type EndpointRow } from './store.js';

export type DeliveryWorker = ClaimLoop;

export interface WorkerOptions {
  concurrency?: number;
  pollMs?: number;
  client?: DeliveryClient;
  /** Only these companies' deliveries: a worker dedicated to large tenants, or a test's own. */
  companies?: string[];
}

/** A claim outlives the 30-second attempt, so only a dead worker's deliveries are taken over. */
const claimMs = deliveryTimeoutMs + 15_000;

/**
 * Delivers due webhook attempts. Woken at once by the NOTIFY of every committed event and of
 * every sandbox clock move, and every second for retries coming due; that pass is also the
 * contract's recovery pass, so a delivery whose attempt was planned but never made (a crash, a
 * lost notification) is picked up on the next turn.
 */
export function createDeliveryWorker(deps: Deps, options: WorkerOptions = {}): DeliveryWorker {
  const client = options.client ?? createDeliveryClient({ resolve: deps.resolveHost, allowPrivate: deps.config.allowPrivateWebhooks }, deliveryTimeoutMs);
  const loop = createClaimLoop<ClaimedDelivery>({
    pool: deps.pool,
    channel: deliveryChannel,
    log: deps.log,
    concurrency: options.concurrency ?? 32,
    pollMs: options.pollMs ?? 1000,
    claim: (limit) => claimDueDeliveries(deps.db, deps.clock.now(), limit, claimMs, randomUUID(), options.companies),
    handle: (item) => attempt(deps, client, item),
    describe: (item) => ({ delivery: item.delivery.id }),
  });
  return {
    ...loop,
    async stop() {
      await loop.stop();
      if (!options.client) await client.close();
    },
  };
}

/** One attempt: sign and POST the event, then record the attempt and what follows it, atomically. */
async function attempt(deps: Deps, client: DeliveryClient, { delivery, sandboxClockOffsetMs }: ClaimedDelivery): Promise<void> {
  const token = delivery.lockToken!;
  const scopeNow = () => scopeTime(deps.clock.now(), delivery.livemode, sandboxClockOffsetMs);
  const { endpoint, event } = await loadTarget(deps.db, delivery);
  if (!event || !endpoint || endpoint.deletedAt || endpoint.status !== 'enabled') {
    // The endpoint was deleted or deactivated since: nothing is sent; the delivery ends failed.
    await settleDelivery(deps.db, delivery, token, { state: 'failed', nextAttemptAt: null, updated: scopeNow() });
    return;
  }

  const body = JSON.stringify(toEvent(event));
  const realNow = deps.clock.now();
  const secrets = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > realNow
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
  const startedAt = scopeNow();
  const outcome = await client.post({
    url: endpoint.url,
    body,
    headers: {
      'Content-Type': 'application/json',
      // The signature time is real time: receivers check it against their own clock.
      'Service-Signature': signatureHeader(secrets, unixSeconds(realNow), body),
      'Service-Event-Id': event.id,
      'Service-Event-Type': event.type,
      'User-Agent': 'Service-Webhooks/1.0',
    },
  });

  const number = delivery.attemptCount + 1;
  const at = scopeNow();
  const next = afterAttempt(number, outcome, at);
  await deps.db.transaction(async (tx) => {
    const settled = await settleDelivery(tx, delivery, token, { state: next.state, attemptCount: number, nextAttemptAt: next.nextAttemptAt, updated: at });
    if (!settled) return; // another worker took this delivery over; its record wins
    await insertAttempt(tx, {
      companyId: delivery.companyId,
      deliveryId: delivery.id,
      attempt: number,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      generation: delivery.generation,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.status,
      error: outcome.kind === 'failed' ? outcome.error : null,
    });
    if (outcome.kind === 'delivered') {
      await tx.update(events).set({ retainedUntil: sql`greatest(${events.retainedUntil}, ${new Date(at.getTime() + retentionMs).toISOString()}::timestamptz)` })
        .where(and(eq(events.companyId, delivery.companyId), eq(events.id, delivery.eventId)));
      await applyHealth(tx, endpoint, afterSuccess(endpoint), at, deps, outcome);
    } else {
      await applyHealth(tx, endpoint, afterFailure(endpoint, at, next.state === 'failed'), at, deps, outcome);
    }
  });
  if (deps.mailer) void sendPendingEmails(deps).catch(() => undefined);
}

async function applyHealth(tx: Tx, endpoint: EndpointRow, change: HealthChange, at: Date, deps: Deps, outcome: Outcome): Promise<void> {
  const changes: Partial<EndpointRow> = { failingSince: change.failingSince, lastAlertAt: change.lastAlertAt };
  if (change.disable) Object.assign(changes, { status: 'disabled', disabledReason: 'failing for three days', updated: at });
  const unchanged = changes.failingSince?.getTime() === endpoint.failingSince?.getTime() && changes.lastAlertAt?.getTime() === endpoint.lastAlertAt?.getTime() && !change.disable;
  if (!unchanged) {
    await tx.update(webhookEndpoints).set(changes).where(and(eq(webhookEndpoints.companyId, endpoint.companyId), eq(webhookEndpoints.id, endpoint.id)));
  }
  if (!change.alert) return;
  const [company] = await tx.select({ email: companies.email, name: companies.name }).from(companies).where(eq(companies.id, endpoint.companyId)).limit(1);
  const failure = outcome.kind === 'failed' ? outcome.error : '';
  const subject = change.alert === 'deactivated'
    ? `Webhook endpoint ${endpoint.id} deactivated after three days of failures`
    : `Webhook deliveries to ${endpoint.id} are failing`;
  const body = change.alert === 'deactivated'
    ? `Every delivery to ${endpoint.url} has failed since ${endpoint.failingSince?.toISOString() ?? at.toISOString()} (last: ${failure}). The endpoint is now disabled; fix it, enable it again, then replay the failed events.`
    : `A delivery to ${endpoint.url} failed ${maxAttempts} times (last: ${failure}) and will not be retried. Replay it with POST /v1/events/:id/retry once the endpoint answers.`;
  await queueEmail(tx, { companyId: endpoint.companyId, livemode: endpoint.livemode }, { to: company?.email ?? null, subject, body }, at, deps.mailer !== null);
  deps.log.info({ endpoint: endpoint.id, livemode: endpoint.livemode, alert: change.alert }, subject);
}
