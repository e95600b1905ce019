import type { KycDecision, KycReviewer, KycReviewInput } from '../kyc-reviewer';

/** Sandbox rule (CONTRACT §4): an id_number starting with REJECT is rejected; anything else is approved. */
export function sandboxKycDecision(idNumber: string): KycDecision {
  return idNumber.startsWith('REJECT') ? { outcome: 'rejected', reason: 'identity_document_rejected' } : { outcome: 'approved' };
}

export class SandboxKycReviewer implements KycReviewer {
  readonly name = 'sandbox';

  async review(input: KycReviewInput): Promise<KycDecision> {
    return sandboxKycDecision(input.idNumber);
  }
}
