import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { safeEqual } from '../../../shared/crypto';
import { AppError } from '../../../shared/errors';
import { sendSuccess } from '../envelope';
import { serializeCredentials } from './merchant.serializer';

/** Operator API, guarded by ADMIN_API_KEY. Not registered at all when the key is unset. */
export async function adminRoutes(app: FastifyInstance, { services, adminApiKey }: { services: Services; adminApiKey: string }) {
  app.addHook('onRequest', async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !safeEqual(match[1]!, adminApiKey)) throw AppError.invalidToken('A valid admin API key is required');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/admin/merchants', async (request, reply) => {
    const created = await services.merchants.createMerchant(request.body);
    return sendSuccess(reply, 'Merchant created; the secrets are shown only this once', serializeCredentials(created), 201);
  });
}
