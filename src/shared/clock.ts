/** The one clock. Services read time only through it, so tests control time instead of sleeping. */
export interface Clock {
  now(): Date;
}

/**
 * The wall clock. The service's clock in production; named where a reading must be real time whatever clock the
 * service runs on (a timestamp a receiver checks, a provider's own deadline, a time-ordered id, a rate limit's
 * window, a cache's housekeeping). Nothing else reads `Date.now()` or `new Date()` (the lint holds it).
 */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: Date): void {
    this.current = at.getTime();
  }
}
