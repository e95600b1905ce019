import { createDecipheriv } from 'node:crypto';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { ledgerVerify } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { cardPaymentBody, checkoutCardPayment } from '../../helpers/payments';
import { flutterwaveApp, railsMerchant, txnRow, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { openPage, submitForm } from '../../helpers/three-ds';
import { outboxRows, sql } from '../../helpers/transactions';

/**
 * Flutterwave's PIN and AVS cards, in production mode against the fake of its v3 API, as the hosted checkout page
 * starts them: the PIN and the billing address are a transient of PaymentService.initiatePayment's origin (no
 * merchant API takes them; the checkout page's routes are not on main yet, so the service is called directly). The
 * charge is sent again at once with them; after the PIN, the cardholder enters the issuer's code on our page
 * (GET/POST /checkout/otp/:handle, over real HTTP). Then no card number, PIN or code is in the logs or the database.
 */

/** Flutterwave's test cards (its testing helpers): PIN 3310 then OTP 12345; AVS then 3-D Secure. */
const PIN_CARDS = ['5531886652142950', '5061460410120223210'] as const;
const AVS_CARD = '4556052704172643';
const PIN = '3310';
const OTP = '12345';
const ADDRESS = { line1: '12 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: '100001', country: 'NG' };
const OTP_COOKIE = 'otp_csrf';

function decrypted(encryptionKey: string, body: string): Record<string, unknown> {
  const decipher = createDecipheriv('des-ede3', Buffer.from(encryptionKey, 'utf8'), null);
  return JSON.parse(Buffer.concat([decipher.update(JSON.parse(body).client, 'base64'), decipher.final()]).toString('utf8'));
}

describe('Flutterwave PIN cards: the PIN from our page, the code on our page (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;
  const logs: string[] = [];

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    // No timeout is tested here: the fake gets 5 s (the rails' 600 ms was passed on a loaded CI run, and the charge then failed).
    app = await flutterwaveApp(flw, { LOG_LEVEL: 'trace', PROVIDER_TIMEOUT_MS: '5000' }, { write: (line: string) => void logs.push(line) });
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });

  const pay = (number: string, origin: Parameters<typeof checkoutCardPayment>[3], extra: Record<string, unknown> = {}) =>
    checkoutCardPayment(app, m.merchantId, { card: { number }, ...extra }, origin);
  const status = async (reference: string) => (await request(app.url, 'GET', `/v1/payments/verify/${reference}`, { token: m.token })).body.data;
  const submitOtp = async (url: string, otp: string) => {
    const page = await openPage(url, OTP_COOKIE);
    expect(page.status).toBe(200);
    return submitForm(url, page, { otp });
  };

  it('a PIN card with its PIN: sent again with it, then our code page; the right code makes it successful', async () => {
    const payment = await pay(PIN_CARDS[0], { cardPin: PIN }, { redirectUrl: 'https://shop.example/return?order=9' });
    expect(payment).toMatchObject({ status: 'requires_action', connector: 'flutterwave' });
    const url = payment.nextActionUrl!;
    expect(url).toMatch(new RegExp(`^${app.url}/checkout/otp/${payment.id}\\.[A-Za-z0-9_-]{32}$`));
    const verified = await status(payment.reference);
    expect(verified).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', url } });

    // What Flutterwave got: the card, then the card again with the PIN, both encrypted, with the same tx_ref.
    const charges = flw.requests.filter((r) => r.path === '/v3/charges?type=card').map((r) => decrypted(flw.encryptionKey, r.body));
    expect(charges.slice(-2)).toEqual([
      expect.not.objectContaining({ authorization: expect.anything() }),
      expect.objectContaining({ tx_ref: payment.id, card_number: PIN_CARDS[0], authorization: { mode: 'pin', pin: PIN } }),
    ]);
    expect(charges.at(-2)!.tx_ref).toBe(payment.id);

    // The page: our form, with the pages' security headers.
    const res = await fetch(url);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.getSetCookie().join(';')).toMatch(/otp_csrf=.+HttpOnly; SameSite=Strict/);
    expect(html).toContain('<label for="otp">Enter the code your bank sent</label>');
    expect(html).toMatch(/<input id="otp" name="otp"[^>]*inputmode="numeric"[^>]*autocomplete="one-time-code"/);
    expect(html).toContain('•••• 2950');
    expect(html).not.toMatch(/<script/i);

    // Without the CSRF pair, or from another origin: refused, nothing sent.
    const page = await openPage(url, OTP_COOKIE);
    expect((await submitForm(url, { cookie: null, csrf: page.csrf }, { otp: OTP })).status).toBe(403);
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie!, origin: 'https://evil.example' },
      body: new URLSearchParams({ otp: OTP, csrf: page.csrf! }).toString(),
      redirect: 'manual',
    });
    expect(foreign.status).toBe(403);
    expect(flw.requests.some((r) => r.path === '/v3/validate-charge')).toBe(false);

    // The right code: Flutterwave validates it, and the payment is decided; back to the shop.
    const answer = await submitForm(url, page, { otp: OTP });
    expect(answer.status).toBe(303);
    const back = new URL(answer.location!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ order: '9', reference: payment.reference, status: 'successful' });
    const validate = flw.requests.find((r) => r.path === '/v3/validate-charge')!;
    expect(JSON.parse(validate.body)).toEqual({ otp: OTP, flw_ref: expect.stringMatching(/^FLW-MOCK-/), type: 'card' });
    expect(await status(payment.reference)).toMatchObject({ status: 'successful', next_action: null });
    expect((await outboxRows(app, payment.reference)).map((o) => o.type)).toEqual(['payment.successful']);
    // The provider reference stays Flutterwave's transaction id (refunds and status queries use it).
    expect((await txnRow(app, payment.externalReference))!.provider_reference).toMatch(/^\d+$/);

    // Decided: the page and a second code change nothing.
    expect((await fetch(url)).status).toBe(409);
    expect((await submitForm(url, page, { otp: OTP })).status).toBe(409);
    // A forged handle is not a page.
    expect((await fetch(`${app.url}/checkout/otp/${payment.id}.${'A'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${app.url}/checkout/otp/${payment.id}`)).status).toBe(404);
    expect((await ledgerVerify(app.db.url)).ok).toBe(true);
  });

  it('a wrong code says so and keeps it waiting; the right one then decides it', async () => {
    const payment = await pay(PIN_CARDS[1], { cardPin: PIN });
    const url = payment.nextActionUrl!;
    const wrong = await submitOtp(url, '99999');
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('The code is not right; try again.');
    expect(wrong.html).not.toContain('99999');
    expect((await status(payment.reference)).status).toBe('requires_action');
    // Not digits at all: refused here, not sent on, no try used.
    const sent = flw.requests.filter((r) => r.path === '/v3/validate-charge').length;
    expect((await submitOtp(url, 'abcde')).status).toBe(400);
    expect(flw.requests.filter((r) => r.path === '/v3/validate-charge')).toHaveLength(sent);
    const right = await submitOtp(url, OTP);
    // No redirect_url: the outcome page.
    expect(right.status).toBe(200);
    expect(right.html).toContain('The payment is successful');
    expect((await status(payment.reference)).status).toBe('successful');
  });

  it('in French for a browser that prefers it, or without a preference for a merchant in a francophone country', async () => {
    const payment = await pay(PIN_CARDS[1], { cardPin: PIN });
    const url = payment.nextActionUrl!;
    const french = { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' };
    const res = await fetch(url, { headers: french });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<title>Saisissez le code envoyé par votre banque</title>');
    expect(html).toContain('<h1>Confirmez votre paiement</h1>');
    expect(html).toContain('<label for="otp">Saisissez le code envoyé par votre banque</label>');
    expect(html).toContain('<button type="submit">Confirmer</button>');
    expect(html).toMatch(/<p class="amount" id="amount">[\d\u202f]+,\d\d\u00a0NGN<\/p>/);
    expect(html).not.toContain('Enter the code');
    // A wrong code, said in French; the right one, and the outcome in French.
    const post = async (otp: string) => {
      const page = await openPage(url, OTP_COOKIE);
      const answer = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...french, 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie! },
        body: new URLSearchParams({ otp, csrf: page.csrf! }).toString(),
      });
      return { status: answer.status, html: await answer.text() };
    };
    const wrong = await post('99999');
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('<p class="alert" id="otp-error" role="alert">Ce code n’est pas le bon ; réessayez.</p>');
    const right = await post(OTP);
    expect(right.status).toBe(200);
    expect(right.html).toContain('<h1>Paiement confirmé</h1>');
    expect(right.html).toContain('Statut du paiement : réussi. Vous pouvez fermer cette fenêtre.');

    // No preference between English and French: the merchant's country decides (Senegal: French; Nigeria: English).
    const dakar = await railsMerchant(app);
    await sql(app, `update merchant set country = 'SN' where id = ?`, [dakar.merchantId]);
    const senegal = await checkoutCardPayment(app, dakar.merchantId, { card: { number: PIN_CARDS[0] } }, { cardPin: PIN });
    const neither = { 'accept-language': 'de-DE,de;q=0.9' };
    expect(await (await fetch(senegal.nextActionUrl!, { headers: neither })).text()).toContain(
      '<label for="otp">Saisissez le code envoyé par votre banque</label>',
    );
    await sql(app, `update merchant set country = 'NG' where id = ?`, [dakar.merchantId]);
    expect(await (await fetch(senegal.nextActionUrl!, { headers: neither })).text()).toContain('<label for="otp">Enter the code your bank sent</label>');
  });

  it('three wrong codes fail the payment (authentication_failed)', async () => {
    const payment = await pay(PIN_CARDS[0], { cardPin: PIN });
    const url = payment.nextActionUrl!;
    for (const _ of [1, 2]) expect((await submitOtp(url, '11111')).status).toBe(422);
    const third = await submitOtp(url, '11111');
    expect(third.status).toBe(200);
    expect(third.html).toContain('The payment is failed');
    expect(await status(payment.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    expect((await fetch(url)).status).toBe(409);
    const [tries] = await sql<{ tries: number }>(app, 'select tries from card_otp_try where transaction_id = ?', [payment.id]);
    expect(tries).toEqual({ tries: 3 });
  });

  it('four codes at once: three reach Flutterwave at most, and the payment fails once', async () => {
    const payment = await pay(PIN_CARDS[1], { cardPin: PIN });
    const url = payment.nextActionUrl!;
    const pages = await Promise.all([1, 2, 3, 4].map(() => openPage(url, OTP_COOKIE)));
    const before = flw.requests.filter((r) => r.path === '/v3/validate-charge').length;
    const answers = await Promise.all(pages.map((page) => submitForm(url, page, { otp: '22222' })));
    expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([200, 422]));
    expect(flw.requests.filter((r) => r.path === '/v3/validate-charge').length - before).toBe(3);
    expect(await status(payment.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    expect((await outboxRows(app, payment.reference)).map((o) => o.type)).toEqual(['payment.failed']);
  });

  it('a PIN card without its PIN fails pin_required (the merchant API never takes one); a wrong PIN fails incorrect_pin', async () => {
    expect(await pay(PIN_CARDS[0], {})).toMatchObject({ status: 'failed', failureReason: 'pin_required' });
    const overRest = await request(app.url, 'POST', '/v1/payments/initiate', { token: m.token, body: cardPaymentBody({ card: { number: PIN_CARDS[1] } }) });
    expect(overRest.body.data).toMatchObject({ status: 'failed', failure_reason: 'pin_required' });
    // The merchant API has no PIN field: one sent in the card is not read, and never reaches the processor.
    const withPin = await request(app.url, 'POST', '/v1/payments/initiate', {
      token: m.token,
      body: cardPaymentBody({ card: { number: PIN_CARDS[1], pin: PIN } }),
    });
    expect(withPin.body.data).toMatchObject({ status: 'failed', failure_reason: 'pin_required' });
    expect(withPin.text).not.toContain(PIN);
    const last = flw.requests.filter((r) => r.path === '/v3/charges?type=card').at(-1)!;
    expect(decrypted(flw.encryptionKey, last.body)).not.toHaveProperty('authorization');
    expect(await pay(PIN_CARDS[1], { cardPin: '1234' })).toMatchObject({ status: 'failed', failureReason: 'incorrect_pin' });
  });

  it('a PIN or billing address that is not one is refused before anything is written, without echoing it', async () => {
    for (const [origin, field] of [
      [{ cardPin: '33100' }, 'cardPin'],
      [{ cardPin: '33a0' }, 'cardPin'],
      [{ billingAddress: { ...ADDRESS, country: 'Nigeria' } }, 'billingAddress.country'],
      [{ billingAddress: { ...ADDRESS, city: '' } }, 'billingAddress.city'],
      [{ billingAddress: { ...ADDRESS, line1: 'x'.repeat(101) } }, 'billingAddress.line1'],
    ] as const) {
      const err = await pay(PIN_CARDS[0], origin as never).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'INVALID_REQUEST' });
      expect(JSON.stringify((err as { details?: unknown }).details)).toContain(field);
      expect(JSON.stringify(err)).not.toContain('33100');
    }
  });

  it('an AVS card with a billing address goes on to 3-D Secure; without one it fails address_required', async () => {
    const payment = await pay(AVS_CARD, { billingAddress: ADDRESS });
    expect(payment.status).toBe('requires_action');
    expect(payment.nextActionUrl).toMatch(new RegExp(`^${flw.url}/mockvbvpage\\?ref=`));
    const sent = flw.requests.filter((r) => r.path === '/v3/charges?type=card').map((r) => decrypted(flw.encryptionKey, r.body));
    expect(sent.at(-1)).toMatchObject({
      tx_ref: payment.id,
      authorization: { mode: 'avs_noauth', address: ADDRESS.line1, city: 'Lagos', state: 'Lagos', country: 'NG', zipcode: '100001' },
    });
    expect(await pay(AVS_CARD, {})).toMatchObject({ status: 'failed', failureReason: 'address_required' });
  });

  it('past the payment’s deadline the page is gone (410) and a code fails it as authentication_expired', async () => {
    const payment = await pay(PIN_CARDS[1], { cardPin: PIN });
    const url = payment.nextActionUrl!;
    const page = await openPage(url, OTP_COOKIE);
    const validations = () => flw.requests.filter((r) => r.path === '/v3/validate-charge').length;
    const sent = validations();
    // Past the deadline and the five minutes' grace in which Flutterwave is asked once more, on the service's clock.
    app.clock.set(new Date(payment.expiresAt!.getTime() + 5 * 60_000 + 1000));
    expect((await fetch(url)).status).toBe(410);
    const late = await submitForm(url, page, { otp: OTP });
    expect(late.status).toBe(410);
    expect(late.html).toContain('Time is up');
    expect(await status(payment.reference)).toMatchObject({ status: 'failed', failure_reason: 'authentication_expired' });
    // The late code was not sent on.
    expect(validations()).toBe(sent);
  });

  it('no card number, PIN or code in any log line or any row', async () => {
    // The logger censors a PIN and a code under their names, wherever a payload may put them.
    const before = logs.length;
    app.service.app.fastify.log.info({ authorization: { mode: 'pin', pin: PIN }, cardPin: PIN, body: { otp: OTP } }, 'pin probe');
    const probe = logs.slice(before).find((l) => l.includes('pin probe'))!;
    expect(probe).not.toContain(PIN);
    expect(probe).not.toContain(OTP);
    logs.splice(before);
    expect(logs.length).toBeGreaterThan(50);
    const rows = await sql<{ t: string }>(
      app,
      `select string_agg(x, E'\\n') as t from (
         select row_to_json(tr)::text as x from "transaction" tr union all select row_to_json(e)::text from transaction_event e
         union all select row_to_json(o)::text from outbox_event o union all select row_to_json(n)::text from provider_notification n
         union all select row_to_json(j)::text from graphile_worker._private_jobs j union all select row_to_json(c)::text from card_otp_try c) all_rows`,
    );
    for (const [source, text] of [
      ['logs', logs.join('\n')],
      ['database', rows[0]!.t],
    ] as const) {
      for (const number of [...PIN_CARDS, AVS_CARD]) expect({ source, found: text.includes(number) }).toEqual({ source, found: false });
      // The PIN and the code as a value: quoted, or after a key; and under a key of their own.
      for (const secret of [PIN, OTP, '99999', '11111', '22222']) {
        expect({ source, secret, found: new RegExp(`(["'=:]\\s*)${secret}(?![0-9])`).test(text) }).toEqual({ source, secret, found: false });
      }
      expect({ source, found: /"(pin|otp|cardPin)"\s*:\s*"(?!\[redacted\])/.test(text) }).toEqual({ source, found: false });
    }
  });
});
