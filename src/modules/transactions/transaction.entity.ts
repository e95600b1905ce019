import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ExactDecimalType } from '../../db/decimal.type';
import type { Decimal } from '../../shared/money';
import { Customer } from '../customers/customer.entity';
import { Merchant } from '../merchants/merchant.entity';
import type { TransactionKind, TransactionStatus } from './transaction.state';

/** Bank details a sender pays into (spec §2: all strings). */
export interface BankInfo {
  accountName: string;
  accountNumber: string;
  bankName: string;
  bankCode: string;
}

/** One transaction of any kind; kind-specific columns are null where they do not apply. */
@Entity({ tableName: 'transaction' })
@Unique({ name: 'transaction_merchant_external_reference_unique', properties: ['merchantId', 'externalReference'] })
export class Transaction {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' })
  kind!: TransactionKind;

  /** Assigned by the service. */
  @Property({ type: 'text', unique: true })
  reference!: string;

  /** The merchant's own reference, unique per merchant across every kind. */
  @Property({ type: 'text' })
  externalReference!: string;

  @Property({ type: 'text' })
  status!: TransactionStatus;

  @ManyToOne(() => Customer, { mapToPk: true, fieldName: 'customer_id', nullable: true })
  customerId: string | null = null;

  @Property({ type: 'text', nullable: true }) accountType: 'bank' | 'momo' | null = null;
  @Property({ type: 'character', length: 2, nullable: true }) countryCode: string | null = null;
  @Property({ type: 'text', nullable: true }) channelId: string | null = null;
  @Property({ type: 'text', nullable: true }) networkId: string | null = null;
  @Property({ type: 'text', nullable: true }) accountNumber: string | null = null;
  @Property({ type: 'text', nullable: true }) accountName: string | null = null;
  @Property({ type: 'text', nullable: true }) dialCode: string | null = null;
  @Property({ type: 'text', nullable: true }) reason: string | null = null;

  /** Collections: the amount the sender pays, in `currency`. */
  @Property({ type: ExactDecimalType, nullable: true }) amount: Decimal | null = null;
  @Property({ type: 'character', length: 3, nullable: true }) currency: string | null = null;

  /** Transfers: what the merchant sends and what the beneficiary receives. */
  @Property({ type: ExactDecimalType, nullable: true }) sourceAmount: Decimal | null = null;
  @Property({ type: 'character', length: 3, nullable: true }) sourceCurrency: string | null = null;
  @Property({ type: ExactDecimalType, nullable: true }) destinationAmount: Decimal | null = null;
  @Property({ type: 'character', length: 3, nullable: true }) destinationCurrency: string | null = null;
  @Property({ type: ExactDecimalType, nullable: true }) rate: Decimal | null = null;
  @Property({ type: ExactDecimalType, nullable: true }) fee: Decimal | null = null;
  @Property({ type: 'text', nullable: true }) quoteId: string | null = null;

  @Property({ type: 'json', nullable: true }) bankInfo: BankInfo | null = null;
  @Property({ type: 'text', nullable: true, unique: true }) virtualAccountNumber: string | null = null;
  @Property({ type: 'text', nullable: true }) providerReference: string | null = null;
  @Property({ type: 'text', nullable: true }) failureReason: string | null = null;

  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
  @Property({ type: 'datetime', nullable: true }) completedAt: Date | null = null;
  @Property({ type: 'datetime', nullable: true }) expiresAt: Date | null = null;
}
