import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { ReconciliationDaily } from './reconciliation.daily';

/**
 * The reconciliation module's jobs. The values are graphile-worker task identifiers, stored with every queued job:
 * never rename them.
 */
export enum ReconciliationJob {
  /** Reconciles every configured connector's UTC day, then adds the next day's run (one per day in the cluster, by its key). */
  ReconcileDay = 'reconciliation.reconcile-day',
}

type Handlers = { reconciliationDaily: ReconciliationDaily };

export const RECONCILIATION_JOBS = [
  defineJob({
    name: ReconciliationJob.ReconcileDay,
    /** `day`: the UTC day reconciled, YYYY-MM-DD. */
    payload: z.object({ day: z.string() }),
    // Behind everything a merchant waits on: it reads a whole day and calls providers' lists.
    priority: 10,
    run: ({ day }, { reconciliationDaily }: Handlers) => reconciliationDaily.runDay(day),
  }),
] as const;

type ReconciliationJobPayloads = JobPayloadsOf<typeof RECONCILIATION_JOBS>;
export type ReconciliationJobQueue = JobQueue<JobSpec<ReconciliationJobPayloads>>;
