import type { MerchantCredentials } from '../../../modules/merchants/merchant.service';
import type { Merchant } from '../../../modules/merchants/merchant.entity';

/**
 * The merchant as REST shows it: never a secret, never a hash. `overlapUntil`: until when a
 * rotated-out webhook secret still signs (MerchantService.webhookSecretOverlapUntil).
 * Operators also see whether it is disabled.
 */
export function serializeMerchant(merchant: Merchant, overlapUntil: Date | null, { admin = false } = {}) {
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    client_id: merchant.clientId,
    webhook_url: merchant.webhookUrl,
    webhook_secret_overlap_until: overlapUntil?.toISOString() ?? null,
    ...(admin ? { disabled_at: merchant.disabledAt?.toISOString() ?? null } : {}),
    created_at: merchant.createdAt.toISOString(),
    updated_at: merchant.updatedAt.toISOString(),
  };
}

/** Shown once, at creation (admin API and CLI alike). */
export function serializeCredentials(created: MerchantCredentials) {
  return {
    ...serializeMerchant(created.merchant, null),
    client_secret: created.clientSecret,
    webhook_secret: created.webhookSecret,
  };
}
