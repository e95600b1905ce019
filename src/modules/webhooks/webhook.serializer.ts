import { z } from 'zod';
import { nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import { CheckoutSessionRecord } from '../checkout/checkout.records';
import { DisputeRecord } from '../disputes/dispute.record';
import { PayoutRecord } from '../transactions/kinds/payout/payout.record';
import { KycRecordSchema } from '../kyc/kyc.serializer';
import { EVENT_TYPES, subjectOf } from '../outbox/event-types';
import { TransactionRecord } from '../transactions/transaction.serializer';
import type { WebhookAttempt } from './webhook-delivery.entity';
import type { EventWithDelivery } from './webhook.service';

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

const deliveryStatus = z.enum(['pending', 'delivered', 'failed']).nullable().describe('null: no endpoint was set when the event was recorded');
const eventSummary = {
  id: z.string().describe('`evt_…`; also the `webhook-id` header of every delivery'),
  type: z.enum(EVENT_TYPES),
  reference: z
    .string()
    .nullable()
    .describe(
      'The transaction the event is about (collection.*, transfer.*, payment.*, refund.*; payout.*: the payout’s `pot_…` transaction); null for customer.kyc.*, checkout.session.* (its `data.id` names the session) and webhook.test',
    ),
  customer_uuid: z.string().nullable().describe('The customer the event is about (customer.kyc.*); null for a transaction’s event'),
  created_at: timestamp,
  delivery_status: deliveryStatus,
  attempt_count: z.int(),
  next_attempt_at: nullableTimestamp,
  delivered_at: nullableTimestamp,
};

export const WebhookEventSummaryRecord = record('WebhookEventSummary', z.object(eventSummary));

/**
 * An event's `data`, which its webhook body carries as it is: the record the event is about, as the
 * REST door shows it (a Transaction for collection.*, transfer.*, payment.* and refund.* events, a
 * KycRecord for customer.kyc.*).
 */
export const WebhookTestRecord = record(
  'WebhookTest',
  z.object({
    test: z.literal(true),
    message: z.string(),
    merchant_id: z.uuid(),
    requested_at: timestamp,
  }),
  'The data of a `webhook.test` event: it is about nothing; your receiver checks the signature and answers 2xx.',
);

/** The test event's data (`POST /v1/webhooks/test-event`). */
export function testEventData(merchantId: string, requestedAt: Date): RecordOf<typeof WebhookTestRecord> {
  return {
    test: true,
    message: 'A test event sent on request: verify its signature and answer 2xx. No transaction or customer is involved.',
    merchant_id: merchantId,
    requested_at: requestedAt.toISOString(),
  };
}

const WebhookPayload = z
  .union([TransactionRecord, KycRecordSchema, CheckoutSessionRecord, PayoutRecord, DisputeRecord, WebhookTestRecord])
  .describe(
    'The record the event is about, exactly as the webhook body carries it: a Transaction (collection.*, transfer.*, payment.*, refund.*), a KycRecord (customer.kyc.*), a CheckoutSession (checkout.session.*), a Payout (payout.*), a Dispute (dispute.*), or a WebhookTest (webhook.test)',
  );

export const WebhookEventRecord = record(
  'WebhookEvent',
  z.object({
    ...eventSummary,
    data: WebhookPayload,
    attempts: z.array(
      z.object({
        attempt_number: z.int(),
        attempted_at: timestamp,
        url: z.string().nullable(),
        status_code: z.int().nullable(),
        latency_ms: z.int().nullable().describe('Null until the attempt is finished'),
        success: z
          .boolean()
          .nullable()
          .describe('True for a 2xx answer. Null while the outcome is not known: in flight, or interrupted (`error` says so; the event is sent again)'),
        error: z.string().nullable(),
      }),
    ),
  }),
);

export const WebhookSecretRotationRecord = record(
  'WebhookSecretRotation',
  z.object({
    webhook_secret: z.string().describe('`whsec_…`, shown only in this answer'),
    previous_secret_expires_at: timestamp.describe('Until then every delivery is signed with both secrets'),
  }),
);

export function serializeEventSummary({ event, delivery }: EventWithDelivery): RecordOf<typeof WebhookEventSummaryRecord> {
  const subject = subjectOf(event);
  return {
    id: event.id,
    type: event.type,
    reference: subject.reference,
    customer_uuid: subject.customerUuid,
    created_at: event.createdAt.toISOString(),
    delivery_status: delivery?.status ?? null,
    attempt_count: delivery?.attemptCount ?? 0,
    next_attempt_at: iso(delivery?.nextAttemptAt),
    delivered_at: iso(delivery?.deliveredAt),
  };
}

export function serializeEvent(detail: EventWithDelivery & { attempts: WebhookAttempt[] }): RecordOf<typeof WebhookEventRecord> {
  return {
    ...serializeEventSummary(detail),
    // Stored as the serializer of its record wrote it (transaction.serializer.ts, kyc.serializer.ts).
    data: detail.event.payload as RecordOf<typeof WebhookPayload>,
    attempts: detail.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      attempted_at: a.attemptedAt.toISOString(),
      url: a.url,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      success: a.success,
      error: a.error,
    })),
  };
}

export function serializeSecretRotation(rotated: { webhookSecret: string; previousSecretExpiresAt: Date }): RecordOf<typeof WebhookSecretRotationRecord> {
  return {
    webhook_secret: rotated.webhookSecret,
    previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString(),
  };
}
