import { createDecipheriv } from 'node:crypto';
import type { CardChargeRequest } from '../../src/providers/connector';
import { FlutterwaveCards, type CardCalls } from '../../src/providers/flutterwave/cards';
import type { FlutterwaveTransaction } from '../../src/providers/flutterwave/mapping';
import type { ProviderResponse } from '../../src/providers/provider-http';

/**
 * The card flows' mapping, on canned answers (the fake drives them whole in test/e2e/rails/flutterwave-pin.test.ts):
 * what is sent again after a PIN or AVS prompt, and what each answer becomes.
 */

const KEY = 'FLWSECK_TEST0123456789ab';
const ID = 'b6c7a4e0-0000-4000-8000-000000000001';

const answer = (status: number, json: unknown): ProviderResponse => ({ status, json, text: JSON.stringify(json) }) as unknown as ProviderResponse;
const prompt = (mode: string) => answer(200, { status: 'success', message: 'Charge authorization data required', meta: { authorization: { mode } } });
const pending = (mode: string) =>
  answer(200, { status: 'success', data: { id: 4242, flw_ref: 'FLW-MOCK-1', status: 'pending' }, meta: { authorization: { mode } } });
const tx = (status: string, txRef = ID): FlutterwaveTransaction => ({
  id: '4242',
  txRef,
  flwRef: 'FLW-MOCK-1',
  status,
  amount: '2500',
  currency: 'NGN',
  processorResponse: null,
});

function cards(answers: ProviderResponse[], verified: Array<FlutterwaveTransaction | null> = []) {
  const sent: Array<{ path: string; body: unknown }> = [];
  const calls: CardCalls = {
    connector: 'flutterwave',
    encryptionKey: KEY,
    send: async (_method, path, _operation, body) => (sent.push({ path, body }), answers.shift()!),
    verify: async () => verified.shift() ?? null,
    byReference: async () => null,
  };
  return { cards: new FlutterwaveCards(calls), sent };
}

const decrypt = (body: unknown) => {
  const decipher = createDecipheriv('des-ede3', Buffer.from(KEY, 'utf8'), null);
  return JSON.parse(Buffer.concat([decipher.update((body as { client: string }).client, 'base64'), decipher.final()]).toString('utf8'));
};

const request = (card: Partial<CardChargeRequest['card']> = {}): CardChargeRequest => ({
  idempotencyKey: ID,
  reference: 'pay_1',
  amount: '2500.00',
  currency: 'NGN',
  card: { number: '5531886652142950', expMonth: 9, expYear: 2032, cvc: '564', postalCode: null, pin: null, billingAddress: null, ...card },
  payer: async () => ({ email: 'payer@example.com', name: null, countryCode: 'NG', phone: null }),
  returnUrl: 'https://pay.example/v1/providers/flutterwave/return/x',
  otpUrl: () => 'https://pay.example/checkout/otp/x',
});

describe('a Flutterwave card charge that asks for more', () => {
  it('pin, with the PIN: sent again at once (same payload and tx_ref) with authorization; the OTP is our page', async () => {
    const { cards: c, sent } = cards([prompt('pin'), pending('otp')]);
    expect(await c.chargeCard(request({ pin: '3310' }))).toEqual({
      outcome: 'requires_action',
      providerReference: '4242',
      authenticationUrl: 'https://pay.example/checkout/otp/x',
    });
    const [first, second] = sent.map((s) => decrypt(s.body));
    expect(first.authorization).toBeUndefined();
    expect(second).toEqual({ ...first, authorization: { mode: 'pin', pin: '3310' } });
    expect(second.tx_ref).toBe(ID);
  });

  it('pin without one: pin_required, nothing sent again; a refused PIN: incorrect_pin', async () => {
    const without = cards([prompt('pin')]);
    expect(await without.cards.chargeCard(request())).toEqual({ outcome: 'failed', providerReference: null, reason: 'pin_required' });
    expect(without.sent).toHaveLength(1);
    const refused = cards([prompt('pin'), answer(400, { status: 'error', message: 'Incorrect PIN', data: null })]);
    expect(await refused.cards.chargeCard(request({ pin: '1234' }))).toMatchObject({ outcome: 'failed', reason: 'incorrect_pin' });
  });

  it('avs_noauth: the billing address in its fields, then the 3-D Secure redirect; without one address_required', async () => {
    const address = { line1: '12 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: '100001', country: 'NG' };
    const redirect = answer(200, {
      status: 'success',
      data: { id: 4242, status: 'pending' },
      meta: { authorization: { mode: 'redirect', redirect: 'https://flw.example/3ds' } },
    });
    const { cards: c, sent } = cards([prompt('avs_noauth'), redirect]);
    expect(await c.chargeCard(request({ billingAddress: address }))).toMatchObject({
      outcome: 'requires_action',
      authenticationUrl: 'https://flw.example/3ds',
    });
    expect(decrypt(sent[1]!.body).authorization).toEqual({
      mode: 'avs_noauth',
      address: '12 Marina Road',
      city: 'Lagos',
      state: 'Lagos',
      country: 'NG',
      zipcode: '100001',
    });
    expect(await cards([prompt('avs_noauth')]).cards.chargeCard(request())).toMatchObject({ outcome: 'failed', reason: 'address_required' });
  });

  it('any other mode is not supported', async () => {
    expect(await cards([prompt('ussd')]).cards.chargeCard(request({ pin: '3310' }))).toMatchObject({
      outcome: 'failed',
      reason: 'authentication_not_supported',
    });
  });
});

describe('a one-time code for a Flutterwave charge', () => {
  const otp = { providerReference: '4242', otp: '12345', idempotencyKey: ID, amount: '2500.00', currency: 'NGN' };

  it('goes to validate-charge with the flw_ref read from verify; the charge is then as verify says', async () => {
    const { cards: c, sent } = cards([answer(200, { status: 'success', message: 'Charge validated' })], [tx('pending'), tx('successful')]);
    expect(await c.validateCardOtp(otp)).toEqual({ outcome: 'successful', providerReference: '4242' });
    expect(sent).toEqual([{ path: '/v3/validate-charge', body: { otp: '12345', flw_ref: 'FLW-MOCK-1', type: 'card' } }]);
  });

  it('"Invalid OTP" is a wrong code; a code taken while the bank has not decided leaves it requires_action', async () => {
    const wrong = cards([answer(400, { status: 'error', message: 'Invalid OTP', data: null })], [tx('pending')]);
    expect(await wrong.cards.validateCardOtp(otp)).toEqual({ outcome: 'wrong_code', providerReference: '4242' });
    const taken = cards([answer(200, { status: 'success' })], [tx('pending'), tx('pending')]);
    expect(await taken.cards.validateCardOtp(otp)).toEqual({ outcome: 'requires_action', providerReference: '4242', authenticationUrl: null });
  });

  it('is not sent for a charge that is not ours (which decides nothing), or no longer waiting (its verdict)', async () => {
    const notOurs = cards([], [tx('pending', 'someone-else')]);
    expect((await notOurs.cards.validateCardOtp(otp)).outcome).toBe('requires_action');
    const decided = cards([], [tx('successful')]);
    expect(await decided.cards.validateCardOtp(otp)).toEqual({ outcome: 'successful', providerReference: '4242' });
    expect([...notOurs.sent, ...decided.sent]).toEqual([]);
  });
});
