import { z } from 'zod';
import { amountField, countryCodeField, currencyField, optionalText, referenceField, withoutCardNumberIn } from '../../../../shared/fields';
import type { Command } from '../../../../shared/validation';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods';

const CARD_REQUIRED = 'is required, with its number, expiry month and year, and CVC';

/** Month or year as a JSON number or a digit string ("04", "2030", "30"). */
const datePart = z
  .union([z.number().int('must be a whole number'), z.string().regex(/^\d{1,4}$/, 'must be digits')], { error: 'is required and must be a number' })
  .transform(Number);

/** What a cardholder may have to do before a payment is decided. */
export const NEXT_ACTION_TYPES = ['redirect_to_url'] as const;

/** CONTRACT §7's payment, in the domain's names. Messages say what is wrong, never what was sent: a card value is never echoed. */
export const paymentSchema = z
  .object({
    reference: referenceField,
    amount: amountField,
    currency: currencyField,
    paymentMethod: z.enum(PAYMENT_METHODS, { error: 'must be card, momo or bank_transfer' }),
    card: z
      .object(
        {
          number: z.string({ error: 'is required and must be a string of digits' }).max(40, 'must be 12 to 19 digits'),
          expMonth: datePart,
          expYear: datePart,
          cvc: z.string({ error: 'is required and must be a string of digits' }).regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
          postalCode: z
            .string({ error: 'must be a string' })
            .trim()
            .min(1, 'must not be empty; leave it out instead')
            .max(16, 'must be at most 16 characters')
            .nullish(),
        },
        { error: CARD_REQUIRED },
      )
      .nullish(),
    /** Mobile money: the payer's wallet, in any form its country's numbering plan reads (CONTRACT §6a). */
    phone: z.string({ error: 'must be a string' }).max(32, 'must be at most 32 characters').nullish(),
    /** Mobile money: the payer's network, by its id (gh_mtn) or code (MTN); predicted from the number when left out. */
    network: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty; leave it out instead')
      .max(64, 'must be at most 64 characters')
      .nullish(),
    /** Mobile money and bank transfer: the payer's country, which is yours; needed only when your currency is several countries' (XOF, XAF). */
    countryCode: countryCodeField.nullish(),
    customerUuid: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty; leave it out instead')
      .max(64, 'must be at most 64 characters')
      .nullish(),
    redirectUrl: withoutCardNumberIn(
      z
        .string({ error: 'must be a string' })
        .max(2048, 'must be at most 2048 characters')
        .refine(isRedirectUrl, 'must be an absolute http or https URL without credentials'),
    )
      // Stored as the URL parser writes it (characters that need it percent-encoded).
      .transform((url) => new URL(url).href)
      .nullish(),
    description: optionalText(255),
  })
  .superRefine(methodFields);
export type PaymentCommand = Command<typeof paymentSchema>;

/**
 * Each method's own fields, and only those: a card for `card`, a phone (and a network) for `momo`, nothing for
 * `bank_transfer`. A field of another method is refused rather than ignored, so a mistake is seen at once.
 */
function methodFields(body: { paymentMethod: PaymentMethod; card?: unknown; phone?: unknown; network?: unknown }, ctx: z.core.$RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  const given = (v: unknown) => v !== undefined && v !== null;
  if (body.paymentMethod === 'card' && !given(body.card)) issue('card', CARD_REQUIRED);
  if (body.paymentMethod !== 'card' && given(body.card)) issue('card', 'is only for payment_method card; leave it out');
  if (body.paymentMethod === 'momo' && !given(body.phone)) issue('phone', 'is required for a mobile money payment: the payer’s wallet number');
  for (const field of ['phone', 'network'] as const) {
    if (body.paymentMethod !== 'momo' && given(body[field])) issue(field, 'is only for payment_method momo; leave it out');
  }
}

export function isRedirectUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
}
