/** What a KYC provider decides about one submission. */
export type KycDecision = { outcome: 'approved' } | { outcome: 'rejected'; reason: string };

/**
 * A reviewer's answer when asked: a decision now, or `pending` when the decision
 * comes later (a provider opened a case and will call back; an operator works a
 * queue). Either way the decision is written by `KycService.decideSubmission`.
 */
export type KycReviewAnswer = KycDecision | { outcome: 'pending' };

export interface KycReviewInput {
  /** The submission's id: the idempotency key a provider opens its case under (the review job may run twice). */
  submissionId: string;
  idType: string;
  idNumber: string;
  idCountry: string;
  dateOfBirth: string;
}

/**
 * A KYC provider. The sandbox decides by table at once; production's manual
 * reviewer leaves every submission to an operator; a real provider would open a
 * case here, answer `pending`, and decide later through its callback.
 */
export interface KycReviewer {
  /** Recorded as who decided (`reviewer:<name>`) when the answer is a decision. */
  readonly name: string;
  review(input: KycReviewInput): Promise<KycReviewAnswer>;
}
