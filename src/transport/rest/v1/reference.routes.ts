import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { sendSuccess } from '../envelope';
import { serializeChannel, serializeCountry, serializeNetwork } from './reference.serializer';
import { fromRest } from '../field-names';

/** Cross-border lookups (spec call order steps 4–6); registered in the bearer-protected scope. */
export async function referenceRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/crossborder/countries', async (_request, reply) => {
    const countries = services.reference.listCountries();
    return sendSuccess(reply, 'Countries retrieved', countries.map(serializeCountry), 200, { count: countries.length });
  });

  app.get('/crossborder/channels', async (request, reply) => {
    const channels = services.reference.lookupChannels(fromRest(request.query));
    return sendSuccess(reply, 'Channels retrieved', channels.map(serializeChannel), 200, { count: channels.length });
  });

  app.get('/crossborder/networks', async (request, reply) => {
    const networks = services.reference.lookupNetworks(fromRest(request.query));
    return sendSuccess(reply, 'Networks retrieved', networks.map(serializeNetwork), 200, { count: networks.length });
  });
}
