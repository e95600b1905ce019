import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { authOf } from '../auth';
import { sendSuccess } from '../envelope';
import { serializeQuote } from './rates.serializer';
import { fromRest } from '../field-names';

/** FX rate quotes (spec call order step 7); registered in the bearer-protected scope. */
export async function ratesRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/crossborder/rates', async (request, reply) => {
    const quote = await services.rates.createQuote(authOf(request).merchantId, fromRest(request.query));
    // Every call prices and stores a new quote: never serve one from a cache.
    reply.header('cache-control', 'no-store');
    return sendSuccess(reply, 'Rate quote created', serializeQuote(quote));
  });
}
