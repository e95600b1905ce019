import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LOCK_KEYS, withAdvisoryLock, type Orm } from '../../db/orm';
import type { DomainEvent } from '../../events/domain-event';
import type { Clock } from '../../shared/clock';
import { SecretBox, randomToken, sha256Hex, timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { requiredText } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';
import type { AuditContext, AuditLog } from '../audit/audit-log';
import { Merchant, webhookSecretOverlapUntil } from './merchant.entity';
import { LockMode } from '@mikro-orm/core';
import type { PublicAddress } from '../../shared/public-address';
import {
  checkoutLogoPath,
  checkoutSettingsSchema,
  nameCheckSchema,
  type CheckoutSettings,
  type CheckoutSettingsCommand,
  type NameCheckCommand,
} from './checkout-settings';

export const createMerchantSchema = z.object({ name: requiredText(200), createdBy: z.string().max(200).optional() });
export type CreateMerchantCommand = Command<typeof createMerchantSchema>;

/** Returned once, at creation: the only time the secrets exist outside the service. */
export interface MerchantCredentials {
  merchant: Merchant;
  clientSecret: string;
  webhookSecret: string;
}

/** The name of the sandbox's first-start merchant (ensureDemoMerchant, demoMerchant). */
const DEMO_MERCHANT_NAME = 'Demo Merchant';

/** Standard Webhooks secret format: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** What MerchantService is built with (the composition root passes it). */
export interface MerchantServiceDeps {
  orm: Orm;
  clock: Clock;
  secretBox: SecretBox;
  logger: Logger;
  /** The audit log's writer (a merchant created by an operator). */
  audit: AuditLog;
  /** Where browsers reach this service: the checkout logo's address is on it. */
  publicAddress: Pick<PublicAddress, 'url'>;
  /**
   * `merchant.created`, emitted once the merchant is stored and before its credentials are answered:
   * other modules subscribe (the ledger opens the sandbox's opening balance). None: nobody listens (CLIs).
   */
  created?: DomainEvent<{ merchantId: string }>;
}

export class MerchantService {
  constructor(private readonly deps: MerchantServiceDeps) {}

  /** Until when a rotated-out webhook secret still signs beside the current one (by the service's clock); null when none does. */
  webhookSecretOverlapUntil(merchant: Merchant): Date | null {
    return webhookSecretOverlapUntil(merchant.previousWebhookSecrets, this.deps.clock.now());
  }

  /** `audit`: the operator who creates it, and from where: one `merchant.created` entry, written with the merchant. */
  async createMerchant(command: CreateMerchantCommand, audit?: AuditContext): Promise<MerchantCredentials> {
    const { name } = parseInput(createMerchantSchema, command);
    const clientSecret = randomToken('sk');
    const webhookSecret = newWebhookSecret();
    const now = this.deps.clock.now();
    const merchant = this.deps.orm.em.create(Merchant, {
      name,
      clientId: randomToken('ci', 12),
      webhookSecretSealed: this.deps.secretBox.seal(webhookSecret),
      webhookUrl: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.deps.orm.em.transactional(async (em) => {
      em.persist(merchant);
      await em.flush();
      // Its first API key: the credential the merchant's integration starts with (docs/access.md).
      await em.execute(
        `insert into api_key (id, merchant_id, label, role, client_id, client_secret_hash, created_at, created_by) values (?, ?, 'Default key', 'developer', ?, ?, ?, ?)`,
        [timeOrderedUuid(), merchant.id, merchant.clientId, sha256Hex(clientSecret), now, command.createdBy ?? 'operator'],
      );
      if (audit) {
        await this.deps.audit.recordOn(em, {
          merchantId: merchant.id,
          ...audit,
          action: 'merchant.created',
          target: { type: 'merchant', id: merchant.id },
          after: { name, client_id: merchant.clientId },
        });
      }
    });
    await this.deps.created?.emit({ merchantId: merchant.id });
    this.deps.logger.info({ merchantId: merchant.id, clientId: merchant.clientId }, 'merchant created');
    return { merchant, clientSecret, webhookSecret };
  }

  /** `fresh`: read past the request's identity map (after a change made on another EntityManager). */
  async getMerchant(merchantId: string, fresh = false): Promise<Merchant> {
    const merchant = await this.deps.orm.em.findOne(Merchant, { id: merchantId }, fresh ? { refresh: true } : {});
    if (!merchant) throw AppError.notFound('Merchant');
    return merchant;
  }

  /** The hosted checkout page's logo (where this service serves it) and the origins that may frame it. */
  async checkoutSettings(merchantId: string): Promise<CheckoutSettings> {
    const merchant = await this.getMerchant(merchantId);
    return this.settingsOf(await this.logoOf(this.deps.orm.em, merchantId), merchant.checkoutEmbedOrigins);
  }

  /**
   * Changes the checkout page's settings; a change (and only a change) writes one `checkout.settings_changed` entry.
   * A logo is stored here, its bytes checked by content (checkoutSettingsSchema), and served from this service's own
   * origin: the page never makes the payer's browser fetch anything from elsewhere.
   */
  async setCheckoutSettings(merchantId: string, command: CheckoutSettingsCommand, audit?: AuditContext): Promise<CheckoutSettings> {
    const body = parseInput(checkoutSettingsSchema, command);
    return this.deps.orm.em.fork().transactional(async (em) => {
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = this.deps.clock.now();
      const before = { logo: await this.logoOf(em, merchantId), embedOrigins: [...merchant.checkoutEmbedOrigins] };
      let logo = before.logo;
      if (body.logo === null && logo !== null) {
        await em.execute('delete from checkout_logo where merchant_id = ?', [merchantId]);
        logo = null;
      } else if (body.logo && body.logo.sha256 !== logo) {
        await em.execute(
          `insert into checkout_logo (merchant_id, sha256, content_type, content, created_at) values (?, ?, ?, ?, ?)
           on conflict (merchant_id) do update set sha256 = excluded.sha256, content_type = excluded.content_type, content = excluded.content, created_at = excluded.created_at`,
          [merchantId, body.logo.sha256, body.logo.contentType, body.logo.bytes, now],
        );
        logo = body.logo.sha256;
      }
      if (body.embedOrigins !== undefined) merchant.checkoutEmbedOrigins = [...new Set(body.embedOrigins ?? [])];
      const after = { logo, embedOrigins: [...merchant.checkoutEmbedOrigins] };
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        merchant.updatedAt = now;
        if (audit) {
          await this.deps.audit.recordOn(em, {
            merchantId,
            ...audit,
            action: 'checkout.settings_changed',
            target: { type: 'merchant', id: merchantId },
            before: { logo_sha256: before.logo, embed_origins: before.embedOrigins },
            after: { logo_sha256: after.logo, embed_origins: after.embedOrigins },
          });
        }
      }
      await em.flush();
      return this.settingsOf(after.logo, after.embedOrigins);
    });
  }

  /** The digest of the merchant's logo (its public name), or null when it has none. */
  private async logoOf(em: Pick<Orm['em'], 'execute'>, merchantId: string): Promise<string | null> {
    const [row] = await em.execute<Array<{ sha256: string }>>('select sha256 from checkout_logo where merchant_id = ?', [merchantId]);
    return row?.sha256 ?? null;
  }

  private settingsOf(logo: string | null, embedOrigins: readonly string[]): CheckoutSettings {
    return { logoUrl: logo === null ? null : `${this.deps.publicAddress.url}${checkoutLogoPath(logo)}`, embedOrigins: [...embedOrigins] };
  }

  /** Whether the merchant's transfers have their beneficiary_name checked (on unless turned off). */
  async nameCheck(merchantId: string): Promise<boolean> {
    return (await this.getMerchant(merchantId)).nameCheck;
  }

  /** Turns the name check on or off; a change (and only a change) writes one `transfers.name_check_changed` entry. */
  async setNameCheck(merchantId: string, command: NameCheckCommand, audit?: AuditContext): Promise<boolean> {
    const body = parseInput(nameCheckSchema, command);
    return this.deps.orm.em.fork().transactional(async (em) => {
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = merchant.nameCheck;
      if (before !== body.enabled) {
        merchant.nameCheck = body.enabled;
        merchant.updatedAt = this.deps.clock.now();
        if (audit) {
          await this.deps.audit.recordOn(em, {
            merchantId,
            ...audit,
            action: 'transfers.name_check_changed',
            target: { type: 'merchant', id: merchantId },
            before: { enabled: before },
            after: { enabled: body.enabled },
          });
        }
      }
      await em.flush();
      return merchant.nameCheck;
    });
  }

  /** The plaintext webhook secret, for signing deliveries. Never returned through an API. */
  webhookSecretOf(merchant: Merchant): string {
    return this.deps.secretBox.open(merchant.webhookSecretSealed);
  }

  /**
   * Sandbox first start: an empty database gets one demo merchant, and then `andThen` runs for the demo merchant
   * (made now, or found: its owner is made with it, or on a database from before people existed). One advisory
   * lock covers both, so two instances starting together create one merchant and one owner, and each is shown by
   * the instance that made it: the other waits, then finds both.
   */
  async ensureDemoMerchant<T>(andThen: (merchantId: string) => Promise<T>): Promise<{ made: MerchantCredentials | null; then: T | null }> {
    return withAdvisoryLock(this.deps.orm, LOCK_KEYS.seed, async () => {
      const count = await this.deps.orm.em.count(Merchant, {});
      const made = count === 0 ? await this.createMerchant({ name: DEMO_MERCHANT_NAME }) : null;
      const merchant = made?.merchant ?? (await this.demoMerchant());
      return { made, then: merchant ? await andThen(merchant.id) : null };
    });
  }

  /**
   * The sandbox's demo merchant, as ensureDemoMerchant made it: the database's first merchant, made
   * on an empty database. Null when the first merchant is another (the database began in
   * production, or with a merchant an operator created).
   */
  async demoMerchant(): Promise<Merchant | null> {
    const [first] = await this.deps.orm.em.find(Merchant, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1 });
    return first?.name === DEMO_MERCHANT_NAME ? first : null;
  }
}
