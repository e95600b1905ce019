import type { FastifyInstance } from 'fastify';
import type { OAuthService } from '../../../modules/auth/oauth.service';
import type { FeeSchedule } from '../../../modules/ledger/fee-schedule';
import type { LedgerService } from '../../../modules/ledger/ledger.service';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { setFeeSchema } from '../../../modules/ledger/fee-schedule';
import { adjustmentSchema } from '../../../modules/ledger/ledger.service';
import { BalanceRecord, FeeRuleRecord, serializeBalance, serializeFeeRule } from '../../../modules/ledger/ledger.serializer';
import { AdminMerchantRecord, MerchantCredentialsRecord, serializeCredentials, serializeMerchant } from '../../../modules/merchants/merchant.serializer';
import { createMerchantSchema } from '../../../modules/merchants/merchant.service';
import { safeEqual } from '../../../shared/crypto';
import { AppError } from '../../../shared/errors';
import type { RateLimits } from '../../rate-limits';
import { parseUuid } from '../../../shared/validation';
import { operatorAuditOf } from '../audit-context';
import { fromRest } from '../field-names';
import { AMOUNT_QUERY } from '../openapi/json-schema';
import { operation } from '../openapi/operation';
import { limitRequest } from '../rate-limit';
import type { KycService } from '../../../modules/kyc/kyc.service';
import { adminKycRoutes } from './admin-kyc.routes';
import { adminReconciliationRoutes } from './admin-reconciliation.routes';
import type { ReconciliationService } from '../../../modules/reconciliation/reconciliation.service';

/** The services this file calls (the composition root passes them). */
type UsedServices = {
  fees: FeeSchedule;
  kyc: KycService;
  ledger: LedgerService;
  merchants: MerchantService;
  oauth: OAuthService;
  reconciliation: ReconciliationService;
};

const createMerchant = operation({
  operationId: 'createMerchant',
  tag: 'Admin',
  access: 'admin',
  summary: 'Create a merchant',
  description: 'Returns the merchant with its client_secret and webhook_secret, shown only this once.',
  body: { name: 'CreateMerchantRequest', schema: createMerchantSchema, example: { name: 'Acme Ltd' } },
  ok: { status: 201, message: 'Merchant created; the secrets are shown only this once', data: MerchantCredentialsRecord, noStore: true },
});

const disableMerchant = operation({
  operationId: 'disableMerchant',
  tag: 'Admin',
  access: 'admin',
  summary: 'Disable a merchant',
  description: 'Revokes every token the merchant holds (its requests and open sockets end on every instance) and refuses new ones. Idempotent.',
  params: { merchantId: 'The merchant id (a UUID)' },
  ok: { message: 'Merchant disabled; its tokens are revoked', data: AdminMerchantRecord, noStore: true },
  errors: { NOT_FOUND: 'no such merchant' },
});

const enableMerchant = operation({
  operationId: 'enableMerchant',
  tag: 'Admin',
  access: 'admin',
  summary: 'Enable a disabled merchant',
  description: 'It can get new tokens again; the tokens revoked when it was disabled stay revoked. Idempotent.',
  params: { merchantId: 'The merchant id (a UUID)' },
  ok: { message: 'Merchant enabled; it can get new tokens', data: AdminMerchantRecord, noStore: true },
  errors: { NOT_FOUND: 'no such merchant' },
});

const adjustBalance = operation({
  operationId: 'adjustBalance',
  tag: 'Admin',
  access: 'admin',
  summary: 'Post an adjustment to a merchant’s available balance',
  description:
    'Against the external-funds account, with its reason; shown in the merchant’s statement as `adjustment`. A negative amount debits (never below zero). The same reference posts once: 201 the first time, 200 when it comes again with the same currency and amount, 409 DUPLICATE_REQUEST (saying what differs, nothing posted) with another.',
  params: { merchantId: 'The merchant’s id' },
  body: {
    name: 'AdjustmentRequest',
    schema: adjustmentSchema,
    example: { currency: 'NGN', amount: '-250.00', reason: 'Chargeback fee', reference: 'ADJ-42' },
  },
  fields: { amount: { required: true, schema: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }, description: 'Signed' } },
  ok: { status: 201, message: 'Adjustment posted', data: BalanceRecord },
  errors: {
    NOT_FOUND: 'no merchant has this id',
    INSUFFICIENT_FUNDS: 'a debit the available balance cannot cover (`details` says the shortfall: available, needed, missing)',
    DUPLICATE_REQUEST: 'the reference was used for an adjustment of another currency or amount',
  },
});

const setMerchantFee = operation({
  operationId: 'setMerchantFee',
  tag: 'Admin',
  access: 'admin',
  summary: 'Set a merchant’s price for one kind (and currency, or every currency)',
  params: { merchantId: 'The merchant’s id' },
  body: { name: 'FeeRuleRequest', schema: setFeeSchema, example: { kind: 'payment', currency: 'NGN', percent: '1.4', fixed: '100.00' } },
  fields: { percent: { required: true, schema: AMOUNT_QUERY }, fixed: { schema: AMOUNT_QUERY, description: 'Needs a currency' } },
  ok: { message: 'Fee schedule updated', data: FeeRuleRecord, list: 'count' },
  errors: { NOT_FOUND: 'no merchant has this id' },
});

const getMerchantFees = operation({
  operationId: 'getMerchantFees',
  tag: 'Admin',
  access: 'admin',
  summary: 'A merchant’s own prices (the defaults apply to the rest)',
  params: { merchantId: 'The merchant’s id' },
  ok: { message: 'Fee schedule retrieved', data: FeeRuleRecord, list: 'count' },
  errors: { NOT_FOUND: 'no merchant has this id' },
});

/** Operator API, guarded by ADMIN_API_KEY. Not registered at all when the key is unset. */
export async function adminRoutes(
  app: FastifyInstance,
  { services, adminApiKey, rateLimits }: { services: UsedServices; adminApiKey: string; rateLimits: RateLimits },
) {
  app.addHook('onRequest', async (request, reply) => {
    // Failures and successes are counted apart (issue 34): 120 wrong keys from one address made the right key
    // answer 429. A spent failure budget refuses wrong keys only (429 instead of 401); the right key keeps its own.
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !safeEqual(match[1]!, adminApiKey)) {
      await limitRequest(rateLimits, 'adminFailures', request.ip, reply);
      throw AppError.invalidToken('A valid admin API key is required');
    }
    await limitRequest(rateLimits, 'admin', request.ip, reply);
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // A child of this scope: it inherits the key check above (tested in test/e2e/kyc/review.test.ts).
  await app.register(adminKycRoutes, { services: { kyc: services.kyc } });
  await app.register(adminReconciliationRoutes, { services: { reconciliation: services.reconciliation } });

  app.post('/admin/merchants', createMerchant.route, async (request, reply) => {
    const created = await services.merchants.createMerchant(fromRest(request.body), operatorAuditOf(request));
    return createMerchant.send(reply, serializeCredentials(created));
  });

  // Disabling revokes every token the merchant holds (requests and sockets end on every instance) and refuses new ones.
  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/disable', disableMerchant.route, async (request, reply) => {
    const merchant = await services.oauth.setMerchantDisabled(parseUuid(request.params.merchantId, 'merchantId'), true, operatorAuditOf(request));
    return disableMerchant.send(reply, serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant), { admin: true }));
  });

  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/enable', enableMerchant.route, async (request, reply) => {
    const merchant = await services.oauth.setMerchantDisabled(parseUuid(request.params.merchantId, 'merchantId'), false, operatorAuditOf(request));
    return enableMerchant.send(reply, serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant), { admin: true }));
  });

  // The books (docs/ledger.md): an adjustment against the external-funds account, with its reason; the same reference posts once
  // (a retry of the same adjustment is 200; another adjustment under it is 409, from the service).
  app.post<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/adjustments', adjustBalance.route, async (request, reply) => {
    const { balance, posted } = await services.ledger.adjust(
      parseUuid(request.params.merchantId, 'merchantId'),
      fromRest(request.body),
      operatorAuditOf(request),
    );
    return adjustBalance.send(
      reply,
      serializeBalance(balance),
      posted ? undefined : { message: 'Adjustment already posted under this reference; nothing changed', status: 200 },
    );
  });

  // A merchant's own price for one kind (and currency, or all): the defaults (FEE_DEFAULTS) apply to the rest.
  app.put<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/fees', setMerchantFee.route, async (request, reply) => {
    const merchantId = parseUuid(request.params.merchantId, 'merchantId');
    await services.fees.set(merchantId, fromRest(request.body));
    return setMerchantFee.send(reply, (await services.fees.list(merchantId)).map(serializeFeeRule));
  });

  app.get<{ Params: { merchantId: string } }>('/admin/merchants/:merchantId/fees', getMerchantFees.route, async (request, reply) => {
    const merchantId = parseUuid(request.params.merchantId, 'merchantId');
    await services.merchants.getMerchant(merchantId);
    return getMerchantFees.send(reply, (await services.fees.list(merchantId)).map(serializeFeeRule));
  });
}
