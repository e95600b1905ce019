import type { MailMessage } from '../../../src/modules/mail/mailer';
import { request } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { captureMail, personSession } from '../../helpers/team';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Issue 38, point 2 (docs/payouts.md, Destinations), in the sandbox: its account table names the holders
 * (…0 "Adaeze Okafor", …1 "Chinedu Emeka Nwosu", …4 "Wanjiru Kamau"), and each merchant is named after one.
 */
const PATH = '/v1/payout-destinations';
const GTBANK = (accountNumber: string) => ({ country: 'NG', bank_code: '058', account_number: accountNumber });

describe('REST payout destinations: name check, maker-checker, cooling-off', () => {
  let app: TestApp;
  let mail: MailMessage[];
  // Adaeze Okafor: an owner, a finance member (two who hold payouts:manage) and a developer.
  let merchantId: string;
  let owner: TestPerson;
  let finance: TestPerson;
  let developer: TestPerson;
  let keyToken: string;
  // Wanjiru Kamau: an owner alone with payouts:manage (and a viewer).
  let loneId: string;
  let lone: TestPerson;
  let other: TestPerson;

  beforeAll(async () => {
    app = await createTestApp();
    const adaeze = await app.createMerchant('Adaeze Okafor');
    merchantId = adaeze.merchant.id;
    keyToken = (await app.token(adaeze)).accessToken;
    [owner, finance, developer] = await Promise.all([
      personOf(app, merchantId, 'owner'),
      personOf(app, merchantId, 'finance'),
      personOf(app, merchantId, 'developer'),
    ]);
    const wanjiru = await app.createMerchant('Wanjiru Kamau Ltd');
    loneId = wanjiru.merchant.id;
    lone = await personOf(app, loneId, 'owner');
    await personOf(app, loneId, 'viewer');
    other = await personOf(app, (await app.createMerchant('Other Merchant')).merchant.id, 'owner');
    mail = captureMail(app);
  }, 60_000);
  afterAll(() => app.close());

  const add = (body: unknown, who: { token: string } = owner) => request(app.url, 'POST', PATH, { token: who.token, body });
  const act = (id: string, verb: 'approve' | 'cancel', who: { token: string }) => request(app.url, 'POST', `${PATH}/${id}/${verb}`, { token: who.token });
  const active = (id: string, currency: string) => app.service.app.services.payoutDestinations.activeDestination(id, currency);
  const rows = async (id: string) => Number((await dbQuery(app.db.url, 'select count(*) from payout_destination where merchant_id = $1', [id]))[0].count);
  const audits = (id: string, target?: string) =>
    dbQuery<{ action: string; actor_type: string; actor_id: string | null; after: any; before: any }>(
      app.db.url,
      `select action, actor_type, actor_id, after, before from audit_log
        where merchant_id = $1 and action like 'payout_destination.%' and ($2::text is null or target_id = $2) order by created_at, id`,
      [id, target ?? null],
    );

  it('refuses a name mismatch with 422, storing, auditing and activating nothing', async () => {
    const res = await add(GTBANK('0123456781'));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 'error', code: 'BENEFICIARY_NAME_MISMATCH', message: expect.stringContaining('Chinedu Emeka Nwosu') });
    expect(await rows(merchantId)).toBe(0);
    expect(await audits(merchantId)).toEqual([]);
    expect(await active(merchantId, 'NGN')).toBeNull();
  });

  it.each([
    [{ ...GTBANK('0123456780'), currency: 'KES' }, 'currency'],
    [{ ...GTBANK('0123456780'), currency: 12 }, 'currency'],
    [{ country: 'NG', account_number: '0123456780' }, 'bank_code'],
    [{ country: 'NG', bank_code: '50211', account_number: '0123456780' }, 'bank_code'],
    [{ country: 'NG', bank_code: '058', account_number: '01-2345' }, 'account_number'],
    [{ country: 'XX', bank_code: '058', account_number: '0123456780' }, 'country'],
  ])('400 naming the field, nothing stored: %j', async (body, field) => {
    const res = await add(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field, issue: expect.any(String) }]);
    expect(await rows(merchantId)).toBe(0);
  });

  it('people without payouts:manage and API keys get 403', async () => {
    expect((await add(GTBANK('0123456780'), developer)).status).toBe(403);
    expect((await add(GTBANK('0123456780'), { token: keyToken })).status).toBe(403);
    expect((await request(app.url, 'GET', PATH, { token: keyToken })).status).toBe(403);
    expect((await request(app.url, 'GET', PATH, { token: developer.token })).status).toBe(403);
    expect(await rows(merchantId)).toBe(0);
  });

  let first: string;
  it('a currency’s first destination is active at once, shown masked, audited', async () => {
    const res = await add({ ...GTBANK('0123456780'), currency: 'ngn' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      currency: 'NGN',
      account_type: 'bank',
      country_code: 'NG',
      network_id: 'ng_gtbank',
      masked: 'Guaranty Trust Bank ••••6780',
      account_name: 'Adaeze Okafor',
      name_checked: true,
      status: 'active',
      created_by: { id: owner.userId, email: owner.email },
      approved_by: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('0123456780');
    first = res.body.data.id;
    expect(first).toMatch(/^pdest_[A-Za-z0-9_-]{24}$/);
    expect(await active(merchantId, 'NGN')).toMatchObject({
      id: first,
      channelId: 'ng_bank_withdrawal',
      networkId: 'ng_gtbank',
      accountNumber: '0123456780',
      dialCode: '+234',
      accountName: 'Adaeze Okafor',
      masked: 'Guaranty Trust Bank ••••6780',
    });
    expect(await audits(merchantId)).toEqual([
      expect.objectContaining({ action: 'payout_destination.added', actor_id: owner.userId, after: expect.objectContaining({ status: 'active' }) }),
    ]);
  });

  let change: string;
  it('a change waits for a second member: one member cannot change the destination alone', async () => {
    const res = await add(GTBANK('0987654320'));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'pending_approval', effective_at: null, masked: 'Guaranty Trust Bank ••••4320' });
    change = res.body.data.id;
    expect((await active(merchantId, 'NGN'))!.id).toBe(first);
    const own = await act(change, 'approve', owner);
    expect(own.status).toBe(403);
    expect((await active(merchantId, 'NGN'))!.id).toBe(first);
    const again = await add(GTBANK('0555555550'), finance);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect((await audits(merchantId, change)).map((a) => a.action)).toEqual(['payout_destination.added', 'payout_destination.approval_requested']);
    expect(mail).toEqual([]);
  });

  it('another member approves it: it becomes the destination, the old one replaced; audited', async () => {
    const res = await act(change, 'approve', finance);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', approved_by: { id: finance.userId, email: finance.email } });
    expect(await active(merchantId, 'NGN')).toMatchObject({ id: change, accountNumber: '0987654320' });
    const list = await request(app.url, 'GET', PATH, { token: finance.token });
    // Both were made at the same test-clock time, so the list's order between them is the ids' (random within a ms).
    expect(Object.fromEntries(list.body.data.map((d: any) => [d.id, d.status]))).toEqual({ [change]: 'active', [first]: 'replaced' });
    expect((await audits(merchantId, change)).at(-1)).toMatchObject({ action: 'payout_destination.approved', actor_id: finance.userId });
    expect((await act(change, 'approve', owner)).status).toBe(409);
  });

  it('a pending change can be canceled by another member; the destination stays', async () => {
    const made = await add(GTBANK('0111111110'), finance);
    const id = made.body.data.id;
    const res = await act(id, 'cancel', owner);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'canceled', canceled_by: { id: owner.userId } });
    expect((await active(merchantId, 'NGN'))!.id).toBe(change);
    expect((await audits(merchantId, id)).at(-1)).toMatchObject({ action: 'payout_destination.canceled', actor_id: owner.userId });
    expect((await act(id, 'approve', owner)).status).toBe(409);
  });

  it('an approval and a cancel at once: exactly one wins', async () => {
    const id = (await add(GTBANK('0222222220'), finance)).body.data.id;
    const [approved, canceled] = await Promise.all([act(id, 'approve', owner), act(id, 'cancel', owner)]);
    expect([approved.status, canceled.status].sort()).toEqual([200, 409]);
    const [row] = await dbQuery(app.db.url, 'select status from payout_destination where id = $1', [id]);
    expect(row.status).toBe(approved.status === 200 ? 'active' : 'canceled');
    const actives = await dbQuery(app.db.url, `select id from payout_destination where merchant_id = $1 and status = 'active'`, [merchantId]);
    expect(actives).toHaveLength(1);
  });

  it('another merchant’s destination is 404 everywhere; a malformed id too', async () => {
    for (const res of [
      await request(app.url, 'GET', `${PATH}/${first}`, { token: other.token }),
      await act(change, 'approve', other),
      await act(change, 'cancel', other),
      await request(app.url, 'GET', `${PATH}/not-an-id`, { token: owner.token }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await request(app.url, 'GET', PATH, { token: other.token })).body.data).toEqual([]);
    expect((await request(app.url, 'GET', `${PATH}/${first}`, { token: owner.token })).body.data.status).toBe('replaced');
  });

  it('alone, a change takes effect after 24 hours of cooling-off, with every owner and admin emailed; audited', async () => {
    const wallet = { country: 'KE', network: 'ke_mpesa', account_number: '+254 712 345 674' };
    const firstWallet = await add(wallet, lone);
    expect(firstWallet.body.data).toMatchObject({ status: 'active', currency: 'KES', account_type: 'momo', masked: 'M-Pesa ••••5674' });
    app.clock.advance(60_000);
    const made = app.clock.now();
    const res = await add({ ...wallet, account_number: '0722000004' }, lone);
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    expect(res.body.data).toMatchObject({ status: 'pending_approval', effective_at: new Date(made.getTime() + 86_400_000).toISOString() });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: lone.email, subject: expect.stringContaining('KES payout account is changing') });
    expect(mail[0]!.text).toContain('M-Pesa ••••0004');
    expect(mail[0]!.text).not.toContain('722000004');
    expect((await act(id, 'approve', lone)).status).toBe(403);

    app.clock.advance(24 * 3600_000 - 1000);
    expect((await active(loneId, 'KES'))!.id).toBe(firstWallet.body.data.id);
    app.clock.advance(1000);
    const now = await Promise.all([active(loneId, 'KES'), active(loneId, 'KES'), active(loneId, 'KES')]);
    expect(now.map((d) => d!.id)).toEqual([id, id, id]);
    // A day later the session's token has long expired: a new sign-in.
    const { accessToken } = await personSession(app, { ...lone, merchantId: loneId, membershipId: '' });
    const list = await request(app.url, 'GET', PATH, { token: accessToken });
    expect(list.body.data.map((d: any) => d.status).sort()).toEqual(['active', 'replaced']);
    const trail = await audits(loneId, id);
    expect(trail.map((a) => [a.action, a.actor_type])).toEqual([
      ['payout_destination.added', 'user'],
      ['payout_destination.approval_requested', 'user'],
      ['payout_destination.activated', 'system'],
    ]);
    expect(trail[1]!.after.cooling_off_until).toBe(res.body.data.effective_at);
  });

  it('alone, a change whose email cannot be sent is not made (503), and nothing is stored or audited', async () => {
    const mailer = app.service.app.services.mailer;
    const send = mailer.send;
    mailer.send = async () => {
      throw new Error('smtp down');
    };
    try {
      const before = [await rows(loneId), (await audits(loneId)).length];
      const res = await request(app.url, 'POST', PATH, {
        token: (await personSession(app, { ...lone, merchantId: loneId, membershipId: '' })).accessToken,
        body: { country: 'KE', network: 'ke_mpesa', account_number: '0733000004' },
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('could not be emailed') });
      expect([await rows(loneId), (await audits(loneId)).length]).toEqual(before);
    } finally {
      mailer.send = send;
    }
  });
});
