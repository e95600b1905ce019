import { randomUUID } from 'node:crypto';
import { KEY_ROLES, PERMISSIONS, ROLES, permits, type Permission, type Principal, type Role } from '../../../src/modules/access/permissions';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { apiKeyToken, personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { connect, subscribeLive } from '../../helpers/ws';

/**
 * The role matrix at both doors (issue 36; docs/access.md): every bearer route of the OpenAPI document,
 * called by a person of each role and by an API key of each key role, is refused with 403 FORBIDDEN
 * exactly when the matrix says so; GraphQL operations likewise, at least one per permission, and every subscription
 * over the WebSocket (graphql-ws), refused when it starts. The calls carry no
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
