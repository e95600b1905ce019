import { systemClock, type Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { ReconciliationJob, type ReconciliationJobQueue } from './reconciliation.jobs';
import { dayWindow, type ReconciliationService } from './reconciliation.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A day is reconciled this long after it ends: late callbacks and the poll chain's last steps have settled most of it. */
const AFTER_DAY_ENDS_MS = 60 * 60 * 1000;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The daily run (docs/reconciliation.md): a job per UTC day, keyed by the day so that every instance adding it adds one,
 * reconciles each configured connector's day (a window already reconciled is a no-op: the run's unique key), then adds
 * the next day's. At start, the day before today is added (at once if its hour has passed): a service that was down
 * at the hour catches up.
 */
export class ReconciliationDaily {
  constructor(private readonly deps: { service: ReconciliationService; jobs: ReconciliationJobQueue; clock: Clock; logger: Logger; enabled: boolean }) {}

  /** Adds the run of the day before today (the chain's first link). */
  async start(): Promise<void> {
    if (!this.deps.enabled) return;
    const { from } = dayWindow(undefined, this.deps.clock.now());
    await this.schedule(dayOf(from));
  }

  async runDay(day: string): Promise<void> {
    const window = dayWindow(day, this.deps.clock.now());
    let failed: unknown = null;
    for (const connector of this.deps.service.connectors()) {
      try {
        await this.deps.service.reconcile(connector, window);
      } catch (err) {
        // One provider not answering does not hold back the others; the job fails after, and its retry redoes only the failed runs.
        failed = err;
      }
    }
    if (this.deps.enabled) await this.schedule(dayOf(new Date(window.to.getTime())));
    if (failed) throw failed;
  }

  /** The run of `day`, due an hour after the day ends (job delays are the runner's real time). */
  private schedule(day: string): Promise<unknown> {
    const due = new Date(`${day}T00:00:00.000Z`).getTime() + DAY_MS + AFTER_DAY_ENDS_MS;
    return this.deps.jobs.add([
      {
        name: ReconciliationJob.ReconcileDay,
        payload: { day },
        key: `${ReconciliationJob.ReconcileDay}:${day}`,
        delayMs: Math.max(0, due - systemClock.now().getTime()),
      },
    ]);
  }
}
