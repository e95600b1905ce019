import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Transaction } from './transaction.entity';
import type { TransactionStatus } from './transaction.state';

/** One state change in a transaction's history. */
@Entity({ tableName: 'transaction_event' })
export class TransactionEvent {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Transaction, { mapToPk: true, fieldName: 'transaction_id' })
  transactionId!: string;

  @Property({ type: 'text', nullable: true }) fromStatus: TransactionStatus | null = null;
  @Property({ type: 'text' }) toStatus!: TransactionStatus;
  @Property({ type: 'text', nullable: true }) reason: string | null = null;
  @Property({ type: 'datetime' }) occurredAt!: Date;
}
