import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

@Entity({ tableName: 'merchant' })
export class Merchant {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', unique: true })
  clientId!: string;

  /** SHA-256 of the client secret; the secret itself is shown once and never stored. */
  @Property({ type: 'text', hidden: true })
  clientSecretHash!: string;

  /** The webhook signing secret, sealed with ENCRYPTION_KEY (it must be recoverable to sign). */
  @Property({ type: 'text', hidden: true })
  webhookSecretSealed!: string;

  @Property({ type: 'text', nullable: true })
  webhookUrl: string | null = null;

  /** The secret before the last rotation: it still signs (as a second signature) until it expires. */
  @Property({ type: 'text', nullable: true, hidden: true })
  previousWebhookSecretSealed: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  previousWebhookSecretExpiresAt: Date | null = null;

  /** Set by an operator: no token is issued to a disabled merchant and its tokens are revoked. */
  @Property({ type: 'datetime', nullable: true })
  disabledAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  updatedAt!: Date;
}
