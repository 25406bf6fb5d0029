import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { reconnectDelayMs } from '../db/reconnect-delay.js';
import { leaseHeartbeat, type LeaseRenewal } from '../db/lease-heartbeat.js';

export interface ClaimLoop {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Claims and handles what is due now, and waits for it (tests, benchmarks). */
  drain(): Promise<number>;
}

export interface ClaimLoopOptions<T> {
  pool: pg.Pool;
  /** The NOTIFY channel that says work was committed: the loop wakes at once. */
  channel: string;
  log: FastifyBaseLogger;
  /** Items handled at the same time. */
  concurrency: number;
  /**
   * Items claimed ahead of the free slots (default 0): they wait in hand, leased, so that a slot
   * that frees starts the next item at once instead of waiting for a claim's round trip. A
   * worker whose items wait on a remote party (a platform, a receiver) keeps that party as busy
   * as its concurrency says.
   */
  prefetch?: number;
  /**
   * Claim again once this few items remain in hand, running or waiting (default: half the
   * concurrency): claims then come by batches, not one statement per finished item.
   */
  refillAt?: number;
  /** How often the loop looks anyway (work coming due with time, a lost notification). */
  pollMs: number;
  /** Claims up to `limit` due items (rows locked for a while, so a dead worker's items come back). */
  claim(limit: number): Promise<T[]>;
  /**
   * The renewal of the items' leases while they are in hand (db/lease-heartbeat.ts): the lease
   * can then be short, a dead worker's items coming back within it. An item found lost while it
   * waits is not handled; one found lost while handled has its `lease` signal aborted.
   */
  lease?: LeaseRenewal<T>;
  handle(item: T, lease: AbortSignal): Promise<void>;
  /** Log fields naming an item whose handling failed. */
  describe(item: T): Record<string, unknown>;
}

/**
 * The loop of every PostgreSQL-backed worker: rows are the jobs; a worker claims due rows
 * (`FOR UPDATE SKIP LOCKED` and a lock that lapses, renewed while in hand with `lease`), handles
 * a bounded number at a time, and looks again when a notification says new work committed, when
 * a handled item frees a slot, and every `pollMs`, which is also the recovery pass for anything
 * planned but not picked up.
 */
export function createClaimLoop<T>(options: ClaimLoopOptions<T>): ClaimLoop {
  const inFlight = new Set<Promise<void>>();
  /** Claimed items waiting for a slot (with `prefetch`). */
  const waiting: T[] = [];
  /** How many items the loop holds at most, running and waiting. */
  const capacity = options.concurrency + (options.prefetch ?? 0);
  const refillAt = options.refillAt ?? Math.floor(options.concurrency / 2);
  let listener: pg.PoolClient | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let pumping = false;
  let again = false;
  /** The last claim found less than it asked for: a freed slot alone is no reason to look again. */
  let dry = false;
  const held = () => inFlight.size + waiting.length;
  const heartbeat = options.lease ? leaseHeartbeat(options.lease, options.log) : null;
  /** The lease of each item in hand, while the heartbeat renews it. */
  const leases = new Map<T, AbortSignal>();
  const neverLost = new AbortController().signal;

  async function claim(limit: number): Promise<T[]> {
    const claimed = await options.claim(limit);
    if (heartbeat) for (const item of claimed) leases.set(item, heartbeat.hold(item));
    return claimed;
  }
  const pumpLogged = () =>
    void pump().catch((error: unknown) =>
      options.log.error({ err: error, channel: options.channel }, 'claim failed; the next pass claims again'),
    );
  /** Work was announced (a notification, the poll): the next claim need not wait for the hand to empty. */
  let woken = false;
  const wake = () => {
    dry = false;
    woken = true;
    pumpLogged();
  };

  const handle = (item: T) => {
    const lease = leases.get(item) ?? neverLost;
    // Lost while it waited in hand: another worker has it, and handles it.
    const work = lease.aborted ? Promise.resolve() : options.handle(item, lease);
    return work
      .catch((error: unknown) => options.log.error({ err: error, ...options.describe(item) }, 'worker item failed'))
      .finally(() => {
        leases.delete(item);
        heartbeat?.release(item);
      });
  };

  /** Starts waiting items while slots are free (also once stopping: what was claimed is handled). */
  function startWaiting(): void {
    while (waiting.length > 0 && inFlight.size < options.concurrency) {
      const work = handle(waiting.shift()!);
      inFlight.add(work);
      void work.finally(() => {
        inFlight.delete(work);
        startWaiting();
        if (running && !dry && held() <= refillAt) pumpLogged();
      });
    }
  }

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      // One claim fills the hand; another follows at once only if the hand fell to `refillAt`
      // meanwhile (or work was announced): items finished during a claim are not each worth a
      // statement of their own.
      let first = true;
      do {
        again = false;
        let eager = first || woken;
        first = false;
        woken = false;
        while (running && held() < capacity && (eager || held() <= refillAt)) {
          eager = false;
          const wanted = capacity - held();
          const claimed = await claim(wanted);
          dry = claimed.length < wanted;
          waiting.push(...claimed);
          startWaiting();
          if (dry) break;
        }
      } while (again && running);
    } finally {
      pumping = false;
    }
  }

  /** Until every item in hand, running or waiting, is handled. */
  async function settled(): Promise<void> {
    while (held() > 0) await Promise.allSettled([...inFlight]);
  }

  /**
   * Until listening works again, the poll every `pollMs` still finds the work; each try waits
   * twice as long as the last (1 s to 30 s), while a failover promotes the next primary.
   */
  function relisten(attempt = 0): void {
    if (!running) return;
    setTimeout(() => {
      if (!running) return;
      listen().catch((error: unknown) => {
        options.log.warn({ err: error, channel: options.channel }, 'cannot listen yet; trying again');
        relisten(attempt + 1);
      });
    }, reconnectDelayMs(attempt)).unref();
  }

  async function listen(): Promise<void> {
    // The pool's host choice (session-target.ts): after a failover, the new primary.
    const connection = await options.pool.connect();
    listener = connection;
    const drop = () => {
      if (listener !== connection) return false;
      listener = null;
      connection.release(true);
      return true;
    };
    connection.on('notification', wake);
    connection.on('error', (error) => {
      // The connection died: drop it (unless stop() already gave it back), and listen again while running.
      if (!drop()) return;
      options.log.warn({ err: error, channel: options.channel }, 'listener lost; polling until it is back');
      relisten();
    });
    try {
      await connection.query(`listen ${options.channel}`);
    } catch (error) {
      // Given back here, so that a failed try does not keep a connection of the pool.
      drop();
      throw error;
    }
  }

  return {
    async start() {
      running = true;
      await listen();
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      await pump();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      const connection = listener;
      listener = null;
      if (connection) {
        // Best effort: the connection goes back to the pool, which resets it anyway.
        await connection.query(`unlisten ${options.channel}`).catch(() => undefined);
        connection.release();
      }
      await settled();
    },
    async drain() {
      let total = 0;
      for (;;) {
        const claimed = await claim(options.concurrency);
        if (claimed.length === 0 && held() === 0) return total;
        total += claimed.length;
        await Promise.all([...claimed.map(handle), settled()]);
      }
    },
  };
}
