import { createDecipheriv } from 'node:crypto';
import type { Route } from '../../src/providers/connector';
import { FlutterwaveConnector } from '../../src/providers/flutterwave/client';
import { asksCardAuthorization, cardAuthorization, encryptCardPayload, flutterwaveTime } from '../../src/providers/flutterwave/mapping';
import { chargebackOf } from '../../src/providers/flutterwave/records';
import {
  CHARGEBACK_STAGES,
  chargebackReason,
  CHARGEBACK_STATUSES,
  chargeFailureReason,
  chargebackStage,
  chargebackStatus,
  refundDecision,
  transferFailureReason,
} from '../../src/providers/flutterwave/statuses';
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

describe('a chargeback (Flutterwave v3: its list, its answer, its webhook)', () => {
  // The v3 reference's "Get all Chargebacks" sample (flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks).
  const sample = {
    id: 1390,
    amount: 100,
    flw_ref: 'URF_1600800139900_3999635',
    status: 'lost',
    stage: 'new',
    comment: 'This is the payment',
    meta: {
      uploaded_proof: null,
      history: [
        { initiator: 'dispute', date: '2020-09-22T07:01:28.000Z', description: 'Dispute transaction' },
        { action: 'initiated', stage: 'new', date: '2020-09-22T07:05:02.000Z', description: 'Debit and hold chargeback amount', source: 'availablebalance' },
        { action: 'lost', stage: 'new', date: '2020-09-23T04:03:05.000Z', description: 'No merchant response' },
      ],
    },
    due_date: '2020-09-23T15:59:59.000Z',
    settlement_id: 'N/A',
    created_at: '2020-09-22T19:01:28.000Z',
    transaction_id: 1554166,
    tx_ref: '10',
  };

  it.each([
    ['initiated', 'needs_response'],
    ['pending', 'needs_response'],
    ['declined', 'under_review'],
    ['accepted', 'lost'],
    ['lost', 'lost'],
    ['won', 'won'],
    ['INITIATED', 'needs_response'],
    [' Won ', 'won'],
    ['reversed', null],
    ['', null],
    [null, null],
  ])('status %p is ours %p', (status, ours) => {
    expect(chargebackStatus(status)).toBe(ours);
  });

  it.each([
    ['Product/service not received', 'product_not_received'],
    ['Cancelled merchandise/Service', 'product_not_received'],
    ['Fraudulent transaction: cardholder did not authorize', 'fraudulent'],
    ['Duplicate processing', 'duplicate'],
    ['Credit not processed', 'credit_not_processed'],
    ['Recurring subscription cancelled', 'subscription_canceled'],
    ['Goods not as described', 'product_unacceptable'],
    ['Cardholder does not recognize the transaction', 'unrecognized'],
    ['This is the payment', 'general'],
    [null, 'general'],
  ])('comment %p is the reason %p', (comment, reason) => {
    expect(chargebackReason(comment)).toBe(reason);
  });

  it('the tables cover exactly the documented statuses and stages', () => {
    expect(Object.keys(CHARGEBACK_STATUSES).sort()).toEqual(['accepted', 'declined', 'initiated', 'lost', 'pending', 'won']);
    expect(CHARGEBACK_STAGES).toEqual({ new: 'chargeback', second: 'second_chargeback', 'pre-arbitration': 'pre_arbitration', arbitration: 'arbitration' });
    expect(chargebackStage('pre_arbitration')).toBe('pre_arbitration');
    expect(chargebackStage('Arbitration')).toBe('arbitration');
    expect(chargebackStage('retrieval')).toBeNull();
    expect(chargebackStage(null)).toBeNull();
  });

  it('reads the documented sample: our tx_ref, Flutterwave’s transaction id, the raw status and stage kept, no currency', () => {
    expect(chargebackOf(sample)).toEqual({
      providerDisputeId: '1390',
      providerTransactionId: '1554166',
      transactionReference: '10',
      amount: '100',
      currency: null,
      stage: 'chargeback',
      providerStage: 'new',
      providerStatus: 'lost',
      status: 'lost',
      reason: 'This is the payment',
      reasonCategory: 'general',
      dueBy: new Date('2020-09-23T15:59:59.000Z'),
      createdAt: new Date('2020-09-22T19:01:28.000Z'),
    });
    expect(chargebackOf({ ...sample, amount: 1500.5, status: 'declined', stage: 'second', due_date: null })).toMatchObject({
      amount: '1500.5',
      status: 'under_review',
      stage: 'second_chargeback',
      dueBy: null,
    });
  });

  it('reads nothing it cannot trust: no id, no amount, a negative or non-numeric amount, an unknown status, no creation time', () => {
    for (const broken of [
      { ...sample, id: undefined },
      { ...sample, amount: undefined },
      { ...sample, amount: -5 },
      { ...sample, amount: '1e3' },
      { ...sample, status: 'reversed' },
      { ...sample, created_at: 'N/A' },
      null,
      'text',
    ]) {
      expect(chargebackOf(broken)).toBeNull();
    }
  });

  it('a chargeback.* webhook is its dispute; any other event, or a body that is not one, is null', () => {
    expect(connector.webhookDispute({ event: 'chargeback.initiated', data: { ...sample, status: 'initiated' } })).toMatchObject({
      providerDisputeId: '1390',
      transactionReference: '10',
      status: 'needs_response',
      providerStatus: 'initiated',
    });
    // The body as received (text) reads the same.
    expect(connector.webhookDispute(JSON.stringify({ event: 'chargeback.lost', data: sample }))).toEqual(chargebackOf(sample));
    expect(connector.webhookDispute('{not json')).toBeNull();
    expect(connector.webhookDispute({ event: 'charge.completed', data: sample })).toBeNull();
    expect(connector.webhookDispute({ event: 'transfer.completed', 'event.type': 'Transfer', data: { id: 1, status: 'SUCCESSFUL' } })).toBeNull();
    expect(connector.webhookDispute({ data: sample })).toBeNull();
    expect(connector.webhookDispute({ event: 'chargeback.initiated', data: null })).toBeNull();
    expect(connector.webhookDispute('chargeback')).toBeNull();
    expect(connector.webhookDispute(undefined)).toBeNull();
  });
});
