import { createDecipheriv } from 'node:crypto';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { openSession, payOnPage } from '../../helpers/checkout';
import { flutterwaveApp, railsMerchant, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';

/**
 * Issue 37: a PIN card and an AVS card paid on a checkout session, as the page's routes will call
 * CheckoutService.pay: the PIN and the billing address go to the payment's origin (never its command),
 * in production mode against the Flutterwave fake.
 */
const PIN_CARD = '5531886652142950';
const AVS_CARD = '4556052704172643';
const PIN = '3310';
const ADDRESS = { line1: '12 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: '100001', country: 'NG' };

describe('checkout: PIN and AVS cards through CheckoutService.pay (production, Flutterwave fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    app = await flutterwaveApp(flw);
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });

  const charges = () =>
    flw.requests
      .filter((r) => r.path === '/v3/charges?type=card')
      .map((r) => {
        const decipher = createDecipheriv('des-ede3', Buffer.from(flw.encryptionKey, 'utf8'), null);
        return JSON.parse(Buffer.concat([decipher.update(JSON.parse(r.body).client, 'base64'), decipher.final()]).toString('utf8'));
      });
  const card = (number: string, pin?: string) => ({ number, expMonth: 9, expYear: 2032, cvc: '564', ...(pin ? { pin } : {}) });

  it('the page offers the card where a processor is connected', async () => {
    const s = await openSession(app, m.token);
    expect((await app.service.app.services.checkout.pageView(s.id))!.methods).toContain('card');
  });

  it('a PIN card with its PIN: the charge is sent again with it, then the code page (requires_action)', async () => {
    const s = await openSession(app, m.token);
    const attempt = await payOnPage(app, s.id, { method: 'card', card: card(PIN_CARD, PIN) });
    expect(attempt).toMatchObject({ method: 'card', status: 'requires_action', nextActionUrl: expect.stringContaining('/checkout/otp/') });
    expect(charges().at(-1)).toMatchObject({ card_number: PIN_CARD, authorization: { mode: 'pin', pin: PIN } });
  });

  it('without its PIN it fails pin_required, and the session stays open for another try', async () => {
    const s = await openSession(app, m.token);
    expect(await payOnPage(app, s.id, { method: 'card', card: card(PIN_CARD) })).toMatchObject({ status: 'failed', failureReason: 'pin_required' });
    expect((await app.service.app.services.checkout.pageView(s.id))!.status).toBe('open');
  });

  it('an AVS card with its billing address: sent with it', async () => {
    const s = await openSession(app, m.token);
    const attempt = await payOnPage(app, s.id, { method: 'card', card: card(AVS_CARD), billingAddress: ADDRESS });
    expect(attempt.status).not.toBe('failed');
    expect(charges().at(-1)).toMatchObject({ card_number: AVS_CARD, authorization: expect.objectContaining({ mode: 'avs_noauth' }) });
  });

  it('a malformed PIN or billing address is refused before anything is charged', async () => {
    const s = await openSession(app, m.token);
    await expect(payOnPage(app, s.id, { method: 'card', card: { ...card(PIN_CARD), pin: '12a4' } })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'card.pin' }],
    });
    await expect(payOnPage(app, s.id, { method: 'card', card: card(AVS_CARD), billingAddress: { line1: 'x' } })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});
