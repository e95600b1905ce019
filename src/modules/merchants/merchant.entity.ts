import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { DEFAULT_EVENT_TYPES, type SelectableEventType } from '../outbox/event-types';

/** A rotated-out webhook secret (sealed) and when it stops signing (ISO 8601). */
export interface PreviousWebhookSecret {
  sealed: string;
  expiresAt: string;
}

/** Until when a rotated-out webhook secret still signs deliveries beside the current one; null when none does. */
export function webhookSecretOverlapUntil(previous: readonly PreviousWebhookSecret[], now: Date): Date | null {
  const live = previous.map((p) => new Date(p.expiresAt)).filter((at) => at > now);
  return live.length === 0 ? null : new Date(Math.max(...live.map((at) => at.getTime())));
}

/** The event types a merchant receives: its choice, or the default. */
export function eventTypesOf(merchant: Pick<Merchant, 'webhookEventTypes'>): SelectableEventType[] {
  return (merchant.webhookEventTypes as SelectableEventType[] | null) ?? [...DEFAULT_EVENT_TYPES];
}

@Entity({ tableName: 'merchant' })
export class Merchant {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  /** The client_id of the merchant's first API key (its secret's hash lives in api_key, with the other keys'). */
  @Property({ type: 'text', unique: true })
  clientId!: string;

  /** Whether every member must have 2FA (set by an owner or admin); production requires it anyway of roles that move money. */
  @Property({ type: 'boolean' })
  requireTwoFactor: Opt<boolean> = false;

  /** The webhook signing secret, sealed with ENCRYPTION_KEY (it must be recoverable to sign). */
  @Property({ type: 'text', hidden: true })
  webhookSecretSealed!: string;

  /** Origins allowed to frame its hosted checkout page (the page's frame-ancestors); empty: none. */
  @Property({ type: 'text[]' })
  checkoutEmbedOrigins: Opt<string[]> = [];

  /** Whether a transfer's beneficiary_name is checked against the provider's name for the account (CONTRACT §6b). */
  @Property({ type: 'boolean' })
  nameCheck: Opt<boolean> = true;

  /** The country its business gave at sign-up (ISO 3166-1 alpha-2); null for a merchant an operator made. Domestic payments are its. */
  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  @Property({ type: 'text', nullable: true })
  webhookUrl: string | null = null;

  /** The event types the merchant chose to receive; null: the default (DEFAULT_EVENT_TYPES). */
  @Property({ type: 'text[]', nullable: true })
  webhookEventTypes: string[] | null = null;

  /**
   * Secrets rotated out in the last 24 h, sealed, each with its own expiry: each still signs (as an
   * extra signature) until then, whatever rotations come after it.
   */
  @Property({ type: 'json', hidden: true })
  previousWebhookSecrets: Opt<PreviousWebhookSecret[]> = [];

  /** Set by an operator: no token is issued to a disabled merchant and its tokens are revoked. */
  @Property({ type: 'datetime', nullable: true })
  disabledAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  updatedAt!: Date;
}
