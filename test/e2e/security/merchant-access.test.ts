import { randomUUID } from 'node:crypto';
import { AccessTokens } from '../../../src/modules/auth/access-tokens';
import { loadConfig } from '../../../src/config';
import { resolveKeys } from '../../../src/shared/keys';
import { assertBuilt, DIST_CLI, serviceEnv } from '../../helpers/process';
import { graphql, request } from '../../helpers/http';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { collect, connect } from '../../helpers/ws';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';

const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
const run = promisify(execFile);

/** A token signed with the service's own key, for any merchant id: what a leaked or stale token of a removed merchant looks like. */
function mintToken(app: TestApp, merchantId: string): Promise<string> {
  const config = loadConfig({
    TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  const keys = resolveKeys(config, pino({ level: 'silent' }));
  return new AccessTokens({ signingKey: keys.tokenSigningKey, clock: app.clock }).issue(merchantId, 'ci_unknown', randomUUID(), {
    role: 'developer',
    kind: 'api_key',
    actorId: randomUUID(),
  });
}

async function expectRefusedEverywhere(app: TestApp, token: string) {
  const rest = await request(app.url, 'GET', '/v1/merchant', { token });
  expect(rest.status).toBe(401);
  expect(rest.body.code).toBe('INVALID_TOKEN');
  const write = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: { first_name: 'X' } });
  expect(write.status).toBe(401);
  const gql = await graphql(app.url, '{ merchant { id } }', { token });
  expect(gql.status).toBe(401);
  expect(gql.body.errors?.[0]?.extensions?.code).toBe('INVALID_TOKEN');
  let closedWith: number | undefined;
  const client = connect(app, token, (code) => (closedWith = code));
  try {
    expect(await eventually(async () => closedWith !== undefined)).toBe(true);
    expect(closedWith).toBe(4403);
  } finally {
    await client.dispose();
  }
}

describe('a token whose merchant is unknown or disabled', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('a correctly signed token of a merchant that does not exist is refused on every door (no 200 reads, no 500 writes)', async () => {
    const token = await mintToken(app, randomUUID());
    await expectRefusedEverywhere(app, token);
  });

  it('the positive control: a minted token of an existing merchant is accepted (the check above refuses for the merchant, not the token)', async () => {
    const merchant = await app.createMerchant('Minted');
    const res = await request(app.url, 'GET', '/v1/merchant', { token: await mintToken(app, merchant.merchant.id) });
    expect(res.status).toBe(200);
    expect(res.body.data.merchant_id).toBe(merchant.merchant.id);
  });

  it('admin disable: live tokens stop at once, open sockets close with 4403, no new token; enable lets it back in', async () => {
    const merchant = await app.createMerchant('To disable');
    const other = await app.createMerchant('Bystander');
    const { accessToken, refreshToken } = await app.token(merchant);
    const bystander = await app.token(other);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);

    let closedWith: number | undefined;
    const client = connect(app, accessToken, (code) => (closedWith = code));
    const sub = collect(client, 'subscription { transactionStatusChanged { reference status } }');
    try {
      // The socket is open and authenticated before the disable: an operation on it answers.
      const probe = collect(client, '{ merchant { id } }');
      expect(await eventually(async () => probe.received.length > 0)).toBe(true);
      expect(probe.received[0]).toEqual({ data: { merchant: { id: merchant.merchant.id } } });

      const disabled = await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/disable`, { headers: admin });
      expect(disabled.status).toBe(200);
      expect(disabled.body.data).toMatchObject({ merchant_id: merchant.merchant.id, disabled_at: expect.any(String) });
      expect(disabled.headers.get('cache-control')).toBe('no-store');

      expect(await eventually(async () => closedWith !== undefined)).toBe(true);
      expect(closedWith).toBe(4403);
      expect(sub.received.filter((m) => m.data)).toEqual([]);
    } finally {
      await client.dispose();
    }

    await expectRefusedEverywhere(app, accessToken);
    // No new token by either grant; the right secret is told why.
    const again = await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret },
    });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'INVALID_CLIENT', message: expect.stringContaining('disabled') });
    const wrongSecret = await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: 'not-the-secret' },
    });
    expect(wrongSecret.body).toMatchObject({ code: 'INVALID_CLIENT', message: 'Client authentication failed' });
    const refreshed = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    expect(refreshed.status).toBe(401);
    // Another merchant is untouched.
    expect((await request(app.url, 'GET', '/v1/merchant', { token: bystander.accessToken })).status).toBe(200);

    // Disabling twice is harmless; enabling lets it get a new token, while the old one stays revoked.
    expect((await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/disable`, { headers: admin })).status).toBe(200);
    const enabled = await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/enable`, { headers: admin });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.disabled_at).toBeNull();
    const fresh = await app.token(merchant);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: fresh.accessToken })).status).toBe(200);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(401);
  });

  it('admin disable: a bad id is 400 before any query, an unknown one 404, and the admin key is required', async () => {
    const bad = await request(app.url, 'POST', '/v1/admin/merchants/not-a-uuid/disable', { headers: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'merchant_id', issue: 'must be a uuid' }]);
    const unknown = await request(app.url, 'POST', `/v1/admin/merchants/${randomUUID()}/disable`, { headers: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const merchant = await app.createMerchant('Guarded');
    const noKey = await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/disable`);
    expect(noKey.status).toBe(401);
    const { accessToken } = await app.token(merchant);
    const merchantToken = await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/disable`, { token: accessToken });
    expect(merchantToken.status).toBe(401);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);
  });

  it('the CLI disables a merchant of a running service (learned from the database, no Redis) and enables it', async () => {
    assertBuilt();
    const merchant = await app.createMerchant('CLI disabled');
    const { accessToken } = await app.token(merchant);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);
    const env = serviceEnv(app.db.url, {
      TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'warn',
    });
    const disabled = await run(process.execPath, [DIST_CLI('merchant-access'), 'disable', merchant.merchant.id], { env });
    expect(JSON.parse(disabled.stdout)).toMatchObject({ merchant_id: merchant.merchant.id, disabled_at: expect.any(String) });
    // The service polls the revocation table (TOKEN_REVOCATION_POLL_MS is 200 ms in tests).
    expect(await eventually(async () => (await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status === 401)).toBe(true);

    const enabled = await run(process.execPath, [DIST_CLI('merchant-access'), 'enable', merchant.merchant.id], { env });
    expect(JSON.parse(enabled.stdout).disabled_at).toBeNull();
    // This instance had cached the merchant as disabled and the CLI could not tell it (no Redis):
    // the grant reads the database, and what it learns lets the new token in at once.
    const fresh = await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret },
    });
    expect(fresh.status).toBe(200);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: fresh.body.data.access_token })).status).toBe(200);

    const usage = await run(process.execPath, [DIST_CLI('merchant-access'), 'disable'], { env }).catch((e: { code: number; stderr: string }) => e);
    expect((usage as { code: number }).code).toBe(2);
    const badId = await run(process.execPath, [DIST_CLI('merchant-access'), 'disable', 'nope'], { env }).catch((e: { code: number; stderr: string }) => e);
    expect(badId).toMatchObject({ code: 1, stderr: expect.stringContaining('INVALID_REQUEST: merchant_id must be a uuid') });
  });
});
