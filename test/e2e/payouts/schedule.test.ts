import { graphql, request } from '../../helpers/http';
import { apiKeyToken, personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

const PATH = '/v1/payout-schedule';
const FIELDS = 'currency interval weeklyAnchor monthlyAnchor delayDays cutoffTime timeZone minimumAmount nextPayoutAt isDefault';

/** Issue 38, point 3: payout schedules through both doors (docs/payouts.md, "Schedules"). The clock is 2026-11-22T12:00Z, a Sunday. */
describe('payout schedules (sandbox)', () => {
  let app: TestApp;
  let owner: string;
  let viewer: string;
  let otherOwner: string;
  let merchantId: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYOUT_MINIMUMS: 'KES:250.50' } });
    merchantId = (await app.createMerchant('Schedule Merchant')).merchant.id;
    await dbQuery(app.db.url, `update merchant set country = 'NG' where id = $1`, [merchantId]);
    owner = (await personOf(app, merchantId, 'owner')).token;
    viewer = (await personOf(app, merchantId, 'viewer')).token;
    otherOwner = (await personOf(app, (await app.createMerchant('Other Merchant')).merchant.id, 'owner')).token;
  });
  afterAll(() => app.close());

  const get = (currency: string, token = owner) => request(app.url, 'GET', `${PATH}?currency=${currency}`, { token });
  const put = (body: unknown, token = owner) => request(app.url, 'PUT', PATH, { token, body });
  const rows = () => dbQuery(app.db.url, 'select currency, interval, updated_by from payout_schedule order by currency');
  const audits = () => dbQuery(app.db.url, `select before, after from audit_log where action = 'payout_schedule.changed' order by created_at, id`);

  describe('REST', () => {
    it('answers the default when none is set: daily, no delay in the sandbox, 16:00 in the merchant’s country’s zone', async () => {
      const res = await get('ngn');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        currency: 'NGN',
        interval: 'daily',
        weekly_anchor: null,
        monthly_anchor: null,
        delay_days: 0,
        cutoff_time: '16:00',
        time_zone: 'Africa/Lagos',
        minimum_amount: 100,
        // 16:00 in Lagos (UTC+1) is 15:00 UTC, after the clock's 12:00.
        next_payout_at: '2026-11-22T15:00:00.000Z',
        is_default: true,
      });
      expect((await get('KES')).body.data.minimum_amount).toBe(250.5); // PAYOUT_MINIMUMS over the default
      expect(await rows()).toEqual([]);
    });

    it('sets a weekly schedule (audited once), which the next read answers; a merchant sees only its own', async () => {
      const res = await put({ currency: 'NGN', interval: 'weekly', weekly_anchor: 'friday', delay_days: 2, cutoff_time: '09:30', time_zone: 'Africa/Nairobi' });
      expect(res.status).toBe(200);
      // Friday 2026-11-27 09:30 in Nairobi (UTC+3).
      expect(res.body.data).toMatchObject({
        interval: 'weekly',
        weekly_anchor: 'friday',
        delay_days: 2,
        next_payout_at: '2026-11-27T06:30:00.000Z',
        is_default: false,
      });
      expect((await get('NGN')).body.data).toEqual(res.body.data);
      expect((await get('NGN', otherOwner)).body.data.is_default).toBe(true);
      expect(await audits()).toEqual([
        {
          before: {
            interval: 'daily',
            weekly_anchor: null,
            monthly_anchor: null,
            delay_days: 0,
            cutoff_time: '16:00',
            time_zone: 'Africa/Lagos',
            default: true,
          },
          after: { interval: 'weekly', weekly_anchor: 'friday', monthly_anchor: null, delay_days: 2, cutoff_time: '09:30', time_zone: 'Africa/Nairobi' },
        },
      ]);
      await put({ currency: 'NGN', interval: 'weekly' }); // the same again (fields left out keep theirs): no second entry
      expect(await audits()).toHaveLength(1);
    });

    it('two first changes at once: one row, and one audit entry (the second saw the first’s row, the same values)', async () => {
      const body = { currency: 'UGX', interval: 'monthly', monthly_anchor: 15 };
      const answers = await Promise.all([put(body), put(body)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect((await rows()).filter((r: any) => r.currency === 'UGX')).toHaveLength(1);
      expect((await audits()).filter((a: any) => a.after.monthly_anchor === 15)).toHaveLength(1);
    });

    it('monthly on the 31st pays on the last day of a shorter month; manual has no next payout', async () => {
      const monthly = await put({ currency: 'NGN', interval: 'monthly', monthly_anchor: 31 });
      expect(monthly.body.data).toMatchObject({ weekly_anchor: null, monthly_anchor: 31, delay_days: 2, next_payout_at: '2026-11-30T06:30:00.000Z' });
      const manual = await put({ currency: 'NGN', interval: 'manual' });
      expect(manual.body.data).toMatchObject({ interval: 'manual', monthly_anchor: null, next_payout_at: null });
    });

    it('refuses an anchor of another interval, a missing anchor, and bad values with 400 naming the field, changing nothing', async () => {
      const before = await rows();
      const cases: Array<[unknown, string]> = [
        [{ currency: 'NGN', interval: 'daily', weekly_anchor: 'friday' }, 'weekly_anchor'],
        [{ currency: 'NGN', interval: 'weekly', monthly_anchor: 3 }, 'monthly_anchor'],
        [{ currency: 'NGN', interval: 'monthly' }, 'monthly_anchor'],
        [{ currency: 'NGN', interval: 'monthly', monthly_anchor: 32 }, 'monthly_anchor'],
        [{ currency: 'NGN', interval: 'hourly' }, 'interval'],
        [{ currency: 'NGN', interval: 'daily', time_zone: 'Mars/Olympus' }, 'time_zone'],
        [{ currency: 'NGN', interval: 'daily', time_zone: '+01:00' }, 'time_zone'],
        [{ currency: 'NGN', interval: 'daily', cutoff_time: '24:00' }, 'cutoff_time'],
        [{ currency: 'NGN', interval: 'daily', delay_days: 31 }, 'delay_days'],
        [{ currency: 'NGN', interval: 'daily', delay_days: 1.5 }, 'delay_days'],
        [{ currency: 'EUR', interval: 'daily' }, 'currency'],
        [{ interval: 'daily' }, 'currency'],
      ];
      for (const [body, field] of cases) {
        const res = await put(body);
        expect([res.status, res.body.code, res.body.details?.map((d: any) => d.field)]).toEqual([400, 'INVALID_REQUEST', [field]]);
      }
      expect((await get('EUR')).body.details).toEqual([{ field: 'currency', issue: 'is not a supported currency' }]);
      expect((await request(app.url, 'GET', PATH, { token: owner })).status).toBe(400);
      expect(await rows()).toEqual(before);
    });

    it('a viewer reads but cannot write; an API key cannot write (people only)', async () => {
      expect((await get('NGN', viewer)).status).toBe(200);
      const refused = await put({ currency: 'NGN', interval: 'daily' }, viewer);
      expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
      const key = await apiKeyToken(app, owner, 'finance');
      expect((await get('NGN', key.token)).status).toBe(200);
      expect((await put({ currency: 'NGN', interval: 'daily' }, key.token)).status).toBe(403);
      expect((await rows()).filter((r: any) => r.currency === 'NGN').map((r: any) => r.interval)).toEqual(['manual']);
    });
  });

  describe('GraphQL', () => {
    const query = (currency: string, token = owner) =>
      graphql(app.url, `query($c: String!) { payoutSchedule(currency: $c) { ${FIELDS} } }`, { token, variables: { c: currency } });
    const update = (input: Record<string, unknown>, token = owner) =>
      graphql(app.url, `mutation($i: PayoutScheduleInput!) { updatePayoutSchedule(input: $i) { ${FIELDS} } }`, { token, variables: { i: input } });

    it('reads the default and sets a schedule through the same service', async () => {
      expect((await query('GHS')).body.data!.payoutSchedule).toEqual({
        currency: 'GHS',
        interval: 'DAILY',
        weeklyAnchor: null,
        monthlyAnchor: null,
        delayDays: 0,
        cutoffTime: '16:00',
        timeZone: 'Africa/Lagos',
        minimumAmount: '10',
        nextPayoutAt: '2026-11-22T15:00:00.000Z',
        isDefault: true,
      });
      const res = await update({ currency: 'GHS', interval: 'WEEKLY', weeklyAnchor: 'MONDAY', timeZone: 'africa/accra' });
      expect(res.body.data!.updatePayoutSchedule).toMatchObject({
        interval: 'WEEKLY',
        weeklyAnchor: 'MONDAY',
        timeZone: 'Africa/Accra',
        nextPayoutAt: '2026-11-23T16:00:00.000Z',
      });
      expect((await query('GHS')).body.data!.payoutSchedule.isDefault).toBe(false);
    });

    it('the same errors: an anchor of another interval, a bad zone; a viewer cannot write', async () => {
      const wrong = await update({ currency: 'GHS', interval: 'DAILY', monthlyAnchor: 5 });
      expect(wrong.body.errors![0]!.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'monthlyAnchor', issue: expect.any(String) }] });
      const zone = await update({ currency: 'GHS', interval: 'DAILY', timeZone: 'Nowhere/Town' });
      expect(zone.body.errors![0]!.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'timeZone', issue: expect.any(String) }] });
      expect((await query('GHS', viewer)).body.data!.payoutSchedule.interval).toBe('WEEKLY');
      expect((await update({ currency: 'GHS', interval: 'DAILY' }, viewer)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    });
  });
});

describe('payout schedules (production defaults)', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('a merchant without a country: daily, T+1, 16:00 UTC', async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    const merchant = await app.createMerchant('Production Merchant');
    const { accessToken } = await app.token(merchant);
    const res = await request(app.url, 'GET', `${PATH}?currency=USD`, { token: accessToken });
    expect(res.body.data).toMatchObject({ interval: 'daily', delay_days: 1, cutoff_time: '16:00', time_zone: 'UTC', minimum_amount: 1000, is_default: true });
  });
});
