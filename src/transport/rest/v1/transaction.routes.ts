import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { serializeCollectionInitiation, serializeTransaction, serializeTransferInitiation } from '../../../modules/transactions/transaction.serializer';
import { authOf } from '../auth';
import { pageMeta, sendSuccess } from '../envelope';
import { fromRest } from '../field-names';

type ReferenceParams = { Params: { reference: string } };

/** Cross-border collections and transfers (spec §4.2, CONTRACT §6); registered in the bearer-protected scope. */
export async function transactionRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post('/crossborder/global-collection', async (request, reply) => {
    const txn = await services.collections.initiateCollection(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Collection initiated; the final status comes by webhook or the status endpoint', serializeCollectionInitiation(txn));
  });

  app.post('/crossborder/global-transfer', async (request, reply) => {
    const txn = await services.transfers.initiateTransfer(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Transfer initiated; the final status comes by webhook or the status endpoint', serializeTransferInitiation(txn));
  });

  // The REST twin of GraphQL's transactions(filter): newest first, paged, by status, type and customer.
  app.get<{ Querystring: Record<string, string | undefined> }>('/transactions', async (request, reply) => {
    const page = await services.transactions.listTransactions(authOf(request).merchantId, fromRest(request.query));
    return sendSuccess(
      reply,
      'Transactions retrieved',
      page.items.map((i) => serializeTransaction(i.node)),
      200,
      pageMeta(page),
    );
  });

  app.get<ReferenceParams>('/crossborder/global-transfer/:reference', async (request, reply) => {
    const txn = await services.transactions.getTransaction(authOf(request).merchantId, request.params.reference);
    return sendSuccess(reply, 'Transaction retrieved', serializeTransaction(txn));
  });
}

/** Sandbox only (not registered in production, so it answers 404 there). */
export async function sandboxRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post<ReferenceParams>('/sandbox/transactions/:reference/simulate', async (request, reply) => {
    const txn = await services.transactions.simulate(authOf(request).merchantId, request.params.reference, fromRest(request.body));
    return sendSuccess(reply, `Transaction ${txn.status} (simulated)`, serializeTransaction(txn));
  });
}
