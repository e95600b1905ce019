import { luhnCard } from '../helpers/payments';
import {
  CARD_BRANDS,
  checkCard,
  cvcLengthFor,
  detectBrand,
  expiryYear,
  normalizeCardNumber,
  validLengthFor,
  type CardBrand,
  type CardInput,
} from '../../src/modules/transactions/kinds/payment/card.rules';
import { AppError } from '../../src/shared/errors';

const card = luhnCard;

const utc = (iso: string) => new Date(iso);

describe('the card() helper of these tests', () => {
  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '4222222222222'])(
    'reproduces the check digit of the published test number %s',
    (pan) => {
      expect(card(pan.slice(0, -1), pan.length)).toBe(pan);
    },
  );
});

describe('normalizeCardNumber', () => {
  it.each([
    ['4242424242424242', '4242424242424242'],
    ['4242 4242 4242 4242', '4242424242424242'],
    ['4242-4242-4242-4242', '4242424242424242'],
    ['4242 4242-4242 4242', '4242424242424242'],
    ['3782 822463 10005', '378282246310005'],
    [' 4242424242424242 ', '4242424242424242'],
    ['424242424242', '424242424242'], // 12 digits: the shortest ISO/IEC 7812 number
    ['4000000000000000006', '4000000000000000006'], // 19 digits: the longest
  ])('reads %p as %p', (raw, digits) => {
    expect(normalizeCardNumber(raw)).toBe(digits);
  });

  it.each([
    ['', 'empty'],
    ['    ', 'only spaces'],
    ['----', 'only dashes'],
    ['42424242424', '11 digits'],
    ['42424242424242424242', '20 digits'],
    ['4242.4242.4242.4242', 'dots'],
    ['4242/4242/4242/4242', 'slashes'],
    ['4242\t4242\t4242\t4242', 'tabs'],
    ['4242\n4242\n4242\n4242', 'newlines'],
    ['4242424242424242\n', 'a trailing newline'],
    ['4242424242424242a', 'a letter'],
    ['+4242424242424242', 'a plus sign'],
    ['4242_4242_4242_4242', 'underscores'],
    ['４２４２４２４２４２４２４２４２', 'full-width digits'],
    ['٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢', 'Arabic-Indic digits'],
  ])('rejects %p (%s)', (raw) => {
    expect(normalizeCardNumber(raw)).toBeNull();
  });
});

describe('detectBrand', () => {
  it.each<[string, string, CardBrand]>([
    // Visa: anything starting with 4
    ['4', 'Visa', 'visa'],
    ['40', 'Visa', 'visa'],
    ['49', 'Visa', 'visa'],
    // Mastercard 51–55
    ['50', 'below 51', 'unknown'],
    ['51', 'Mastercard low edge', 'mastercard'],
    ['53', 'Mastercard', 'mastercard'],
    ['55', 'Mastercard high edge', 'mastercard'],
    ['56', 'above 55', 'unknown'],
    // Mastercard 2221–2720
    ['2220', 'below 2221', 'unknown'],
    ['2221', 'Mastercard 2-series low edge', 'mastercard'],
    ['2300', 'Mastercard 2-series', 'mastercard'],
    ['2720', 'Mastercard 2-series high edge', 'mastercard'],
    ['2721', 'above 2720', 'unknown'],
    ['2', 'a lone 2', 'unknown'],
    // Amex 34 and 37
    ['33', 'below 34', 'unknown'],
    ['34', 'Amex', 'amex'],
    ['35', 'between (JCB)', 'unknown'],
    ['36', 'between (Diners)', 'unknown'],
    ['37', 'Amex', 'amex'],
    ['38', 'above 37', 'unknown'],
    // Verve 506099–506198
    ['506098', 'below Verve', 'unknown'],
    ['506099', 'Verve low edge', 'verve'],
    ['506146', 'Verve', 'verve'],
    ['506198', 'Verve high edge', 'verve'],
    ['506199', 'above Verve', 'unknown'],
    // Verve 507865–507964
    ['507864', 'below Verve', 'unknown'],
    ['507865', 'Verve low edge', 'verve'],
    ['507964', 'Verve high edge', 'verve'],
    ['507965', 'above Verve', 'unknown'],
    // Verve 650002–650027 sits inside Discover's 65: Verve wins, Discover on either side
    ['650001', 'Discover just below Verve', 'discover'],
    ['650002', 'Verve low edge', 'verve'],
    ['650027', 'Verve high edge', 'verve'],
    ['650028', 'Discover just above Verve', 'discover'],
    // Discover 6011, 644–649, 65
    ['6011', 'Discover', 'discover'],
    ['6010', 'not 6011', 'unknown'],
    ['6012', 'not 6011', 'unknown'],
    ['643', 'below 644', 'unknown'],
    ['644', 'Discover 644', 'discover'],
    ['649', 'Discover 649', 'discover'],
    ['65', 'Discover 65', 'discover'],
    ['659999', 'Discover 65 high', 'discover'],
    ['66', 'above 65', 'unknown'],
    ['62', 'UnionPay', 'unknown'],
    // Nothing assigned here
    ['0', 'zero', 'unknown'],
    ['1', 'one', 'unknown'],
    ['3', 'three', 'unknown'],
    ['7', 'seven', 'unknown'],
    ['8', 'eight', 'unknown'],
    ['9', 'nine', 'unknown'],
  ])('a 16-digit number starting %s (%s) is %s', (prefix, _why, brand) => {
    expect(detectBrand(card(prefix, 16))).toBe(brand);
  });

  it.each<[string, CardBrand]>([
    ['4242424242424242', 'visa'],
    ['4111111111111111', 'visa'],
    ['4012888888881881', 'visa'],
    ['4222222222222', 'visa'],
    ['4000002500003155', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['340000000000009', 'amex'],
    ['6011111111111117', 'discover'],
    ['6011000990139424', 'discover'],
    ['6445644564456445', 'discover'],
    ['5061460410120223210', 'verve'],
    ['5060990580000217499', 'verve'],
    ['3566002020360505', 'unknown'], // JCB
    ['36227206271667', 'unknown'], // Diners Club
    ['6200000000000005', 'unknown'], // UnionPay
  ])('the published test number %s is %s', (pan, brand) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it('only ever answers one of CARD_BRANDS', () => {
    for (let p = 0; p < 1000; p++) {
      expect(CARD_BRANDS).toContain(detectBrand(card(String(p).padStart(3, '0'), 16)));
    }
  });
});

describe('validLengthFor', () => {
  const lengths: Record<CardBrand, number[]> = {
    visa: [13, 16, 19],
    mastercard: [16],
    amex: [15],
    verve: [16, 18, 19],
    discover: [16, 19],
    unknown: [12, 13, 14, 15, 16, 17, 18, 19],
  };
  const cases = CARD_BRANDS.flatMap((brand) =>
    [11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((length) => [brand, length, lengths[brand].includes(length)] as const),
  );

  it('covers every brand', () => {
    expect(Object.keys(lengths).sort()).toEqual([...CARD_BRANDS].sort());
  });

  it.each(cases)('%s with %i digits: %p', (brand, length, valid) => {
    expect(validLengthFor(brand, '4'.repeat(length))).toBe(valid);
  });
});

describe('cvcLengthFor', () => {
  it.each<[CardBrand, 3 | 4]>([
    ['amex', 4],
    ['visa', 3],
    ['mastercard', 3],
    ['verve', 3],
    ['discover', 3],
    ['unknown', 3],
  ])('%s: %i digits', (brand, length) => {
    expect(cvcLengthFor(brand)).toBe(length);
  });
});

describe('expiryYear', () => {
  describe('now = 15 June 2025, noon UTC', () => {
    const now = utc('2025-06-15T12:00:00Z');

    it.each<[string, number, number, number | null]>([
      ['this month', 6, 2025, 2025],
      ['this month, 2-digit year', 6, 25, 2025],
      ['last month', 5, 2025, null],
      ['last month, 2-digit year', 5, 25, null],
      ['January this year', 1, 2025, null],
      ['next month', 7, 2025, 2025],
      ['December this year', 12, 2025, 2025],
      ['January next year', 1, 2026, 2026],
      ['2-digit next year', 1, 26, 2026],
      ['2-digit 00 = 2000', 12, 0, null],
      ['2-digit 09 = 2009', 12, 9, null],
      ['last year', 12, 2024, null],
      ['20 years ahead', 1, 2045, 2045],
      ['20 years ahead, December', 12, 2045, 2045],
      ['20 years ahead, 2-digit', 12, 45, 2045],
      ['21 years ahead', 1, 2046, null],
      ['21 years ahead, 2-digit', 1, 46, null],
      ['2099 (far future)', 12, 2099, null],
      ['2-digit 99 = 2099 (far future)', 12, 99, null],
      ['2100', 1, 2100, null],
      ['a 3-digit year', 1, 125, null],
      ['1999', 12, 1999, null],
      ['a negative year', 1, -1, null],
      ['year 0 is 2000', 1, 0, null],
      ['a fractional year', 1, 2026.5, null],
      ['a NaN year', 1, Number.NaN, null],
      ['an infinite year', 1, Number.POSITIVE_INFINITY, null],
      ['month 0', 0, 2026, null],
      ['month 13', 13, 2026, null],
      ['month -1', -1, 2026, null],
      ['month 1.5', 1.5, 2026, null],
      ['a NaN month', Number.NaN, 2026, null],
      ['an infinite month', Number.POSITIVE_INFINITY, 2026, null],
    ])('%s (%p/%p) → %p', (_why, month, year, expected) => {
      expect(expiryYear(month, year, now)).toBe(expected);
    });
  });

  describe('the card is valid through the last instant of its month, in UTC', () => {
    it.each<[string, Date, number | null]>([
      ['the first instant of the month', utc('2025-06-01T00:00:00.000Z'), 2025],
      ['the last instant of the month', utc('2025-06-30T23:59:59.999Z'), 2025],
      ['the first instant of the next month', utc('2025-07-01T00:00:00.000Z'), null],
      // 1 July 00:30 in UTC+2 is still 30 June in UTC
      ['1 July 00:30 at UTC+2', new Date('2025-07-01T00:30:00+02:00'), 2025],
      // 30 June 23:30 in UTC-5 is already 1 July in UTC
      ['30 June 23:30 at UTC-5', new Date('2025-06-30T23:30:00-05:00'), null],
    ])('a 06/2025 card at %s: %p', (_why, now, expected) => {
      expect(expiryYear(6, 2025, now)).toBe(expected);
      expect(expiryYear(6, 25, now)).toBe(expected);
    });
  });

  describe('December → January rollover', () => {
    it.each<[string, Date, number, number, number | null]>([
      ['31 Dec: 12/2025 still valid', utc('2025-12-31T23:59:59.999Z'), 12, 2025, 2025],
      ['31 Dec: 12/25 still valid', utc('2025-12-31T23:59:59.999Z'), 12, 25, 2025],
      ['31 Dec: 11/2025 expired', utc('2025-12-31T23:59:59.999Z'), 11, 2025, null],
      ['31 Dec: 01/2026 valid', utc('2025-12-31T23:59:59.999Z'), 1, 2026, 2026],
      ['1 Jan: 12/2025 expired', utc('2026-01-01T00:00:00.000Z'), 12, 2025, null],
      ['1 Jan: 12/25 expired', utc('2026-01-01T00:00:00.000Z'), 12, 25, null],
      ['1 Jan: 01/2026 valid', utc('2026-01-01T00:00:00.000Z'), 1, 2026, 2026],
      ['1 Jan: 01/26 valid', utc('2026-01-01T00:00:00.000Z'), 1, 26, 2026],
      ['1 Jan: 12/2046 (20 years ahead) valid', utc('2026-01-01T00:00:00.000Z'), 12, 2046, 2046],
      ['1 Jan: 01/2047 (21 years ahead) refused', utc('2026-01-01T00:00:00.000Z'), 1, 2047, null],
    ])('%s', (_why, now, month, year, expected) => {
      expect(expiryYear(month, year, now)).toBe(expected);
    });
  });

  describe('the last years a 2-digit year can name (2000–2099)', () => {
    const now = utc('2080-03-01T00:00:00Z');
    it.each<[number, number, number | null]>([
      [12, 2099, 2099],
      [12, 99, 2099],
      [1, 2100, null],
      [12, 80, 2080],
      [2, 80, null],
    ])('in March 2080, %p/%p → %p', (month, year, expected) => {
      expect(expiryYear(month, year, now)).toBe(expected);
    });
  });
});

describe('checkCard', () => {
  const now = utc('2025-06-15T12:00:00Z');
  const visa: CardInput = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2027, cvc: '987' };

  function rejection(input: CardInput): AppError {
    try {
      checkCard(input, now);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return err as AppError;
    }
    throw new Error('expected checkCard to throw INVALID_REQUEST');
  }

  describe('accepts a good card', () => {
    it.each<[string, string, CardBrand, string]>([
      ['4242 4242 4242 4242', '4242424242424242', 'visa', '987'],
      ['4242-4242-4242-4242', '4242424242424242', 'visa', '987'],
      ['4222222222222', '4222222222222', 'visa', '987'],
      ['4000000000000000006', '4000000000000000006', 'visa', '987'],
      ['5555555555554444', '5555555555554444', 'mastercard', '987'],
      ['2223003122003222', '2223003122003222', 'mastercard', '987'],
      ['3782 822463 10005', '378282246310005', 'amex', '9876'],
      ['6011111111111117', '6011111111111117', 'discover', '987'],
      ['5061460410120223210', '5061460410120223210', 'verve', '987'],
      ['3566002020360505', '3566002020360505', 'unknown', '987'],
    ])('%s (%s, %s)', (number, digits, brand, cvc) => {
      expect(checkCard({ number, expMonth: 12, expYear: 2027, cvc }, now)).toEqual({
        digits,
        brand,
        last4: digits.slice(-4),
        expMonth: 12,
        expYear: 2027,
        cvc,
        postalCode: null,
      });
    });

    it('turns a 2-digit year into 4 digits', () => {
      expect(checkCard({ ...visa, expMonth: 1, expYear: 27 }, now)).toMatchObject({ expMonth: 1, expYear: 2027 });
    });

    it('accepts the current month', () => {
      expect(checkCard({ ...visa, expMonth: 6, expYear: 2025 }, now)).toMatchObject({ expMonth: 6, expYear: 2025 });
    });

    it.each([
      [undefined, null],
      [null, null],
      ['SW1A 1AA', 'SW1A 1AA'],
      ['100001', '100001'],
    ])('keeps postalCode %p as %p', (postal, expected) => {
      expect(checkCard({ ...visa, postalCode: postal }, now).postalCode).toBe(expected);
    });
  });

  const issues = {
    digits: 'must be 12 to 19 digits',
    luhn: 'is not a valid card number (it fails the Luhn check)',
    month: 'must be a month from 1 to 12',
    expiry: 'with the expiry month must be a future expiry: the card has expired or the year is not valid',
  };

  const rejected: Array<[string, Partial<CardInput>, string, string]> = [
    // card.number
    ['letters', { number: 'abcdabcdabcdabcd' }, 'number', issues.digits],
    ['empty number', { number: '' }, 'number', issues.digits],
    ['11 digits', { number: card('4', 11) }, 'number', issues.digits],
    ['20 digits', { number: card('4', 20) }, 'number', issues.digits],
    ['dots between groups', { number: '4242.4242.4242.4242' }, 'number', issues.digits],
    ['a Luhn failure', { number: '4242424242424241' }, 'number', issues.luhn],
    ['a Luhn failure, grouped', { number: '4242 4242 4242 4243' }, 'number', issues.luhn],
    ['a transposition', { number: '2424424242424242' }, 'number', issues.luhn],
    ['15-digit Visa', { number: card('4', 15) }, 'number', 'has 15 digits, a length Visa cards do not have'],
    ['14-digit Visa', { number: card('4', 14) }, 'number', 'has 14 digits, a length Visa cards do not have'],
    ['12-digit Visa', { number: card('4', 12) }, 'number', 'has 12 digits, a length Visa cards do not have'],
    ['19-digit Mastercard', { number: card('5555', 19) }, 'number', 'has 19 digits, a length Mastercard cards do not have'],
    ['15-digit Mastercard', { number: card('2221', 15) }, 'number', 'has 15 digits, a length Mastercard cards do not have'],
    ['16-digit Amex', { number: card('37', 16) }, 'number', 'has 16 digits, a length American Express cards do not have'],
    ['14-digit Amex', { number: card('34', 14) }, 'number', 'has 14 digits, a length American Express cards do not have'],
    ['17-digit Verve', { number: card('506099', 17) }, 'number', 'has 17 digits, a length Verve cards do not have'],
    ['15-digit Discover', { number: card('6011', 15) }, 'number', 'has 15 digits, a length Discover cards do not have'],
    // card.expMonth
    ['month 0', { expMonth: 0 }, 'expMonth', issues.month],
    ['month 13', { expMonth: 13 }, 'expMonth', issues.month],
    ['month -1', { expMonth: -1 }, 'expMonth', issues.month],
    ['month 1.5', { expMonth: 1.5 }, 'expMonth', issues.month],
    ['month NaN', { expMonth: Number.NaN }, 'expMonth', issues.month],
    // card.expYear
    ['last month', { expMonth: 5, expYear: 2025 }, 'expYear', issues.expiry],
    ['last month, 2-digit', { expMonth: 5, expYear: 25 }, 'expYear', issues.expiry],
    ['last year', { expMonth: 12, expYear: 2024 }, 'expYear', issues.expiry],
    ['last year, 2-digit', { expMonth: 12, expYear: 24 }, 'expYear', issues.expiry],
    ['21 years ahead', { expMonth: 1, expYear: 2046 }, 'expYear', issues.expiry],
    ['2099', { expMonth: 1, expYear: 2099 }, 'expYear', issues.expiry],
    ['2100', { expMonth: 1, expYear: 2100 }, 'expYear', issues.expiry],
    ['1999', { expMonth: 1, expYear: 1999 }, 'expYear', issues.expiry],
    ['a 3-digit year', { expMonth: 1, expYear: 202 }, 'expYear', issues.expiry],
    ['a fractional year', { expMonth: 1, expYear: 2026.5 }, 'expYear', issues.expiry],
    // card.cvc
    ['a 2-digit Visa CVC', { cvc: '98' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a 4-digit Visa CVC', { cvc: '9876' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['an empty CVC', { cvc: '' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a CVC with a letter', { cvc: '98a' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a CVC with a space', { cvc: ' 98' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a CVC with a sign', { cvc: '-98' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a CVC of full-width digits', { cvc: '９８７' }, 'cvc', 'must be 3 digits for Visa cards'],
    ['a 3-digit Amex CVC', { number: '378282246310005', cvc: '987' }, 'cvc', 'must be 4 digits for American Express cards'],
    ['a 5-digit Amex CVC', { number: '378282246310005', cvc: '98765' }, 'cvc', 'must be 4 digits for American Express cards'],
    ['a 4-digit Mastercard CVC', { number: '5555555555554444', cvc: '9876' }, 'cvc', 'must be 3 digits for Mastercard cards'],
    ['a 4-digit Verve CVC', { number: '5061460410120223210', cvc: '9876' }, 'cvc', 'must be 3 digits for Verve cards'],
    ['a 4-digit Discover CVC', { number: '6011111111111117', cvc: '9876' }, 'cvc', 'must be 3 digits for Discover cards'],
    ['a 4-digit CVC on an unknown brand', { number: '3566002020360505', cvc: '9876' }, 'cvc', 'must be 3 digits for cards of this kind'],
  ];

  describe.each(rejected)('rejects %s', (_why, change, field, issue) => {
    const input: CardInput = { ...visa, ...change };

    it(`as INVALID_REQUEST (400) on card.${field}: "${issue}"`, () => {
      const err = rejection(input);
      expect(err.code).toBe('INVALID_REQUEST');
      expect(err.httpStatus).toBe(400);
      expect(err.message).toBe(`card.${field} ${issue}`);
      expect(err.details).toEqual([{ field: `card.${field}`, issue }]);
    });

    it('without the number, the CVC or the expiry in the message or details', () => {
      const err = rejection(input);
      const said = [err.message, JSON.stringify(err.details), JSON.stringify(err)].join('\n');
      const digits = input.number.replace(/\D/g, '');
      if (input.number.trim()) expect(said).not.toContain(input.number);
      if (digits.length >= 4) {
        expect(said).not.toContain(digits);
        expect(said).not.toContain(digits.slice(-4));
        expect(said).not.toContain(digits.slice(0, 6));
      }
      if (input.cvc.trim().length >= 2) expect(said).not.toContain(input.cvc);
      // No run of 4 or more digits at all: no number, no last four, no CVC, no year.
      expect(said).not.toMatch(/\d{4,}/);
    });
  });

  describe('checks in order: number, then expiry month, then expiry, then CVC', () => {
    it.each<[string, CardInput, string]>([
      ['a bad number beats everything', { number: '4242424242424241', expMonth: 13, expYear: 1999, cvc: '' }, 'card.number'],
      ['a bad length beats everything after it', { number: card('4', 15), expMonth: 13, expYear: 1999, cvc: '' }, 'card.number'],
      ['a bad month beats a bad year and CVC', { ...visa, expMonth: 13, expYear: 1999, cvc: '' }, 'card.expMonth'],
      ['a bad expiry beats a bad CVC', { ...visa, expYear: 1999, cvc: '' }, 'card.expYear'],
      ['the CVC comes last', { ...visa, cvc: '' }, 'card.cvc'],
    ])('%s', (_why, input, field) => {
      expect(rejection(input).details).toEqual([expect.objectContaining({ field })]);
    });
  });
});
