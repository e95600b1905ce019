import { z } from 'zod';
import { defineJob, type JobPayloadsOf } from '../../jobs/define-job';
import type { JobQueue, JobSpec } from '../../jobs/job-queue';
import type { KycService } from './kyc.service';

/**
 * The jobs of KYC, run by KycService. The values are graphile-worker task identifiers, stored with
 * every queued job: never rename one.
 */
export enum KycJob {
  KycReview = 'kyc-review',
  /**
   * Tell subscribers a KYC decision committed. A job rather than a direct publish, so a decision made
   * in another process (the review CLI) reaches a running service's subscribers, with or without Redis.
   */
  PublishKycStatus = 'publish-kyc-status',
}

/** Each job: its payload (stored as JSON with the job: its shape outlives a deployment), options and work. */
export const KYC_JOBS = [
  defineJob({
    name: KycJob.KycReview,
    payload: z.object({ submissionId: z.string() }),
    priority: 0,
    run: ({ submissionId }, { kyc }: { kyc: KycService }) => kyc.reviewSubmission(submissionId),
  }),
  defineJob({
    name: KycJob.PublishKycStatus,
    payload: z.object({ merchantId: z.string(), customerUuid: z.string() }),
    priority: -10,
    run: ({ merchantId, customerUuid }, { kyc }: { kyc: KycService }) => kyc.publishStatus(merchantId, customerUuid),
  }),
] as const;

type KycJobPayloads = JobPayloadsOf<typeof KYC_JOBS>;
export type KycJobQueue = JobQueue<JobSpec<KycJobPayloads>>;
