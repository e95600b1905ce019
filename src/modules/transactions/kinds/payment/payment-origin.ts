import { z } from 'zod';
import type { BillingAddress } from '../../../../providers/connector';
import { AppError } from '../../../../shared/errors';
import { countryCodeField, optionalText } from '../../../../shared/fields';
import { parseInput } from '../../../../shared/validation';
import type { PaymentMethod } from './payment-methods';

/**
 * Where a payment comes from besides its command: the hosted checkout (issue 37). Its session, and what only the
 * checkout page takes from the cardholder, never the merchant's API (a merchant's server must never handle a PIN):
 * the card's PIN and a billing address, for a processor that asks for them (Flutterwave's PIN cards, AVS). Both are
 * passed to the processor with the card, in the same request, and are never stored, logged or echoed.
 */
export interface PaymentOrigin {
  checkoutSessionId?: string | null;
  /** Exactly 4 digits. */
  cardPin?: string | null;
  billingAddress?: BillingAddress | null;
}

const required = (max: number) => optionalText(max).refine((v) => v !== null && v !== undefined, 'is required');

/** Bounded text, and an ISO alpha-2 country. Messages say what is wrong, never what was given. */
const originSchema = z.object({
  checkoutSessionId: z.string().nullish(),
  cardPin: z
    .string({ error: 'must be a string of 4 digits' })
    .regex(/^\d{4}$/, 'must be exactly 4 digits')
    .nullish(),
  billingAddress: z
    .object(
      {
        line1: required(100),
        city: required(60),
        state: required(60),
        postalCode: required(16),
        country: countryCodeField,
      },
      { error: 'must be an object with line1, city, state, postal_code and country' },
    )
    .nullish(),
});

/** The origin, checked: a PIN and a billing address go only with a card. */
export function parseOrigin(
  origin: PaymentOrigin,
  method: PaymentMethod,
): { checkoutSessionId: string | null; pin: string | null; billingAddress: BillingAddress | null } {
  const parsed = parseInput(originSchema, origin);
  if (method !== 'card') {
    for (const field of ['cardPin', 'billingAddress'] as const) {
      if (parsed[field] !== null && parsed[field] !== undefined) throw AppError.invalidField(field, 'is only for a card payment; leave it out');
    }
  }
  const address = parsed.billingAddress;
  return {
    checkoutSessionId: parsed.checkoutSessionId ?? null,
    pin: parsed.cardPin ?? null,
    billingAddress: address
      ? { line1: address.line1!, city: address.city!, state: address.state!, postalCode: address.postalCode!, country: address.country }
      : null,
  };
}
