import type { DestinationStream } from 'pino';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { awaitKycDecision, enroll, kycBody } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { fromRest } from '../../../src/transport/rest/field-names';

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

  it('KYC submissions through either door, accepted or refused, log no identity number (a BVN, a NIN)', async () => {
    const merchant = await app.createMerchant('KYC Logs');
    const token = (await app.token(merchant)).accessToken;
    const [first, second] = [await enroll(app, token), await enroll(app, token)];
    const nigerian = { id_country: 'NG', address: { line1: '3 Marina', city: 'Lagos', country_code: 'NG' } };
    const refused = await request(app.url, 'POST', `/v1/customer/${first.customer_uuid}/kyc`, {
      token,
      body: kycBody({ ...nigerian, id_type: 'bvn', id_number: '2221234567' }),
    });
    expect(refused.status).toBe(400);
    const accepted = await request(app.url, 'POST', `/v1/customer/${first.customer_uuid}/kyc`, {
      token,
      body: kycBody({ ...nigerian, id_type: 'bvn', id_number: '22212345678' }),
    });
    expect(accepted.status).toBe(200);
    const SUBMIT = 'mutation($uuid: String!, $input: SubmitKycInput!) { submitKyc(customerUuid: $uuid, input: $input) { kycStatus } }';
    const input = (idNumber: string) => fromRest({ ...kycBody(nigerian), id_type: 'NIN', id_number: idNumber });
    const wrong = await graphql(app.url, SUBMIT, { token, variables: { uuid: second.customer_uuid, input: input('701234567') } });
    expect(wrong.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    const right = await graphql(app.url, SUBMIT, { token, variables: { uuid: second.customer_uuid, input: input('70123456789') } });
    expect(right.body.data.submitKyc.kycStatus).toBe('PENDING');
    await awaitKycDecision(app, token, second.customer_uuid);

    const log = lines.join('');
    // The capture works: the requests and the decisions themselves were logged.
    expect(log).toContain('"path":"/v1/customer/:uuid/kyc","statusCode":400');
    expect(log).toContain('KYC decided');
    for (const number of ['2221234567', '22212345678', '701234567', '70123456789']) expect(log).not.toContain(number);
  });
});
