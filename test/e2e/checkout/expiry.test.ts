import { ManualClock } from '../../../src/shared/clock';
import { getSession, openSession, payOnPage } from '../../helpers/checkout';
import { twoMerchants } from '../../helpers/factories';
import { startReceiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, setEndpoint, verifyDelivery } from '../../helpers/webhooks';

describe('checkout session expiry', () => {
  let app: TestApp;
  let token: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  const clock = new ManualClock(new Date('2026-12-04T10:00:00Z'));

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await createTestApp({ clock, env: FAST_WEBHOOKS });
    const { mine } = await twoMerchants(app, 'Expiring Merchant');
    token = mine.token;
    secret = mine.credentials.webhookSecret;
    await setEndpoint(app.url, token, receiver.url);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const sweep = () => app.service.app.services.checkout.expireDue();
  const deliveredFor = (id: string, type: string) => receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.type === type && b.data?.id === id);

  it('the sweep expires a due session with its signed webhook; not before its deadline', async () => {
    const s = await openSession(app, token, { expires_in: 300 });
    clock.advance(299_000);
    expect(await sweep()).toBe(0);
    clock.advance(1_000);
    expect(await sweep()).toBe(1);
    const read = (await getSession(app, token, s.id)).body.data;
    expect(read).toMatchObject({ status: 'expired', expired_at: clock.now().toISOString() });
    expect(await eventually(async () => deliveredFor(s.id, 'checkout.session.expired') !== undefined)).toBe(true);
    const raw = receiver.received.find((r) => JSON.parse(r.body).data?.id === s.id)!;
    expect(verifyDelivery(secret, raw).data).toEqual(read);
    // Once.
    expect(await sweep()).toBe(0);
    const events = await sql(app, `select type from outbox_event where subject_id = ?`, [s.id]);
    expect(events).toEqual([{ type: 'checkout.session.expired' }]);
  });

  it('an overdue session read through the API (or the page) expires on the spot, and refuses payment', async () => {
    const s = await openSession(app, token, { expires_in: 60 });
    clock.advance(61_000);
    expect((await getSession(app, token, s.id)).body.data.status).toBe('expired');
    await expect(payOnPage(app, s.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const view = await app.service.app.services.checkout.pageView(s.id);
    expect(view).toMatchObject({ status: 'expired', attempt: null });
  });

  it('the sweep job is queued once for the cluster (keyed by its slot)', async () => {
    const rows = await sql(app, `select key from graphile_worker._private_jobs where key like 'checkout.expire-sessions:%'`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
  });
});
