import { AppError } from '../../src/shared/errors';
import fc from 'fast-check';
import { Decimal, MAX_SIGNIFICANT_DIGITS, formatAmount, maxAmount, parseAmount, parseSignedAmount, roundMoney, toJsonMoney } from '../../src/shared/money';

function rejection(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an INVALID_REQUEST');
}

describe('Decimal', () => {
  it('is exact where binary floats are not', () => {
    expect(new Decimal('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(new Decimal('1.15').times(100).toFixed()).toBe('115');
  });

  it('carries at least 40 significant digits and never switches to exponent notation', () => {
    expect(Decimal.precision).toBeGreaterThanOrEqual(40);
    expect(new Decimal(1).div(3).toFixed()).toBe(`0.${'3'.repeat(40)}`);
    expect(new Decimal('0.00000001').toString()).toBe('0.00000001');
    expect(new Decimal('123456789012345678901234').toString()).toBe('123456789012345678901234');
  });
});

describe('parseAmount', () => {
  it.each([
    ['100', 2, '100'],
    ['100.5', 2, '100.5'],
    ['100.50', 2, '100.5'],
    ['0.01', 2, '0.01'],
    ['3700', 0, '3700'],
    ['3700.00', 0, '3700'],
    ['100.500', 2, '100.5'],
    [' 42 ', 2, '42'],
    ['007', 2, '7'],
  ])('accepts the string %p (minor unit %p) as %s', (input, minorUnit, expected) => {
    expect(parseAmount(input, minorUnit).toFixed()).toBe(expected);
  });

  it('reads a JS number by its shortest string form, not its binary value', () => {
    expect(parseAmount(100.1, 2).toFixed()).toBe('100.1');
    expect(parseAmount(0.1, 2).toFixed()).toBe('0.1');
    expect(parseAmount(1234567.89, 2).toFixed()).toBe('1234567.89');
    expect(parseAmount(3700, 0).toFixed()).toBe('3700');
  });

  it('accepts a Decimal', () => {
    expect(parseAmount(new Decimal('12.34'), 2).toFixed()).toBe('12.34');
  });

  it.each([
    [undefined, 'is required'],
    [null, 'is required'],
    ['', 'is required'],
    ['0', 'must be greater than 0'],
    ['0.00', 'must be greater than 0'],
    [0, 'must be greater than 0'],
    ['-5', 'must be greater than 0'],
    [-5, 'must be greater than 0'],
    ['-0.5', 'must be greater than 0'],
    [Number.NaN, 'must be a finite number'],
    [Number.POSITIVE_INFINITY, 'must be a finite number'],
    ['NaN', 'must be a finite number'],
    ['Infinity', 'must be a finite number'],
    ['-Infinity', 'must be a finite number'],
    [new Decimal(Number.NaN), 'must be a finite number'],
    ['1e3', 'must not use exponent notation'],
    ['1E+3', 'must not use exponent notation'],
    [1e21, 'must not use exponent notation'],
    ['abc', 'must be a decimal number, e.g. "100.50"'],
    ['1,000', 'must be a decimal number, e.g. "100.50"'],
    ['.5', 'must be a decimal number, e.g. "100.50"'],
    ['5.', 'must be a decimal number, e.g. "100.50"'],
    ['+5', 'must be a decimal number, e.g. "100.50"'],
    ['0x10', 'must be a decimal number, e.g. "100.50"'],
    [true, 'must be a decimal number, e.g. "100.50"'],
    [{ value: 1 }, 'must be a decimal number, e.g. "100.50"'],
    [['1'], 'must be a decimal number, e.g. "100.50"'],
    ['10000000000000', 'must be at most 9999999999999.99'],
    ['99999999999999.99', 'must be at most 9999999999999.99'],
  ])('refuses %p: %s', (input, issue) => {
    const err = rejection(() => parseAmount(input, 2));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual([{ field: 'amount', issue }]);
  });

  it('refuses more decimals than the currency has', () => {
    expect(rejection(() => parseAmount('100.505', 2)).details).toEqual([{ field: 'amount', issue: 'must have at most 2 decimal places' }]);
    expect(rejection(() => parseAmount(100.505, 2)).details).toEqual([{ field: 'amount', issue: 'must have at most 2 decimal places' }]);
    expect(rejection(() => parseAmount('3700.5', 0)).details).toEqual([{ field: 'amount', issue: 'must be a whole number in this currency' }]);
  });

  it('names the field it was given', () => {
    expect(rejection(() => parseAmount('x', 2, 'min_amount')).details).toEqual([{ field: 'min_amount', issue: 'must be a decimal number, e.g. "100.50"' }]);
  });
});

describe('parseAmount and parseSignedAmount: signs and whitespace (issue 34)', () => {
  it('an amount takes no sign and no notation other than plain digits; whitespace around it is trimmed', () => {
    for (const text of ['+5', '--5', '- 5', '5e2', '0x10', '5-', '−5', '5 0']) {
      expect(rejection(() => parseAmount(text, 2)).details).toEqual([{ field: 'amount', issue: expect.any(String) }]);
    }
    expect(parseAmount(' 5', 2).toFixed()).toBe('5');
    expect(parseAmount('5 ', 2).toFixed()).toBe('5');
  });

  it('a signed amount takes one leading minus against its digits, and nothing else', () => {
    expect(parseSignedAmount('-250.00', 2).toFixed()).toBe('-250');
    expect(parseSignedAmount('  -5 ', 0).toFixed()).toBe('-5');
    expect(parseSignedAmount('250.5', 2).toFixed()).toBe('250.5');
    expect(parseSignedAmount(-7, 0).toFixed()).toBe('-7');
    for (const value of ['- 5', '--5', '-+5', '+5', '-', '- 5.00', '-5e2', '-0x10', '-0', '-1.234', '−5', -0, Number.NaN]) {
      expect(rejection(() => parseSignedAmount(value, 2)).details).toEqual([{ field: 'amount', issue: expect.any(String) }]);
    }
  });
});

describe('roundMoney', () => {
  it.each([
    ['1.005', 2, 'half_up', '1.01'],
    ['1.004', 2, 'half_up', '1'],
    ['1.009', 2, 'down', '1'],
    ['1.001', 2, 'up', '1.01'],
    ['1.005', 2, 'half_even', '1'],
    ['1.015', 2, 'half_even', '1.02'],
    ['3700.9', 0, 'down', '3700'],
    ['3700.5', 0, 'half_up', '3701'],
  ] as const)('rounds %s to %i decimals %s: %s', (value, minorUnit, mode, expected) => {
    expect(roundMoney(new Decimal(value), minorUnit, mode).toFixed()).toBe(expected);
  });
});

describe('formatAmount', () => {
  it('shows exactly the minor unit of decimals', () => {
    expect(formatAmount(new Decimal('100'), 2)).toBe('100.00');
    expect(formatAmount(new Decimal('100.5'), 2)).toBe('100.50');
    expect(formatAmount(new Decimal('0.01'), 2)).toBe('0.01');
    expect(formatAmount(new Decimal('12345678901234.56'), 2)).toBe('12345678901234.56');
  });

  it('never shows a decimal point for a currency without minor units', () => {
    expect(formatAmount(new Decimal('3700'), 0)).toBe('3700');
    expect(formatAmount(new Decimal('3700.00'), 0)).toBe('3700');
  });

  it('rounds an unrounded amount half-up', () => {
    expect(formatAmount(new Decimal('1.005'), 2)).toBe('1.01');
    expect(formatAmount(new Decimal('3700.5'), 0)).toBe('3701');
  });
});

/**
 * Issue 18: an amount the service accepts must be writable, exactly, in every answer and
 * event. The spec types amounts as JSON numbers, so the domain is what a double carries
 * digit for digit: 15 significant digits, counting the currency's decimals.
 */
describe('the amount domain', () => {
  /** Any amount of the domain in a currency of `minorUnit` decimals, spread over every magnitude (1 to 15 digits). */
  const domainAmount = (minorUnit: number) =>
    fc
      .integer({ min: 1, max: MAX_SIGNIFICANT_DIGITS })
      .chain((digits) => fc.bigInt({ min: 10n ** BigInt(digits - 1), max: 10n ** BigInt(digits) - 1n }))
      .map((units) => new Decimal(units.toString()).div(new Decimal(10).pow(minorUnit)));

  it('has its largest amount at 15 significant digits', () => {
    expect(maxAmount(2).toFixed(2)).toBe('9999999999999.99');
    expect(maxAmount(0).toFixed(0)).toBe('999999999999999');
    expect(maxAmount(3).toFixed(3)).toBe('999999999999.999');
  });

  it.each([0, 2, 3])('accepted → serializable → round-trips exactly, over the whole range (minor unit %i)', (minorUnit) => {
    fc.assert(
      fc.property(domainAmount(minorUnit), fc.boolean(), (amount, asNumber) => {
        const text = amount.toFixed(minorUnit);
        // However it arrives: as exact text, or as the JSON number a client sends.
        const accepted = parseAmount(asNumber ? Number(text) : text, minorUnit);
        expect(accepted.eq(amount)).toBe(true);
        const written = toJsonMoney(accepted);
        expect(typeof written).toBe('number');
        const read = JSON.parse(JSON.stringify({ amount: written })).amount as number;
        expect(new Decimal(String(read)).eq(amount)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([0, 2])('refuses every amount above the domain (minor unit %i)', (minorUnit) => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 20n }), (extra) => {
        const above = maxAmount(minorUnit).plus(new Decimal(extra.toString()).div(new Decimal(10).pow(minorUnit)));
        expect(() => parseAmount(above.toFixed(minorUnit), minorUnit)).toThrow(AppError);
      }),
      { numRuns: 500 },
    );
  });

  it('writes a stored value outside the domain as its exact text, never throwing (a row from before the rule)', () => {
    expect(toJsonMoney(new Decimal('99999999999999.99'))).toBe('99999999999999.99');
    expect(toJsonMoney(new Decimal('1500.000000000000000000000000000001'))).toBe('1500.000000000000000000000000000001');
    expect(toJsonMoney(new Decimal('9999999999999.99'))).toBe(9999999999999.99);
    expect(toJsonMoney(new Decimal('2500'))).toBe(2500);
  });
});
