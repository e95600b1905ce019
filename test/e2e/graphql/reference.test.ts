import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const SPEC_COUNTRIES = ['NG', 'KE', 'GH', 'UG', 'TZ', 'RW', 'ZA', 'BJ', 'BW', 'BF', 'CM', 'CI', 'CD', 'CG', 'GA', 'ML', 'MW', 'TG', 'ZM', 'SN', 'GB', 'US'];

const CHANNELS = `query Channels($countryCode: String!, $rampType: RampType!) {
  channels(countryCode: $countryCode, rampType: $rampType) {
    channelId countryCode currency channelType rampType minAmount maxAmount status
  }
}`;
const NETWORKS = `query Networks($countryCode: String!, $channel: ChannelType!) {
  networks(countryCode: $countryCode, channel: $channel) { networkId name code countryCode channelType }
}`;

describe('GraphQL lookups: countries, channels, networks', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant('GraphQL Lookup Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  const run = (query: string, variables?: Record<string, unknown>, auth: string | null = token) =>
    graphql(app.url, query, { variables, token: auth ?? undefined });

  const errorOf = (res: Awaited<ReturnType<typeof run>>) => {
    expect(res.body.errors).toHaveLength(1);
    return res.body.errors![0]!;
  };

  it('lists the 22 countries', async () => {
    const res = await run('{ countries { name countryCode currency minorUnit dialCode exampleMobileNumber } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const countries = res.body.data.countries as any[];
    expect(countries.map((c) => c.countryCode).sort()).toEqual([...SPEC_COUNTRIES].sort());
    expect(countries).toContainEqual({ name: 'Kenya', countryCode: 'KE', currency: 'KES', minorUnit: 2, dialCode: '+254', exampleMobileNumber: '712345678' });
    expect(countries).toContainEqual({ name: 'Rwanda', countryCode: 'RW', currency: 'RWF', minorUnit: 0, dialCode: '+250', exampleMobileNumber: '720123456' });
  });

  it('lists a country’s channels with enum values and Decimal strings', async () => {
    const res = await run(CHANNELS, { countryCode: 'KE', rampType: 'DEPOSIT' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.channels).toEqual(
      expect.arrayContaining([
        {
          channelId: 'ke_momo_deposit',
          countryCode: 'KE',
          currency: 'KES',
          channelType: 'MOMO',
          rampType: 'DEPOSIT',
          minAmount: '10.00',
          maxAmount: '250000.00',
          status: 'ACTIVE',
        },
        expect.objectContaining({ channelId: 'ke_bank_deposit', channelType: 'BANK', minAmount: '100.00' }),
      ]),
    );
    expect(res.body.data.channels).toHaveLength(2);
  });

  it('shows zero-decimal currencies without a decimal point', async () => {
    const res = await run(CHANNELS, { countryCode: 'CI', rampType: 'WITHDRAWAL' });
    const momo = res.body.data.channels.find((c: any) => c.channelType === 'MOMO');
    expect(momo).toMatchObject({ channelId: 'ci_momo_withdrawal', currency: 'XOF', minAmount: '100', maxAmount: '2000000' });
  });

  it('lists a country’s networks', async () => {
    const res = await run(NETWORKS, { countryCode: 'GH', channel: 'MOMO' });
    expect(res.status).toBe(200);
    expect(res.body.data.networks.map((n: any) => n.name)).toEqual(expect.arrayContaining(['MTN MoMo', 'Telecel Cash', 'AirtelTigo Money']));
    expect(res.body.data.networks).toContainEqual({ networkId: 'gh_mtn_momo', name: 'MTN MoMo', code: 'MTN', countryCode: 'GH', channelType: 'MOMO' });
    const banks = await run(NETWORKS, { countryCode: 'US', channel: 'BANK' });
    expect(banks.body.data.networks.length).toBeGreaterThanOrEqual(3);
    const noMomo = await run(NETWORKS, { countryCode: 'US', channel: 'MOMO' });
    expect(noMomo.body.data.networks).toEqual([]);
  });

  it('answers NOT_FOUND for an unsupported country, through both queries', async () => {
    for (const res of [await run(CHANNELS, { countryCode: 'FR', rampType: 'DEPOSIT' }), await run(NETWORKS, { countryCode: 'FR', channel: 'BANK' })]) {
      const error = errorOf(res);
      expect(error.extensions?.code).toBe('NOT_FOUND');
      expect(error.extensions?.http?.status).toBe(404);
      expect(error.message).toBe('Country FR is not supported');
      expect(res.body.data).toBeNull();
    }
  });

  it('answers INVALID_REQUEST with details for a malformed country code', async () => {
    const res = await run(CHANNELS, { countryCode: 'KEN', rampType: 'DEPOSIT' });
    const error = errorOf(res);
    expect(error.extensions?.code).toBe('INVALID_REQUEST');
    expect(error.extensions?.details).toEqual([{ field: 'countryCode', issue: 'must be an ISO 3166-1 alpha-2 code, e.g. KE' }]);
  });

  it.each([
    ['an unknown rampType', CHANNELS, { countryCode: 'KE', rampType: 'SIDEWAYS' }],
    ['a lower-case enum value', CHANNELS, { countryCode: 'KE', rampType: 'deposit' }],
    ['a missing rampType', CHANNELS, { countryCode: 'KE' }],
    ['an unknown channel', NETWORKS, { countryCode: 'KE', channel: 'CARD' }],
    ['a missing countryCode', NETWORKS, { channel: 'BANK' }],
  ])('answers 400 INVALID_REQUEST for %s', async (_label, query, variables) => {
    const res = await run(query, variables);
    expect(res.status).toBe(400);
    expect(errorOf(res).extensions?.code).toBe('INVALID_REQUEST');
  });

  it('answers INVALID_REQUEST for a missing argument in the query text', async () => {
    const res = await run('{ networks(countryCode: "KE") { networkId } }');
    expect(res.status).toBe(400);
    expect(errorOf(res).extensions?.code).toBe('INVALID_REQUEST');
  });

  it('needs a token', async () => {
    const res = await run('{ countries { countryCode } }', undefined, null);
    expect(res.status).toBe(401);
    expect(errorOf(res).extensions?.code).toBe('INVALID_TOKEN');
  });
});
