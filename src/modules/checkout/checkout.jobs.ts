import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { CheckoutService } from './checkout.service';

/**
 * The checkout module's jobs. The values are graphile-worker task identifiers, stored with every
 * queued job: never rename them.
 */
export enum CheckoutJob {
  /** A payment of a session succeeded: the session completes (added by the payment's own event statement). */
  CompleteSession = 'checkout.complete-session',
  /** Expires due open sessions; adds its next run (one per 30 s slot in the whole cluster, by its key). */
  ExpireSessions = 'checkout.expire-sessions',
}

type Handlers = { checkout: CheckoutService };

export const CHECKOUT_JOBS = [
  defineJob({
    name: CheckoutJob.CompleteSession,
    /** `transactionReference`: the payment's `pay_…` (the event's subject; its payload carries no uuid). */
    payload: z.object({ sessionId: z.string(), transactionReference: z.string() }),
    // Ahead of a settlement backlog: the merchant's order waits on it.
    priority: -5,
    inContext: false,
    run: ({ sessionId, transactionReference }, { checkout }: Handlers) => checkout.completeSession(sessionId, transactionReference),
  }),
  defineJob({
    name: CheckoutJob.ExpireSessions,
    payload: z.object({ slot: z.number() }),
    priority: 5,
    inContext: false,
    run: ({ slot }, { checkout }: Handlers) => checkout.runExpirySweep(slot),
  }),
] as const;

type CheckoutJobPayloads = JobPayloadsOf<typeof CHECKOUT_JOBS>;
export type CheckoutJobQueue = JobQueue<JobSpec<CheckoutJobPayloads>>;
