import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Merchant } from '../merchants/merchant.entity';
import { TokenFamily } from './token-family.entity';

@Entity({ tableName: 'refresh_token' })
export class RefreshToken {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => TokenFamily, { mapToPk: true, fieldName: 'family_id', index: true })
  familyId!: string;

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id' })
  merchantId!: string;

  /** SHA-256 of the token; the token is returned once and never stored. */
  @Property({ type: 'text', unique: true, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  /** Set once, atomically, when the token is exchanged; a second use is reuse. */
  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;
}
