import type { FastifyInstance } from 'fastify';
import type { LedgerService } from '../../../modules/ledger/ledger.service';
import type { RefundService } from '../../../modules/transactions/kinds/refund/refund.service';
import {
  BalanceRecord,
  BalanceTransactionRecord,
  serializeBalance,
  serializeBalanceTransaction,
  statementCsv,
  statementJson,
  StatementRecord,
} from '../../../modules/ledger/ledger.serializer';
import { balanceTransactionListSchema, statementSchema, topUpSchema } from '../../../modules/ledger/ledger.service';
import { refundSchema } from '../../../modules/transactions/kinds/refund/refund.service';
import { fundingSchema, type FundingService } from '../../../modules/transactions/kinds/funding/funding.service';
import { FundingRecord, RefundRecord, serializeFunding, serializeRefund } from '../../../modules/transactions/transaction.serializer';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { AMOUNT_QUERY } from '../openapi/json-schema';
import { operation } from '../openapi/operation';
import type { RateLimits } from '../../rate-limits';
import { STREAM_COST, STREAM_ERRORS, sendStreamedFile } from '../streaming';

/** The services this file calls (the composition root passes them). */
type UsedServices = { ledger: LedgerService; refunds: RefundService; fundings: FundingService };

const listBalances = operation({
  operationId: 'listBalances',
  tag: 'Balances',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'Your balances, per currency',
  description:
    'available (yours to pay out and refund from), pending (settled, not yet released) and reserved (held for transfers and refunds in flight). GraphQL: balances.',
  ok: { message: 'Balances retrieved', data: BalanceRecord, list: 'count' },
});

const listBalanceTransactions = operation({
  operationId: 'listBalanceTransactions',
  tag: 'Balances',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'Every movement of your balance, newest first',
  description:
    'One per change of available + pending: collections and payments (net of fee), transfers and refunds (amount and fee held at initiation), their reversals, top-ups and adjustments. GraphQL: balanceTransactions.',
  query: balanceTransactionListSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Balance transactions retrieved', data: BalanceTransactionRecord, list: 'page' },
});

const STATEMENT_RETRIEVED = 'Statement retrieved';

const getStatement = operation({
  operationId: 'getStatement',
  tag: 'Balances',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'A statement of one currency for [from, to): CSV, or JSON with Accept: application/json',
  description:
    'The opening balance, every entry in posting order with the balance after it, the closing balance and totals by type. Opening + the entries’ net = closing, always. ' +
    'At most 100,000 entries (a longer period is a 400 on `from`); `currency` must be one the service supports. Streamed as it is read. ' +
    STREAM_COST,
  query: statementSchema,
  ok: { message: STATEMENT_RETRIEVED, data: StatementRecord },
  errors: STREAM_ERRORS,
});

const refundPayment = operation({
  operationId: 'refundPayment',
  tag: 'Refunds',
  access: 'bearer',
  permission: 'refunds:create',
  summary: 'Refund a card payment, in full or in part',
  description:
    'The amount (default: all that is left) is reserved from your available balance and sent back through the provider; refund.successful or refund.failed follows. GraphQL: refundPayment.',
  body: {
    name: 'RefundRequest',
    schema: refundSchema,
    example: { payment_reference: 'order-1042', amount: '500.00', reason: 'Returned item', reference: 'refund-1042-1' },
  },
  fields: { amount: { schema: AMOUNT_QUERY, description: 'At most what is left to refund; absent: all of it' } },
  ok: { message: 'Refund initiated; the final status comes by webhook or the status endpoint', data: RefundRecord },
  errors: {
    NOT_FOUND: 'no payment of yours has this reference',
    INVALID_STATE: 'the payment is not successful, or is refunded in full already',
    INSUFFICIENT_FUNDS: 'your available balance in the payment’s currency does not cover the refund (`details` says the shortfall: available, needed, missing)',
    DUPLICATE_REQUEST: 'reference already used',
  },
});

const getRefund = operation({
  operationId: 'getRefund',
  tag: 'Refunds',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Get a refund',
  params: { reference: 'The service’s reference (`rfd_…`) or your own `reference`' },
  ok: { message: 'Refund successful', data: RefundRecord },
  errors: { NOT_FOUND: 'no refund of yours has this reference' },
});

const FUNDING_MESSAGES: Record<string, string> = {
  processing: 'Funding created: pay the amount into bank_info before expires_at; it is credited to your available balance when it arrives',
  successful: 'Funding received',
  failed: 'Funding failed',
  expired: 'Funding expired: nothing was paid into its account before expires_at',
};
const fundingMessage = (status: string) => FUNDING_MESSAGES[status] ?? 'Funding created';

const createFunding = operation({
  operationId: 'createFunding',
  tag: 'Balances',
  access: 'bearer',
  permission: 'balances:fund',
  summary: 'Fund your balance: an account to pay into by bank transfer',
  description:
    'Answers `bank_info`, an account unique to this funding, in your name, open until `expires_at` (as a bank collection’s). ' +
    'What you pay into it is credited to your available balance when it arrives: a `funding` balance transaction, with no fee and no settlement delay; ' +
    '`funding.successful` follows (or `funding.expired`). The account is opened in your country when `currency` is its own, otherwise in a country of that currency. ' +
    'Sandbox: pay it with POST /v1/sandbox/transactions/{reference}/simulate. GraphQL: fundBalance.',
  body: { name: 'FundingRequest', schema: fundingSchema, example: { currency: 'NGN', amount: '500000.00', reference: 'float-2026-12-01' } },
  fields: { amount: { required: true, schema: AMOUNT_QUERY, description: 'What you will pay in, in `currency`, within its bank channel’s bounds' } },
  ok: { message: fundingMessage('processing'), data: FundingRecord },
  errors: {
    DUPLICATE_REQUEST: 'reference already used',
    ROUTE_UNAVAILABLE: 'no provider opens accounts to pay this currency into here; nothing was written',
    SERVER_ERROR: 'the provider’s answer is unknown (reconciled later; the funding is recorded)',
  },
});

const getFunding = operation({
  operationId: 'getFunding',
  tag: 'Balances',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Get a funding of your balance',
  params: { reference: 'The service’s reference (`fnd_…`) or your own `reference`' },
  ok: { message: fundingMessage('successful'), data: FundingRecord },
  errors: { NOT_FOUND: 'no funding of yours has this reference' },
});

const topUpBalance = operation({
  operationId: 'topUpBalance',
  tag: 'Sandbox',
  access: 'bearer',
  permission: 'balances:fund',
  sandboxOnly: true,
  summary: 'Add test money to your available balance',
  body: { name: 'TopUpRequest', schema: topUpSchema, example: { currency: 'NGN', amount: '50000.00' } },
  fields: { amount: { required: true, schema: AMOUNT_QUERY } },
  ok: { message: 'Balance topped up (sandbox)', data: BalanceRecord },
});

type Query = { Querystring: Record<string, string | undefined> };

/** The books as a merchant sees them, and refunds (issue 19); registered in the bearer-protected scope. */
export async function ledgerRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.get('/balances', listBalances.route, async (request, reply) => {
    const balances = await services.ledger.balances(authOf(request).merchantId);
    return listBalances.send(reply, balances.map(serializeBalance));
  });

  app.get<Query>('/balance-transactions', listBalanceTransactions.route, async (request, reply) => {
    const page = await services.ledger.listBalanceTransactions(authOf(request).merchantId, fromRest(request.query));
    return listBalanceTransactions.send(
      reply,
      page.items.map((i) => serializeBalanceTransaction(i.node)),
      { meta: pageMeta(page) },
    );
  });

  // CSV unless the client asks for JSON (Accept: application/json); streamed either way, charged by its entries.
  app.get<Query>('/reports/statement', getStatement.route, async (request, reply) => {
    const merchantId = authOf(request).merchantId;
    const wantsJson = /application\/json/i.test(request.headers.accept ?? '');
    return sendStreamedFile(reply, rateLimits, merchantId, async () => {
      const statement = await services.ledger.statement(merchantId, fromRest(request.query));
      const rows = statement.entryCount;
      if (wantsJson) return { rows, contentType: 'application/json; charset=utf-8', body: statementJson(statement, STATEMENT_RETRIEVED) };
      const name = `statement-${statement.currency}-${statement.from.toISOString().slice(0, 10)}-${statement.to.toISOString().slice(0, 10)}.csv`;
      return { rows, contentType: 'text/csv; charset=utf-8', filename: name, body: statementCsv(statement) };
    });
  });

  app.post('/refunds', refundPayment.route, async (request, reply) => {
    const refund = await services.refunds.refundPayment(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return refundPayment.send(reply, serializeRefund(refund));
  });

  app.post('/balance/funding', createFunding.route, async (request, reply) => {
    const funding = await services.fundings.createFunding(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return createFunding.send(reply, serializeFunding(funding), { message: fundingMessage(funding.status) });
  });

  app.get<{ Params: { reference: string } }>('/balance/funding/:reference', getFunding.route, async (request, reply) => {
    const funding = await services.fundings.getFunding(authOf(request).merchantId, request.params.reference);
    return getFunding.send(reply, serializeFunding(funding), { message: fundingMessage(funding.status) });
  });

  app.get<{ Params: { reference: string } }>('/refunds/:reference', getRefund.route, async (request, reply) => {
    const refund = await services.refunds.getRefund(authOf(request).merchantId, request.params.reference);
    return getRefund.send(reply, serializeRefund(refund), { message: `Refund ${refund.status}` });
  });
}

/** Sandbox only: test money (absent in production: 404). */
export async function sandboxLedgerRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post('/sandbox/balance/top-up', topUpBalance.route, async (request, reply) => {
    const balance = await services.ledger.topUp(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return topUpBalance.send(reply, serializeBalance(balance));
  });
}
