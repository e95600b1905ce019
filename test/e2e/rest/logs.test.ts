import type { DestinationStream } from 'pino';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { graphql, request } from '../../helpers/http';

describe('logs never carry secrets', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (chunk: string) => void lines.push(chunk) };
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ logDestination: capture });
  });
  afterAll(() => app.close());

  it('merchant creation, token issuance, refresh, revocation and authenticated calls log no secret or token', async () => {
    const created = await request(app.url, 'POST', '/v1/admin/merchants', {
      body: { name: 'Logged Merchant' },
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    });
    expect(created.status).toBe(201);
    const { client_id, client_secret, webhook_secret } = created.body.data;

    const viaService = await app.createMerchant('Service Merchant');
    const token = await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id, client_secret },
    });
    const basic = await request(app.url, 'POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`,
      },
    });
    const { access_token, refresh_token } = token.body.data;
    const refreshed = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token } });
    await request(app.url, 'GET', '/v1/merchant', { token: access_token });
    await graphql(app.url, '{ merchant { id } }', { token: refreshed.body.data.access_token });
    await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token } }); // reuse
    await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: basic.body.data.refresh_token } });
    await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret: 'sk_wrong' } });

    const log = lines.join('');
    // The capture works: the events themselves were logged.
    expect(log).toContain('merchant created');
    expect(log).toContain('access token issued');
    expect(log).toContain('refresh token reuse');
    const secrets = [
      client_secret,
      webhook_secret,
      viaService.clientSecret,
      viaService.webhookSecret,
      access_token,
      refresh_token,
      refreshed.body.data.access_token,
      refreshed.body.data.refresh_token,
      basic.body.data.access_token,
      basic.body.data.refresh_token,
      TEST_ADMIN_KEY,
    ];
    for (const secret of secrets) {
      expect(typeof secret).toBe('string');
      expect(log).not.toContain(secret);
    }
  });
});
