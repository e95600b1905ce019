import { systemClock } from './clock';

/** What a queue of its own rows is run with (WebhookPumpSettings, SettlementPumpSettings). */
export interface DueLoopSettings {
  /** Items this instance works on at once. */
  concurrency: number;
  /** The longest a due item waits when nothing wakes the loop (another instance's rows, a lapsed claim). */
  pollMs: number;
  /** At shutdown, how long the work in flight may take to finish. */
  drainMs: number;
}

/**
 * The loop of a queue kept in its own rows (WebhookPump, SettlementPump): a `round` (a pick or claim, one statement)
 * runs when something may be due, never two at once, with every wake asked for during a round coalesced into one
 * more. It is woken by `wake()` (work committed in this process, a worker freed), at a time (`wakeAt`: the earliest
 * due row a round or a write learned of), and at the latest every `pollMs` (rows of other instances, lapsed claims).
 * It also counts the work its rounds started (`track`), so that a stop can wait for it.
 */
export class DueLoop {
  private stopped = true;
  private running = false;
  private again = false;
  private scheduled = false;
  private poll?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private inFlight = 0;
  private readonly idle: (() => void)[] = [];

  /** `round`: picks or claims what is due and starts it (`track`); its errors are its own to log. */
  constructor(private readonly opts: { pollMs: number; round: () => Promise<void> }) {}

  /** Work started by rounds and not yet finished. */
  get active(): number {
    return this.inFlight;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.poll = setInterval(() => this.wake(), this.opts.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** No more rounds; waits for the work in flight, at most `drainMs`. */
  async stop(drainMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    if (this.inFlight === 0) return;
    await Promise.race([new Promise<void>((resolve) => this.idle.push(resolve)), new Promise<void>((resolve) => setTimeout(resolve, drainMs).unref())]);
  }

  /** A round on the next turn of the event loop, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  /** A round at `epochMs` (wall-clock), unless one is set sooner; beyond the poll, the poll is the bound. */
  wakeAt(epochMs: number): void {
    if (this.stopped || (this.timer && epochMs >= this.timerAt)) return;
    const ms = epochMs - systemClock.now().getTime();
    if (ms >= this.opts.pollMs) return;
    clearTimeout(this.timer);
    this.timerAt = epochMs;
    this.timer = setTimeout(
      () => {
        this.timerAt = Infinity;
        this.timer = undefined;
        this.wake();
      },
      Math.max(0, ms),
    );
    this.timer.unref();
  }

  /** Counts `work` as in flight until it settles; then wakes the loop (a worker is free). */
  track(work: Promise<unknown>): void {
    this.inFlight++;
    void work.finally(() => {
      this.inFlight--;
      if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
      this.wake();
    });
  }

  /** Runs a round now, after the one running if any (operators, tests). */
  async runNow(): Promise<void> {
    while (this.running) await new Promise((resolve) => setImmediate(resolve));
    await this.run();
  }

  private async run(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    this.again = false;
    try {
      await this.opts.round();
    } finally {
      this.running = false;
      if (this.again) this.wake();
    }
  }
}
