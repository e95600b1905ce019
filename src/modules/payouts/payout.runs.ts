import { systemClock } from '../../shared/clock';
import { PayoutJob, type PayoutJobQueue } from './payout.jobs';
import type { PayoutService } from './payout.service';

/** The chain of payout runs: each adds the next (the same key from every instance: one job per slot), then pays what is due. */
export class PayoutRuns {
  /** `everyMs`: PAYOUT_RUN_INTERVAL_S (one run per slot in the whole cluster; slots are the job runner's real time); 0: no runs. */
  constructor(private readonly deps: { jobs: PayoutJobQueue; payouts: Pick<PayoutService, 'runDue'>; everyMs: number }) {}

  schedule(slot: number): Promise<void> {
    return this.deps.jobs.add([
      {
        name: PayoutJob.Run,
        payload: { slot },
        key: `${PayoutJob.Run}:${slot}`,
        delayMs: Math.max(0, slot * this.deps.everyMs - systemClock.now().getTime()),
      },
    ]);
  }

  /** From the next slot on (at start). */
  async start(): Promise<void> {
    if (this.deps.everyMs > 0) await this.schedule(Math.floor(systemClock.now().getTime() / this.deps.everyMs) + 1);
  }

  async run(slot: number): Promise<void> {
    await this.schedule(slot + 1);
    await this.deps.payouts.runDue();
  }
}
