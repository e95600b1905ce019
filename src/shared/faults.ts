/**
 * Fault injection for durability tests: `FAULT_INJECT=<point>` (sandbox only,
 * refused by config in production) makes the process die at that point as if
 * the machine had lost power, so a test can show that what was in flight is
 * finished after a restart, never lost and never doubled.
 */
export const FAULT_POINTS = ['crash-after-provider-call', 'lose-asynchronous-commit', 'crash-after-payout-claim'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

export class Faults {
  constructor(private readonly armed: FaultPoint | undefined) {}

  hit(point: FaultPoint): void {
    if (this.armed === point) process.kill(process.pid, 'SIGKILL');
  }

  /**
   * Whether to act as if a write at `point` were lost after it was answered (`lose-asynchronous-commit`: the
   * statement is not sent, and the caller goes on as if it had committed, as when PostgreSQL crashes before
   * an asynchronous commit reaches the disk).
   */
  loses(point: FaultPoint): boolean {
    return this.armed === point;
  }
}
