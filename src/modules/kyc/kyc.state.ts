import { AppError } from '../../shared/errors';

export const KYC_STATUSES = ['pending_kyc', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export type KycAction = 'submit' | 'approve' | 'reject';

/**
 * The KYC state machine: pending_kyc → pending → approved | rejected, and
 * rejected → pending on resubmission. Approved is final.
 */
const TRANSITIONS: Record<KycStatus, Partial<Record<KycAction, KycStatus>>> = {
  pending_kyc: { submit: 'pending' },
  pending: { approve: 'approved', reject: 'rejected' },
  approved: {},
  rejected: { submit: 'pending' },
};

const REFUSALS: Partial<Record<KycStatus, Partial<Record<KycAction, string>>>> = {
  pending: { submit: 'A KYC review is already in progress for this customer' },
  approved: { submit: 'This customer is already KYC-approved' },
};

/** The state after `action`, or INVALID_STATE (409) when the action is not allowed now. */
export function nextKycStatus(current: KycStatus, action: KycAction): KycStatus {
  const next = TRANSITIONS[current][action];
  if (!next) {
    throw new AppError('INVALID_STATE', REFUSALS[current]?.[action] ?? `Cannot ${action} KYC while its status is ${current}`);
  }
  return next;
}

/** Approved only when the latest review is approved; otherwise it mirrors kyc_status (CONTRACT §4). */
export function overallKycStatus(status: KycStatus): KycStatus {
  return status;
}
