import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { KycStatus } from '../kyc/kyc.state';
import { Merchant } from '../merchants/merchant.entity';

@Entity({ tableName: 'customer' })
@Unique({ name: 'customer_merchant_customerid_unique', properties: ['merchantId', 'customerid'] })
export class Customer {
  /** customer_uuid: assigned by the service. */
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  /** The merchant's own identifier, unique per merchant. */
  @Property({ type: 'text', fieldName: 'customerid' })
  customerid!: string;

  @Property({ type: 'text' })
  firstName!: string;

  @Property({ type: 'text' })
  lastName!: string;

  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text' })
  phoneNumber!: string;

  @Property({ type: 'text' })
  dialCode!: string;

  @Property({ type: 'character', length: 2 })
  countryCode!: string;

  /** YYYY-MM-DD */
  @Property({ type: 'date', nullable: true })
  dateOfBirth: string | null = null;

  @Property({ type: 'text' })
  kycStatus!: KycStatus;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  updatedAt!: Date;
}
