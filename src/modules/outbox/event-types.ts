/** Every event the service emits (CONTRACT §8). */
export const EVENT_TYPES = [
  'customer.kyc.approved',
  'customer.kyc.rejected',
  'collection.successful',
  'collection.failed',
  'collection.expired',
  'transfer.successful',
  'transfer.failed',
  'payment.successful',
  'payment.failed',
  'refund.successful',
  'refund.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What an event is about, from its stored subject: a transaction (its service reference) for
 * collection.*, transfer.*, payment.* and refund.* events, a customer (its uuid) for customer.kyc.*.
 */
export function subjectOf(event: { type: string; subjectId: string }): { reference: string | null; customerUuid: string | null } {
  return event.type.startsWith('customer.') ? { reference: null, customerUuid: event.subjectId } : { reference: event.subjectId, customerUuid: null };
}
