import { graphql } from '../generated';
import type { DisputeReason, DisputeStatus } from '../generated/graphql';

/** The fields the dashboard shows of a dispute (docs: issue 39's design), in the list and on its page. */
graphql(`
  fragment DisputeFields on Dispute {
    id
    paymentReference
    amount
    currency
    reason
    status
    evidenceDueBy
    submissionCount
    provider
    providerStatus
    fee
    createdAt
    closedAt
  }
`);

/** Any change to one of the merchant's disputes, after it commits: the pages showing disputes read them again. */
export const DISPUTE_CHANGED = graphql(`
  subscription DisputeChanged {
    disputeChanged {
      ...DisputeFields
    }
  }
`);

/** Every status, in the order a dispute goes through them (the list's filter). */
export const DISPUTE_STATUSES: DisputeStatus[] = [
  'NEEDS_RESPONSE',
  'WARNING_NEEDS_RESPONSE',
  'UNDER_REVIEW',
  'WARNING_UNDER_REVIEW',
  'WON',
  'LOST',
  'WARNING_CLOSED',
  'PREVENTED',
];

/** The statuses waiting for the merchant's answer: evidence can be written, submitted, or the dispute accepted. */
const AWAITING: DisputeStatus[] = ['NEEDS_RESPONSE', 'WARNING_NEEDS_RESPONSE'];
export const awaitsResponse = (status: DisputeStatus) => AWAITING.includes(status);

/** A status as the URL writes it (?status=needs_response, the design's snake_case), and back; null for none or an unknown one. */
export const statusParam = (status: DisputeStatus | null) => (status ? status.toLowerCase() : null);
export const statusFromParam = (param: string | null): DisputeStatus | null => DISPUTE_STATUSES.find((s) => s.toLowerCase() === param?.toLowerCase()) ?? null;

/** What each reason means to a merchant (the card networks' categories, as Stripe names them). */
export const REASONS: Record<DisputeReason, string> = {
  FRAUDULENT: 'Fraudulent: the cardholder says they did not make the payment',
  PRODUCT_NOT_RECEIVED: 'Product not received',
  PRODUCT_UNACCEPTABLE: 'Product unacceptable: defective, damaged or not as described',
  DUPLICATE: 'Duplicate: charged more than once',
  SUBSCRIPTION_CANCELED: 'Subscription canceled, and charged afterwards',
  CREDIT_NOT_PROCESSED: 'Credit not processed: a promised refund never came',
  UNRECOGNIZED: 'Unrecognized: the cardholder does not recognise the payment',
  GENERAL: 'General',
};
