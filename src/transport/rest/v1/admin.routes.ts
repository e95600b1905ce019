import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { safeEqual } from '../../../shared/crypto';
import { AppError } from '../../../shared/errors';
import type { RateLimits } from '../../rate-limits';
import { limitRequest } from '../rate-limit';
import { sendSuccess } from '../envelope';
import { adminKycRoutes } from './admin-kyc.routes';
import { serializeCredentials, serializeMerchant } from './merchant.serializer';
import { parseUuid } from '../../../shared/validation';
import { fromRest } from '../field-names';
import { serializeBalance } from '../../../modules/ledger/ledger.serializer';

/** Operator API, guarded by ADMIN_API_KEY. Not registered at all when the key is unset. */
export async function adminRoutes(
  app: FastifyInstance,
  { services, adminApiKey, rateLimits }: { services: Services; adminApiKey: string; rateLimits: RateLimits },
) {
  app.addHook('onRequest', async (request, reply) => {
    // Counted before the key is checked: a wrong key costs as much as a right one.
    await limitRequest(rateLimits, 'admin', request.ip, reply);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !safeEqual(match[1]!, adminApiKey)) throw AppError.invalidToken('A valid admin API key is required');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // A child of this scope: it inherits the key check above (tested in test/e2e/kyc/review.test.ts).
  await app.register(adminKycRoutes, { services });

  app.post('/admin/merchants', async (request, reply) => {
    const created = await services.merchants.createMerchant(fromRest(request.body));
    return sendSuccess(reply, 'Merchant created; the secrets are shown only this once', serializeCredentials(created), 201);
  });

  // Disabling revokes every token the merchant holds (requests and sockets end on every instance) and refuses new ones.
  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/disable', async (request, reply) => {
    const merchant = await services.oauth.setMerchantDisabled(parseUuid(request.params.merchantId, 'merchantId'), true);
    return sendSuccess(
      reply,
      'Merchant disabled; its tokens are revoked',
      serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant), { admin: true }),
    );
  });

  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/enable', async (request, reply) => {
    const merchant = await services.oauth.setMerchantDisabled(parseUuid(request.params.merchantId, 'merchantId'), false);
    return sendSuccess(
      reply,
      'Merchant enabled; it can get new tokens',
      serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant), { admin: true }),
    );
  });

  // The books (docs/ledger.md): an adjustment against the external-funds account, with its reason; the same reference posts once.
  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/adjustments', async (request, reply) => {
    const { balance, posted } = await services.ledger.adjust(parseUuid(request.params.merchantId, 'merchantId'), fromRest(request.body));
    return sendSuccess(
      reply,
      posted ? 'Adjustment posted' : 'Adjustment already posted under this reference; nothing changed',
      serializeBalance(balance),
      posted ? 201 : 200,
    );
  });

  // A merchant's own price for one kind (and currency, or all): the defaults (FEE_DEFAULTS) apply to the rest.
  app.put<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/fees', async (request, reply) => {
    const merchantId = parseUuid(request.params.merchantId, 'merchantId');
    await services.fees.set(merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Fee schedule updated', await feeSchedule(services, merchantId));
  });

  app.get<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/fees', async (request, reply) => {
    const merchantId = parseUuid(request.params.merchantId, 'merchantId');
    await services.merchants.getMerchant(merchantId);
    return sendSuccess(reply, 'Fee schedule retrieved', await feeSchedule(services, merchantId));
  });
}

async function feeSchedule(services: Services, merchantId: string) {
  const rules = await services.fees.list(merchantId);
  return rules.map((r) => ({ kind: r.kind, currency: r.currency, percent: r.percent.toFixed(), fixed: r.fixed.toFixed() }));
}
