import type { MerchantCredentials } from '../../../modules/merchants/merchant.service';
import type { Merchant } from '../../../modules/merchants/merchant.entity';

/** The merchant as REST shows it: never a secret, never a hash. */
export function serializeMerchant(merchant: Merchant) {
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    client_id: merchant.clientId,
    webhook_url: merchant.webhookUrl,
    created_at: merchant.createdAt.toISOString(),
    updated_at: merchant.updatedAt.toISOString(),
  };
}

/** Shown once, at creation (admin API and CLI alike). */
export function serializeCredentials(created: MerchantCredentials) {
  return {
    ...serializeMerchant(created.merchant),
    client_secret: created.clientSecret,
    webhook_secret: created.webhookSecret,
  };
}
