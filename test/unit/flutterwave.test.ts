import { createDecipheriv } from 'node:crypto';
import type { Route } from '../../src/providers/connector';
import { FlutterwaveConnector } from '../../src/providers/flutterwave/client';
import { asksCardAuthorization, cardAuthorization, encryptCardPayload, flutterwaveTime } from '../../src/providers/flutterwave/mapping';
import { chargeFailureReason, refundDecision, transferFailureReason } from '../../src/providers/flutterwave/statuses';
import { encrypt3des } from '../fakes/flutterwave.fake';

/** Flutterwave's pure rules: the card payload's encryption, its times, its reasons, and which routes its data serves. */

const KEY = 'FLWSECK_TEST0123456789ab';
const connector = new FlutterwaveConnector({
  config: { baseUrl: 'http://127.0.0.1:9', secretKey: 's', encryptionKey: KEY, webhookHash: 'h' },
  timeoutMs: 1000,
});
const route = (r: Partial<Route>): Route => ({ channelType: 'momo', countryCode: 'GH', networkCode: 'MTN', direction: 'collection', ...r });

describe('the card payload', () => {
  const payload = { card_number: '4187427415564246', cvv: '828', expiry_month: '09', expiry_year: '32', tx_ref: 'x' };

  it('is 3DES-EDE3-ECB under the encryption key with PKCS#7 padding, base64: what Flutterwave’s SDK sends', () => {
    const client = encryptCardPayload(KEY, payload);
    expect(client).toBe(encrypt3des(KEY, JSON.stringify(payload)));
    const decipher = createDecipheriv('des-ede3', Buffer.from(KEY, 'utf8'), null);
    expect(JSON.parse(Buffer.concat([decipher.update(client, 'base64'), decipher.final()]).toString('utf8'))).toEqual(payload);
    expect(client).not.toContain('4187');
  });

  it('another key gives another ciphertext', () => {
    // (Not one differing only in a byte's lowest bit: DES ignores those, as parity bits.)
    expect(encryptCardPayload('FLWSECK_TEST0123456789az', payload)).not.toBe(encryptCardPayload(KEY, payload));
  });
});

describe('what a PIN or AVS card is sent again with', () => {
  const card = { number: '5531886652142950', expMonth: 9, expYear: 2032, cvc: '564', postalCode: null, pin: null, billingAddress: null };
  const address = { line1: '12 Marina Road', city: 'Lagos', state: 'Lagos', postalCode: '100001', country: 'NG' };

  it('asks only for pin and avs_noauth (a redirect or an OTP is not sent again)', () => {
    expect(['pin', 'avs_noauth'].every(asksCardAuthorization)).toBe(true);
    for (const mode of ['redirect', 'otp', 'noauth', null]) expect(asksCardAuthorization(mode)).toBe(false);
  });

  it('pin: the PIN, when the cardholder gave it on our page; else nothing (pin_required)', () => {
    expect(cardAuthorization('pin', { ...card, pin: '3310' })).toEqual({ mode: 'pin', pin: '3310' });
    expect(cardAuthorization('pin', { ...card, billingAddress: address })).toBeNull();
  });

  it('avs_noauth: the billing address in Flutterwave’s fields; else nothing (address_required)', () => {
    expect(cardAuthorization('avs_noauth', { ...card, billingAddress: address })).toEqual({
      mode: 'avs_noauth',
      address: '12 Marina Road',
      city: 'Lagos',
      state: 'Lagos',
      country: 'NG',
      zipcode: '100001',
    });
    expect(cardAuthorization('avs_noauth', { ...card, pin: '3310' })).toBeNull();
  });
});

describe('Flutterwave’s times and reasons', () => {
  it('reads "YYYY-MM-DD HH:mm:ss" as UTC, ISO as given, and nothing else', () => {
    expect(flutterwaveTime('2026-11-25 12:30:05')).toEqual(new Date('2026-11-25T12:30:05Z'));
    expect(flutterwaveTime('2026-11-25T12:30:05.000Z')).toEqual(new Date('2026-11-25T12:30:05Z'));
    expect(flutterwaveTime('2026-11-25T13:30:05+01:00')).toEqual(new Date('2026-11-25T12:30:05Z'));
    for (const bad of ['N/A', '', null, 'tomorrow', '2026-13-45 99:99:99']) expect(flutterwaveTime(bad)).toBeNull();
  });

  it.each([
    ['Insufficient Funds', 'insufficient_funds'],
    ['Declined', 'card_declined'],
    ['Do not honour', 'card_declined'],
    ['Expired card', 'expired_card'],
    ['Transaction cancelled by customer', 'payment_declined_by_sender'],
    ['Invalid OTP', 'authentication_failed'],
    ['Something else', 'provider_declined'],
    [null, 'provider_declined'],
  ])('a charge’s processor_response %p is %s', (response, reason) => {
    expect(chargeFailureReason(response)).toBe(reason);
  });

  it.each([
    ['DISBURSE FAILED: Insufficient funds in customer wallet', 'provider_float_insufficient'],
    ['Invalid account number', 'beneficiary_account_unavailable'],
    ['Account could not be resolved', 'beneficiary_account_unavailable'],
    ['Bank timeout', 'provider_declined'],
  ])('a transfer’s complete_message %p is %s', (message, reason) => {
    expect(transferFailureReason(message)).toBe(reason);
  });
});

describe('a refund’s status', () => {
  it.each([
    ['completed', 'successful'],
    ['completed-mpgs', 'successful'],
    ['completed-momo', 'successful'],
    ['COMPLETED-BANK-TRANSFER', 'successful'],
    ['failed', 'failed'],
    ['DISBURSE FAILED', 'failed'],
    ['pending', 'pending'],
    ['pending-momo', 'pending'],
    [null, 'pending'],
  ])('%p is %s', (status, outcome) => {
    expect(refundDecision(status).outcome).toBe(outcome);
  });
});

describe('the routes its data serves', () => {
  it.each([
    [route({}), true],
    [route({ networkCode: 'TELECEL' }), true],
    [route({ countryCode: 'UG', networkCode: 'AIRTEL' }), true],
    [route({ countryCode: 'KE', networkCode: 'MPESA' }), true],
    [route({ countryCode: 'TZ', networkCode: 'MIXX' }), false],
    [route({ channelType: 'bank', countryCode: 'NG', networkCode: 'GTBINGLA' }), true],
    [route({ channelType: 'bank', countryCode: 'GH', networkCode: 'GHCBGHAC' }), true],
    [route({ channelType: 'bank', countryCode: 'KE', networkCode: 'KCBLKENX' }), false],
    [route({ channelType: 'bank', countryCode: 'NG', networkCode: 'GTBINGLA', direction: 'transfer' }), true],
    [route({ countryCode: 'KE', networkCode: 'MPESA', direction: 'transfer' }), true],
    [route({ countryCode: 'TZ', networkCode: 'MPESA', direction: 'transfer' }), false],
    [route({ channelType: 'card', countryCode: null, networkCode: null }), true],
    [route({ channelType: 'card', countryCode: null, networkCode: null, direction: 'transfer' }), true],
  ])('%j → %p', (r, served) => {
    expect(connector.serves(r)).toBe(served);
  });

  it('holds each product to its limits and currencies, from data; refunds to none', () => {
    const card = route({ channelType: 'card', countryCode: null, networkCode: null });
    expect(() => connector.check({ route: card, amount: '2500.00', currency: 'NGN', accountNumber: null })).not.toThrow();
    expect(() => connector.check({ route: card, amount: '99.99', currency: 'NGN', accountNumber: null })).toThrow('must be between 100 and 10000000 NGN');
    expect(() => connector.check({ route: card, amount: '10', currency: 'BWP', accountNumber: null })).toThrow('is not one our card processor charges in');
    expect(() => connector.check({ route: { ...card, direction: 'transfer' }, amount: '1', currency: 'BWP', accountNumber: null })).not.toThrow();
    expect(() => connector.check({ route: route({}), amount: '20001', currency: 'GHS', accountNumber: '0241234567' })).toThrow(
      'must be between 1 and 20000 GHS for mobile money collections',
    );
  });
});
