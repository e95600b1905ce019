import DecimalJs from 'decimal.js';
import { AppError } from './errors';

/**
 * The one money type: an arbitrary-precision decimal. Money never passes through
 * a binary float inside the service; a JS number is accepted only at the edge
 * (a JSON body) and read by its shortest string form, never by its float value.
 *
 * A private clone, so no other library's Decimal settings can change ours.
 * 40 significant digits is far beyond any amount × rate this service multiplies;
 * the exponent limits keep toString() out of exponent notation.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

/** How an amount is brought to a currency's minor unit. */
export type RoundingMode = 'down' | 'up' | 'half_up' | 'half_even';

const ROUNDING: Record<RoundingMode, DecimalJs.Rounding> = {
  down: DecimalJs.ROUND_DOWN,
  up: DecimalJs.ROUND_UP,
  half_up: DecimalJs.ROUND_HALF_UP,
  half_even: DecimalJs.ROUND_HALF_EVEN,
};

/**
 * The amount domain: an amount carries at most 15 significant digits, counting its
 * currency's decimals (DBL_DIG: every decimal of 15 significant digits or fewer is read
 * back exactly from a double's shortest form). So every amount the service accepts, or
 * derives, can be written as an exact JSON number in every answer and event: below
 * 10^13 in a currency of 2 decimals (9999999999999.99 NGN), below 10^15 in one of 0.
 */
export const MAX_SIGNIFICANT_DIGITS = 15;

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

const invalid = AppError.invalidField;

/** The largest amount of each minor unit, worked out once. */
const MAX_AMOUNTS = new Map<number, Decimal>();

/** The largest amount of the domain in a currency with `minorUnit` decimals: 9999999999999.99 for 2. */
export function maxAmount(minorUnit: number): Decimal {
  let max = MAX_AMOUNTS.get(minorUnit);
  if (max === undefined) {
    max = new Decimal(10).pow(MAX_SIGNIFICANT_DIGITS - minorUnit).minus(new Decimal(10).pow(-minorUnit));
    MAX_AMOUNTS.set(minorUnit, max);
  }
  return max;
}

/**
 * Reads a decimal's text: a plain decimal string ("100", "100.5", "100.50"), a JS
 * number (read by its shortest string form, so 100.1 is "100.1", not its binary
 * expansion) or a Decimal. Refuses NaN, Infinity, exponent notation, signs and zero.
 * Its precision and size are judged by parseAmount, against the currency.
 */
export function readPositiveDecimal(value: unknown, field = 'amount'): Decimal {
  let text: string;
  if (value === undefined || value === null || value === '') throw invalid(field, 'is required');
  if (typeof value === 'string') {
    text = value.trim();
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(field, 'must be a finite number');
    text = String(value);
  } else if (DecimalJs.isDecimal(value)) {
    if (!value.isFinite()) throw invalid(field, 'must be a finite number');
    text = value.toFixed();
  } else {
    throw invalid(field, 'must be a decimal number, e.g. "100.50"');
  }

  if (/^[+-]?(nan|infinity)$/i.test(text)) throw invalid(field, 'must be a finite number');
  if (/\d[eE][+-]?\d/.test(text)) throw invalid(field, 'must not use exponent notation');
  if (/^-/.test(text) && DECIMAL_PATTERN.test(text.slice(1))) throw invalid(field, 'must be greater than 0');
  if (!DECIMAL_PATTERN.test(text)) throw invalid(field, 'must be a decimal number, e.g. "100.50"');

  const amount = new Decimal(text);
  if (amount.isZero()) throw invalid(field, 'must be greater than 0');
  return amount;
}

/**
 * Reads a positive amount in a currency with `minorUnit` decimals (ISO 4217
 * exponent), in the amount domain (MAX_SIGNIFICANT_DIGITS). Refuses more decimals
 * than the currency has (judged on the value: "100.500" is 100.5 and fine for USD)
 * and anything above maxAmount. Throws INVALID_REQUEST naming `field`.
 */
export function parseAmount(value: unknown, minorUnit: number, field = 'amount'): Decimal {
  const amount = readPositiveDecimal(value, field);
  if (amount.decimalPlaces() > minorUnit) {
    throw invalid(field, minorUnit === 0 ? 'must be a whole number in this currency' : `must have at most ${minorUnit} decimal places`);
  }
  const max = maxAmount(minorUnit);
  if (amount.gt(max)) throw invalid(field, `must be at most ${max.toFixed(minorUnit)}`);
  return amount;
}

/**
 * Reads a signed amount (an operator's adjustment: "250.00" credits, "-250.00" debits): parseAmount's
 * rules for its magnitude, with one optional leading minus written against the digits. The text is
 * trimmed at its ends, as every amount is; anything else around the sign (`"- 5"`, `"--5"`, `"-+5"`,
 * `"+5"`) is refused, so a sign is never guessed. Returns the signed amount.
 */
export function parseSignedAmount(value: unknown, minorUnit: number, field = 'amount'): Decimal {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(field, 'must be a finite number');
    const magnitude = parseAmount(Math.abs(value), minorUnit, field);
    return value < 0 ? magnitude.negated() : magnitude;
  }
  if (typeof value !== 'string' || !value.trim().startsWith('-')) return parseAmount(value, minorUnit, field);
  const magnitude = value.trim().slice(1);
  // Only digits may follow the minus: "- 5", "--5", "-+5" are not amounts.
  if (!/^\d/.test(magnitude)) throw invalid(field, 'must be a decimal number with an optional leading minus, e.g. "-250.00"');
  return parseAmount(magnitude, minorUnit, field).negated();
}

/** The amount rounded to the currency's minor unit with the given mode. */
export function roundMoney(amount: Decimal, minorUnit: number, mode: RoundingMode): Decimal {
  return new Decimal(amount).toDecimalPlaces(minorUnit, ROUNDING[mode]);
}

/**
 * The amount as a string with exactly `minorUnit` decimals: "100.00" for USD,
 * "3700" for UGX (never a decimal point when the minor unit is 0). An amount with
 * more decimals is rounded half-up; services round explicitly before this.
 */
export function formatAmount(amount: Decimal, minorUnit: number): string {
  return new Decimal(amount).toFixed(minorUnit, DecimalJs.ROUND_HALF_UP);
}

/**
 * A decimal for a JSON field the spec types as a number (the collection record's
 * amount): the number, when its shortest form reads back as the same decimal, which
 * holds for every amount in the domain (MAX_SIGNIFICANT_DIGITS). Never throws: a
 * value outside the domain (only a row stored before the domain was enforced) is
 * written as its exact decimal string, so no row can break a read or a list.
 */
export function toJsonMoney(amount: Decimal): number | string {
  const text = amount.toFixed();
  const n = Number(text);
  // The shortest form reading back as the same text is the common case, and needs no Decimal.
  if (String(n) === text) return n;
  return Number.isFinite(n) && new Decimal(String(n)).eq(amount) ? n : text;
}
