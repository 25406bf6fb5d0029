import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { webhookDeliveryAttempts } from '../kernel/metrics.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { retentionMs, toEvent } from './service.js';
import { queueCompanyEmail } from '../notifications/service.js';
import { unixSeconds } from '../limits/fixed-window.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { createDeliveryClient, type DeliveryClient } from './delivery-client.js';
import { afterFailure, afterSuccess, type HealthChange } from './endpoint-health.js';
import { afterAttempt, deliveryTimeoutMs, maxAttempts, type Outcome } from './retry-schedule.js';
import { signatureHeader } from './signature.js';
import { signingSecretsOf } from './endpoint-secret.js';
import {
  claimDueDeliveries,
  deliveryChannel,
  lockEndpoints,
  settleDeliveries,
  updateEndpointHealth,
  type ClaimedDelivery,
  type EndpointRow,
  type Settlement,
} from './store.js';

export type DeliveryWorker = ClaimLoop;

export interface WorkerOptions {
  concurrency?: number;
  pollMs?: number;
  client?: DeliveryClient;
  /** Only these companies' deliveries: a worker dedicated to large tenants, or a test's own. */
  companies?: string[];
}

/**
 * A claim outlives a wait in hand behind a 30-second attempt and then its own 30-second attempt,
 * so only a dead worker's deliveries are taken over.
 */
const claimMs = 2 * deliveryTimeoutMs + 15_000;

/** A claimed delivery with its endpoint's signing secrets opened (null: they do not open). */
type Claimed = ClaimedDelivery & { secrets: string[] | null };

/** What an attempt leaves to record: the delivery's next state and the attempt row. */
interface Result {
  claimed: Claimed;
  outcome: (Outcome & { durationMs: number }) | null;
  startedAt: Date;
  at: Date;
}

/**
 * Delivers due webhook attempts. Woken at once by the NOTIFY of every committed event and of
 * every sandbox clock move, and every second for retries coming due; that pass is also the
 * contract's recovery pass, so a delivery whose attempt was planned but never made (a crash, a
 * lost notification) is picked up on the next turn. A claim reads its deliveries' endpoints and
 * events in the same statement, and results are recorded by batches: a few statements per batch
 * rather than per delivery.
 */
export function createDeliveryWorker(deps: Deps, options: WorkerOptions = {}): DeliveryWorker {
  const client =
    options.client ??
    createDeliveryClient(
      { resolve: deps.resolveHost, allowPrivate: deps.config.allowPrivateWebhooks },
      deliveryTimeoutMs,
    );
  const recorder = createRecorder(deps);
  const concurrency = options.concurrency ?? 32;
  const loop = createClaimLoop<Claimed>({
    pool: deps.pool,
    channel: deliveryChannel,
    log: deps.log,
    concurrency,
    // A slot that frees starts a delivery already in hand, and claims come by batches of about
    // the concurrency: fewer statements per delivery, the receivers kept as busy as allowed.
    prefetch: concurrency,
    refillAt: concurrency,
    pollMs: options.pollMs ?? 1000,
    // A claim is a lease, not a result: committed without waiting for the disk (the fast pool).
    // Lost in a crash, the lease is merely free again; every attempt's result is recorded durably.
    // One statement, atomic on its own (its targets read in it): no transaction around it, as the
    // deposit worker's, two round trips saved per claim.
    claim: async (limit) =>
      withSigningSecrets(
        deps,
        await claimDueDeliveries(deps.fast.db, deps.clock.now(), limit, claimMs, randomUUID(), options.companies),
      ),
    // The slot is free once the POST is answered; its result commits with the next batch (the
    // delivery stays leased until then, so no other worker sends it again meanwhile).
    handle: async (claimed) => recorder.record(await attempt(deps, client, claimed)),
    describe: (claimed) => ({ delivery: claimed.delivery.id }),
  });
  return {
    ...loop,
    async drain() {
      const handled = await loop.drain();
      await recorder.settled();
      return handled;
    },
    async stop() {
      await loop.stop();
      await recorder.settled();
      if (!options.client) await client.close();
    },
  };
}

/**
 * Opens the signing secrets of each endpoint of a claimed batch once, whatever its number of
 * deliveries. Secrets that do not open (another key, altered) are logged and the endpoint's
 * deliveries of the batch fail without being sent.
 */
function withSigningSecrets(deps: Deps, batch: ClaimedDelivery[]): Claimed[] {
  const now = deps.clock.now();
  const opened = new Map<string, string[] | null>();
  return batch.map((claimed) => {
    const endpoint = claimed.target.endpoint;
    if (!endpoint) return { ...claimed, secrets: null };
    const key = `${endpoint.companyId}/${endpoint.id}`;
    if (!opened.has(key)) {
      try {
        opened.set(key, signingSecretsOf(deps.config, endpoint, now));
      } catch (error) {
        deps.log.error({ err: error, endpoint: endpoint.id }, 'webhook signing secret cannot be opened');
        opened.set(key, null);
      }
    }
    return { ...claimed, secrets: opened.get(key)! };
  });
}

/** One attempt: sign and POST the event. Nothing is written here: the recorder does it. */
async function attempt(deps: Deps, client: DeliveryClient, claimed: Claimed): Promise<Result> {
  const { delivery, sandboxClockOffsetMs, target } = claimed;
  const scopeNow = () => scopeTime(deps.clock.now(), delivery.livemode, sandboxClockOffsetMs);
  const { endpoint, event } = target;
  const startedAt = scopeNow();
  if (!event || !endpoint || endpoint.deletedAt || endpoint.status !== 'enabled') {
    // The endpoint was deleted or deactivated since: nothing is sent; the delivery ends failed.
    return { claimed, outcome: null, startedAt, at: startedAt };
  }
  if (!claimed.secrets) {
    const error = 'the signing secret cannot be opened with this installation key';
    return { claimed, outcome: { kind: 'failed', status: null, error, durationMs: 0 }, startedAt, at: startedAt };
  }
  const secrets = claimed.secrets;
  const body = JSON.stringify(toEvent(event));
  const realNow = deps.clock.now();
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
  return { claimed, outcome, startedAt, at: scopeNow() };
}

/**
 * Records attempt results by batches: those finished while the previous batch commits share one
 * transaction (deliveries settled, attempts inserted and events' retention extended in one
 * statement, the endpoints' health updated on rows locked for it), one durable commit for many
 * attempts. `record` returns
 * at once unless too many results wait (then it waits: the worker slows down to the database's
 * pace); `settled` waits for every result given so far to be committed.
 */
function createRecorder(deps: Deps): { record(result: Result): Promise<void>; settled(): Promise<void> } {
  let queue: Result[] = [];
  let committing: Promise<void> | null = null;
  const maxWaiting = 256;
  let waiters: (() => void)[] = [];

  async function commitAll(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, 128);
      queue = queue.slice(batch.length);
      const released = waiters;
      waiters = [];
      for (const release of released) release();
      try {
        await inTransaction(deps.db, null, (tx) => recordBatch(tx, deps, batch));
      } catch (error) {
        // Those deliveries stay leased until the lease lapses; then another worker tries them again.
        deps.log.error({ err: error, deliveries: batch.map((r) => r.claimed.delivery.id) }, 'attempts not recorded');
      }
    }
  }

  function start(): void {
    committing ??= commitAll().finally(() => {
      committing = null;
      if (queue.length > 0) start();
    });
  }

  return {
    async record(result) {
      queue.push(result);
      start();
      if (queue.length >= maxWaiting) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async settled() {
      while (committing) await committing;
    },
  };
}

/** One batch of results, in the caller's transaction; returns how many alert e-mails it queued. */
async function recordBatch(tx: Tx, deps: Deps, results: Result[]): Promise<number> {
  const settlements: Settlement[] = results.map(({ claimed, outcome, startedAt, at }) => {
    const number = claimed.delivery.attemptCount + 1;
    const next = outcome ? afterAttempt(number, outcome, at) : { state: 'failed', nextAttemptAt: null };
    return {
      delivery: claimed.delivery,
      token: claimed.delivery.lockToken!,
      state: next.state,
      attemptCount: outcome ? number : claimed.delivery.attemptCount,
      nextAttemptAt: next.nextAttemptAt,
      at,
      attempt: outcome && {
        number,
        startedAt,
        durationMs: outcome.durationMs,
        statusCode: outcome.status,
        error: outcome.kind === 'failed' ? outcome.error : null,
      },
      retainUntil: outcome?.kind === 'delivered' ? new Date(at.getTime() + retentionMs) : null,
    };
  });
  const settled = await settleDeliveries(tx, settlements);
  for (const settlement of settlements.filter((s) => settled.has(s.delivery.id))) {
    webhookDeliveryAttempts
      .labels(settlement.state === 'delivered' ? 'delivered' : settlement.state === 'failed' ? 'failed' : 'retry')
      .inc();
  }
  // A delivery taken over by another worker (its claim lapsed) is that worker's to record.
  const kept = results.filter((r) => settled.has(r.claimed.delivery.id) && r.outcome !== null);
  return applyHealth(tx, deps, kept, settlements);
}

/** Each endpoint's run of failures, deactivation and alerts, applied in attempt order to its locked row. */
async function applyHealth(tx: Tx, deps: Deps, kept: Result[], settlements: Settlement[]): Promise<number> {
  const byEndpoint = new Map<string, Result[]>();
  for (const result of kept) {
    const key = `${result.claimed.delivery.companyId}/${result.claimed.delivery.endpointId}`;
    byEndpoint.set(key, [...(byEndpoint.get(key) ?? []), result]);
  }
  // Nothing to change for an endpoint that only succeeds and was not failing.
  const concerned = [...byEndpoint.values()].filter(
    (results) => results.some((r) => r.outcome!.kind === 'failed') || results[0]!.claimed.target.endpoint?.failingSince,
  );
  const rows = await lockEndpoints(
    tx,
    concerned.map((results) => ({
      companyId: results[0]!.claimed.delivery.companyId,
      id: results[0]!.claimed.delivery.endpointId,
    })),
  );
  const stateOf = new Map(settlements.map((s) => [s.delivery.id, s.state]));
  let alerts = 0;
  for (const endpoint of rows) {
    let health = { status: endpoint.status, failingSince: endpoint.failingSince, lastAlertAt: endpoint.lastAlertAt };
    const changes: Partial<EndpointRow> = {};
    for (const result of byEndpoint.get(`${endpoint.companyId}/${endpoint.id}`) ?? []) {
      const change: HealthChange =
        result.outcome!.kind === 'delivered'
          ? afterSuccess(health)
          : afterFailure(health, result.at, stateOf.get(result.claimed.delivery.id) === 'failed');
      if (change.disable)
        Object.assign(changes, { status: 'disabled', disabledReason: 'failing for three days', updated: result.at });
      health = {
        status: change.disable ? 'disabled' : health.status,
        failingSince: change.failingSince,
        lastAlertAt: change.lastAlertAt,
      };
      if (change.alert) {
        alerts++;
        await queueAlert(tx, deps, endpoint, change.alert, result);
      }
    }
    const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
    if (
      same(health.failingSince, endpoint.failingSince) &&
      same(health.lastAlertAt, endpoint.lastAlertAt) &&
      !changes.status
    )
      continue;
    Object.assign(changes, { failingSince: health.failingSince, lastAlertAt: health.lastAlertAt });
    await updateEndpointHealth(tx, endpoint, changes);
  }
  return alerts;
}

async function queueAlert(
  tx: Tx,
  deps: Deps,
  endpoint: EndpointRow,
  alert: 'deactivated' | 'delivery_failed',
  result: Result,
): Promise<void> {
  const failure = result.outcome?.kind === 'failed' ? result.outcome.error : '';
  const subject =
    alert === 'deactivated'
      ? `Webhook endpoint ${endpoint.id} deactivated after three days of failures`
      : `Webhook deliveries to ${endpoint.id} are failing`;
  const body =
    alert === 'deactivated'
      ? `Every delivery to ${endpoint.url} has failed since ${endpoint.failingSince?.toISOString() ?? result.at.toISOString()} (last: ${failure}). The endpoint is now disabled; fix it, enable it again, then replay the failed events.`
      : `A delivery to ${endpoint.url} failed ${maxAttempts} times (last: ${failure}) and will not be retried. Replay it with POST /v1/events/:id/retry once the endpoint answers.`;
  await queueCompanyEmail(
    tx,
    { companyId: endpoint.companyId, livemode: endpoint.livemode },
    { subject, body },
    result.at,
    deps.mailer !== null,
  );
  deps.log.info({ endpoint: endpoint.id, livemode: endpoint.livemode, alert }, subject);
}
