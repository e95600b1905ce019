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

/** Digits before the decimal point an amount may have: far above any channel bound, well inside numeric columns. */
export const MAX_INTEGER_DIGITS = 15;

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

const invalid = AppError.invalidField;

/**
 * Reads a positive amount in a currency with `minorUnit` decimals (ISO 4217
 * exponent). Accepts a plain decimal string ("100", "100.5", "100.50"), a JS
 * number (read by its shortest string form, so 100.1 is "100.1", not its binary
 * expansion) or a Decimal. Refuses NaN, Infinity, exponent notation, signs, zero,
 * and more decimals than the currency has (judged on the value: "100.500" is
 * 100.5 and fine for USD). Throws INVALID_REQUEST naming `field`.
 */
export function parseAmount(value: unknown, minorUnit: number, field = 'amount'): Decimal {
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
  if (amount.decimalPlaces() > minorUnit) {
    throw invalid(field, minorUnit === 0 ? 'must be a whole number in this currency' : `must have at most ${minorUnit} decimal places`);
  }
  if (amount.trunc().toFixed().length > MAX_INTEGER_DIGITS) throw invalid(field, `must be less than 10^${MAX_INTEGER_DIGITS}`);
  return amount;
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
 * A decimal as a JSON number, for the fields the spec types as numbers (the
 * collection record's amount). Exact: channel bounds keep amounts far inside the
 * 15 significant digits a double carries, and this refuses any value whose
 * shortest number form would not read back as the same decimal.
 */
export function toJsonNumber(amount: Decimal): number {
  const n = Number(amount.toFixed());
  if (!Number.isFinite(n) || !new Decimal(String(n)).eq(amount)) {
    throw new Error(`${amount.toFixed()} cannot be carried exactly as a JSON number`);
  }
  return n;
}
