import { request } from '../../helpers/http';
import type { TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.each([
  // Redis carries the revocation at once; the poll is set too slow to be what works.
  ['through Redis pub/sub', { REDIS_URL, TOKEN_REVOCATION_POLL_MS: '600000' }],
  // Without Redis, the other instance catches up from the token_revocation table.
  ['through the revocation table poll', { TOKEN_REVOCATION_POLL_MS: '100' }],
])('two instances on one database: a revocation on A reaches B %s', (_label, env) => {
  let instances: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await startTwoInstances(env);
    ({ a, b } = instances);
  });
  afterAll(() => instances?.close());

  it('a token issued by A works on B until A revokes it, then B refuses it', async () => {
    const merchant = await a.createMerchant('Shared Merchant');
    const { accessToken, refreshToken } = await a.token(merchant);
    expect((await request(b.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);

    const revoked = await request(a.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } });
    expect(revoked.status).toBe(200);
    expect((await request(a.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(401);

    const refusedOnB = await eventually(async () => (await request(b.url, 'GET', '/v1/merchant', { token: accessToken })).status === 401);
    expect(refusedOnB).toBe(true);
    const onB = await request(b.url, 'GET', '/v1/merchant', { token: accessToken });
    expect(onB.body.code).toBe('INVALID_TOKEN');
  });

  it('a refresh token rotated on A cannot be refreshed again on B', async () => {
    const merchant = await b.createMerchant('Rotating Merchant');
    const { refreshToken } = await b.token(merchant);
    const rotated = await request(a.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    expect(rotated.status).toBe(200);
    const replay = await request(b.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_TOKEN');
  });
});
