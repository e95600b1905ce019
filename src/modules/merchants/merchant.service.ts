import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LOCK_KEYS, withAdvisoryLock, type Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import { SecretBox, randomToken, sha256Hex } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { requiredText } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';
import { Merchant, webhookSecretOverlapUntil } from './merchant.entity';

export const createMerchantSchema = z.object({ name: requiredText(200) });
export type CreateMerchantCommand = Command<typeof createMerchantSchema>;

/** Returned once, at creation: the only time the secrets exist outside the service. */
export interface MerchantCredentials {
  merchant: Merchant;
  clientSecret: string;
  webhookSecret: string;
}

/** Standard Webhooks secret format: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** What MerchantService is built with (the composition root passes it). */
export interface MerchantServiceDeps {
  orm: Orm;
  clock: Clock;
  secretBox: SecretBox;
  logger: Logger;
  /** What a new merchant starts with (the sandbox's opening balance); re-run at start for any merchant a crash left without it. */
  opened?: (merchantId: string) => Promise<void>;
}

export class MerchantService {
  private readonly deps: Required<MerchantServiceDeps>;

  constructor(deps: MerchantServiceDeps) {
    this.deps = { opened: async () => {}, ...deps };
  }

  /** Until when a rotated-out webhook secret still signs beside the current one (by the service's clock); null when none does. */
  webhookSecretOverlapUntil(merchant: Merchant): Date | null {
    return webhookSecretOverlapUntil(merchant.previousWebhookSecrets, this.deps.clock.now());
  }

  async createMerchant(command: CreateMerchantCommand): Promise<MerchantCredentials> {
    const { name } = parseInput(createMerchantSchema, command);
    const clientSecret = randomToken('sk');
    const webhookSecret = newWebhookSecret();
    const now = this.deps.clock.now();
    const merchant = this.deps.orm.em.create(Merchant, {
      name,
      clientId: randomToken('ci', 12),
      clientSecretHash: sha256Hex(clientSecret),
      webhookSecretSealed: this.deps.secretBox.seal(webhookSecret),
      webhookUrl: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.deps.orm.em.persistAndFlush(merchant);
    await this.deps.opened(merchant.id);
    this.deps.logger.info({ merchantId: merchant.id, clientId: merchant.clientId }, 'merchant created');
    return { merchant, clientSecret, webhookSecret };
  }

  /** Throws INVALID_CLIENT unless the pair is right; the same answer and timing for an unknown client_id. */
  /** `fresh`: read past the request's identity map (after a change made on another EntityManager). */
  async getMerchant(merchantId: string, fresh = false): Promise<Merchant> {
    const merchant = await this.deps.orm.em.findOne(Merchant, { id: merchantId }, fresh ? { refresh: true } : {});
    if (!merchant) throw AppError.notFound('Merchant');
    return merchant;
  }

  /** The plaintext webhook secret, for signing deliveries. Never returned through an API. */
  webhookSecretOf(merchant: Merchant): string {
    return this.deps.secretBox.open(merchant.webhookSecretSealed);
  }

  /**
   * Sandbox first start: an empty database gets one demo merchant. The advisory
   * lock makes two instances starting together create one, not two.
   */
  async ensureDemoMerchant(): Promise<MerchantCredentials | null> {
    return withAdvisoryLock(this.deps.orm, LOCK_KEYS.seed, async () => {
      const count = await this.deps.orm.em.count(Merchant, {});
      return count === 0 ? this.createMerchant({ name: 'Demo Merchant' }) : null;
    });
  }
}
