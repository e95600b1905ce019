import type { FastifyInstance } from 'fastify';
import { PayoutDestinationRecord, serializePayoutDestination } from '../../../modules/payouts/destinations/destination.serializer';
import { addDestinationSchema, type PayoutDestinationService } from '../../../modules/payouts/destinations/destination.service';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';
import { originOf } from './api-key.routes';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payoutDestinations: PayoutDestinationService };

const listPayoutDestinations = operation({
  operationId: 'listPayoutDestinations',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'Where your payouts go: every destination, newest first, with pending changes',
  description: 'A person’s session only (where money goes is not an integration’s to read). GraphQL: payoutDestinations.',
  ok: { message: 'Payout destinations retrieved', data: PayoutDestinationRecord, list: 'count' },
});

const getPayoutDestination = operation({
  operationId: 'getPayoutDestination',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'One payout destination',
  params: { id: 'The destination’s id (pdest_…)' },
  ok: { message: 'Payout destination retrieved', data: PayoutDestinationRecord },
  errors: { NOT_FOUND: 'no such destination of yours' },
});

const addPayoutDestination = operation({
  operationId: 'addPayoutDestination',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'Add a bank account or wallet to pay out to, in its country’s currency',
  description:
    'The account is read as POST /v1/accounts/resolve reads it and its holder must be your business (the name rule of CONTRACT §6b). ' +
    'Your first destination in a currency is active at once; a later one is a change, pending until another member with payouts:manage ' +
    'approves it, or, when you are the only one, 24 hours after it was made (every owner and admin is emailed). GraphQL: addPayoutDestination.',
  body: {
    name: 'AddPayoutDestinationRequest',
    schema: addDestinationSchema,
    example: { country: 'NG', bank_code: '058', account_number: '0123456781', currency: 'NGN' },
  },
  fields: {
    currency: { description: 'Optional: the country’s currency (the destination’s); anything else is refused' },
    bank_code: { description: 'A bank’s code from GET /v1/banks' },
    network: { description: 'A network_id from GET /v1/crossborder/networks (a wallet’s operator, or a bank)' },
    account_number: { description: 'A bank account number; a wallet’s phone number in any form CONTRACT §6a reads' },
  },
  ok: { status: 201, message: 'Payout destination added', data: PayoutDestinationRecord },
  errors: {
    BENEFICIARY_NAME_MISMATCH: 'the account is held in another name than your business’s: nothing stored',
    INVALID_STATE: 'a change of this currency’s destination is already pending',
    NOT_FOUND: 'the provider says no such account exists',
    ROUTE_UNAVAILABLE: 'no provider here can name holders at this bank or network',
    PROVIDER_UNAVAILABLE: 'the provider could not answer, or the owners could not be emailed; nothing stored',
  },
});

const approvePayoutDestination = operation({
  operationId: 'approvePayoutDestination',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'Approve a pending change (not your own): it becomes the destination now',
  params: { id: 'The pending destination’s id' },
  ok: { message: 'Payout destination approved', data: PayoutDestinationRecord },
  errors: { NOT_FOUND: 'no such destination of yours', FORBIDDEN: 'you made the change', INVALID_STATE: 'it is not pending approval' },
});

const cancelPayoutDestination = operation({
  operationId: 'cancelPayoutDestination',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'Cancel a pending change: the current destination stays',
  params: { id: 'The pending destination’s id' },
  ok: { message: 'Payout destination change canceled', data: PayoutDestinationRecord },
  errors: { NOT_FOUND: 'no such destination of yours', INVALID_STATE: 'it is not pending approval' },
});

type IdParams = { Params: { id: string } };

/** Payout destinations (issue 38, docs/payouts.md); bearer-protected, people only. */
export async function payoutDestinationRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/payout-destinations', listPayoutDestinations.route, async (request, reply) => {
    const list = await services.payoutDestinations.list(authOf(request));
    return listPayoutDestinations.send(reply, list.map(serializePayoutDestination), { meta: { count: list.length } });
  });

  app.get<IdParams>('/payout-destinations/:id', getPayoutDestination.route, async (request, reply) => {
    return getPayoutDestination.send(reply, serializePayoutDestination(await services.payoutDestinations.get(authOf(request), request.params.id)));
  });

  app.post('/payout-destinations', addPayoutDestination.route, async (request, reply) => {
    const acting = { auth: authOf(request), origin: originOf(request) };
    return addPayoutDestination.send(reply, serializePayoutDestination(await services.payoutDestinations.add(acting, fromRest(request.body))));
  });

  app.post<IdParams>('/payout-destinations/:id/approve', approvePayoutDestination.route, async (request, reply) => {
    const acting = { auth: authOf(request), origin: originOf(request) };
    return approvePayoutDestination.send(reply, serializePayoutDestination(await services.payoutDestinations.approve(acting, request.params.id)));
  });

  app.post<IdParams>('/payout-destinations/:id/cancel', cancelPayoutDestination.route, async (request, reply) => {
    const acting = { auth: authOf(request), origin: originOf(request) };
    return cancelPayoutDestination.send(reply, serializePayoutDestination(await services.payoutDestinations.cancel(acting, request.params.id)));
  });
}
