import type { FastifyInstance } from 'fastify';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import {
  ChannelRecord,
  CountryRecord,
  NetworkRecord,
  serializeChannel,
  serializeCountry,
  serializeNetwork,
} from '../../../modules/reference/reference.serializer';
import { channelsQuerySchema, networksQuerySchema } from '../../../modules/reference/reference.service';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { reference: ReferenceService };

const listCountries = operation({
  operationId: 'listCountries',
  tag: 'Lookups',
  access: 'bearer',
  permission: 'signed_in',
  summary: 'List the supported countries',
  ok: { message: 'Countries retrieved', data: CountryRecord, list: 'count' },
});

const listChannels = operation({
  operationId: 'listChannels',
  tag: 'Lookups',
  access: 'bearer',
  permission: 'signed_in',
  summary: 'List a country’s channels',
  description: 'Use a `deposit` channel for a collection and a `withdrawal` channel for a transfer.',
  query: channelsQuerySchema,
  ok: { message: 'Channels retrieved', data: ChannelRecord, list: 'count' },
  errors: { NOT_FOUND: 'a well-formed country_code the service does not cover' },
});

const listNetworks = operation({
  operationId: 'listNetworks',
  tag: 'Lookups',
  access: 'bearer',
  permission: 'signed_in',
  summary: 'List a country’s banks or mobile money operators',
  query: networksQuerySchema,
  ok: { message: 'Networks retrieved', data: NetworkRecord, list: 'count' },
  errors: { NOT_FOUND: 'a well-formed country_code the service does not cover' },
});

/** Cross-border lookups (spec call order steps 4–6); registered in the bearer-protected scope. */
export async function referenceRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/crossborder/countries', listCountries.route, async (_request, reply) => {
    const countries = services.reference.listCountries();
    return listCountries.send(reply, countries.map(serializeCountry), { meta: { count: countries.length } });
  });

  app.get('/crossborder/channels', listChannels.route, async (request, reply) => {
    const channels = services.reference.lookupChannels(fromRest(request.query));
    return listChannels.send(reply, channels.map(serializeChannel), { meta: { count: channels.length } });
  });

  app.get('/crossborder/networks', listNetworks.route, async (request, reply) => {
    const networks = services.reference.lookupNetworks(fromRest(request.query));
    return listNetworks.send(reply, networks.map(serializeNetwork), { meta: { count: networks.length } });
  });
}
