/** Time comes from a Clock so that domain logic and tests never read the wall clock directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for tests and the sandbox. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = new Date()) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** An instant `ms` after `at`: the events of one change are dated in the order they happened. */
export const later = (at: Date, ms: number): Date => new Date(at.getTime() + ms);
