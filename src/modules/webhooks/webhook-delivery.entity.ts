import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Merchant } from '../merchants/merchant.entity';
import { OutboxEvent } from '../outbox/outbox-event.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The delivery of one outbox event to its merchant's endpoint, across attempts. */
@Entity({ tableName: 'webhook_delivery' })
export class WebhookDelivery {
  @ManyToOne(() => OutboxEvent, { mapToPk: true, fieldName: 'event_id', primary: true })
  eventId!: string;

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' }) status!: DeliveryStatus;
  @Property({ type: 'integer' }) attemptCount = 0;
  @Property({ type: 'datetime', nullable: true }) nextAttemptAt: Date | null = null;
  @Property({ type: 'datetime', nullable: true }) deliveredAt: Date | null = null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

/**
 * One send of an event, recorded before the POST leaves (so the log never shows fewer sends
 * than the receiver saw) and finished once its answer is known.
 */
@Entity({ tableName: 'webhook_attempt' })
export class WebhookAttempt {
  @PrimaryKey({ type: 'bigint', autoincrement: true }) id!: string;
  @ManyToOne(() => OutboxEvent, { mapToPk: true, fieldName: 'event_id' }) eventId!: string;
  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' }) merchantId!: string;
  @Property({ type: 'integer' }) attemptNumber!: number;
  @Property({ type: 'text', nullable: true }) url: string | null = null;
  @Property({ type: 'datetime' }) attemptedAt!: Date;
  @Property({ type: 'integer', nullable: true }) statusCode: number | null = null;
  /** Null until the attempt is finished (its POST answered, failed or timed out). */
  @Property({ type: 'integer', nullable: true }) latencyMs: number | null = null;
  /** Null while the outcome is not known: in flight, or interrupted (`error` says so). */
  @Property({ type: 'boolean', nullable: true }) success: boolean | null = null;
  @Property({ type: 'text', nullable: true }) error: string | null = null;
  @Property({ type: 'datetime', nullable: true }) finishedAt: Date | null = null;
}
