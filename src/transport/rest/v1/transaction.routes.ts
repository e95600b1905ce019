import type { FastifyInstance } from 'fastify';
import type { CustomerService } from '../../../modules/customers/customer.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { TRANSACTION_CSV_COLUMNS, transactionsCsv } from '../../../modules/transactions/transaction.csv';
import type { CollectionService } from '../../../modules/transactions/kinds/collection/collection.service';
import type { TransactionLifecycle } from '../../../modules/transactions/lifecycle.service';
import type { TransactionQueries } from '../../../modules/transactions/queries.service';
import type { TransferService } from '../../../modules/transactions/kinds/transfer/transfer.service';
import { collectionSchema } from '../../../modules/transactions/kinds/collection/collection.service';
import {
  CollectionInitiationRecord,
  serializeCollectionInitiation,
  serializeTransaction,
  serializeStatusChange,
  serializeTransferInitiation,
  TransactionRecord,
  TransactionStatusChangeRecord,
  TransferInitiationRecord,
} from '../../../modules/transactions/transaction.serializer';
import { simulateSchema } from '../../../modules/transactions/lifecycle.service';
import { transactionExportSchema, transactionListSchema } from '../../../modules/transactions/queries.service';
import { transferSchema } from '../../../modules/transactions/kinds/transfer/transfer.service';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';
import type { RateLimits } from '../../rate-limits';
import { STREAM_COST, STREAM_ERRORS, sendStreamedFile } from '../streaming';

/** The services this file calls (the composition root passes them). */
type UsedServices = {
  collections: CollectionService;
  customers: CustomerService;
  reference: ReferenceService;
  transactions: TransactionLifecycle;
  transactionQueries: TransactionQueries;
  transfers: TransferService;
};

/** CONTRACT §6a, said once for both initiations. */
const ACCOUNT_NUMBER =
  'Mobile money: the wallet’s national number, digits only, without the dial code or a leading 0 (712345678 for +254); `0712345678`, ' +
  '`254712345678` and `+254 712 345 678` are accepted and stored as `712345678`, and the provider gets 254712345678. Bank: the account ' +
  'number, 4 to 34 letters or digits, kept as given.';

const reference = 'The service’s reference (`col_…`, `trf_…`, `pay_…`) or your own `reference`';

/** What refuses a collection or a transfer, beyond its input and its token. */
const CROSS_BORDER_ERRORS = {
  NOT_FOUND: 'no customer of yours has this customer_uuid',
  KYC_REQUIRED: 'the customer is not KYC-approved',
  DUPLICATE_REQUEST: 'reference already used (`details` names the existing transaction)',
  ROUTE_UNAVAILABLE: 'no provider serves this country, channel, network and direction here (docs/providers.md); nothing was written',
  PROVIDER_UNAVAILABLE: 'every provider of the route is failing right now (its circuit breaker is open); nothing was written',
  SERVER_ERROR: 'the provider’s answer is unknown: the transaction is recorded and reconciled (check its status)',
};

const initiateCollection = operation({
  operationId: 'initiateCollection',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Initiate a collection',
  description:
    'Pulls funds from a KYC-approved sender. Bank: the answer carries `bankInfo`, a virtual account the sender pays into. ' +
    'Mobile money: the sender gets a payment prompt. The status is `processing`; the outcome comes by webhook or the status endpoint. ' +
    'Checks run in order: body, customer, KYC, channel, network, currency, dial code, account number, amount, reference.',
  body: {
    name: 'CollectionRequest',
    schema: collectionSchema,
    example: {
      customer_uuid: '5b0e7c1a-3f2d-4b8e-9a61-0c2f4d8e7b19',
      amount: '1500',
      currency: 'KES',
      channel_id: 'ke_momo_deposit',
      account_number: '712345678',
      network_id: 'ke_mpesa',
      reason: 'Invoice 42',
      reference: 'inv-42',
      dial_code: '+254',
      account_type: 'momo',
      country_code: 'KE',
    },
  },
  fields: {
    customer_uuid: { description: 'The sender: a customer of yours whose overall_kyc_status is approved' },
    channel_id: { description: 'A `deposit` channel of country_code with the same account_type (GET /v1/crossborder/channels)' },
    network_id: {
      description:
        'A bank or operator of that country and channel type (GET /v1/crossborder/networks). A bank collection’s virtual account is opened ' +
        'at that bank where the provider allows it (the sandbox); Flutterwave opens its accounts at its own partner bank, which `bankInfo` names.',
    },
    account_number: { description: ACCOUNT_NUMBER },
    reference: { description: 'Yours, unique across all your transactions' },
  },
  ok: { message: 'Collection initiated; the final status comes by webhook or the status endpoint', data: CollectionInitiationRecord },
  errors: CROSS_BORDER_ERRORS,
});

const initiateTransfer = operation({
  operationId: 'initiateTransfer',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Initiate a transfer',
  description:
    'Sends funds to a beneficiary’s bank account or wallet. `amount` is in source_currency; it is converted at the current rate, ' +
    'or at a live quote’s (`quote_id`), and the fee is charged on top.',
  body: {
    name: 'TransferRequest',
    schema: transferSchema,
    example: {
      customer_uuid: '5b0e7c1a-3f2d-4b8e-9a61-0c2f4d8e7b19',
      amount: '100',
      source_currency: 'USD',
      destination_currency: 'KES',
      country_code: 'KE',
      channel_id: 'ke_momo_withdrawal',
      network_id: 'ke_mpesa',
      account_number: '712345678',
      account_name: 'Jane Wanjiru',
      dial_code: '+254',
      account_type: 'momo',
      reason: 'Supplier payout',
      reference: 'payout-7',
    },
  },
  fields: {
    customer_uuid: { description: 'A customer of yours whose overall_kyc_status is approved' },
    channel_id: { description: 'A `withdrawal` channel of country_code with the same account_type' },
    account_number: { description: ACCOUNT_NUMBER },
    beneficiary_name: {
      description:
        'Optional: the name you expect the account to be held in. Where a provider of the route can name account holders, it is asked first, and a different ' +
        'name (by the rule of CONTRACT §6b: case, accents, punctuation and order ignored, one missing middle name allowed) refuses the transfer; ' +
        'skipped where none can, or when you turned the check off (PUT /v1/transfers/name-check)',
    },
    quote_id: {
      description:
        'A live quote of yours for this currency pair and amount (GET /v1/crossborder/rates), not used by another transfer: a quote serves one transfer',
    },
  },
  ok: { message: 'Transfer initiated; the final status comes by webhook or the status endpoint', data: TransferInitiationRecord },
  errors: {
    ...CROSS_BORDER_ERRORS,
    NOT_FOUND: 'no customer of yours has this customer_uuid; or, with beneficiary_name, the provider says the account does not exist (nothing was written)',
    PROVIDER_UNAVAILABLE:
      'every provider of the route is failing right now (its circuit breaker is open); nothing was written; with beneficiary_name, also when the provider could not name the account holder (the transfer is not sent unchecked)',
    BENEFICIARY_NAME_MISMATCH: 'the account is held in another name than beneficiary_name; nothing was written or sent',
    INSUFFICIENT_FUNDS:
      'your available balance in source_currency does not cover amount + fee (`details` says the shortfall: available, needed, missing); nothing was written or sent',
    INVALID_STATE: 'the quote_id was already used by another transfer (`details` names it); get a new rate',
  },
});

const listTransactions = operation({
  operationId: 'listTransactions',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'List your transactions, newest first',
  description:
    'Collections, transfers and payments, each the full record the status endpoint returns; filter by status, type, customer and creation time, and search by reference or customer email. GraphQL: transactions(filter, search).',
  query: transactionListSchema,
  fields: {
    after: { description: 'The `meta.next_cursor` of the previous page' },
    type: { description: '`collection`, `transfer` or `payment`' },
    search: { description: 'A reference, the service’s or yours (exactly), or a customer’s email (any case)' },
    payment_link_id: { description: 'Payments made on the checkout sessions this payment link (`plink_…`) opened, every attempt' },
  },
  ok: { message: 'Transactions retrieved', data: TransactionRecord, list: 'page' },
});

const exportTransactions = operation({
  operationId: 'exportTransactions',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Every transaction the filters match, as a CSV file',
  description:
    'The list’s filters and search, without paging: every matching transaction, newest first, streamed as it is read. RFC 4180 (CRLF, ' +
    'quoted where needed); amounts as decimal strings with the currency’s decimals and a currency column (a transfer’s amount is what ' +
    'you send, its fee in the same currency); times ISO 8601 in UTC. A text cell is quoted when it holds a separator (`,` `;` tab), a ' +
    'quote, a line break or a formula character (= + - @); it, and each `,`/`;`/tab-separated piece of it, that would start a formula ' +
    "is prefixed with `'`, whatever separator a spreadsheet opens the file with; amounts stay bare numbers. Columns: " +
    TRANSACTION_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ') +
    '. ' +
    STREAM_COST,
  query: transactionExportSchema,
  errors: STREAM_ERRORS,
  fields: {
    type: { description: '`collection`, `transfer`, `payment` or `refund`' },
    search: { description: 'A reference, the service’s or yours (exactly), or a customer’s email (any case)' },
  },
  raw: {
    responses: {
      '200': {
        description: 'The CSV file (`Content-Disposition: attachment`)',
        content: { 'text/csv': { schema: { type: 'string' }, example: `${TRANSACTION_CSV_COLUMNS.join(',')}\r\n` } },
      },
    },
    withErrors: true,
  },
});

const getTransaction = operation({
  operationId: 'getTransaction',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Get any transaction’s status',
  description: 'The full record of a collection, transfer or payment, with the same JSON its webhooks carry.',
  params: { reference },
  ok: { message: 'Transaction retrieved', data: TransactionRecord },
  errors: { NOT_FOUND: 'no transaction of yours has this reference' },
});

const transactionHistory = operation({
  operationId: 'transactionHistory',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'A transaction’s status history',
  description:
    'Every status change of a collection, transfer, payment or refund, oldest first: the first entry is its creation (`from_status` null). GraphQL: Transaction.history.',
  params: { reference },
  ok: { message: 'Status history retrieved', data: TransactionStatusChangeRecord, list: 'count' },
  errors: { NOT_FOUND: 'no transaction of yours has this reference' },
});

const simulateTransaction = operation({
  operationId: 'simulateTransaction',
  tag: 'Sandbox',
  access: 'bearer',
  permission: 'payments:create',
  sandboxOnly: true,
  summary: 'Decide a processing transaction now',
  description: 'Sandbox only. A payment awaiting 3-D Secure is decided on its page, not here.',
  params: { reference },
  body: { name: 'SimulateRequest', schema: simulateSchema, example: { outcome: 'successful' } },
  ok: { message: 'Transaction successful (simulated)', data: TransactionRecord },
  errors: { NOT_FOUND: 'no transaction of yours has this reference', INVALID_STATE: 'already final, or awaiting 3-D Secure' },
});

type ReferenceParams = { Params: { reference: string } };

/** Cross-border collections and transfers (spec §4.2, CONTRACT §6); registered in the bearer-protected scope. */
export async function transactionRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.post('/crossborder/global-collection', initiateCollection.route, async (request, reply) => {
    const txn = await services.collections.initiateCollection(authOf(request).merchantId, fromRest(request.body));
    return initiateCollection.send(reply, serializeCollectionInitiation(txn));
  });

  app.post('/crossborder/global-transfer', initiateTransfer.route, async (request, reply) => {
    const txn = await services.transfers.initiateTransfer(authOf(request).merchantId, fromRest(request.body));
    return initiateTransfer.send(reply, serializeTransferInitiation(txn));
  });

  // The REST twin of GraphQL's transactions(filter): newest first, paged, by status, type and customer.
  app.get<{ Querystring: Record<string, string | undefined> }>('/transactions', listTransactions.route, async (request, reply) => {
    const page = await services.transactionQueries.listTransactions(authOf(request).merchantId, fromRest(request.query));
    return listTransactions.send(
      reply,
      page.items.map((i) => serializeTransaction(i.node)),
      { meta: pageMeta(page) },
    );
  });

  // The list as a file: the same filters, every page, streamed (the dashboard's "Export CSV"), charged by its rows.
  app.get<{ Querystring: Record<string, string | undefined> }>('/transactions/export.csv', exportTransactions.route, async (request, reply) => {
    const merchantId = authOf(request).merchantId;
    return sendStreamedFile(reply, rateLimits, merchantId, async () => {
      const { count, batches } = await services.transactionQueries.exportTransactions(merchantId, fromRest(request.query));
      const customersOf = async (uuids: string[]) => new Map((await services.customers.customersByIds(merchantId, uuids)).map((c) => [c.id, c]));
      const body = transactionsCsv(batches, customersOf, (currency) => services.reference.currencyMinorUnit(currency));
      return { rows: count, contentType: 'text/csv; charset=utf-8', filename: 'transactions.csv', body };
    });
  });

  app.get<ReferenceParams>('/transactions/:reference/events', transactionHistory.route, async (request, reply) => {
    const history = await services.transactionQueries.historyOf(authOf(request).merchantId, request.params.reference);
    return transactionHistory.send(reply, history.map(serializeStatusChange), { meta: { count: history.length } });
  });

  app.get<ReferenceParams>('/crossborder/global-transfer/:reference', getTransaction.route, async (request, reply) => {
    const txn = await services.transactionQueries.getTransaction(authOf(request).merchantId, request.params.reference);
    return getTransaction.send(reply, serializeTransaction(txn));
  });
}

/** Sandbox only (not registered in production, so it answers 404 there). */
export async function sandboxRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post<ReferenceParams>('/sandbox/transactions/:reference/simulate', simulateTransaction.route, async (request, reply) => {
    const txn = await services.transactions.simulate(authOf(request).merchantId, request.params.reference, fromRest(request.body));
    return simulateTransaction.send(reply, serializeTransaction(txn), { message: `Transaction ${txn.status} (simulated)` });
  });
}
