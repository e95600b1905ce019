import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { kycBody, enroll } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { CARDS, cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { assertBuilt, DIST_CLI, serviceEnv } from '../../helpers/process';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { newReference } from '../../helpers/transactions';
import { dbQuery } from '../../helpers/webhooks';
import { auditRows, graphqlAs, TEST_KEYS } from './audit-helpers';

const run = promisify(execFile);
const REST_UA = 'audit-test/rest';
const GQL_UA = 'audit-test/graphql';
const ADMIN_UA = 'audit-test/admin';
const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'user-agent': ADMIN_UA };

/**
 * Issue 36, the audit log: each existing security-relevant action writes exactly one entry, from
 * every door (REST with an API key, GraphQL with a person's session, the admin API) and the
 * operator's CLIs, with its actor, role and origin; a replay or a refusal writes none.
 */
describe('the audit log records each action once, from every door', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let merchantId: string;
  /** The merchant's default credentials: a developer API key. */
  let keyToken: string;
  let keyId: string;
  /** An owner's session. */
  let owner: TestPerson;
  let cliEnv: NodeJS.ProcessEnv;

  const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(app.url, method, path, { token: keyToken, body, headers: { 'user-agent': REST_UA, ...headers } });
  const gql = (query: string, variables?: Record<string, unknown>) => graphqlAs(app, owner.token, GQL_UA, query, variables);

  /** The entry came from the developer key over REST, or from the owner over GraphQL. */
  const expectByKey = (row: unknown) =>
    expect(row).toMatchObject({
      actor_type: 'api_key',
      actor_id: keyId,
      actor_label: merchant.merchant.clientId,
      role: 'developer',
      ip: '127.0.0.1',
      user_agent: REST_UA,
      merchant_id: merchantId,
    });
  const expectByOwner = (row: unknown) =>
    expect(row).toMatchObject({ actor_type: 'user', actor_id: owner.userId, role: 'owner', ip: '127.0.0.1', user_agent: GQL_UA, merchant_id: merchantId });

  beforeAll(async () => {
    assertBuilt();
    // The sandbox reviewer waits long enough for operators to decide first.
    app = await createTestApp({ env: { SANDBOX_KYC_DELAY_MS: '600000' } });
    merchant = await app.createMerchant('Audited Ltd');
    merchantId = merchant.merchant.id;
    keyToken = (await app.token(merchant)).accessToken;
    [{ id: keyId }] = await dbQuery<{ id: string }>(app.db.url, 'select id from api_key where client_id = $1', [merchant.merchant.clientId]);
    owner = await personOf(app, merchantId, 'owner');
    cliEnv = serviceEnv(app.db.url, { ...TEST_KEYS, LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('webhook.endpoint_changed: REST and GraphQL, before and after, query values redacted; an unchanged PUT writes nothing', async () => {
    expect((await rest('PUT', '/v1/webhooks/endpoint', { url: 'http://127.0.0.1:9/in?token=s3cr3t' })).status).toBe(200);
    expect((await rest('PUT', '/v1/webhooks/endpoint', { url: 'http://127.0.0.1:9/in?token=s3cr3t' })).status).toBe(200);
    let rows = await auditRows(app, merchantId, 'webhook.endpoint_changed');
    expect(rows).toHaveLength(1);
    expectByKey(rows[0]);
    expect(rows[0]).toMatchObject({
      target_type: 'webhook_endpoint',
      before: { url: null, event_types: null },
      after: { url: 'http://127.0.0.1:9/in?token=redacted', event_types: null },
    });
    expect(JSON.stringify(rows)).not.toContain('s3cr3t');

    const changed = await gql('mutation { setWebhookEndpoint(url: null, eventTypes: ["collection.successful"]) { webhookUrl } }');
    expect(changed.body.errors).toBeUndefined();
    rows = await auditRows(app, merchantId, 'webhook.endpoint_changed');
    expect(rows).toHaveLength(2);
    expectByOwner(rows[1]);
    expect(rows[1]).toMatchObject({ after: { url: null, event_types: ['collection.successful'] } });
  });

  it('webhook.secret_rotated: REST and GraphQL, one each, with no secret in it', async () => {
    const byRest = await rest('POST', '/v1/webhooks/secret/rotate');
    expect(byRest.status).toBe(200);
    const byGraphql = await gql('mutation { rotateWebhookSecret { webhookSecret } }');
    expect(byGraphql.body.errors).toBeUndefined();
    const rows = await auditRows(app, merchantId, 'webhook.secret_rotated');
    expect(rows).toHaveLength(2);
    expectByKey(rows[0]);
    expectByOwner(rows[1]);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain(byRest.body.data.webhook_secret);
  });

  it('refund.created: REST and GraphQL, one each; a replayed Idempotency-Key and a refused refund write nothing', async () => {
    const payment = await initiatePayment(app, keyToken, cardPaymentBody({ card: { number: CARDS.success } }));
    expect(payment.body.data.status).toBe('successful');
    const paymentReference = payment.body.data.reference;
    const body = { payment_reference: paymentReference, amount: '100.00', reason: 'Damaged', reference: newReference('rf') };
    const first = await rest('POST', '/v1/refunds', body, { 'idempotency-key': 'refund-once' });
    expect(first.status).toBe(200);
    expect((await rest('POST', '/v1/refunds', body, { 'idempotency-key': 'refund-once' })).status).toBe(200);
    expect((await rest('POST', '/v1/refunds', { ...body, amount: '999999.00', reference: newReference('rf') })).status).toBe(400);
    const byGraphql = await gql('mutation($input: RefundPaymentInput!) { refundPayment(input: $input) { reference } }', {
      input: { paymentReference, amount: '50.00', reason: 'Late', reference: newReference('rf-gql') },
    });
    expect(byGraphql.body.errors).toBeUndefined();
    const rows = await auditRows(app, merchantId, 'refund.created');
    expect(rows).toHaveLength(2);
    expectByKey(rows[0]);
    expect(rows[0]).toMatchObject({
      target_type: 'refund',
      target_id: first.body.data.reference,
      after: { amount: '100.00', currency: 'NGN', payment_reference: paymentReference },
    });
    expectByOwner(rows[1]);
    expect(rows[1]).toMatchObject({ target_id: byGraphql.body.data.refundPayment.reference, after: { amount: '50.00' } });
  });

  it('sandbox.top_up: REST and GraphQL, one each; a refused top-up writes nothing', async () => {
    expect((await rest('POST', '/v1/sandbox/balance/top-up', { currency: 'NGN', amount: '1000.00' })).status).toBe(200);
    expect((await rest('POST', '/v1/sandbox/balance/top-up', { currency: 'XXX', amount: '1000.00' })).status).toBe(400);
    expect((await gql('mutation { topUpBalance(currency: "KES", amount: "250") { currency } }')).body.errors).toBeUndefined();
    const rows = await auditRows(app, merchantId, 'sandbox.top_up');
    expect(rows).toHaveLength(2);
    expectByKey(rows[0]);
    expect(rows[0]).toMatchObject({ target_type: 'balance', target_id: 'NGN', after: { amount: '1000.00', currency: 'NGN' } });
    expectByOwner(rows[1]);
    expect(rows[1]).toMatchObject({ after: { amount: '250.00', currency: 'KES' } });
  });

  it('ledger.adjustment_posted: the admin API and ledger:adjust, once per reference', async () => {
    const body = { currency: 'NGN', amount: '75.00', reason: 'Bank fee returned', reference: 'ADJ-1' };
    const path = `/v1/admin/merchants/${merchantId}/adjustments`;
    expect((await request(app.url, 'POST', path, { headers: admin, body })).body.data).toBeDefined();
    // The same reference again: a retry, posting nothing, recording nothing.
    const again = await request(app.url, 'POST', path, { headers: admin, body });
    expect(again.status).toBeLessThan(300);
    await run(
      process.execPath,
      [DIST_CLI('ledger-adjust'), merchantId, '--currency', 'NGN', '--amount=-5.00', '--reason', 'Correction', '--reference', 'ADJ-2'],
      {
        env: cliEnv,
      },
    );
    const rows = await auditRows(app, merchantId, 'ledger.adjustment_posted');
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.target_id === 'ADJ-1')).toMatchObject({
      actor_type: 'operator',
      actor_label: 'admin_api',
      role: null,
      ip: '127.0.0.1',
      user_agent: ADMIN_UA,
      after: { amount: '75.00', currency: 'NGN', reason: 'Bank fee returned', reference: 'ADJ-1' },
    });
    expect(rows.find((r) => r.target_id === 'ADJ-2')).toMatchObject({
      actor_type: 'operator',
      actor_label: 'ledger:adjust',
      ip: null,
      after: { amount: '-5.00' },
    });
  });

  it('kyc.decided: the admin API and kyc:review, once per decision', async () => {
    const submit = async () => {
      const customer = await enroll(app, keyToken);
      expect((await rest('POST', `/v1/customer/${customer.customer_uuid}/kyc`, kycBody())).status).toBe(200);
      const [row] = await dbQuery<{ id: string }>(app.db.url, 'select id from kyc_submission where customer_id = $1', [customer.customer_uuid]);
      return { customerUuid: customer.customer_uuid, submissionId: row!.id };
    };
    const first = await submit();
    const second = await submit();
    const approve = (id: string) => request(app.url, 'POST', `/v1/admin/kyc/${id}/approve`, { headers: admin, body: { operator: 'alice' } });
    expect((await approve(first.submissionId)).status).toBe(200);
    expect((await approve(first.submissionId)).status).toBe(409);
    await run(process.execPath, [DIST_CLI('kyc-review'), 'reject', second.submissionId, '--reason', 'Blurred document', '--operator', 'bob'], { env: cliEnv });
    const rows = await auditRows(app, merchantId, 'kyc.decided');
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.target_id === first.submissionId)).toMatchObject({
      actor_type: 'operator',
      actor_id: 'alice',
      actor_label: 'admin_api',
      ip: '127.0.0.1',
      user_agent: ADMIN_UA,
      target_type: 'kyc_submission',
      after: { status: 'approved', customer_uuid: first.customerUuid },
    });
    expect(rows.find((r) => r.target_id === second.submissionId)).toMatchObject({
      actor_type: 'operator',
      actor_id: 'bob',
      actor_label: 'kyc:review',
      ip: null,
      after: { status: 'rejected', reason: 'Blurred document' },
    });
  });

  it('merchant.created: the admin API and merchant:create', async () => {
    const created = await request(app.url, 'POST', '/v1/admin/merchants', { headers: admin, body: { name: 'Made by admin' } });
    expect(created.status).toBe(201);
    const byAdmin = await auditRows(app, created.body.data.merchant_id, 'merchant.created');
    expect(byAdmin).toEqual([
      expect.objectContaining({ actor_type: 'operator', actor_label: 'admin_api', ip: '127.0.0.1', target_id: created.body.data.merchant_id }),
    ]);
    expect(byAdmin[0]!.after).toEqual({ name: 'Made by admin', client_id: created.body.data.client_id });
    const cli = await run(process.execPath, [DIST_CLI('merchant-create'), '--name', 'Made by CLI'], { env: cliEnv });
    const madeByCli = JSON.parse(cli.stdout);
    const byCli = await auditRows(app, madeByCli.merchant_id, 'merchant.created');
    expect(byCli).toEqual([expect.objectContaining({ actor_type: 'operator', actor_label: 'merchant:create', ip: null })]);
    expect(JSON.stringify([...byAdmin, ...byCli])).not.toMatch(/sk_|whsec_/);
  });

  it('merchant.disabled and merchant.enabled: the admin API and merchant:access, only when the state changes', async () => {
    const other = await app.createMerchant('Switched');
    const id = other.merchant.id;
    const post = (what: string) => request(app.url, 'POST', `/v1/admin/merchants/${id}/${what}`, { headers: admin });
    expect((await post('disable')).status).toBe(200);
    expect((await post('disable')).status).toBe(200);
    await run(process.execPath, [DIST_CLI('merchant-access'), 'enable', id], { env: cliEnv });
    await run(process.execPath, [DIST_CLI('merchant-access'), 'enable', id], { env: cliEnv });
    const disabled = await auditRows(app, id, 'merchant.disabled');
    const enabled = await auditRows(app, id, 'merchant.enabled');
    expect(disabled).toEqual([expect.objectContaining({ actor_label: 'admin_api', ip: '127.0.0.1', before: { disabled: false }, after: { disabled: true } })]);
    expect(enabled).toEqual([expect.objectContaining({ actor_label: 'merchant:access', ip: null, before: { disabled: true }, after: { disabled: false } })]);
  });
});
