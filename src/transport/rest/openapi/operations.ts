import type { z } from 'zod';
import { revokeRequestSchema, tokenRequestSchema } from '../../../modules/auth/oauth.service';
import { enrollCustomerSchema } from '../../../modules/customers/customer.service';
import { submitKycSchema } from '../../../modules/kyc/kyc.service';
import { operatorDecisionSchema } from '../../../modules/kyc/kyc-review.inputs';
import { createMerchantSchema } from '../../../modules/merchants/merchant.service';
import { paymentSchema } from '../../../modules/payments/payment.service';
import { refundSchema } from '../../../modules/payments/refund.service';
import { setFeeSchema } from '../../../modules/ledger/fee-schedule';
import { adjustmentSchema, balanceTransactionListSchema, statementSchema, topUpSchema } from '../../../modules/ledger/ledger.service';
import { quoteRequestSchema } from '../../../modules/rates/rates.service';
import { channelsQuerySchema, networksQuerySchema } from '../../../modules/reference/reference.service';
import { collectionSchema } from '../../../modules/transactions/collection.service';
import { simulateSchema, transactionListSchema } from '../../../modules/transactions/transaction.service';
import { transferSchema } from '../../../modules/transactions/transfer.service';
import { endpointSchema, eventListSchema } from '../../../modules/webhooks/webhook.service';
import type { ErrorCode } from '../../../shared/errors';
import { pageRequestSchema } from '../../../shared/pagination';
import type { JsonSchema } from './json-schema';
import { SANDBOX_3DS_PAGE } from './sandbox-page.operations';

/**
 * Every /v1 route, described once. Adding a route to the REST layer means adding
 * one entry here (test/e2e/rest/openapi.test.ts fails until it is). Request
 * schemas are the services' own zod schemas; answers name a schema of
 * responses.ts; the builder (document.ts) adds the envelope, the security, the
 * token and body errors each kind of access implies, and the components.
 */
export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/v1/customer/{uuid}`. */
  path: `/v1/${string}`;
  operationId: string;
  tag: TagName;
  summary: string;
  description?: string;
  /**
   * public: no credentials; client: none either, but the OAuth client may authenticate (HTTP Basic or body);
   * bearer: a merchant's access token; admin: ADMIN_API_KEY as a bearer token (the route exists only when it is set).
   */
  access: 'public' | 'client' | 'bearer' | 'admin';
  /** Registered only when PAYMENTS_ENV=sandbox; left out of the production document. */
  sandboxOnly?: true;
  /** Path parameters: name → description. */
  params?: Record<string, string>;
  /** The service's schema of the query string. */
  query?: z.ZodType;
  /** The service's schema of the JSON body, its component name, and a valid example. `form`: also form-urlencoded. */
  body?: { name: string; schema: z.ZodType; example: Record<string, unknown>; form?: true };
  /** What a zod schema cannot say about a top-level query or body field. */
  fields?: Record<string, FieldDoc>;
  /**
   * The success answer: the envelope's message, its `data` (the name of a schema in responses.ts; left out,
   * just "an object" until someone writes the shape), and a list's `meta`.
   */
  ok?: { status?: 200 | 201; message: string; data?: string; list?: 'count' | 'page'; noStore?: true };
  /** The errors this route answers beyond those its access and input imply, each with when. */
  errors?: Partial<Record<ErrorCode, string>>;
  /** A route that is not JSON (the sandbox's HTML page): its request body and answers as written. */
  raw?: { requestBody?: JsonSchema; responses: Record<string, JsonSchema> };
}

interface FieldDoc {
  description?: string;
  /** Replaces the generated schema (for a field the service parses itself). */
  schema?: JsonSchema;
  required?: true;
}

export const TAGS = {
  OAuth: 'Access tokens (OAuth 2.0 client credentials, refresh with rotation, revocation). No bearer token needed.',
  Merchant: 'The merchant’s own profile.',
  Customers: 'Enrollment and KYC (spec call order, steps 1–3).',
  Lookups: 'Countries, channels and networks (steps 4–6): short reference lists, not paged.',
  Rates: 'FX quotes (step 7).',
  Transactions: 'Cross-border collections and transfers (steps 8–9) and the status of any transaction.',
  Payments: 'Domestic card payments and 3-D Secure.',
  Webhooks: 'Where events are delivered, the signing secret, and the event log.',
  Balances: 'Your books: balances per currency, every movement of them, and statements (docs/ledger.md).',
  Refunds: 'Refunds of card payments, full or partial.',
  Sandbox: 'Sandbox only: these routes do not exist in production.',
  Admin: 'Operator API. Exists only when the service has ADMIN_API_KEY set; authenticate with that key as a bearer token.',
  Reference: 'This document and its reader.',
  Providers: 'Where payment providers send their notifications (docs/providers.md). Not for merchants.',
} as const;
type TagName = keyof typeof TAGS;

const AMOUNT_QUERY: JsonSchema = { type: 'string', pattern: '^\\d+(\\.\\d+)?$', examples: ['100'] };
const reference = 'The service’s reference (`col_…`, `trf_…`, `pay_…`) or your own `reference`';

/** Issue 19: the books and refunds. */
const LEDGER_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/v1/balances',
    operationId: 'listBalances',
    tag: 'Balances',
    access: 'bearer',
    summary: 'Your balances, per currency',
    description:
      'available (yours to pay out and refund from), pending (settled, not yet released) and reserved (held for transfers and refunds in flight). GraphQL: balances.',
    ok: { message: 'Balances retrieved', data: 'Balance', list: 'count' },
  },
  {
    method: 'get',
    path: '/v1/balance-transactions',
    operationId: 'listBalanceTransactions',
    tag: 'Balances',
    access: 'bearer',
    summary: 'Every movement of your balance, newest first',
    description:
      'One per change of available + pending: collections and payments (net of fee), transfers and refunds (amount and fee held at initiation), their reversals, top-ups and adjustments. GraphQL: balanceTransactions.',
    query: balanceTransactionListSchema,
    fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
    ok: { message: 'Balance transactions retrieved', data: 'BalanceTransaction', list: 'page' },
  },
  {
    method: 'get',
    path: '/v1/reports/statement',
    operationId: 'getStatement',
    tag: 'Balances',
    access: 'bearer',
    summary: 'A statement of one currency for [from, to): CSV, or JSON with Accept: application/json',
    description:
      'The opening balance, every entry in posting order with the balance after it, the closing balance and totals by type. Opening + the entries’ net = closing, always.',
    query: statementSchema,
    ok: { message: 'Statement retrieved', data: 'Statement' },
  },
  {
    method: 'post',
    path: '/v1/refunds',
    operationId: 'refundPayment',
    tag: 'Refunds',
    access: 'bearer',
    summary: 'Refund a card payment, in full or in part',
    description:
      'The amount (default: all that is left) is reserved from your available balance and sent back through the provider; refund.successful or refund.failed follows. GraphQL: refundPayment.',
    body: {
      name: 'RefundRequest',
      schema: refundSchema,
      example: { payment_reference: 'order-1042', amount: '500.00', reason: 'Returned item', reference: 'refund-1042-1' },
    },
    fields: { amount: { schema: AMOUNT_QUERY, description: 'At most what is left to refund; absent: all of it' } },
    ok: { message: 'Refund initiated; the final status comes by webhook or the status endpoint', data: 'Refund' },
    errors: {
      NOT_FOUND: 'no payment of yours has this reference',
      INVALID_STATE: 'the payment is not successful, or is refunded in full already',
      INSUFFICIENT_FUNDS: 'your available balance in the payment’s currency does not cover the refund',
      DUPLICATE_REQUEST: 'reference already used',
    },
  },
  {
    method: 'get',
    path: '/v1/refunds/{reference}',
    operationId: 'getRefund',
    tag: 'Refunds',
    access: 'bearer',
    summary: 'Get a refund',
    params: { reference: 'The service’s reference (`rfd_…`) or your own `reference`' },
    ok: { message: 'Refund successful', data: 'Refund' },
    errors: { NOT_FOUND: 'no refund of yours has this reference' },
  },
  {
    method: 'post',
    path: '/v1/sandbox/balance/top-up',
    operationId: 'topUpBalance',
    tag: 'Sandbox',
    access: 'bearer',
    sandboxOnly: true,
    summary: 'Add test money to your available balance',
    body: { name: 'TopUpRequest', schema: topUpSchema, example: { currency: 'NGN', amount: '50000.00' } },
    fields: { amount: { required: true, schema: AMOUNT_QUERY } },
    ok: { message: 'Balance topped up (sandbox)', data: 'Balance' },
  },
  {
    method: 'post',
    path: '/v1/admin/merchants/{merchantId}/adjustments',
    operationId: 'adjustBalance',
    tag: 'Admin',
    access: 'admin',
    summary: 'Post an adjustment to a merchant’s available balance',
    description:
      'Against the external-funds account, with its reason; shown in the merchant’s statement as `adjustment`. A negative amount debits (never below zero). The same reference posts once (200 then, 201 the first time).',
    params: { merchantId: 'The merchant’s id' },
    body: {
      name: 'AdjustmentRequest',
      schema: adjustmentSchema,
      example: { currency: 'NGN', amount: '-250.00', reason: 'Chargeback fee', reference: 'ADJ-42' },
    },
    fields: { amount: { required: true, schema: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }, description: 'Signed' } },
    ok: { status: 201, message: 'Adjustment posted', data: 'Balance' },
    errors: { NOT_FOUND: 'no merchant has this id', INSUFFICIENT_FUNDS: 'a debit the available balance cannot cover' },
  },
  {
    method: 'put',
    path: '/v1/admin/merchants/{merchantId}/fees',
    operationId: 'setMerchantFee',
    tag: 'Admin',
    access: 'admin',
    summary: 'Set a merchant’s price for one kind (and currency, or every currency)',
    params: { merchantId: 'The merchant’s id' },
    body: { name: 'FeeRuleRequest', schema: setFeeSchema, example: { kind: 'payment', currency: 'NGN', percent: '1.4', fixed: '100.00' } },
    fields: { percent: { required: true, schema: AMOUNT_QUERY }, fixed: { schema: AMOUNT_QUERY, description: 'Needs a currency' } },
    ok: { message: 'Fee schedule updated', data: 'FeeRule', list: 'count' },
    errors: { NOT_FOUND: 'no merchant has this id' },
  },
  {
    method: 'get',
    path: '/v1/admin/merchants/{merchantId}/fees',
    operationId: 'getMerchantFees',
    tag: 'Admin',
    access: 'admin',
    summary: 'A merchant’s own prices (the defaults apply to the rest)',
    params: { merchantId: 'The merchant’s id' },
    ok: { message: 'Fee schedule retrieved', data: 'FeeRule', list: 'count' },
    errors: { NOT_FOUND: 'no merchant has this id' },
  },
];

export const OPERATIONS: OperationSpec[] = [
  // OAuth (oauth.routes.ts)
  {
    method: 'post',
    path: '/v1/oauth/token',
    operationId: 'issueToken',
    tag: 'OAuth',
    access: 'client',
    summary: 'Issue an access token',
    description:
      'Client credentials grant (client_id and client_secret in the body, or HTTP Basic) or refresh_token grant. ' +
      'The access token lasts 3600 s. A refresh token is single use: presenting a used one revokes its whole family. JSON or form body. Never cached.',
    body: {
      name: 'TokenRequest',
      schema: tokenRequestSchema,
      form: true,
      example: { grant_type: 'client_credentials', client_id: 'ci_3f9a…', client_secret: 'sk_9b1e…' },
    },
    fields: { grant_type: { description: '`client_credentials` or `refresh_token`' } },
    ok: { message: 'Access token issued', data: 'TokenGrant', noStore: true },
    errors: {
      INVALID_REQUEST: 'grant_type missing or unsupported; refresh_token missing; client authenticated twice (Basic and body)',
      INVALID_CLIENT: 'wrong client credentials',
      INVALID_TOKEN: 'refresh token unknown, expired, revoked or already used',
    },
  },
  {
    method: 'post',
    path: '/v1/oauth/revoke',
    operationId: 'revokeToken',
    tag: 'OAuth',
    access: 'client',
    summary: 'Revoke a token and its family',
    description:
      'RFC 7009: revokes a refresh or access token’s whole family. Answers 200 whether or not the token was known. If the client authenticates, only its own tokens are revoked.',
    body: { name: 'RevokeRequest', schema: revokeRequestSchema, form: true, example: { token: 'rt_5c0f…' } },
    ok: { message: 'Token revoked', data: 'Empty', noStore: true },
    errors: { INVALID_CLIENT: 'client credentials given, and wrong' },
  },

  // Admin (admin.routes.ts)
  {
    method: 'post',
    path: '/v1/admin/merchants',
    operationId: 'createMerchant',
    tag: 'Admin',
    access: 'admin',
    summary: 'Create a merchant',
    description: 'Returns the merchant with its client_secret and webhook_secret, shown only this once.',
    body: { name: 'CreateMerchantRequest', schema: createMerchantSchema, example: { name: 'Acme Ltd' } },
    ok: { status: 201, message: 'Merchant created; the secrets are shown only this once', data: 'MerchantCredentials', noStore: true },
  },
  {
    method: 'post',
    path: '/v1/admin/merchants/{merchantId}/disable',
    operationId: 'disableMerchant',
    tag: 'Admin',
    access: 'admin',
    summary: 'Disable a merchant',
    description: 'Revokes every token the merchant holds (its requests and open sockets end on every instance) and refuses new ones. Idempotent.',
    params: { merchantId: 'The merchant id (a UUID)' },
    ok: { message: 'Merchant disabled; its tokens are revoked', noStore: true },
    errors: { NOT_FOUND: 'no such merchant' },
  },
  {
    method: 'post',
    path: '/v1/admin/merchants/{merchantId}/enable',
    operationId: 'enableMerchant',
    tag: 'Admin',
    access: 'admin',
    summary: 'Enable a disabled merchant',
    description: 'It can get new tokens again; the tokens revoked when it was disabled stay revoked. Idempotent.',
    params: { merchantId: 'The merchant id (a UUID)' },
    ok: { message: 'Merchant enabled; it can get new tokens', noStore: true },
    errors: { NOT_FOUND: 'no such merchant' },
  },
  // The KYC review queue (admin-kyc.routes.ts, docs/kyc-review.md)
  {
    method: 'get',
    path: '/v1/admin/kyc/pending',
    operationId: 'listPendingKyc',
    tag: 'Admin',
    access: 'admin',
    summary: 'List pending KYC submissions, oldest first',
    description: 'The id number shows only its last 4 characters here; open one submission to see it in full.',
    query: pageRequestSchema,
    ok: { message: 'Pending KYC submissions, oldest first', list: 'page', noStore: true },
  },
  {
    method: 'get',
    path: '/v1/admin/kyc/{submissionId}',
    operationId: 'getKycSubmission',
    tag: 'Admin',
    access: 'admin',
    summary: 'Open a KYC submission for review',
    params: { submissionId: 'The submission id (a UUID)' },
    ok: { message: 'KYC submission retrieved', noStore: true },
    errors: { NOT_FOUND: 'no such submission' },
  },
  {
    method: 'post',
    path: '/v1/admin/kyc/{submissionId}/approve',
    operationId: 'approveKycSubmission',
    tag: 'Admin',
    access: 'admin',
    summary: 'Approve a pending KYC submission',
    params: { submissionId: 'The submission id (a UUID)' },
    body: { name: 'ApproveKycRequest', schema: operatorDecisionSchema, example: { operator: 'alice' } },
    fields: { reason: { description: 'Not used for an approval' }, operator: { description: 'Who decided, for the audit trail (self-declared)' } },
    ok: { message: 'KYC submission approved', noStore: true },
    errors: { NOT_FOUND: 'no such submission', INVALID_STATE: 'the submission is already decided' },
  },
  {
    method: 'post',
    path: '/v1/admin/kyc/{submissionId}/reject',
    operationId: 'rejectKycSubmission',
    tag: 'Admin',
    access: 'admin',
    summary: 'Reject a pending KYC submission, with a reason the merchant sees',
    params: { submissionId: 'The submission id (a UUID)' },
    body: { name: 'RejectKycRequest', schema: operatorDecisionSchema, example: { reason: 'document_unreadable', operator: 'alice' } },
    fields: {
      reason: {
        description: 'Why (shown to the merchant): 1–500 characters, no control characters',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: 500 },
      },
      operator: { description: 'Who decided, for the audit trail (self-declared)' },
    },
    ok: { message: 'KYC submission rejected', noStore: true },
    errors: { NOT_FOUND: 'no such submission', INVALID_STATE: 'the submission is already decided' },
  },

  // Merchant (merchant.routes.ts)
  {
    method: 'get',
    path: '/v1/merchant',
    operationId: 'getMerchant',
    tag: 'Merchant',
    access: 'bearer',
    summary: 'Your merchant profile',
    ok: { message: 'Merchant retrieved', data: 'Merchant' },
  },

  // Lookups (reference.routes.ts)
  {
    method: 'get',
    path: '/v1/crossborder/countries',
    operationId: 'listCountries',
    tag: 'Lookups',
    access: 'bearer',
    summary: 'List the supported countries',
    ok: { message: 'Countries retrieved', data: 'Country', list: 'count' },
  },
  {
    method: 'get',
    path: '/v1/crossborder/channels',
    operationId: 'listChannels',
    tag: 'Lookups',
    access: 'bearer',
    summary: 'List a country’s channels',
    description: 'Use a `deposit` channel for a collection and a `withdrawal` channel for a transfer.',
    query: channelsQuerySchema,
    ok: { message: 'Channels retrieved', data: 'Channel', list: 'count' },
    errors: { NOT_FOUND: 'a well-formed country_code the service does not cover' },
  },
  {
    method: 'get',
    path: '/v1/crossborder/networks',
    operationId: 'listNetworks',
    tag: 'Lookups',
    access: 'bearer',
    summary: 'List a country’s banks or mobile money operators',
    query: networksQuerySchema,
    ok: { message: 'Networks retrieved', data: 'Network', list: 'count' },
    errors: { NOT_FOUND: 'a well-formed country_code the service does not cover' },
  },

  // Rates (rates.routes.ts)
  {
    method: 'get',
    path: '/v1/crossborder/rates',
    operationId: 'createQuote',
    tag: 'Rates',
    access: 'bearer',
    summary: 'Get an exchange rate quote',
    description: 'Prices and stores a new quote on every call (never cached). Pass its quote_id to a transfer within 60 seconds to lock the rate.',
    query: quoteRequestSchema,
    fields: { amount: { required: true, schema: AMOUNT_QUERY, description: 'The amount in source_currency, within its minor-unit decimals' } },
    ok: { message: 'Rate quote created', data: 'Quote', noStore: true },
  },

  // Customers and KYC (customer.routes.ts)
  {
    method: 'post',
    path: '/v1/customer/enroll',
    operationId: 'enrollCustomer',
    tag: 'Customers',
    access: 'bearer',
    summary: 'Enroll a customer',
    description: 'The customer starts as `pending_kyc`. `customerid` is unique per merchant; `dial_code` must be the country’s.',
    body: {
      name: 'EnrollCustomerRequest',
      schema: enrollCustomerSchema,
      example: {
        customerid: 'c-001',
        first_name: 'Amina',
        last_name: 'Otieno',
        email: 'amina@example.com',
        phone_number: '712345678',
        dial_code: '+254',
        country_code: 'KE',
        date_of_birth: '1990-04-12',
      },
    },
    fields: { phone_number: { description: 'Digits only, without the dial code' } },
    ok: { status: 201, message: 'Customer enrolled', data: 'Customer' },
    errors: { DUPLICATE_REQUEST: 'customerid already enrolled (`details` names the existing customer_uuid)' },
  },
  {
    method: 'get',
    path: '/v1/customer/{uuid}',
    operationId: 'getCustomer',
    tag: 'Customers',
    access: 'bearer',
    summary: 'Get a customer',
    params: { uuid: 'The customer_uuid' },
    ok: { message: 'Customer retrieved', data: 'Customer' },
    errors: { NOT_FOUND: 'no customer of yours has this uuid' },
  },
  {
    method: 'get',
    path: '/v1/customers',
    operationId: 'listCustomers',
    tag: 'Customers',
    access: 'bearer',
    summary: 'List your customers, newest first',
    query: pageRequestSchema,
    fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
    ok: { message: 'Customers retrieved', data: 'Customer', list: 'page' },
  },
  {
    method: 'post',
    path: '/v1/customer/{uuid}/kyc',
    operationId: 'submitKyc',
    tag: 'Customers',
    access: 'bearer',
    summary: 'Submit KYC for review',
    description:
      'The status becomes `pending`; the review decides `approved` or `rejected` (event `customer.kyc.approved|rejected`). In the sandbox an id_number starting with `REJECT` is rejected.',
    params: { uuid: 'The customer_uuid' },
    body: {
      name: 'SubmitKycRequest',
      schema: submitKycSchema,
      example: {
        id_type: 'national_id',
        id_number: 'A12345678',
        id_country: 'KE',
        date_of_birth: '1990-04-12',
        address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE' },
      },
    },
    ok: { message: 'KYC submitted for review', data: 'KycRecord' },
    errors: { NOT_FOUND: 'no customer of yours has this uuid', INVALID_STATE: 'a review is pending, or the customer is already approved' },
  },
  {
    method: 'get',
    path: '/v1/customer/{uuid}/kyc',
    operationId: 'getKyc',
    tag: 'Customers',
    access: 'bearer',
    summary: 'Get a customer’s KYC status',
    params: { uuid: 'The customer_uuid' },
    ok: { message: 'KYC status retrieved', data: 'KycRecord' },
    errors: { NOT_FOUND: 'no customer of yours has this uuid' },
  },

  // Collections and transfers (transaction.routes.ts)
  {
    method: 'post',
    path: '/v1/crossborder/global-collection',
    operationId: 'initiateCollection',
    tag: 'Transactions',
    access: 'bearer',
    summary: 'Initiate a collection',
    description:
      'Pulls funds from a KYC-approved sender. Bank: the answer carries `bankInfo`, a virtual account the sender pays into. ' +
      'Mobile money: the sender gets a payment prompt. The status is `processing`; the outcome comes by webhook or the status endpoint. ' +
      'Checks run in order: body, customer, KYC, channel, network, currency, dial code, amount, reference.',
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
      network_id: { description: 'A bank or operator of that country and channel type (GET /v1/crossborder/networks)' },
      reference: { description: 'Yours, unique across all your transactions' },
    },
    ok: { message: 'Collection initiated; the final status comes by webhook or the status endpoint', data: 'CollectionInitiation' },
    errors: {
      NOT_FOUND: 'no customer of yours has this customer_uuid',
      KYC_REQUIRED: 'the customer is not KYC-approved',
      DUPLICATE_REQUEST: 'reference already used (`details` names the existing transaction)',
      ROUTE_UNAVAILABLE: 'no provider serves this country, channel, network and direction here (docs/providers.md); nothing was written',
      PROVIDER_UNAVAILABLE: 'every provider of the route is failing right now (its circuit breaker is open); nothing was written',
      SERVER_ERROR: 'the provider’s answer is unknown: the transaction is recorded and reconciled (check its status)',
    },
  },
  {
    method: 'post',
    path: '/v1/crossborder/global-transfer',
    operationId: 'initiateTransfer',
    tag: 'Transactions',
    access: 'bearer',
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
        account_number: '254712345678',
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
      quote_id: { description: 'A live quote of yours for this currency pair and amount (GET /v1/crossborder/rates)' },
    },
    ok: { message: 'Transfer initiated; the final status comes by webhook or the status endpoint', data: 'TransferInitiation' },
    errors: {
      NOT_FOUND: 'no customer of yours has this customer_uuid',
      KYC_REQUIRED: 'the customer is not KYC-approved',
      DUPLICATE_REQUEST: 'reference already used (`details` names the existing transaction)',
      ROUTE_UNAVAILABLE: 'no provider serves this country, channel, network and direction here (docs/providers.md); nothing was written',
      PROVIDER_UNAVAILABLE: 'every provider of the route is failing right now (its circuit breaker is open); nothing was written',
      SERVER_ERROR: 'the provider’s answer is unknown: the transaction is recorded and reconciled (check its status)',
    },
  },
  {
    method: 'get',
    path: '/v1/transactions',
    operationId: 'listTransactions',
    tag: 'Transactions',
    access: 'bearer',
    summary: 'List your transactions, newest first',
    description:
      'Collections, transfers and payments, each the full record the status endpoint returns; filter by status, type and customer. GraphQL: transactions(filter).',
    query: transactionListSchema,
    fields: {
      after: { description: 'The `meta.next_cursor` of the previous page' },
      type: { description: '`collection`, `transfer` or `payment`' },
    },
    ok: { message: 'Transactions retrieved', data: 'Transaction', list: 'page' },
  },
  {
    method: 'get',
    path: '/v1/crossborder/global-transfer/{reference}',
    operationId: 'getTransaction',
    tag: 'Transactions',
    access: 'bearer',
    summary: 'Get any transaction’s status',
    description: 'The full record of a collection, transfer or payment, with the same JSON its webhooks carry.',
    params: { reference },
    ok: { message: 'Transaction retrieved', data: 'Transaction' },
    errors: { NOT_FOUND: 'no transaction of yours has this reference' },
  },
  {
    method: 'post',
    path: '/v1/sandbox/transactions/{reference}/simulate',
    operationId: 'simulateTransaction',
    tag: 'Sandbox',
    access: 'bearer',
    sandboxOnly: true,
    summary: 'Decide a processing transaction now',
    description: 'Sandbox only. A payment awaiting 3-D Secure is decided on its page, not here.',
    params: { reference },
    body: { name: 'SimulateRequest', schema: simulateSchema, example: { outcome: 'successful' } },
    ok: { message: 'Transaction successful (simulated)', data: 'Transaction' },
    errors: { NOT_FOUND: 'no transaction of yours has this reference', INVALID_STATE: 'already final, or awaiting 3-D Secure' },
  },

  // Card payments (payment.routes.ts)
  {
    method: 'post',
    path: '/v1/payments/initiate',
    operationId: 'initiatePayment',
    tag: 'Payments',
    access: 'bearer',
    summary: 'Charge a card',
    description:
      'The answer is 200 whatever the outcome: `status` says it (`successful`, `failed`, or `requires_action` with `next_action.url` for 3-D Secure). ' +
      'The card is checked (Luhn, brand length, expiry, CVC) before anything is stored, and is never stored, logged or echoed. ' +
      'Sandbox cards: 4242424242424242 succeeds, 4000002500003155 needs 3-D Secure, 4000000000009995 fails (insufficient_funds).',
    body: {
      name: 'PaymentRequest',
      schema: paymentSchema,
      example: {
        reference: 'order-1001',
        amount: '2500.00',
        currency: 'NGN',
        payment_method: 'card',
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
        redirect_url: 'https://shop.example/return',
        description: 'Order 1001',
      },
    },
    fields: { customer_uuid: { description: 'Optional: one of your customers (no KYC needed for a domestic payment)' } },
    ok: { message: 'Payment successful', data: 'Payment' },
    errors: {
      NOT_FOUND: 'customer_uuid is not a customer of yours',
      DUPLICATE_REQUEST: 'reference already used',
      ROUTE_UNAVAILABLE: 'no card processor is connected here yet (production); nothing was written or charged',
      SERVER_ERROR: 'the processor’s answer is unknown (reconciled later)',
    },
  },
  {
    method: 'get',
    path: '/v1/payments/verify/{reference}',
    operationId: 'verifyPayment',
    tag: 'Payments',
    access: 'bearer',
    summary: 'Verify a payment',
    description: 'The payment’s current record; `next_action` is shown again while it awaits 3-D Secure.',
    params: { reference: 'The payment’s reference (`pay_…`) or yours' },
    ok: { message: 'Payment successful', data: 'Payment' },
    errors: { NOT_FOUND: 'no payment of yours has this reference' },
  },
  SANDBOX_3DS_PAGE.get,
  SANDBOX_3DS_PAGE.post,

  // Webhooks (webhook.routes.ts)
  {
    method: 'put',
    path: '/v1/webhooks/endpoint',
    operationId: 'setWebhookEndpoint',
    tag: 'Webhooks',
    access: 'bearer',
    summary: 'Set or remove the webhook endpoint',
    description: 'Production: https only, to a public address. Sandbox: http and private addresses are allowed too. `null` removes the endpoint.',
    body: { name: 'WebhookEndpointRequest', schema: endpointSchema, example: { url: 'https://shop.example/hooks' } },
    ok: { message: 'Webhook endpoint saved', data: 'Merchant' },
  },
  {
    method: 'post',
    path: '/v1/webhooks/secret/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    access: 'bearer',
    summary: 'Rotate the webhook signing secret',
    description: 'The new secret is shown only this once. For 24 h every delivery is signed with both the new and the old secret.',
    ok: {
      message: 'Webhook secret rotated; it is shown only this once, and the old one signs too until it expires',
      data: 'WebhookSecretRotation',
      noStore: true,
    },
  },
  {
    method: 'get',
    path: '/v1/webhooks/events',
    operationId: 'listWebhookEvents',
    tag: 'Webhooks',
    access: 'bearer',
    summary: 'List your events with their delivery status, newest first',
    query: eventListSchema,
    fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
    ok: { message: 'Events retrieved', data: 'WebhookEventSummary', list: 'page' },
  },
  {
    method: 'get',
    path: '/v1/webhooks/events/{id}',
    operationId: 'getWebhookEvent',
    tag: 'Webhooks',
    access: 'bearer',
    summary: 'Get an event with every delivery attempt',
    params: { id: 'The event id (`evt_…`)' },
    ok: { message: 'Event retrieved', data: 'WebhookEvent' },
    errors: { NOT_FOUND: 'no event of yours has this id' },
  },
  {
    method: 'post',
    path: '/v1/webhooks/events/{id}/resend',
    operationId: 'resendWebhookEvent',
    tag: 'Webhooks',
    access: 'bearer',
    summary: 'Deliver an event again now',
    description: 'Same `webhook-id`, whatever its delivery state; recorded as the next attempt.',
    params: { id: 'The event id (`evt_…`)' },
    ok: { message: 'Event queued for delivery', data: 'WebhookEvent' },
    errors: { NOT_FOUND: 'no event of yours has this id', INVALID_STATE: 'no webhook endpoint is set' },
  },

  // This document and its reader (openapi/openapi.routes.ts)
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Reference',
    access: 'public',
    summary: 'This OpenAPI document',
    raw: {
      responses: { '200': { description: 'The OpenAPI 3.1 document of this environment', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
  {
    method: 'get',
    path: '/v1/docs',
    operationId: 'getApiDocs',
    tag: 'Reference',
    access: 'public',
    summary: 'This document, to read in a browser',
    raw: {
      responses: { '200': { description: 'An HTML page (Swagger UI) rendering /v1/openapi.json', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
  ...LEDGER_OPERATIONS,
  ...(['post', 'put'] as const).map((method): OperationSpec => ({
    method,
    path: '/v1/providers/{connector}/callback/{token}',
    operationId: method === 'post' ? 'receiveProviderNotification' : 'receiveProviderNotificationPut',
    tag: 'Providers',
    access: 'public',
    summary: method === 'post' ? 'A provider’s notification about one transaction' : 'The same, as MTN MoMo sends it (PUT)',
    description:
      'Called by payment providers, never by merchants. The token is per transaction and unguessable; a wrong one is 404 and nothing is kept. ' +
      'The body (any content type, at most 64 KiB) is kept raw, once, and only prompts a status query to the provider: its answer, not the notification, changes the transaction.',
    params: { connector: '`mtn_momo`, `mpesa`, `flutterwave` or `sandbox`', token: 'The transaction’s callback token, as sent to the provider' },
    raw: {
      requestBody: { description: 'The provider’s notification, as it sends it', content: { '*/*': { schema: {} } } },
      responses: {
        '200': {
          description: 'Kept (or a duplicate, ignored): the acknowledgement the provider expects',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '404': {
          description: 'No such callback (a wrong token, or another connector’s)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  })),
  {
    method: 'post',
    path: '/v1/providers/{connector}/webhook',
    operationId: 'receiveProviderWebhook',
    tag: 'Providers',
    access: 'public',
    summary: 'A provider’s account-wide webhook (Flutterwave’s, with `verif-hash`)',
    description:
      'Called by payment providers that send every webhook to one address, never by merchants. The connector authenticates it (Flutterwave: the `verif-hash` header, compared in constant time; ' +
      'otherwise 404 and nothing is kept) and names the transaction from its reference. The body is kept raw, once, and only prompts a status query.',
    params: { connector: '`flutterwave`' },
    raw: {
      requestBody: { description: 'The provider’s webhook, as it sends it', content: { '*/*': { schema: {} } } },
      responses: {
        '200': {
          description: 'Kept (or a duplicate, or about no transaction of ours: ignored)',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '404': {
          description: 'Not the provider’s (the shared secret is wrong or missing)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  },
  {
    method: 'get',
    path: '/v1/providers/{connector}/return/{token}',
    operationId: 'returnFromAuthentication',
    tag: 'Providers',
    access: 'public',
    summary: 'The cardholder’s browser, back from a processor’s 3-D Secure page',
    description:
      'Opened by the cardholder’s browser, never by merchants: the processor’s authentication page (Flutterwave’s) sends it here. The processor is asked about the payment at once; ' +
      'then the browser is sent (303) to the payment’s `redirect_url` with `reference`, `external_reference` and `status`, or shown the outcome when there is none. ' +
      'A wrong token is a 404 page, and nothing is changed.',
    params: { connector: '`flutterwave`', token: 'The payment’s return token, as sent to the processor' },
    raw: {
      responses: {
        '200': { description: 'The outcome, as a page (the payment has no `redirect_url`)', content: { 'text/html': { schema: { type: 'string' } } } },
        '303': { description: 'On to the payment’s `redirect_url`' },
        '404': { description: 'No such payment (a wrong token, or another connector’s)', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  },
];
