import type { FastifyInstance } from 'fastify';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { MerchantRecord, serializeMerchant } from '../../../modules/merchants/merchant.serializer';
import { authOf } from '../auth';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { merchants: MerchantService };

const getMerchant = operation({
  operationId: 'getMerchant',
  tag: 'Merchant',
  access: 'bearer',
  permission: 'signed_in',
  summary: 'Your merchant profile',
  ok: { message: 'Merchant retrieved', data: MerchantRecord },
});

/** The merchant's own profile ("merchant dashboard"); registered in the bearer-protected scope. */
export async function merchantRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/merchant', getMerchant.route, async (request, reply) => {
    const merchant = await services.merchants.getMerchant(authOf(request).merchantId);
    return getMerchant.send(reply, serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant)));
  });
}
