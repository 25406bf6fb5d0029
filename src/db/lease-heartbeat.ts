/**
 * The heartbeat of a lease holder: while it has items in hand, one statement every third of the
 * lease extends the leases of them all (`renew`), so that a lease can be short, and a dead
 * holder's items come back within seconds, however long the work of a live one takes. The beat
 * stops when the last item is released. An item whose renewal finds its lease lost (another
 * holder took it after a lapse) is renewed no more and its signal aborts: its holder drops what
 * it was doing, as it drops an outcome whose settling finds the lease lost.
 */
export interface LeaseRenewal<T> {
  /** How long a claim leases an item, and a renewal extends it (ms). */
  leaseMs: number;
  /** Extends the leases of these items, in one statement; returns those still held. */
  renew(items: readonly T[]): Promise<readonly T[]>;
}

export interface LeaseHeartbeat<T> {
  /** Keeps `item`'s lease from now on; the signal aborts once a renewal finds it lost. */
  hold(item: T): AbortSignal;
  /** The item is done with (settled, or dropped): its lease is renewed no more. */
  release(item: T): void;
  /** Renews the leases in hand now (what each beat does); resolves when done. */
  beat(): Promise<void>;
}

/** Raised through the signal of an item whose lease another holder took. */
export class LeaseLostError extends Error {
  constructor() {
    super('the lease was lost: another holder took the item over');
  }
}

export function leaseHeartbeat<T>(
  renewal: LeaseRenewal<T>,
  log: { warn(fields: object, message: string): void },
): LeaseHeartbeat<T> {
  const held = new Map<T, AbortController>();
  let timer: NodeJS.Timeout | null = null;
  let beating: Promise<void> | null = null;

  async function renewHeld(): Promise<void> {
    const items = [...held.keys()];
    if (items.length === 0) return;
    try {
      const kept = new Set(await renewal.renew(items));
      for (const item of items) {
        const lease = held.get(item);
        // Released during the renewal (settled: its token is gone), or still held.
        if (!lease || kept.has(item)) continue;
        held.delete(item);
        lease.abort(new LeaseLostError());
      }
    } catch (error) {
      // The leases still run for two more beats: the next one tries again.
      log.warn({ err: error, held: items.length }, 'leases not renewed; the next beat tries again');
    }
  }

  const beat = (): Promise<void> => {
    // One renewal at a time: a slow one is not overtaken by the next beat.
    beating ??= renewHeld().finally(() => {
      beating = null;
    });
    return beating;
  };

  return {
    hold(item) {
      const lease = new AbortController();
      held.set(item, lease);
      if (!timer) {
        timer = setInterval(() => void beat(), renewal.leaseMs / 3);
        timer.unref();
      }
      return lease.signal;
    },
    release(item) {
      held.delete(item);
      if (held.size === 0 && timer) {
        clearInterval(timer);
        timer = null;
      }
    },
    beat,
  };
}
