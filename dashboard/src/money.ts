/**
 * Decimal amounts as the API sends them: strings with the currency's decimals ("1000000.00",
 * "3700"). Sums and differences are exact (BigInt of the smallest unit), never floating point;
 * only a chart's bar heights go through Number.
 */

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** How many decimals a decimal string has ("12.50": 2, "3700": 0). */
export const decimalsOf = (value: string) => (value.includes('.') ? value.length - value.indexOf('.') - 1 : 0);

/** A decimal string as an integer count of 10^-scale units. */
function units(value: string, scale: number): bigint {
  if (!DECIMAL.test(value)) throw new Error(`Not a decimal: ${value}`);
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.');
  const n = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -n : n;
}

function decimal(n: bigint, scale: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

const scaleOf = (values: string[]) => Math.max(0, ...values.map(decimalsOf));

/** The exact sum, with as many decimals as the most precise term. */
export function sum(values: string[], scale = scaleOf(values)): string {
  return decimal(
    values.reduce((total, v) => total + units(v, scale), 0n),
    scale,
  );
}

/** a − b, exactly. */
export function minus(a: string, b: string): string {
  const scale = scaleOf([a, b]);
  return decimal(units(a, scale) - units(b, scale), scale);
}

/** −1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: string, b: string): number {
  const scale = scaleOf([a, b]);
  const d = units(a, scale) - units(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export const isZero = (value: string) => compare(value, '0') === 0;

/** For display: thousands grouped, decimals kept as sent ("1000000.00" → "1,000,000.00"). */
export function formatAmount(value: string | null | undefined): string {
  if (value == null || !DECIMAL.test(value)) return value ?? '—';
  const negative = value.startsWith('-');
  const [whole = '0', fraction] = value.replace(/^-/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** An amount and its currency, for display ("2,500.00 NGN"). */
export const inCurrency = (value: string | null | undefined, currency: string | null | undefined) =>
  value == null ? '—' : `${formatAmount(value)} ${currency ?? ''}`.trim();
