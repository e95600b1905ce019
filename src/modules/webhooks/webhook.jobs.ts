import type { JobQueue, JobSpec } from '../../jobs/job-queue';

/**
 * The jobs of webhook delivery, run by WebhookDispatcher (wired at the composition root:
 * src/workers.ts). The value is a graphile-worker task identifier, stored with every queued job:
 * never rename it.
 */
export enum WebhookJob {
  /** One webhook delivery attempt for an outbox event. */
  DeliverWebhook = 'deliver-webhook',
}

/** The job's payload (stored as JSON with the job). */
export interface WebhookJobPayloads {
  /**
   * `attempt`: the attempt this job makes; a job for an attempt already made does nothing.
   * `merchantId`: whose endpoint it goes to (absent from jobs queued before issue 34), so that an
   * instance already sending the endpoint all it may take leaves the delivery to those sends.
   */
  [WebhookJob.DeliverWebhook]: { eventId: string; attempt?: number; merchantId?: string };
}

export type WebhookJobQueue = JobQueue<JobSpec<WebhookJobPayloads>>;
