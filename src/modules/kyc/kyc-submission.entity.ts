import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Customer } from '../customers/customer.entity';
import { Merchant } from '../merchants/merchant.entity';

export type KycSubmissionStatus = 'pending' | 'approved' | 'rejected';

export interface KycAddress {
  line1: string;
  city: string;
  country_code: string;
  postal_code?: string;
}

@Entity({ tableName: 'kyc_submission' })
export class KycSubmission {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Customer, { mapToPk: true, fieldName: 'customer_id' })
  customerId!: string;

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  @Property({ type: 'text' })
  idType!: string;

  /** The identity document number, sealed (AES-256-GCM); only its last 4 characters are kept readable. */
  @Property({ type: 'text', hidden: true })
  idNumberSealed!: string;

  @Property({ type: 'text' })
  idNumberLast4!: string;

  @Property({ type: 'character', length: 2 })
  idCountry!: string;

  @Property({ type: 'date' })
  dateOfBirth!: string;

  @Property({ type: 'json' })
  address!: KycAddress;

  @Property({ type: 'text' })
  status!: KycSubmissionStatus;

  @Property({ type: 'text', nullable: true })
  rejectionReason: string | null = null;

  @Property({ type: 'datetime' })
  submittedAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  reviewedAt: Date | null = null;

  /** Who decided: `reviewer:<name>` (the sandbox rule, a provider), or an operator's door (`admin_api[:name]`, `cli[:name]`). */
  @Property({ type: 'text', nullable: true })
  reviewedBy: string | null = null;
}
