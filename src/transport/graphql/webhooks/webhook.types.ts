import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { WebhookAttempt } from '../../../modules/webhooks/webhook-delivery.entity';
import type { EventWithDelivery } from '../../../modules/webhooks/webhook.service';
import { Connection } from '../relay';

export enum WebhookDeliveryStatusValue {
  PENDING = 'pending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(WebhookDeliveryStatusValue, {
  name: 'WebhookDeliveryStatus',
  description: 'PENDING (being delivered or waiting for a retry) → DELIVERED (a 2xx answer) | FAILED (the retry schedule is spent). A resend makes it PENDING again.',
});

@ObjectType('WebhookAttempt', { description: 'One delivery attempt of an event, as it happened.' })
export class WebhookAttemptType {
  @Field(() => Int, { description: '1 for the first attempt; retries and resends count on.' }) attemptNumber!: number;
  @Field(() => Date) attemptedAt!: Date;
  @Field(() => String, { nullable: true, description: 'The endpoint the attempt went to; null when none was configured.' }) url!: string | null;
  @Field(() => Int, { nullable: true, description: 'The HTTP status your endpoint answered; null when there was no answer (timeout, refused connection, refused URL).' })
  statusCode!: number | null;

  @Field(() => Int) latencyMs!: number;
  @Field(() => Boolean, { description: 'True for a 2xx answer; anything else (3xx included) is a failure.' }) success!: boolean;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed ("HTTP 500", "timed out after 10000 ms", …); null on success.' })
  error!: string | null;

  static from(a: WebhookAttempt): WebhookAttemptType {
    return Object.assign(new WebhookAttemptType(), {
      attemptNumber: a.attemptNumber,
      attemptedAt: a.attemptedAt,
      url: a.url,
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      success: a.success,
      error: a.error,
    });
  }
}

@ObjectType('WebhookEvent', { description: 'An event and its webhook delivery. Its id is the webhook-id header of every delivery of it.' })
export class WebhookEventType {
  @Field(() => ID, { description: '"evt_…"' }) id!: string;
  @Field(() => String, { description: 'e.g. "collection.successful", "customer.kyc.approved".' }) type!: string;
  @Field(() => Date) createdAt!: Date;

  @Field(() => GraphQLJSONObject, { description: 'The payload: the full record as the REST status endpoint returns it (snake_case, as in the webhook body).' })
  data!: Record<string, unknown>;

  @Field(() => WebhookDeliveryStatusValue, {
    nullable: true,
    description: 'Null: never attempted, because you had no webhook endpoint when the event was recorded. Resend it once one is set.',
  })
  deliveryStatus!: WebhookDeliveryStatusValue | null;
  @Field(() => Int) attemptCount!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due, while PENDING.' }) nextAttemptAt!: Date | null;
  @Field(() => Date, { nullable: true }) deliveredAt!: Date | null;

  /** Attempts already loaded with the event; otherwise the `attempts` field resolver loads them. */
  loadedAttempts?: WebhookAttemptType[];

  static from({ event, delivery }: EventWithDelivery, attempts?: WebhookAttempt[]): WebhookEventType {
    return Object.assign(new WebhookEventType(), {
      id: event.id,
      type: event.type,
      createdAt: event.createdAt,
      data: event.payload,
      deliveryStatus: (delivery?.status ?? null) as WebhookDeliveryStatusValue | null,
      attemptCount: delivery?.attemptCount ?? 0,
      nextAttemptAt: delivery?.nextAttemptAt ?? null,
      deliveredAt: delivery?.deliveredAt ?? null,
      loadedAttempts: attempts?.map(WebhookAttemptType.from),
    });
  }
}

@ObjectType('WebhookEventConnection')
export class WebhookEventConnection extends Connection(WebhookEventType, 'WebhookEvent') {}

@ObjectType('WebhookSecretRotation', { description: 'A new signing secret, shown only this once.' })
export class WebhookSecretRotationType {
  @Field(() => String, { description: '"whsec_…" (Standard Webhooks). Deliveries are signed with it from now on.' }) webhookSecret!: string;

  @Field(() => Date, { description: 'Until then deliveries carry a second signature made with the previous secret.' })
  previousSecretExpiresAt!: Date;
}
