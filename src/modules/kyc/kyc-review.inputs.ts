import { z } from 'zod';
import { withoutCardNumberIn } from '../../shared/fields';
import { parseUuid, type Command } from '../../shared/validation';
import type { KycAddress, KycSubmission, KycSubmissionStatus } from './kyc-submission.entity';

/**
 * The review queue's inputs and views: what a decision is, who made it, and how
 * a submission looks to an operator. Pure (no I/O); KycService uses them.
 */

/** A rejection's reason is shown to the merchant (rejection_reason) and in its webhook: bounded, one line of text. */
const reasonText = withoutCardNumberIn(
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
);

export const decisionSchema = z.discriminatedUnion(
  'outcome',
  [z.object({ outcome: z.literal('approved') }), z.object({ outcome: z.literal('rejected'), reason: reasonText })],
  { error: 'must be approved or rejected' },
);

/** What an operator sends with a decision: the reason (rejections), and optionally who they are. */
export const operatorDecisionSchema = z.object({
  reason: z.unknown().optional(),
  operator: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'must be 1 to 64 letters, digits or . _ @ -')
    .nullish(),
});
export type OperatorDecisionCommand = Command<typeof operatorDecisionSchema>;

/**
 * Who decided a submission: a reviewer (the sandbox rule; a provider through its
 * callback), or an operator through a door. Stored as `reviewer:sandbox`,
 * `admin_api:alice`, `cli:bob` (the operator's name is self-declared: the admin
 * key is shared, so it is an audit note, not an identity).
 */
export type KycDecider = { kind: 'reviewer'; name: string } | { kind: 'operator'; via: 'admin_api' | 'cli'; operator?: string | null };

export function deciderLabel(by: KycDecider): string {
  if (by.kind === 'reviewer') return `reviewer:${by.name}`;
  return by.operator ? `${by.via}:${by.operator}` : by.via;
}

/** A submission as the review queue shows it: the identity number masked to its last 4 characters. */
export interface KycSubmissionSummary {
  id: string;
  merchantId: string;
  customerUuid: string;
  status: KycSubmissionStatus;
  idType: string;
  idCountry: string;
  idNumberLast4: string;
  submittedAt: Date;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  rejectionReason: string | null;
}

/** One submission opened for review: everything an operator compares, the identity number in full. */
export interface KycSubmissionDetail extends KycSubmissionSummary {
  idNumber: string;
  dateOfBirth: string;
  address: KycAddress;
  customer: { customerid: string; firstName: string; lastName: string; dateOfBirth: string | null; countryCode: string };
}

/** A submission id from a path or a command line: a uuid, checked before any query. */
export function parseSubmissionId(submissionId: string): string {
  return parseUuid(submissionId, 'submissionId');
}

export function toSummary(s: KycSubmission): KycSubmissionSummary {
  return {
    id: s.id,
    merchantId: s.merchantId,
    customerUuid: s.customerId,
    status: s.status,
    idType: s.idType,
    idCountry: s.idCountry,
    idNumberLast4: s.idNumberLast4,
    submittedAt: s.submittedAt,
    reviewedAt: s.reviewedAt,
    reviewedBy: s.reviewedBy,
    rejectionReason: s.rejectionReason,
  };
}
