import { RequestContext } from '@mikro-orm/core';
import type { PaymentCommand, PaymentOrigin } from '../../src/modules/transactions/kinds/payment/payment.service';
import { request } from './http';
import type { TestApp } from './test-app';
import { newReference } from './transactions';

/** CONTRACT §7's sandbox test cards. */
export const CARDS = {
  success: '4242424242424242',
  threeDs: '4000002500003155',
  insufficientFunds: '4000000000009995',
  /** Luhn-valid, not a test card: declined card_not_supported_in_sandbox. */
  other: '5555555555554444',
  /** An American Express number (15 digits, 4-digit CVC). */
  amex: '378282246310005',
  /** Fails the Luhn check. */
  luhnInvalid: '4242424242424241',
} as const;

/** A CVC no other value in the tests is: a scan for it finds only a leak. */
export const TEST_CVC = '913';
export const TEST_AMEX_CVC = '7391';

/** A valid card payment body (CONTRACT §7) with the success card; override any field (`card` fields merge; `card: undefined` drops it). */
export function cardPaymentBody(overrides: Record<string, unknown> & { card?: Record<string, unknown> } = {}) {
  const { card, ...rest } = overrides;
  const dropCard = 'card' in overrides && card === undefined;
  return {
    reference: newReference('pay'),
    amount: '2500.00',
    currency: 'NGN',
    payment_method: 'card',
    ...(dropCard ? {} : { card: { number: CARDS.success, exp_month: 12, exp_year: 2030, cvc: TEST_CVC, postal_code: '100001', ...card } }),
    description: 'Order 1001',
    ...rest,
  };
}

/** The GraphQL twin: an InitiatePaymentInput. */
export function cardPaymentInput(overrides: Record<string, unknown> & { card?: Record<string, unknown> } = {}) {
  const { card, ...rest } = overrides;
  return {
    reference: newReference('gql-pay'),
    amount: '2500.00',
    currency: 'NGN',
    paymentMethod: 'CARD',
    card: { number: CARDS.success, expMonth: 12, expYear: 2030, cvc: TEST_CVC, postalCode: '100001', ...card },
    description: 'Order 1001',
    ...rest,
  };
}

export const initiatePayment = (app: TestApp, token: string, body: unknown) => request(app.url, 'POST', '/v1/payments/initiate', { token, body });

export const verifyPayment = (app: TestApp, token: string, reference: string) =>
  request(app.url, 'GET', `/v1/payments/verify/${encodeURIComponent(reference)}`, { token });

/** Every field of the GraphQL Transaction a payment fills. */
export const PAYMENT_FIELDS = `reference externalReference type status failureReason amount currency paymentMethod
  card { brand last4 fingerprint } nextAction { type url expiresAt } redirectUrl description customerUuid createdAt completedAt`;

/**
 * A Luhn-valid number: `prefix`, zeros up to `length - 1` digits, then the check
 * digit, computed here (not by the code under test, which is not checked with itself).
 */
export function luhnCard(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '0');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // The check digit will sit at position 0 from the right, so the body's last digit is doubled.
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/**
 * A card payment as the hosted checkout page starts it: through PaymentService with the page's transient origin (the
 * card's PIN, a billing address), which no merchant API takes. `card` fields merge into a valid card (domain names).
 */
export function checkoutCardPayment(
  app: TestApp,
  merchantId: string,
  overrides: Record<string, unknown> & { card?: Record<string, unknown> } = {},
  origin: PaymentOrigin = {},
) {
  const { card, ...rest } = overrides;
  const command = {
    reference: newReference('checkout-pay'),
    amount: '2500.00',
    currency: 'NGN',
    paymentMethod: 'card',
    card: { number: CARDS.success, expMonth: 12, expYear: 2030, cvc: TEST_CVC, postalCode: '100001', ...card },
    description: 'Order 1001',
    ...rest,
  } as unknown as PaymentCommand;
  return RequestContext.create(app.service.orm.em, () => app.service.app.services.payments.initiatePayment(merchantId, command, origin));
}
