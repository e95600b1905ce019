import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { DisputeSweeps } from './dispute.sweeps';

/**
 * The disputes module's jobs. The values are graphile-worker task identifiers, stored with every queued job: never
 * rename them.
 */
export enum DisputeJob {
  /** Reminders, deadlines (accepted when passed), the sandbox's disputed test card, provider polls; adds its next run (one per slot in the cluster). */
  Sweep = 'disputes.sweep',
}

type Handlers = { disputeSweeps: DisputeSweeps };

export const DISPUTE_JOBS = [
  defineJob({
    name: DisputeJob.Sweep,
    payload: z.object({ slot: z.number() }),
    priority: 5,
    inContext: false,
    run: ({ slot }, { disputeSweeps }: Handlers) => disputeSweeps.run(slot),
  }),
] as const;

type DisputeJobPayloads = JobPayloadsOf<typeof DISPUTE_JOBS>;
export type DisputeJobQueue = JobQueue<JobSpec<DisputeJobPayloads>>;
