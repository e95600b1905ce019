import { luhnValid } from '../../../../shared/card-numbers';
import { AppError } from '../../../../shared/errors';

/**
 * Card rules: pure functions, no I/O. The number, CVC and expiry they read are
 * never stored, logged or echoed (PCI DSS 3.3–3.5): what survives a request is a
 * brand, the last four digits and a keyed fingerprint (payment.service.ts).
 */

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'verve', 'discover', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Card numbers are 12 to 19 digits (ISO/IEC 7812); spaces and dashes between groups are accepted. */
const CARD_NUMBER = /^\d{12,19}$/;

/** The digits of a card number as typed ("4242 4242 4242 4242"), or null when it is not 12–19 digits. */
export function normalizeCardNumber(raw: string): string | null {
  const digits = raw.replace(/[ -]/g, '');
  return CARD_NUMBER.test(digits) ? digits : null;
}

const inRange = (digits: string, length: number, from: number, to: number) => {
  const prefix = Number(digits.slice(0, length));
  return prefix >= from && prefix <= to;
};

/**
 * The brand by its issuer identification number. Verve (Nigeria) is checked
 * before Visa and Mastercard because its ranges sit beside theirs.
 */
export function detectBrand(digits: string): CardBrand {
  if (inRange(digits, 6, 506099, 506198) || inRange(digits, 6, 650002, 650027) || inRange(digits, 6, 507865, 507964)) return 'verve';
  if (digits.startsWith('4')) return 'visa';
  if (inRange(digits, 2, 51, 55) || inRange(digits, 4, 2221, 2720)) return 'mastercard';
  if (digits.startsWith('34') || digits.startsWith('37')) return 'amex';
  if (digits.startsWith('6011') || digits.startsWith('65') || inRange(digits, 3, 644, 649)) return 'discover';
  return 'unknown';
}

/** The lengths each brand issues; an unknown brand gets the general 12–19. */
const LENGTHS: Record<CardBrand, readonly number[]> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  verve: [16, 18, 19],
  discover: [16, 19],
  unknown: [12, 13, 14, 15, 16, 17, 18, 19],
};

export function validLengthFor(brand: CardBrand, digits: string): boolean {
  return LENGTHS[brand].includes(digits.length);
}

/** American Express prints a 4-digit code on the front; every other brand a 3-digit one on the back. */
export function cvcLengthFor(brand: CardBrand): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/**
 * A card is valid through the last day of its expiry month. A 2-digit year is
 * 20YY. Judged in UTC against `now`; returns the 4-digit year, or null when the
 * card has expired or the date is not a real one.
 */
export function expiryYear(month: number, year: number, now: Date): number | null {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return null;
  const fullYear = year >= 0 && year < 100 ? 2000 + year : year;
  if (fullYear < 2000 || fullYear > 2099) return null;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (fullYear < thisYear || (fullYear === thisYear && month < thisMonth)) return null;
  // Issuers print at most about 20 years ahead; further is a typing mistake.
  if (fullYear > thisYear + 20) return null;
  return fullYear;
}

/** The card fields of a payment request as parsed (REST names; the GraphQL door maps them to camelCase). */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode?: string | null;
}

export interface CheckedCard {
  digits: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode: string | null;
}

const cardError = (field: string, issue: string) => AppError.invalidField(`card.${field}`, issue);

const BRAND_CARDS: Record<CardBrand, string> = {
  visa: 'Visa cards',
  mastercard: 'Mastercard cards',
  amex: 'American Express cards',
  verve: 'Verve cards',
  discover: 'Discover cards',
  unknown: 'cards of this kind',
};

/**
 * Every check a card gets before any provider sees it: digits, Luhn, the
 * brand's length, a future expiry, and a CVC of the brand's length. Errors name
 * the field and say what is wrong, never what was sent.
 */
export function checkCard(card: CardInput, now: Date): CheckedCard {
  const digits = normalizeCardNumber(card.number);
  if (!digits) throw cardError('number', 'must be 12 to 19 digits');
  if (!luhnValid(digits)) throw cardError('number', 'is not a valid card number (it fails the Luhn check)');
  const brand = detectBrand(digits);
  if (!validLengthFor(brand, digits)) {
    throw cardError('number', `has ${digits.length} digits, a length ${BRAND_CARDS[brand]} do not have`);
  }
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) throw cardError('expMonth', 'must be a month from 1 to 12');
  const expYear = expiryYear(card.expMonth, card.expYear, now);
  if (expYear === null) throw cardError('expYear', 'with the expiry month must be a future expiry: the card has expired or the year is not valid');
  const cvcLength = cvcLengthFor(brand);
  if (card.cvc.length !== cvcLength || !/^\d+$/.test(card.cvc)) {
    throw cardError('cvc', `must be ${cvcLength} digits for ${BRAND_CARDS[brand]}`);
  }
  return { digits, brand, last4: digits.slice(-4), expMonth: card.expMonth, expYear, cvc: card.cvc, postalCode: card.postalCode ?? null };
}
