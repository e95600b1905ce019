import { z } from 'zod';
import { amountField, currencyField, emailAddressField, optionalText, phoneNumberField, timestampField, withoutCardNumberIn } from '../../shared/fields';
import { containsCardNumber } from '../../shared/card-numbers';
import type { Command } from '../../shared/validation';
import { isRedirectUrl } from '../transactions/kinds/payment/payment.schema';
import { LINK_COLLECT } from './checkout.records';
import { CHECKOUT_METHODS } from './checkout.views';

/*
 * What the checkout module's commands take, in the domain's (camelCase) names; REST maps snake_case at
 * its edge, GraphQL passes its inputs through. Messages say what is wrong, never what was sent.
 */

/** The merchant's reference: its attempts add `-N`, so it stays within a transaction reference's 100 characters. */
const sessionReference = withoutCardNumberIn(
  z
    .string({ error: 'is required' })
    .regex(/^(?=.*[A-Za-z0-9])[A-Za-z0-9._:-]{1,60}$/, 'must be 1 to 60 letters, digits or . _ : -, with at least one letter or digit'),
);

/** An absolute http(s) URL without credentials, kept as the URL parser writes it. */
const redirectUrlField = withoutCardNumberIn(
  z
    .string({ error: 'must be a string' })
    .max(2048, 'must be at most 2048 characters')
    .refine(isRedirectUrl, 'must be an absolute http or https URL without credentials'),
).transform((url) => new URL(url).href);

const methodsField = z
  .array(z.enum(CHECKOUT_METHODS, { error: `must each be one of ${CHECKOUT_METHODS.join(', ')}` }), { error: 'must be a list of methods' })
  .min(1, 'must name at least one method; leave it out for every method')
  .max(CHECKOUT_METHODS.length, `must have at most ${CHECKOUT_METHODS.length} methods`)
  .refine((m) => new Set(m).size === m.length, 'must not name a method twice')
  .nullish();

/**
 * Flat: up to 20 keys (1–40 of letters, digits, _ . : -), string values up to 500 characters, no card
 * number in either. Every problem is named on `metadata` itself, never on a key's path: a key is the
 * caller's text, and an error must not echo it.
 */
const METADATA_KEY = /^[A-Za-z0-9_.:-]{1,40}$/;
const metadataField = z
  .record(z.string(), z.unknown(), { error: 'must be an object of string values' })
  .superRefine((m, ctx) => {
    const problems = new Set<string>();
    const entries = Object.entries(m);
    if (entries.length > 20) problems.add('must have at most 20 keys');
    for (const [key, value] of entries) {
      if (!METADATA_KEY.test(key) || containsCardNumber(key)) problems.add('keys must be 1 to 40 letters, digits or _ . : - (and no card number)');
      if (typeof value !== 'string') problems.add('values must be strings');
      else if (value.length > 500) problems.add('values must be at most 500 characters');
      else if (containsCardNumber(value)) problems.add('values must not contain a card number');
    }
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
  })
  .transform((m) => m as Record<string, string>)
  .nullish();

const customerField = z.object(
  {
    email: emailAddressField,
    phone: phoneNumberField.nullish(),
    name: optionalText(200),
  },
  { error: 'is required, with at least the payer’s email' },
);

const MIN_EXPIRES_IN_S = 60;
const MAX_EXPIRES_IN_S = 86_400;
export const DEFAULT_EXPIRES_IN_S = 3_600;

export const checkoutSessionSchema = z.object({
  amount: amountField,
  currency: currencyField,
  reference: sessionReference,
  customer: customerField,
  paymentMethods: methodsField,
  redirectUrl: redirectUrlField,
  cancelUrl: redirectUrlField.nullish(),
  metadata: metadataField,
  description: optionalText(255),
  expiresIn: z
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(MIN_EXPIRES_IN_S, `must be at least ${MIN_EXPIRES_IN_S} seconds`)
    .max(MAX_EXPIRES_IN_S, `must be at most ${MAX_EXPIRES_IN_S} seconds (24 hours)`)
    .nullish(),
});
export type CheckoutSessionCommand = Command<typeof checkoutSessionSchema>;

/** What the page posts to pay (no bearer: the session id is the key). The card is never stored or logged. */
export const checkoutPaySchema = z.discriminatedUnion(
  'method',
  [
    z.object({
      method: z.literal('momo'),
      phone: phoneNumberField,
      network: z
        .string()
        .regex(/^[A-Z0-9_]{2,20}$/, 'must be a network code')
        .nullish(),
    }),
    z.object({
      method: z.literal('card'),
      card: z.object({
        number: z.string({ error: 'is required' }).max(40, 'must be 12 to 19 digits'),
        expMonth: z.union([z.number(), z.string()]),
        expYear: z.union([z.number(), z.string()]),
        cvc: z.string({ error: 'is required' }).max(4, 'must be 3 or 4 digits'),
        postalCode: z.string().max(16).nullish(),
        /** A PIN card's PIN (Flutterwave's Verve cards): sent with the card to the processor, never stored. */
        pin: z
          .string({ error: 'must be 4 digits' })
          .regex(/^\d{4}$/, 'must be 4 digits')
          .nullish(),
      }),
      /** Where the processor asks for it (AVS): {line1, city, state, postalCode, country}, checked by the payment kind. */
      billingAddress: z.unknown().optional(),
    }),
    z.object({ method: z.literal('bank_transfer') }),
  ],
  { error: `must be one of ${CHECKOUT_METHODS.join(', ')}` },
);
export type CheckoutPayInput = Command<typeof checkoutPaySchema>;

/** A link's slug: its public address. */
export const slugField = withoutCardNumberIn(
  z
    .string({ error: 'must be a string' })
    .regex(/^[a-z0-9](?:[a-z0-9-]{1,62})[a-z0-9]$/, 'must be 3 to 64 lowercase letters, digits or -, not starting or ending with -'),
);

export const paymentLinkSchema = z.object({
  name: withoutCardNumberIn(z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters')),
  amount: amountField.nullish(),
  currency: currencyField,
  description: optionalText(500),
  slug: slugField.nullish(),
  paymentMethods: methodsField,
  collect: z
    .array(z.enum(LINK_COLLECT, { error: `must each be one of ${LINK_COLLECT.join(', ')}` }), { error: 'must be a list' })
    .max(LINK_COLLECT.length)
    .refine((c) => new Set(c).size === c.length, 'must not name a field twice')
    .nullish(),
  minAmount: amountField.nullish(),
  maxAmount: amountField.nullish(),
  maxPayments: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).nullish(),
  expiresAt: timestampField.nullish(),
  redirectUrl: redirectUrlField.nullish(),
});
export type PaymentLinkCommand = Command<typeof paymentLinkSchema>;

/** What the link's landing page posts to open a session. */
export const openLinkSchema = z.object({
  amount: amountField.nullish(),
  email: emailAddressField,
  phone: phoneNumberField.nullish(),
  name: optionalText(200),
});
export type OpenLinkInput = Command<typeof openLinkSchema>;
