import type { FastifyInstance } from 'fastify';
import type { RatesService } from '../../../modules/rates/rates.service';
import { QuoteRecord, serializeQuote } from '../../../modules/rates/rates.serializer';
import { quoteRequestSchema } from '../../../modules/rates/rates.service';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { AMOUNT_QUERY } from '../openapi/json-schema';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { rates: RatesService };

const createQuote = operation({
  operationId: 'createQuote',
  tag: 'Rates',
  access: 'bearer',
  permission: 'rates:read',
  summary: 'Get an exchange rate quote',
  description:
    'Prices and stores a new quote on every call (never cached). Pass its quote_id to a transfer within 60 seconds to lock the rate; a quote serves one transfer.',
  query: quoteRequestSchema,
  fields: { amount: { required: true, schema: AMOUNT_QUERY, description: 'The amount in source_currency, within its minor-unit decimals' } },
  ok: { message: 'Rate quote created', data: QuoteRecord, noStore: true },
});

/** FX rate quotes (spec call order step 7); registered in the bearer-protected scope. */
export async function ratesRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/crossborder/rates', createQuote.route, async (request, reply) => {
    const quote = await services.rates.createQuote(authOf(request).merchantId, fromRest(request.query));
    // Every call prices and stores a new quote: never serve one from a cache.
    reply.header('cache-control', 'no-store');
    return createQuote.send(reply, serializeQuote(quote));
  });
}
