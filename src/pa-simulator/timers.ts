/**
 * The simulator's pending timers (paced statuses, callback retries): all cancelled together when
 * it is reset or stopped, so that nothing scripted before fires after.
 */
export class SimulatorTimers {
  private readonly pending = new Set<NodeJS.Timeout>();

  /** Runs `action` in `ms` milliseconds, unless cancelled first. */
  after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      action();
    }, ms);
    this.pending.add(timer);
  }

  /** Resolves in `ms` milliseconds; never, if cancelled first. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => this.after(ms, resolve));
  }

  cancelAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
