/** Every event the service emits (CONTRACT §8). */
export const EVENT_TYPES = [
  'customer.kyc.approved',
  'customer.kyc.rejected',
  'collection.processing',
  'collection.successful',
  'collection.failed',
  'collection.expired',
  'transfer.processing',
  'transfer.successful',
  'transfer.failed',
  'payment.processing',
  'payment.requires_action',
  'payment.successful',
  'payment.failed',
  'payment.expired',
  'refund.processing',
  'refund.successful',
  'refund.failed',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'funding.processing',
  'funding.successful',
  'funding.failed',
  'funding.expired',
  'checkout.session.completed',
  'checkout.session.expired',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.funds_withdrawn',
  'dispute.funds_reinstated',
  'dispute.evidence_due_soon',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * A transaction's progress before its final status: created and being processed (`*.processing`), or
 * waiting for the payer (`payment.requires_action`). Recorded and sent only to a merchant who chose them.
 */
export const PROGRESS_EVENT_TYPES = [
  'collection.processing',
  'transfer.processing',
  'payment.processing',
  'payment.requires_action',
  'refund.processing',
  'funding.processing',
] as const satisfies readonly EventType[];

/** Sent on request only (`POST /v1/webhooks/test-event`), whatever the merchant chose. */
export const TEST_EVENT_TYPE = 'webhook.test' satisfies EventType;

/** What a merchant may choose to receive: every type but the test event. */
export type SelectableEventType = Exclude<EventType, typeof TEST_EVENT_TYPE>;
export const SELECTABLE_EVENT_TYPES = EVENT_TYPES.filter((t): t is SelectableEventType => t !== TEST_EVENT_TYPE);

/**
 * What a merchant receives until it chooses (and every merchant did before the choice existed): the
 * final statuses and KYC decisions, not a transaction's progress.
 */
export const DEFAULT_EVENT_TYPES = SELECTABLE_EVENT_TYPES.filter((t) => !(PROGRESS_EVENT_TYPES as readonly string[]).includes(t));

/**
 * What an event is about, from its stored subject: a transaction (its service reference) for
 * collection.*, transfer.*, payment.*, refund.*, payout.* and funding.* events, a customer (its uuid) for customer.kyc.*,
 * nothing for webhook.test and checkout.session.* (their payload's `id` names the session).
 */
export function subjectOf(event: { type: string; subjectId: string }): { reference: string | null; customerUuid: string | null } {
  // A checkout session's events are about the session (its `cs_…` id), a dispute's about the dispute (`dp_…`), not a transaction.
  if (event.type === TEST_EVENT_TYPE || event.type.startsWith('checkout.') || event.type.startsWith('dispute.')) return { reference: null, customerUuid: null };
  return event.type.startsWith('customer.') ? { reference: null, customerUuid: event.subjectId } : { reference: event.subjectId, customerUuid: null };
}
