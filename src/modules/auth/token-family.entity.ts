import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Merchant } from '../merchants/merchant.entity';

/**
 * One client_credentials grant starts a family; every refresh token rotated from
 * it, and every access token issued with them, belongs to it. Revoking the family
 * (revoke endpoint, or reuse of a rotated refresh token) ends all of them.
 */
@Entity({ tableName: 'token_family' })
export class TokenFamily {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id', index: true })
  merchantId!: string;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  revokedReason: string | null = null;
}
