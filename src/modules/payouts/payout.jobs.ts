import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { PayoutNotices } from './payout.notices';
import type { PayoutRuns } from './payout.runs';

/**
 * The payouts module's jobs. The values are graphile-worker task identifiers, stored with every queued job: never
 * rename them.
 */
export enum PayoutJob {
  /** Pays every due window; adds its next run (one per slot in the whole cluster, by its key). */
  Run = 'payouts.run',
  /** A payout failed: its merchant's owners are emailed (added by the failure's own event statement). */
  NotifyFailed = 'payouts.notify-failed',
}

type Handlers = { payoutRuns: PayoutRuns; payoutNotices: PayoutNotices };

export const PAYOUT_JOBS = [
  defineJob({
    name: PayoutJob.Run,
    payload: z.object({ slot: z.number() }),
    priority: 5,
    inContext: false,
    run: ({ slot }, { payoutRuns }: Handlers) => payoutRuns.run(slot),
  }),
  defineJob({
    name: PayoutJob.NotifyFailed,
    payload: z.object({ merchantId: z.string(), payoutId: z.string() }),
    priority: 0,
    inContext: false,
    run: ({ merchantId, payoutId }, { payoutNotices }: Handlers) => payoutNotices.failed(merchantId, payoutId),
  }),
] as const;

type PayoutJobPayloads = JobPayloadsOf<typeof PAYOUT_JOBS>;
export type PayoutJobQueue = JobQueue<JobSpec<PayoutJobPayloads>>;
