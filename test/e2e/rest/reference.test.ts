import { readReferenceData } from '../../../src/modules/reference/reference.data';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { request } from '../../helpers/http';

const SPEC_COUNTRIES = ['NG', 'KE', 'GH', 'UG', 'TZ', 'RW', 'ZA', 'BJ', 'BW', 'BF', 'CM', 'CI', 'CD', 'CG', 'GA', 'ML', 'MW', 'TG', 'ZM', 'SN', 'GB', 'US'];

describe('REST /v1/crossborder lookups', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant('Lookup Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  /** `null` sends no Authorization header at all. */
  const get = (path: string, auth: string | null = token) => request(app.url, 'GET', path, { token: auth ?? undefined });

  describe('GET /v1/crossborder/countries', () => {
    it('lists the 22 spec countries with name, country_code, currency, dial_code and a mobile number the service takes', async () => {
      const res = await get('/v1/crossborder/countries');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: expect.any(String), data: expect.any(Array), meta: { count: 22 } });
      expect(res.body.data.map((c: any) => c.country_code).sort()).toEqual([...SPEC_COUNTRIES].sort());
      expect(res.body.data).toContainEqual({
        name: 'Kenya',
        country_code: 'KE',
        currency: 'KES',
        minor_unit: 2,
        dial_code: '+254',
        example_mobile_number: '712345678',
      });
      expect(res.body.data).toContainEqual({
        name: 'Uganda',
        country_code: 'UG',
        currency: 'UGX',
        minor_unit: 0,
        dial_code: '+256',
        example_mobile_number: '772123456',
      });
      expect(res.body.data).toContainEqual({
        name: 'Senegal',
        country_code: 'SN',
        currency: 'XOF',
        minor_unit: 0,
        dial_code: '+221',
        example_mobile_number: '701234567',
      });
      expect(res.body.data).toContainEqual({
        name: 'Cameroon',
        country_code: 'CM',
        currency: 'XAF',
        minor_unit: 0,
        dial_code: '+237',
        example_mobile_number: '671234567',
      });
      expect(res.body.data).toContainEqual({
        name: 'United States',
        country_code: 'US',
        currency: 'USD',
        minor_unit: 2,
        dial_code: '+1',
        example_mobile_number: '2015550123',
      });
    });

    it('needs a bearer token', async () => {
      const res = await get('/v1/crossborder/countries', null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
    });
  });

  describe('GET /v1/crossborder/channels', () => {
    it('lists a country’s channels for one ramptype, amounts as exact JSON numbers', async () => {
      const res = await get('/v1/crossborder/channels?country_code=KE&ramptype=deposit');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.meta).toEqual({ count: 2 });
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          {
            channel_id: 'ke_bank_deposit',
            country_code: 'KE',
            currency: 'KES',
            channel_type: 'bank',
            ramptype: 'deposit',
            min_amount: 100,
            max_amount: 10000000,
            status: 'active',
          },
          {
            channel_id: 'ke_momo_deposit',
            country_code: 'KE',
            currency: 'KES',
            channel_type: 'momo',
            ramptype: 'deposit',
            min_amount: 10,
            max_amount: 250000,
            status: 'active',
          },
        ]),
      );
    });

    it('shows amounts of zero-decimal currencies without a decimal point', async () => {
      const res = await get('/v1/crossborder/channels?country_code=UG&ramptype=withdrawal');
      expect(res.status).toBe(200);
      const momo = res.body.data.find((c: any) => c.channel_type === 'momo');
      expect(momo).toMatchObject({ channel_id: 'ug_momo_withdrawal', currency: 'UGX', min_amount: 500, max_amount: 5000000 });
    });

    it('matches the query case-insensitively', async () => {
      const res = await get('/v1/crossborder/channels?country_code=ke&ramptype=Withdrawal');
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: any) => c.channel_id).sort()).toEqual(['ke_bank_withdrawal', 'ke_momo_withdrawal']);
    });

    it('offers only bank channels in GB and US', async () => {
      for (const country of ['GB', 'US']) {
        const res = await get(`/v1/crossborder/channels?country_code=${country}&ramptype=withdrawal`);
        expect(res.status).toBe(200);
        expect(res.body.data.map((c: any) => c.channel_type)).toEqual(['bank']);
      }
    });

    it.each([
      ['no parameters', '', ['country_code', 'ramptype']],
      ['a missing ramptype', '?country_code=KE', ['ramptype']],
      ['a missing country_code', '?ramptype=deposit', ['country_code']],
      ['an unknown ramptype', '?country_code=KE&ramptype=sideways', ['ramptype']],
      ['a three-letter country code', '?country_code=KEN&ramptype=deposit', ['country_code']],
      ['a numeric country code', '?country_code=12&ramptype=deposit', ['country_code']],
      ['a repeated parameter', '?country_code=KE&country_code=NG&ramptype=deposit', ['country_code']],
    ])('answers 400 INVALID_REQUEST for %s', async (_label, query, fields) => {
      const res = await get(`/v1/crossborder/channels${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: expect.any(String), details: expect.any(Array) });
      expect(res.body.details.map((d: any) => d.field).sort()).toEqual(fields);
    });

    it('answers 404 NOT_FOUND for a well-formed but unsupported country', async () => {
      const res = await get('/v1/crossborder/channels?country_code=FR&ramptype=deposit');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Country FR is not supported' });
    });

    it('needs a bearer token', async () => {
      expect((await get('/v1/crossborder/channels?country_code=KE&ramptype=deposit', 'garbage')).status).toBe(401);
    });
  });

  describe('GET /v1/crossborder/networks', () => {
    it('lists Kenya’s mobile money operators', async () => {
      const res = await get('/v1/crossborder/networks?country_code=KE&channel=momo');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ count: 2 });
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { network_id: 'ke_mpesa', name: 'M-Pesa', code: 'MPESA', country_code: 'KE', channel_type: 'momo', local_code: null },
          { network_id: 'ke_airtel_money', name: 'Airtel Money', code: 'AIRTEL', country_code: 'KE', channel_type: 'momo', local_code: null },
        ]),
      );
    });

    it('lists real operators and banks by name', async () => {
      const names = async (country: string, channel: string) =>
        (await get(`/v1/crossborder/networks?country_code=${country}&channel=${channel}`)).body.data.map((n: any) => n.name);
      expect(await names('GH', 'momo')).toEqual(expect.arrayContaining(['MTN MoMo', 'Telecel Cash', 'AirtelTigo Money']));
      expect(await names('SN', 'momo')).toEqual(expect.arrayContaining(['Orange Money', 'Wave', 'Free Money']));
      expect(await names('TZ', 'momo')).toEqual(expect.arrayContaining(['M-Pesa', 'Airtel Money', 'HaloPesa']));
      expect(await names('NG', 'momo')).toEqual(expect.arrayContaining(['OPay', 'PalmPay', 'MTN MoMo PSB']));
      expect(await names('NG', 'bank')).toEqual(expect.arrayContaining(['Access Bank', 'Guaranty Trust Bank', 'Zenith Bank']));
      const bank = (await get('/v1/crossborder/networks?country_code=NG&channel=bank')).body.data.find((n: any) => n.network_id === 'ng_access_bank');
      // Issue 38 adds the local code (the CBN/NIP code here; banks.json).
      expect(bank).toEqual({
        network_id: 'ng_access_bank',
        name: 'Access Bank',
        code: 'ABNGNGLA',
        country_code: 'NG',
        channel_type: 'bank',
        local_code: '044',
      });
    });

    it('answers an empty list for mobile money in GB', async () => {
      const res = await get('/v1/crossborder/networks?country_code=GB&channel=momo');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toEqual({ count: 0 });
    });

    it.each([
      ['no parameters', '', ['channel', 'country_code']],
      ['a missing channel', '?country_code=KE', ['channel']],
      ['an unknown channel', '?country_code=KE&channel=card', ['channel']],
      ['a malformed country code', '?country_code=K1&channel=bank', ['country_code']],
    ])('answers 400 INVALID_REQUEST for %s', async (_label, query, fields) => {
      const res = await get(`/v1/crossborder/networks${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.details.map((d: any) => d.field).sort()).toEqual(fields);
    });

    it('answers 404 NOT_FOUND for an unsupported country', async () => {
      const res = await get('/v1/crossborder/networks?country_code=FR&channel=bank');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    });

    it('needs a bearer token', async () => {
      expect((await get('/v1/crossborder/networks?country_code=KE&channel=momo', null)).status).toBe(401);
    });
  });

  describe('served reference data', () => {
    it('gives every spec country a currency, minor unit, dial code, channels both ways, ≥3 banks, and momo operators where momo exists', async () => {
      const countries = (await get('/v1/crossborder/countries')).body.data as any[];
      for (const code of SPEC_COUNTRIES) {
        const country = countries.find((c) => c.country_code === code);
        expect(country).toEqual({
          name: expect.any(String),
          country_code: code,
          currency: expect.stringMatching(/^[A-Z]{3}$/),
          minor_unit: expect.any(Number),
          dial_code: expect.stringMatching(/^\+[1-9]\d{0,3}$/),
          example_mobile_number: expect.stringMatching(/^\d{7,12}$/),
        });
        const channelTypes: Record<string, string[]> = {};
        for (const ramptype of ['deposit', 'withdrawal']) {
          const channels = (await get(`/v1/crossborder/channels?country_code=${code}&ramptype=${ramptype}`)).body.data as any[];
          expect(channels.length).toBeGreaterThanOrEqual(1);
          for (const channel of channels) {
            expect(channel.currency).toBe(country.currency);
            expect(channel.status).toBe('active');
            // Exact JSON numbers with no more decimals than the currency has.
            for (const bound of [channel.min_amount, channel.max_amount]) {
              expect(typeof bound).toBe('number');
              expect((String(bound).split('.')[1] ?? '').length).toBeLessThanOrEqual(country.minor_unit);
            }
            expect(channel.min_amount).toBeLessThan(channel.max_amount);
          }
          channelTypes[ramptype] = channels.map((c) => c.channel_type).sort();
        }
        expect(channelTypes.deposit).toEqual(channelTypes.withdrawal);
        expect(channelTypes.deposit).toContain('bank');
        const banks = (await get(`/v1/crossborder/networks?country_code=${code}&channel=bank`)).body.data as any[];
        expect(banks.length).toBeGreaterThanOrEqual(3);
        const operators = (await get(`/v1/crossborder/networks?country_code=${code}&channel=momo`)).body.data as any[];
        if (['GB', 'US'].includes(code)) {
          expect(channelTypes.deposit).toEqual(['bank']);
          expect(operators).toEqual([]);
        } else {
          expect(channelTypes.deposit).toEqual(['bank', 'momo']);
          expect(operators.length).toBeGreaterThanOrEqual(2);
        }
        for (const network of [...banks, ...operators]) {
          expect(network.country_code).toBe(code);
          expect(network.network_id.startsWith(`${code.toLowerCase()}_`)).toBe(true);
          expect(network.code.length).toBeGreaterThan(0);
        }
      }
    });

    it('is seeded idempotently: a second instance on the same database leaves one row per item', async () => {
      const second = await createTestApp({ database: app.db, clock: app.clock });
      try {
        const em = app.service.orm.em.fork();
        const [row] = await em.execute(
          `select (select count(*)::int from country) as countries, (select count(*)::int from channel) as channels,
                  (select count(*)::int from network) as networks, (select count(*)::int from currency) as currencies`,
        );
        const files = readReferenceData();
        expect(row).toEqual({
          countries: 22,
          channels: files.channels.length,
          networks: files.networks.length,
          currencies: files.currencies.length,
        });
        const [{ inactive }] = await em.execute(`select count(*)::int as inactive from channel where status <> 'active'`);
        expect(inactive).toBe(0);
        const res = await request(second.url, 'GET', '/v1/crossborder/countries', { token });
        expect(res.body.meta).toEqual({ count: 22 });
      } finally {
        await second.close();
      }
    });
  });
});
