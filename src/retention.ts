import type { JobRunner } from './jobs/job-runner';
import type { Clock } from './shared/clock';
import type { EventRetention } from './modules/webhooks/event-retention';

/**
 * Issue 40, part 3: what only grows leaves the hot tables once past its retention (docs/operations.md,
 * "Retention"): webhook events with their deliveries and attempts (EVENT_RETENTION_DAYS), and jobs that spent
 * every attempt (FAILED_JOB_RETENTION_DAYS; graphile-worker deletes completed jobs itself). Part of the
 * composition root: it joins the webhooks module's retention to the job runner's. Run by the periodic sweep
 * (workers.ts) on every instance; each run removes a bounded amount.
 */
export class Retention {
  constructor(
    private readonly deps: {
      events: Pick<EventRetention, 'prune'>;
      jobs: Pick<JobRunner<unknown>, 'pruneFailed'>;
      clock: Clock;
      failedJobMs: number;
    },
  ) {}

  async prune(): Promise<{ events: number; failedJobs: number }> {
    const events = await this.deps.events.prune();
    const failedJobs = await this.deps.jobs.pruneFailed(new Date(this.deps.clock.now().getTime() - this.deps.failedJobMs));
    return { events, failedJobs };
  }
}
