import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { reconnectDelayMs } from '../db/reconnect-delay.js';
import type { KeyWithCompany } from './store.js';

/** The channel on which every node hears of revocations and company changes. */
export const authChannel = 'facteur_auth';

const ttlMs = 30_000;
const maxEntries = 50_000;
const maxChangesKept = 10_000;

/**
 * Valid keys, by the hash of their secret, so an authenticated request needs no database read.
 * Entries live at most 30 seconds and go at once when a revocation or a company change is
 * announced on `facteur_auth` (every node listens); the node that makes the change drops them
 * before answering. Without a working listener the cache is off: every request reads the key.
 */
export class KeyCache {
  private readonly entries = new Map<string, { value: KeyWithCompany; at: number }>();
  private listening = false;
  /**
   * Moves on every change heard. A read that started before a change of its key or company must
   * not be cached after it (it may hold the key as it was before its revocation): `set` takes the
   * epoch of its read and compares it with the last change of that key and of that company, so
   * the changes of other companies, frequent on a busy node, do not keep its reads out.
   */
  epoch = 0;
  /** `key:<id>` or `company:<id>` → the epoch of its last change heard; oldest first. */
  private readonly changedAt = new Map<string, number>();
  /** The epoch of the last change that concerned every entry (`*`, a listener lost or found). */
  private clearedAt = 0;

  get(secretHash: string, now: number): KeyWithCompany | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(secretHash);
    if (!entry) return undefined;
    if (now - entry.at > ttlMs) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry.value;
  }

  set(secretHash: string, value: KeyWithCompany, now: number, readEpoch: number): void {
    if (!this.listening || this.changedSince(readEpoch, value)) return;
    if (this.entries.size >= maxEntries) this.entries.clear();
    this.entries.set(secretHash, { value, at: now });
  }

  /** Applies an announcement: `key:<id>`, `company:<id>` or `*`. */
  forget(message: string): void {
    this.epoch++;
    const [kind, id] = message.split(':');
    if ((kind !== 'key' && kind !== 'company') || !id) return this.clearAll();
    this.changedAt.delete(message);
    this.changedAt.set(message, this.epoch);
    // The reads in flight are a few; past the bound, the oldest changes fold into one for all.
    if (this.changedAt.size > maxChangesKept) {
      const [oldest, at] = this.changedAt.entries().next().value as [string, number];
      this.changedAt.delete(oldest);
      this.clearedAt = Math.max(this.clearedAt, at);
    }
    for (const [hash, { value }] of this.entries) {
      if ((kind === 'key' && value.key.id === id) || (kind === 'company' && value.company.id === id))
        this.entries.delete(hash);
    }
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    this.epoch++;
    this.clearAll();
  }

  private clearAll(): void {
    this.clearedAt = this.epoch;
    this.changedAt.clear();
    this.entries.clear();
  }

  private changedSince(readEpoch: number, value: KeyWithCompany): boolean {
    return (
      this.clearedAt > readEpoch ||
      (this.changedAt.get(`key:${value.key.id}`) ?? 0) > readEpoch ||
      (this.changedAt.get(`company:${value.company.id}`) ?? 0) > readEpoch
    );
  }
}

const caches = new Set<KeyCache>();

/**
 * Announces a change of what authentications carry (`company:<id>` for its plan or sandbox
 * clock, `key:<id>` for a revocation), in the changing transaction: every node forgets it when
 * the transaction commits, and this one at once.
 */
export async function announceAuthChange(tx: Executor, message: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${authChannel}, ${message})`);
  forgetInThisProcess(message);
}

/** The node that made a change forgets it at once, before the notification comes back. */
export function forgetInThisProcess(message: string): void {
  for (const cache of caches) cache.forget(message);
}

/** Keeps `cache` in step with the announcements; returns a function that stops listening. */
export async function listenForAuthChanges(
  pool: pg.Pool,
  cache: KeyCache,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  caches.add(cache);
  let connection: pg.PoolClient | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  // Until it listens again (a failover may take a while), each try waits twice as long, up to 30 s.
  const reconnect = (attempt: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      if (stopped) return;
      connect().catch((error: unknown) => {
        onError(error);
        reconnect(attempt + 1);
      });
    }, reconnectDelayMs(attempt));
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    // The pool's host choice (session-target.ts): after a failover, the new primary.
    const client = await pool.connect();
    connection = client;
    const lost = () => {
      if (connection !== client) return false;
      connection = null;
      cache.setListening(false);
      client.release(true);
      return true;
    };
    client.on('notification', (message) => cache.forget(message.payload ?? '*'));
    client.on('error', (error) => {
      if (!lost()) return;
      onError(error);
      reconnect(0);
    });
    try {
      await client.query(`listen ${authChannel}`);
    } catch (error) {
      lost();
      throw error;
    }
    if (stopped) {
      lost();
      return;
    }
    cache.setListening(true);
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    caches.delete(cache);
    cache.setListening(false);
    const client = connection;
    connection = null;
    if (client) {
      await client.query(`unlisten ${authChannel}`).catch(() => undefined);
      client.release();
    }
  };
}
