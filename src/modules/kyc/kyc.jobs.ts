import type { JobQueue, JobSpec } from '../../jobs/job-queue';

/**
 * The jobs of KYC, run by KycService (wired at the composition root: src/workers.ts). The values are
 * graphile-worker task identifiers, stored with every queued job: never rename one.
 */
export enum KycJob {
  KycReview = 'kyc-review',
  /**
   * Tell subscribers a KYC decision committed. A job rather than a direct publish, so a decision made
   * in another process (the review CLI) reaches a running service's subscribers, with or without Redis.
   */
  PublishKycStatus = 'publish-kyc-status',
}

/** Each job's payload (stored as JSON with the job). */
export interface KycJobPayloads {
  [KycJob.KycReview]: { submissionId: string };
  [KycJob.PublishKycStatus]: { merchantId: string; customerUuid: string };
}

export type KycJobQueue = JobQueue<JobSpec<KycJobPayloads>>;
