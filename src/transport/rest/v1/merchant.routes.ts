import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { authOf } from '../auth';
import { sendSuccess } from '../envelope';
import { serializeMerchant } from './merchant.serializer';

/** The merchant's own profile ("merchant dashboard"); registered in the bearer-protected scope. */
export async function merchantRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/merchant', async (request, reply) => {
    const merchant = await services.merchants.getMerchant(authOf(request).merchantId);
    return sendSuccess(reply, 'Merchant retrieved', serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant)));
  });
}
