import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { serializeBalance, serializeBalanceTransaction, serializeStatement, statementCsv } from '../../../modules/ledger/ledger.serializer';
import { serializeRefund } from '../../../modules/transactions/transaction.serializer';
import { authOf } from '../auth';
import { pageMeta, sendSuccess } from '../envelope';
import { fromRest } from '../field-names';

type Query = { Querystring: Record<string, string | undefined> };

/** The books as a merchant sees them, and refunds (issue 19); registered in the bearer-protected scope. */
export async function ledgerRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/balances', async (request, reply) => {
    const balances = await services.ledger.balances(authOf(request).merchantId);
    return sendSuccess(reply, 'Balances retrieved', balances.map(serializeBalance));
  });

  app.get<Query>('/balance-transactions', async (request, reply) => {
    const page = await services.ledger.listBalanceTransactions(authOf(request).merchantId, fromRest(request.query));
    return sendSuccess(
      reply,
      'Balance transactions retrieved',
      page.items.map((i) => serializeBalanceTransaction(i.node)),
      200,
      pageMeta(page),
    );
  });

  // CSV unless the client asks for JSON (Accept: application/json).
  app.get<Query>('/reports/statement', async (request, reply) => {
    const statement = await services.ledger.statement(authOf(request).merchantId, fromRest(request.query));
    const wantsJson = /application\/json/i.test(request.headers.accept ?? '');
    if (wantsJson) return sendSuccess(reply, 'Statement retrieved', serializeStatement(statement));
    const name = `statement-${statement.currency}-${statement.from.toISOString().slice(0, 10)}-${statement.to.toISOString().slice(0, 10)}.csv`;
    return reply
      .code(200)
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(statementCsv(statement));
  });

  app.post('/refunds', async (request, reply) => {
    const refund = await services.refunds.refundPayment(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Refund initiated; the final status comes by webhook or the status endpoint', serializeRefund(refund));
  });

  app.get<{ Params: { reference: string } }>('/refunds/:reference', async (request, reply) => {
    const refund = await services.refunds.getRefund(authOf(request).merchantId, request.params.reference);
    return sendSuccess(reply, `Refund ${refund.status}`, serializeRefund(refund));
  });
}

/** Sandbox only: test money (absent in production: 404). */
export async function sandboxLedgerRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post('/sandbox/balance/top-up', async (request, reply) => {
    const balance = await services.ledger.topUp(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Balance topped up (sandbox)', serializeBalance(balance));
  });
}
