import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Merchant } from '../merchants/merchant.entity';
import type { EventType } from './event-types';

/**
 * One event, written in the same transaction as the state change that caused it.
 * Its id is the webhook-id every delivery attempt will carry.
 */
@Entity({ tableName: 'outbox_event' })
export class OutboxEvent {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' })
  type!: EventType;

  /** What the event is about: a customer uuid or a transaction reference. */
  @Property({ type: 'text' })
  subjectId!: string;

  /** The full record as the REST status endpoint returns it. */
  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  createdAt!: Date;
}
