/** What a KYC provider decides about one submission. */
export type KycDecision = { outcome: 'approved' } | { outcome: 'rejected'; reason: string };

export interface KycReviewInput {
  idType: string;
  idNumber: string;
  idCountry: string;
  dateOfBirth: string;
}

/** A KYC provider. The sandbox decides by table; a real provider would call out and may take days. */
export interface KycReviewer {
  review(input: KycReviewInput): Promise<KycDecision>;
}
