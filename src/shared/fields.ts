import { z } from 'zod';
import { AppError } from './errors';
import { containsCardNumber } from './card-numbers';
import { Decimal, readPositiveDecimal } from './money';

/**
 * Field rules the domain's commands share, each written once, with one message.
 * Services build their command schemas from these (in the domain's camelCase
 * names); each door names the fields as its clients know them. Messages say what
 * is wrong, never what was sent.
 */

const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/; // eslint-disable-line no-control-regex

/**
 * Stored text never holds a card number (a Luhn-valid run of 13–19 digits, whole or in a
 * card's groups, with a card network's first digit: containsCardNumber): it would sit in the
 * row, the outbox and the signed webhook. The message never
 * echoes the value. Identifiers that are digits by nature (account, phone and identity
 * numbers: a South African ID number is 13 digits with a Luhn check digit) are not free
 * text and do not use this.
 */
const NO_CARD_NUMBER = 'must not contain a card number';
const withoutCardNumber = (text: string) => !containsCardNumber(text);

/** A required identifier: trimmed, not empty, bounded (no card-number rule: see NO_CARD_NUMBER). */
export const requiredIdentifier = (max: number) =>
  z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** Required free text: trimmed, not empty, bounded, without a card number. */
export const requiredText = (max: number) => requiredIdentifier(max).refine(withoutCardNumber, NO_CARD_NUMBER);

/**
 * Optional free text: trimmed, bounded, without control characters (PostgreSQL refuses NUL;
 * none belongs in a label) or a card number. Null is absent; an empty or blank string is
 * refused (leave the field out instead), so "" never stands for a value.
 */
export const optionalText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty; leave it out instead')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not contain control characters')
    .refine(withoutCardNumber, NO_CARD_NUMBER)
    .nullish();

/**
 * Text to look for (a search), never stored: trimmed, not empty, bounded, without control characters
 * (PostgreSQL refuses NUL in a parameter; none belongs in a reference or an email). Null is absent.
 */
export const searchText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not contain control characters')
    .nullish();

/** Any other string the service stores and sends on (a URL, an email, a reason), held to the same rule: no card number in it. */
export const withoutCardNumberIn = <S extends z.ZodType<string>>(schema: S) => schema.refine(withoutCardNumber, NO_CARD_NUMBER);

/** An ISO 3166-1 alpha-2 code, upper case (whether we serve the country is the caller's check, against reference data). */
export const countryCodeField = z.string({ error: 'is required' }).regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code, e.g. KE');

/** An ISO 4217 code, upper case. */
export const currencyField = z.string({ error: 'is required' }).regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code, e.g. KES');

/** An international dialling prefix. Whether it is the country's is the caller's check. */
export const dialCodeField = z.string({ error: 'is required' }).regex(/^\+\d{1,4}$/, 'must be a plus sign and 1 to 4 digits, e.g. +254');

/**
 * A phone number as written (digits, with spaces, dashes, dots, parentheses or a leading +): its
 * shape only. The service reads it under its country's numbering plan once the dial code is checked,
 * and keeps the national number (shared/phone-numbers.ts, CONTRACT §6a).
 */
export const phoneNumberField = z
  .string({ error: 'is required' })
  .regex(/^\+?[\d ().-]{4,30}$/, 'must be a phone number: the national number without the dial code, e.g. 712345678 for +254');

/**
 * A cross-border account: a bank account number (4 to 34 letters or digits) or a wallet's phone
 * number as written; which rule holds depends on the account type (BANK_ACCOUNT_NUMBER, or the
 * phone rule in the service).
 */
export const accountNumberField = z
  .string({ error: 'is required' })
  .regex(/^\+?[0-9A-Za-z ().-]{4,34}$/, 'must be a bank account number (4 to 34 letters or digits) or a wallet’s phone number');

/** A bank account number: letters and digits only. Not a phone number: it is kept exactly as given. */
export const BANK_ACCOUNT_NUMBER = /^[0-9A-Za-z]{4,34}$/;

/** Whether a YYYY-MM-DD names a day that exists (1990-02-31 does not; 2000-02-29 does). */
export function isCalendarDate(isoDate: string): boolean {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(isoDate);
}

/** A calendar date as YYYY-MM-DD that exists (1990-02-31 does not). */
export const isoDateField = z
  .string({ error: 'is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isCalendarDate, 'is not a real date');

/**
 * A point in time: an ISO 8601 date-time with its offset (`2026-11-22T12:00:00Z`), or a Date
 * (GraphQL's DateTime scalar parses to one). Between 2000 and 2100, like every time we store.
 */
export const timestampField = z
  .union([z.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO 8601 date-time with its offset, e.g. 2026-11-22T12:00:00Z' })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() >= Date.UTC(2000, 0, 1) && d.getTime() < Date.UTC(2100, 0, 1), 'must be between 2000 and 2100');

/**
 * A positive decimal: a string ("1500.00", exact), a JSON number, or a Decimal (GraphQL's
 * scalar parses to one). Its precision is judged later, against the currency.
 */
export const amountField = z.union([z.number(), z.string(), z.instanceof(Decimal)], { error: 'is required and must be a number' }).superRefine((value, ctx) => {
  try {
    readPositiveDecimal(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: err instanceof AppError ? (err.details?.[0]?.issue ?? err.message) : 'is not a valid amount' });
  }
});

/** What any reference, the merchant's or the service's (`pay_…`), is made of. */
export const REFERENCE_CHARACTERS = /^[A-Za-z0-9._:-]{1,100}$/;

/** The merchant's own reference, unique per merchant across every kind of transaction. */
export const referenceField = z
  .string({ error: 'is required' })
  // And at least one letter or digit: "." and ".." would be unreachable in a URL path.
  .regex(
    new RegExp(`^(?=.*[A-Za-z0-9])${REFERENCE_CHARACTERS.source.slice(1)}`),
    'must be 1 to 100 letters, digits or . _ : -, with at least one letter or digit',
  )
  .refine(withoutCardNumber, NO_CARD_NUMBER);

/** Trimmed and upper-cased first: for codes in a query string, where `ke` means KE. */
export const upperCased = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), schema);

/** Trimmed and lower-cased first: for words in a query string, where `Deposit` means deposit. */
export const lowerCased = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), schema);

/** An email address, trimmed and lower-cased (sign-up, a checkout's payer). */
export const emailAddressField = lowerCased(z.email('must be a valid email address').max(254, 'must be at most 254 characters'));
