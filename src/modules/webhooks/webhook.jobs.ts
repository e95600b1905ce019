import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { WebhookDispatcher } from './webhook-dispatcher';

/**
 * The jobs of webhook delivery, run by WebhookDispatcher. The value is a graphile-worker task
 * identifier, stored with every queued job: never rename it.
 */
export enum WebhookJob {
  /** One webhook delivery attempt for an outbox event. */
  DeliverWebhook = 'deliver-webhook',
}

/**
 * Deliveries wait on merchants' servers (up to the webhook timeout each), so they run in a lane of
 * their own with their own workers (WEBHOOK_CONCURRENCY): however many endpoints hang, settlement,
 * reconciliation, polls and KYC keep every slot of the default lane (JOB_CONCURRENCY).
 */
export const DELIVERY_LANE = 'deliveries';

export const WEBHOOK_JOBS = [
  defineJob({
    name: WebhookJob.DeliverWebhook,
    /**
     * `attempt`: the attempt this job makes; a job for an attempt already made does nothing.
     * `merchantId`: whose endpoint it goes to (absent from jobs queued before issue 34), so that an
     * instance already sending the endpoint all it may take leaves the delivery to those sends.
     */
    payload: z.object({ eventId: z.string(), attempt: z.number().optional(), merchantId: z.string().optional() }),
    // A webhook delivery tells a merchant about a change already made, so it goes ahead of a backlog
    // of settlements that make new changes: under load, commit → webhook stays short.
    priority: -10,
    lane: DELIVERY_LANE,
    run: ({ eventId, attempt, merchantId }, { webhookDispatcher }: { webhookDispatcher: WebhookDispatcher }) =>
      webhookDispatcher.deliver(eventId, attempt, merchantId),
  }),
] as const;

type WebhookJobPayloads = JobPayloadsOf<typeof WEBHOOK_JOBS>;
export type WebhookJobQueue = JobQueue<JobSpec<WebhookJobPayloads>>;
