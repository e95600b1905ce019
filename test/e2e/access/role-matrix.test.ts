import { randomUUID } from 'node:crypto';
import { KEY_ROLES, PERMISSIONS, ROLES, permits, type Permission, type Principal, type Role } from '../../../src/modules/access/permissions';
import { ANY_CALLER, SIGNED_IN, requirementOf } from '../../../src/transport/graphql/authorization';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { apiKeyToken, personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { connect, subscribeLive } from '../../helpers/ws';

/**
 * The role matrix at both doors (issue 36; docs/access.md): every bearer route of the OpenAPI document,
 * called by a person of each role and by an API key of each key role, is refused with 403 FORBIDDEN
 * exactly when the matrix says so; every GraphQL root field requires what this file's table says (its
 * @Requires, as the schema enforces it), and representative operations, at least one per permission, are
 * refused or allowed end to end accordingly; every subscription over the WebSocket (graphql-ws), refused
 * when it starts. The calls carry no
 * valid input: an allowed one fails on its input or its object (400, 404, 409), never on the role.
 * Named cases from the issue pin the matrix itself.
 */
describe('role matrix', () => {
  let app: TestApp;
  const principals: Array<{ name: string; principal: Principal; token: string }> = [];
  let routes: Array<{ method: string; path: string; permission: string }>;

  beforeAll(async () => {
    app = await createTestApp();
    const merchant = await app.createMerchant('Matrix Merchant');
    const merchantId = merchant.merchant.id;
    for (const role of ROLES) {
      const person = await personOf(app, merchantId, role);
      principals.push({ name: `person ${role}`, principal: { role, kind: 'user' }, token: person.token });
    }
    const owner = principals[0]!.token;
    for (const role of KEY_ROLES) {
      const key = await apiKeyToken(app, owner, role);
      principals.push({ name: `key ${role}`, principal: { role, kind: 'api_key' }, token: key.token });
    }
    const doc = (await request(app.url, 'GET', '/v1/openapi.json')).body;
    routes = [];
    for (const [path, item] of Object.entries<Record<string, { security?: unknown[]; 'x-permission'?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (JSON.stringify(op.security ?? []).includes('bearerToken')) routes.push({ method: method.toUpperCase(), path, permission: op['x-permission']! });
      }
    }
  });

  afterAll(() => app.close());

  const allowed = (principal: Principal, permission: string) => (permission === 'signed_in' ? true : permits(principal, permission as Permission));
  const forbidden = (res: HttpResult) => res.status === 403 && res.body?.code === 'FORBIDDEN';

  it('every bearer route declares a permission of the matrix', () => {
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) expect([`${route.method} ${route.path}`, route.permission]).toEqual([`${route.method} ${route.path}`, expect.any(String)]);
  });

  it('REST: each route refuses exactly the principals the matrix refuses (persons of 6 roles, keys of 4)', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
      for (const { name, principal, token } of principals) {
        const res = await request(app.url, route.method, path, { token, ...(route.method === 'GET' ? {} : { body: {} }) });
        if (forbidden(res) === allowed(principal, route.permission)) wrong.push(`${name}: ${route.method} ${route.path} → ${res.status} (${route.permission})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  const OPERATIONS: Array<{ permission: Permission | 'signed_in'; query: string }> = [
    { permission: 'signed_in', query: '{ merchant { id } }' },
    { permission: 'transactions:read', query: '{ transactions(first: 1) { edges { cursor } } }' },
    { permission: 'payments:create', query: 'mutation { simulateTransaction(reference: "nope", outcome: SUCCESSFUL) { reference } }' },
    { permission: 'refunds:create', query: 'mutation { refundPayment(input: { paymentReference: "nope", reason: "r", reference: "x" }) { reference } }' },
    { permission: 'customers:read', query: '{ customers(first: 1) { edges { cursor } } }' },
    { permission: 'balances:read', query: '{ balances { currency } }' },
    { permission: 'balances:fund', query: 'mutation { topUpBalance(currency: "XXX", amount: "1") { currency } }' },
    { permission: 'webhooks:read', query: '{ webhookEvents(first: 1) { edges { cursor } } }' },
    { permission: 'webhooks:manage', query: 'mutation { rotateWebhookSecret { webhookSecret } }' },
    { permission: 'keys:manage', query: '{ apiKeys { id } }' },
    { permission: 'rates:read', query: '{ rate(sourceCurrency: "XXX", destinationCurrency: "YYY", amount: "1") { quoteId } }' },
    {
      permission: 'customers:write',
      query:
        'mutation { enrollCustomer(input: { countryCode: "XX", customerId: "c", dialCode: "+0", email: "not-an-email", firstName: "A", lastName: "B", phoneNumber: "1" }) { uuid } }',
    },
    { permission: 'team:read', query: '{ teamMembers { id } }' },
    { permission: 'team:manage', query: `mutation { revokeInvitation(id: "${randomUUID()}") { id } }` },
    { permission: 'audit:read', query: '{ auditLog(first: 1) { edges { cursor } } }' },
    { permission: 'payouts:manage', query: '{ payoutDestinations { id } }' },
    { permission: 'payouts:create', query: 'mutation { createPayout(input: { currency: "XXX", amount: "1" }) { id } }' },
    { permission: 'disputes:read', query: '{ openDisputeCount }' },
    { permission: 'disputes:manage', query: 'mutation { acceptDispute(id: "dp_unknown") { id } }' },
  ];

  /**
   * What every Query and Mutation field requires, written here independently of the resolvers (docs/access.md):
   * a permission of the matrix, `signed_in` (any role; the merchant's profile, reference data) or `any_caller`
   * (any valid token, even a session that may only enrol in 2FA: who am I, my sessions and password, enrolment).
   * A field missing here, or whose @Requires says otherwise, fails the next test.
   */
  type Requirement = Permission | typeof SIGNED_IN | typeof ANY_CALLER;
  const QUERIES: Record<string, Requirement> = {
    // Anyone with a token: the environment (the dashboard's banner), who am I and my sessions.
    environment: ANY_CALLER,
    me: ANY_CALLER,
    mySessions: ANY_CALLER,
    // Any role: the merchant's record and the reference lists.
    merchant: SIGNED_IN,
    countries: SIGNED_IN,
    channels: SIGNED_IN,
    networks: SIGNED_IN,
    banks: SIGNED_IN,
    // Payments and their records.
    transaction: 'transactions:read',
    transactions: 'transactions:read',
    activity: 'transactions:read',
    verifyPayment: 'transactions:read',
    checkoutSession: 'transactions:read',
    checkoutSettings: 'transactions:read',
    paymentLink: 'transactions:read',
    paymentLinks: 'transactions:read',
    nameCheck: 'transactions:read',
    // A name from an account number: only for who may pay it (CONTRACT §6b).
    resolveAccount: 'payments:create',
    customer: 'customers:read',
    customers: 'customers:read',
    kyc: 'customers:read',
    balances: 'balances:read',
    balanceTransactions: 'balances:read',
    payout: 'balances:read',
    payouts: 'balances:read',
    upcomingPayout: 'balances:read',
    payoutSchedule: 'balances:read',
    // Where the money goes: people with payouts:manage only, reading too.
    payoutDestination: 'payouts:manage',
    payoutDestinations: 'payouts:manage',
    rate: 'rates:read',
    webhookEvent: 'webhooks:read',
    webhookEvents: 'webhooks:read',
    webhookEventTypes: 'webhooks:read',
    apiKeys: 'keys:manage',
    teamMembers: 'team:read',
    teamSettings: 'team:read',
    invitations: 'team:read',
    auditLog: 'audit:read',
    dispute: 'disputes:read',
    disputes: 'disputes:read',
    openDisputeCount: 'disputes:read',
  };
  const MUTATIONS: Record<string, Requirement> = {
    // A person's own account, open to an enrolment-only session (refused to an API key by the service: not a person).
    changePassword: ANY_CALLER,
    endSession: ANY_CALLER,
    endOtherSessions: ANY_CALLER,
    beginTwoFactorEnrolment: ANY_CALLER,
    confirmTwoFactor: ANY_CALLER,
    disableTwoFactor: ANY_CALLER,
    // Money in and out, and the sandbox's simulations.
    initiateCollection: 'payments:create',
    initiateTransfer: 'payments:create',
    initiatePayment: 'payments:create',
    createCheckoutSession: 'payments:create',
    createPaymentLink: 'payments:create',
    deactivatePaymentLink: 'payments:create',
    updateCheckoutSettings: 'payments:create',
    updateNameCheck: 'payments:create',
    simulateTransaction: 'payments:create',
    simulateDispute: 'payments:create',
    simulateDisputeOutcome: 'payments:create',
    refundPayment: 'refunds:create',
    enrollCustomer: 'customers:write',
    submitKyc: 'customers:write',
    topUpBalance: 'balances:fund',
    fundBalance: 'balances:fund',
    createPayout: 'payouts:create',
    addPayoutDestination: 'payouts:manage',
    approvePayoutDestination: 'payouts:manage',
    cancelPayoutDestination: 'payouts:manage',
    updatePayoutSchedule: 'payouts:manage',
    setWebhookEndpoint: 'webhooks:manage',
    rotateWebhookSecret: 'webhooks:manage',
    sendWebhookTestEvent: 'webhooks:manage',
    resendWebhookEvent: 'webhooks:manage',
    createApiKey: 'keys:manage',
    rotateApiKey: 'keys:manage',
    revokeApiKey: 'keys:manage',
    inviteMember: 'team:manage',
    resendInvitation: 'team:manage',
    revokeInvitation: 'team:manage',
    changeMemberRole: 'team:manage',
    removeMember: 'team:manage',
    transferOwnership: 'team:manage',
    setTwoFactorRequired: 'team:manage',
    updateDisputeEvidence: 'disputes:manage',
    uploadDisputeFile: 'disputes:manage',
    submitDispute: 'disputes:manage',
    acceptDispute: 'disputes:manage',
  };

  it('GraphQL: every Query, Mutation and Subscription field found by introspection requires exactly what the table says', async () => {
    const owner = principals[0]!.token;
    const schema = await graphql(
      app.url,
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }',
      { token: owner },
    );
    const names = (type: { fields: Array<{ name: string }> }) => type.fields.map((f) => f.name);
    const { queryType, mutationType, subscriptionType } = schema.body.data.__schema;
    const expected: Record<string, Record<string, Requirement>> = {
      Query: QUERIES,
      Mutation: MUTATIONS,
      Subscription: Object.fromEntries(SUBSCRIPTIONS.map((s) => [s.field, s.permission])),
    };
    const found: Record<string, string[]> = { Query: names(queryType), Mutation: names(mutationType), Subscription: names(subscriptionType) };
    expect(found.Query!.length + found.Mutation!.length).toBeGreaterThan(80);
    const wrong: string[] = [];
    for (const [root, fields] of Object.entries(found)) {
      for (const field of fields) {
        const want = expected[root]![field];
        if (want === undefined) wrong.push(`${root}.${field}: not in this test's table (${requirementOf(field)})`);
        else if (requirementOf(field) !== want) wrong.push(`${root}.${field}: @Requires(${requirementOf(field)}), the table says ${want}`);
      }
      for (const field of Object.keys(expected[root]!)) if (!fields.includes(field)) wrong.push(`${root}.${field}: in the table, not in the schema`);
    }
    expect(wrong).toEqual([]);
  });

  it('GraphQL: the operations cover every permission of the matrix', () => {
    expect(new Set(OPERATIONS.map((op) => op.permission))).toEqual(new Set(['signed_in', ...PERMISSIONS]));
  });

  it('GraphQL: each representative operation refuses exactly the principals the matrix refuses, with extensions.code FORBIDDEN', async () => {
    const wrong: string[] = [];
    for (const op of OPERATIONS) {
      for (const { name, principal, token } of principals) {
        const res = await graphql(app.url, op.query, { token });
        const codes = (res.body.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);
        if (res.body.errors === undefined && res.status >= 400) wrong.push(`${name}: ${op.query} → HTTP ${res.status}`);
        if (/Cannot query field|Unknown argument|Field .* argument/.test(res.text)) wrong.push(`${op.query} is not a valid operation: ${res.text}`);
        if (codes.includes('FORBIDDEN') === allowed(principal, op.permission)) wrong.push(`${name}: ${op.query} → ${JSON.stringify(codes)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  /** Every Subscription field, with what it needs to read (docs/access.md). */
  const SUBSCRIPTIONS: Array<{ field: string; permission: Permission; query: string }> = [
    { field: 'transactionStatusChanged', permission: 'transactions:read', query: 'subscription { transactionStatusChanged { reference } }' },
    { field: 'kycStatusChanged', permission: 'customers:read', query: 'subscription { kycStatusChanged { customerUuid } }' },
    { field: 'disputeChanged', permission: 'disputes:read', query: 'subscription { disputeChanged { id } }' },
    { field: 'balanceChanged', permission: 'balances:read', query: 'subscription { balanceChanged { currency } }' },
    { field: 'eventRecorded', permission: 'webhooks:read', query: 'subscription { eventRecorded { id type body } }' },
  ];

  it('GraphQL subscriptions over the WebSocket: each refuses exactly the principals the matrix refuses (FORBIDDEN when it starts), and the others are set up', async () => {
    const owner = principals[0]!.token;
    const fields = (await graphql(app.url, '{ __schema { subscriptionType { fields { name } } } }', { token: owner })).body.data.__schema.subscriptionType
      .fields;
    expect(new Set(fields.map((f: { name: string }) => f.name))).toEqual(new Set(SUBSCRIPTIONS.map((s) => s.field)));
    // The matrix refuses some of these to some principals (a viewer reads no customers, support no balances), so the walk can fail.
    expect(SUBSCRIPTIONS.some((sub) => principals.some(({ principal }) => !allowed(principal, sub.permission)))).toBe(true);

    const clients = principals.map(({ token }) => connect(app, token));
    try {
      const wrong: string[] = [];
      for (const [i, { name, principal }] of principals.entries()) {
        for (const sub of SUBSCRIPTIONS) {
          // Kept open to the end: the server's gauge of live streams then only rises, and subscribeLive reads it.
          const { received, errors } = await subscribeLive(app.url, clients[i]!, sub.query);
          const codes = [...received.flatMap((m) => m.errors ?? []), ...errors.flatMap((e) => (Array.isArray(e) ? e : [e]))].map(
            (e: { extensions?: { code?: string } }) => e.extensions?.code,
          );
          const refused = codes.includes('FORBIDDEN');
          if (refused === allowed(principal, sub.permission) || (!refused && codes.length > 0)) wrong.push(`${name}: ${sub.field} → ${JSON.stringify(codes)}`);
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('pins the cases the issue names: a viewer cannot refund, a developer key cannot read the audit log, finance reads statements but makes no key', () => {
    const person = (role: Role): Principal => ({ role, kind: 'user' });
    const key = (role: Role): Principal => ({ role, kind: 'api_key' });
    expect(permits(person('viewer'), 'refunds:create')).toBe(false);
    expect(permits(key('developer'), 'audit:read')).toBe(false);
    expect(permits(key('developer'), 'keys:manage')).toBe(false);
    expect(permits(key('developer'), 'payments:create')).toBe(true);
    expect(permits(person('developer'), 'keys:manage')).toBe(true);
    expect(permits(person('finance'), 'balances:read')).toBe(true);
    expect(permits(person('finance'), 'keys:manage')).toBe(false);
    expect(permits(person('support'), 'customers:read')).toBe(true);
    expect(permits(person('viewer'), 'customers:read')).toBe(false);
    expect(permits(person('admin'), 'team:manage')).toBe(true);
    expect(permits(person('developer'), 'team:manage')).toBe(false);
    expect(permits({ role: 'owner', kind: 'user', enrolmentOnly: true }, 'transactions:read')).toBe(false);
  });

  it('the same refusal over both doors reads the same: 403 FORBIDDEN naming the role and the permission', async () => {
    const viewer = principals.find((p) => p.name === 'person viewer')!;
    const rest = await request(app.url, 'POST', '/v1/refunds', { token: viewer.token, body: {} });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ status: 'error', code: 'FORBIDDEN', message: 'Your role (viewer) does not allow this (refunds:create)' });
    const gql = await graphql(app.url, OPERATIONS[3]!.query, { token: viewer.token });
    expect(gql.body.errors?.[0]).toMatchObject({ message: 'Your role (viewer) does not allow this (refunds:create)', extensions: { code: 'FORBIDDEN' } });
  });
});
