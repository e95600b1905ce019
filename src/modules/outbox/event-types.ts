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
