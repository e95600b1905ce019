import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { nameCheckSchema } from '../../../modules/merchants/checkout-settings';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { BANK_METHODS, resolveAccountSchema, type BankListing, type PayeesService } from '../../../modules/payees/payees.service';
import { banksQuerySchema } from '../../../modules/reference/reference.service';
import { AppError } from '../../../shared/errors';
import { countryCode, record } from '../../../shared/records';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payees: PayeesService; merchants: MerchantService };

const BankRecord = record(
  'Bank',
  z.object({
    code: z.string().describe('The local code: Nigeria’s CBN/NIP code (058, 50211, 999992), Kenya’s CBK bank code, South Africa’s universal branch code'),
    name: z.string(),
    country_code: countryCode,
    type: z.enum(['bank', 'mobile_money']).describe('mobile_money: a wallet or payment service bank reached by account number'),
    network_id: z
      .string()
      .nullable()
      .describe('The network (GET /v1/crossborder/networks) it is, when transfers and collections route to it; null: listed by code only'),
    methods: z
      .array(z.enum(BANK_METHODS))
      .describe('What can be done with it here: transfer and collection (a provider serves its network), account_resolution (POST /v1/accounts/resolve)'),
    source: z.string().describe('Where the codes come from'),
  }),
  'A bank or wallet by its local code.',
);

const ResolvedAccountRecord = record('ResolvedAccount', z.object({ account_name: z.string().describe('The holder’s name, as the provider gives it') }));

const NameCheckRecord = record(
  'NameCheck',
  z.object({ enabled: z.boolean().describe('Whether a transfer’s beneficiary_name is checked against the provider’s name for the account') }),
  'The transfers’ beneficiary name check (CONTRACT §6b).',
);

const serializeBank = (b: BankListing) => ({
  code: b.code,
  name: b.name,
  country_code: b.countryCode,
  type: b.type,
  network_id: b.networkId,
  methods: b.methods,
  source: b.source,
});

const listBanks = operation({
  operationId: 'listBanks',
  tag: 'Lookups',
  access: 'bearer',
  permission: 'signed_in',
  summary: 'List a country’s banks and wallets by their local codes',
  description:
    'Nigeria: the CBN/NIP codes every Nigerian bank API takes (GTBank 058, Kuda 50211, OPay 999992). Kenya: the CBK bank codes; South Africa: universal branch codes. A supported country with no local codes listed answers an empty list.',
  query: banksQuerySchema,
  fields: { country: { description: 'ISO 3166-1 alpha-2, e.g. NG' } },
  ok: { message: 'Banks retrieved', data: BankRecord, list: 'count' },
  errors: { NOT_FOUND: 'a well-formed country the service does not cover' },
});

const resolveAccount = operation({
  operationId: 'resolveAccount',
  tag: 'Lookups',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Name the holder of a bank account or wallet',
  description:
    'Asks the provider that can tell: Flutterwave for Nigerian banks (by `bank_code`), MTN MoMo for its wallets (by `network`), the sandbox by its table ' +
    '(an account number ending in 0000 does not exist; 9999: the provider does not answer; otherwise its last digit picks a name). Give `bank_code` or `network`, not both.',
  body: {
    name: 'ResolveAccountRequest',
    schema: resolveAccountSchema,
    example: { country: 'NG', bank_code: '058', account_number: '0690000031' },
  },
  fields: {
    bank_code: { description: 'A bank’s code from GET /v1/banks' },
    network: { description: 'A network_id from GET /v1/crossborder/networks (a wallet’s operator, or a bank)' },
    account_number: { description: 'A bank account number; a wallet’s phone number in any form CONTRACT §6a reads' },
  },
  ok: { message: 'Account resolved', data: ResolvedAccountRecord },
  errors: {
    NOT_FOUND: 'the provider says no such account exists',
    ROUTE_UNAVAILABLE: 'no provider here can name holders at this bank or network',
    PROVIDER_UNAVAILABLE: 'the provider could not answer right now; try again shortly',
  },
});

const getNameCheck = operation({
  operationId: 'getNameCheck',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Whether your transfers’ beneficiary_name is checked',
  ok: { message: 'Name check retrieved', data: NameCheckRecord },
});

const setNameCheck = operation({
  operationId: 'setNameCheck',
  tag: 'Transactions',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Turn the transfers’ beneficiary name check on or off',
  description: 'On by default. Off: a transfer’s beneficiary_name is not checked (the provider is not asked). The change is in the audit log.',
  body: { name: 'NameCheckRequest', schema: nameCheckSchema, example: { enabled: false } },
  ok: { message: 'Name check saved', data: NameCheckRecord },
});

/** Banks by their local codes, account holders' names, the name check setting (issue 38); bearer-protected. */
export async function payeesRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/banks', listBanks.route, async (request, reply) => {
    const banks = services.payees.listBanks(fromRest(request.query));
    return listBanks.send(reply, banks.map(serializeBank), { meta: { count: banks.length } });
  });

  app.post('/accounts/resolve', resolveAccount.route, async (request, reply) => {
    const { accountName } = await services.payees.resolveAccount(fromRest(request.body));
    return resolveAccount.send(reply, { account_name: accountName });
  });

  app.get('/transfers/name-check', getNameCheck.route, async (request, reply) => {
    return getNameCheck.send(reply, { enabled: await services.merchants.nameCheck(authOf(request).merchantId) });
  });

  app.put('/transfers/name-check', setNameCheck.route, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalidRequest('The body must be a JSON object with enabled');
    const enabled = await services.merchants.setNameCheck(authOf(request).merchantId, fromRest(body), auditOf(request));
    return setNameCheck.send(reply, { enabled });
  });
}
