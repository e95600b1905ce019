import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { subjectOf } from '../../../modules/outbox/event-types';
import type { DeliveryStatus, WebhookAttempt } from '../../../modules/webhooks/webhook-delivery.entity';
import type { EventWithDelivery } from '../../../modules/webhooks/webhook.service';
import type { RecordedEvent } from '../../../modules/webhooks/event-feed';
import { WebhookDeliveryStatusEnum } from '../enums';
import { Connection } from '../relay';

@ObjectType('WebhookAttempt', { description: 'One delivery attempt of an event, as it happened.' })
export class WebhookAttemptObject {
  @Field(() => Int, { description: '1 for the first attempt; retries and resends count on.' }) attemptNumber!: number;
  @Field(() => Date) attemptedAt!: Date;
  @Field(() => String, { nullable: true, description: 'The endpoint the attempt went to; null when none was configured.' }) url!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The HTTP status your endpoint answered; null when there was no answer (timeout, refused connection, refused URL).',
  })
  statusCode!: number | null;

  @Field(() => Int, { nullable: true, description: 'Null until the attempt is finished.' }) latencyMs!: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      'True for a 2xx answer; anything else (3xx included) is a failure. Null while the outcome is not known: in flight, or interrupted (error says so; the event is sent again).',
  })
  success!: boolean | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed ("HTTP 500", "timed out after 10000 ms", …); null on success.' })
  error!: string | null;

  static from(a: WebhookAttempt): WebhookAttemptObject {
    return Object.assign(new WebhookAttemptObject(), {
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
export class WebhookEventObject {
  @Field(() => ID, { description: '"evt_…"' }) id!: string;
  @Field(() => String, { description: 'e.g. "collection.successful", "customer.kyc.approved".' }) type!: string;
  @Field(() => String, { nullable: true, description: 'The transaction the event is about (its reference); null for a customer.kyc.* event.' })
  reference!: string | null;
  @Field(() => String, { nullable: true, description: 'The customer the event is about (customer.kyc.*); null for a transaction’s event.' })
  customerUuid!: string | null;
  @Field(() => Date) createdAt!: Date;

  @Field(() => GraphQLJSONObject, { description: 'The payload: the full record as the REST status endpoint returns it (snake_case, as in the webhook body).' })
  data!: Record<string, unknown>;

  @Field(() => WebhookDeliveryStatusEnum, {
    nullable: true,
    description: 'Null: never attempted, because you had no webhook endpoint when the event was recorded. Resend it once one is set.',
  })
  deliveryStatus!: DeliveryStatus | null;
  @Field(() => Int) attemptCount!: number;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due, while PENDING.' }) nextAttemptAt!: Date | null;
  @Field(() => Date, { nullable: true }) deliveredAt!: Date | null;

  /** Attempts already loaded with the event; otherwise the `attempts` field resolver loads them. */
  loadedAttempts?: WebhookAttemptObject[];

  static from({ event, delivery }: EventWithDelivery, attempts?: WebhookAttempt[]): WebhookEventObject {
    return Object.assign(new WebhookEventObject(), {
      id: event.id,
      type: event.type,
      ...subjectOf(event),
      createdAt: event.createdAt,
      data: event.payload,
      deliveryStatus: delivery?.status ?? null,
      attemptCount: delivery?.attemptCount ?? 0,
      nextAttemptAt: delivery?.nextAttemptAt ?? null,
      deliveredAt: delivery?.deliveredAt ?? null,
      loadedAttempts: attempts?.map(WebhookAttemptObject.from),
    });
  }
}

@ObjectType('WebhookEventConnection')
export class WebhookEventConnection extends Connection(WebhookEventObject, 'WebhookEvent') {}

@ObjectType('WebhookSecretRotation', { description: 'A new signing secret, shown only this once.' })
export class WebhookSecretRotationObject {
  @Field(() => String, { description: '"whsec_…" (Standard Webhooks). Deliveries are signed with it from now on.' }) webhookSecret!: string;

  @Field(() => Date, { description: 'Until then deliveries carry a second signature made with the previous secret.' })
  previousSecretExpiresAt!: Date;
}

@ObjectType('RecordedEvent', {
  description: 'An event as it is recorded (the eventRecorded subscription): its id, type and time, and the webhook body a delivery of it carries.',
})
export class RecordedEventObject {
  @Field(() => ID, { description: '"evt_…": the webhook-id header of every delivery of it.' }) id!: string;
  @Field(() => String, { description: 'e.g. "collection.successful" (see webhookEventTypes).' }) type!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => String, {
    description:
      'The webhook body exactly as a delivery POSTs it, `{"id","type","created_at","data"}` (data: the record as the REST status endpoint returns it): sign these bytes as they are (Standard Webhooks), do not re-serialize them.',
  })
  body!: string;

  static from(e: RecordedEvent): RecordedEventObject {
    return Object.assign(new RecordedEventObject(), { id: e.id, type: e.type, createdAt: e.createdAt, body: e.body });
  }
}
