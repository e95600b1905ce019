import { systemClock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { DisputeJob, type DisputeJobQueue } from './dispute.jobs';
import type { DisputeService } from './dispute.service';

/**
 * The chain of dispute sweeps (as the payout runs): each adds the next (the same key from every instance: one job per
 * slot in the whole cluster), then runs the deadlines and, where a provider reports disputes by polling, the poll.
 */
export class DisputeSweeps {
  /** `everyMs`: DISPUTE_SWEEP_INTERVAL_S; 0: no sweeps. `poll`: asks the providers for new or changed disputes. */
  constructor(
    private readonly deps: {
      jobs: DisputeJobQueue;
      disputes: Pick<DisputeService, 'runDeadlines'>;
      poll: () => Promise<void>;
      everyMs: number;
      logger: Logger;
    },
  ) {}

  schedule(slot: number): Promise<void> {
    return this.deps.jobs.add([
      {
        name: DisputeJob.Sweep,
        payload: { slot },
        key: `${DisputeJob.Sweep}:${slot}`,
        delayMs: Math.max(0, slot * this.deps.everyMs - systemClock.now().getTime()),
      },
    ]);
  }

  async start(): Promise<void> {
    if (this.deps.everyMs > 0) await this.schedule(Math.floor(systemClock.now().getTime() / this.deps.everyMs) + 1);
  }

  async run(slot: number): Promise<void> {
    await this.schedule(slot + 1);
    await this.deps.poll().catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'the providers’ disputes could not be polled'));
    const done = await this.deps.disputes.runDeadlines();
    if (done.reminded + done.accepted + done.opened > 0) this.deps.logger.info(done, 'dispute sweep');
  }
}
