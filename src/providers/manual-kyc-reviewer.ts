import type { KycReviewAnswer, KycReviewer } from './kyc-reviewer';

/**
 * Production's reviewer until a KYC provider is integrated: no rule decides.
 * Every submission stays `pending` in the review queue, and an operator
 * approves or rejects it through the admin API or the CLI (docs/kyc-review.md).
 */
export class ManualKycReviewer implements KycReviewer {
  readonly name = 'manual';

  async review(): Promise<KycReviewAnswer> {
    return { outcome: 'pending' };
  }
}
