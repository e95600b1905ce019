import plansFile from '../../src/shared/data/numbering-plans.json';
import { AppError } from '../../src/shared/errors';
import {
  expectedForm,
  msisdn,
  nationalNumber,
  numberingPlan,
  readNumberingPlans,
  requireNationalNumber,
  type NumberingPlan,
} from '../../src/shared/phone-numbers';
import { readReferenceData } from '../../src/modules/reference/reference.data';

/** CONTRACT §6a: one phone-number rule, the national significant number, for customers and wallets alike. */

const plan = (dialCode: string): NumberingPlan => {
  const found = numberingPlan(dialCode);
  if (!found) throw new Error(`no plan for ${dialCode}`);
  return found;
};
const read = (dialCode: string, input: string) => nationalNumber(input, plan(dialCode));

describe('nationalNumber: what is accepted becomes the national number', () => {
  it.each([
    // Kenya (+254, trunk prefix 0): the issue's forms are one number.
    ['+254', '712345678', '712345678'],
    ['+254', '0712345678', '712345678'],
    ['+254', '254712345678', '712345678'],
    ['+254', '254711111111', '711111111'],
    ['+254', '+254712345678', '712345678'],
    ['+254', '+254 712 345 678', '712345678'],
    ['+254', '+254-712-345-678', '712345678'],
    ['+254', '+254 (0) 712 345 678', '712345678'],
    ['+254', '(0712) 345.678', '712345678'],
    ['+254', ' 0712 345 678 ', '712345678'],
    ['+254', '254 712345678', '712345678'],
    // A national number that starts with the dial code's digits stays whole: removing them would leave too few.
    ['+254', '254123456', '254123456'],
    ['+254', '0254123456', '254123456'],
    ['+254', '254254123456', '254123456'],
    // South Africa (+27): area code 27 (Namaqualand) begins with the dial code's digits.
    ['+27', '271234567', '271234567'],
    ['+27', '0271234567', '271234567'],
    ['+27', '27271234567', '271234567'],
    ['+27', '+27 27 123 4567', '271234567'],
    ['+27', '27821234567', '821234567'],
    // Côte d'Ivoire, Benin, Congo, Gabon: no trunk prefix; the leading 0 is part of the number and stays.
    ['+225', '0701234567', '0701234567'],
    ['+225', '2250701234567', '0701234567'],
    ['+225', '+225 07 01 23 45 67', '0701234567'],
    ['+229', '0195123456', '0195123456'],
    ['+229', '+229 01 95 12 34 56', '0195123456'],
    ['+242', '061234567', '061234567'],
    ['+242', '242061234567', '061234567'],
    ['+241', '06031234', '06031234'],
    // Others.
    ['+233', '0241234567', '241234567'],
    ['+233', '233241234567', '241234567'],
    ['+256', '0772123456', '772123456'],
    ['+256', '256752120009', '752120009'],
    ['+234', '08021234567', '8021234567'],
    ['+234', '+234 802 123 4567', '8021234567'],
    ['+221', '221771234567', '771234567'],
    ['+221', '771234567', '771234567'],
    ['+237', '237671234567', '671234567'],
    ['+44', '07400123456', '7400123456'],
    ['+44', '+44 (0)7400 123456', '7400123456'],
    ['+44', '447400123456', '7400123456'],
    // The United States: dial code 1 and trunk prefix 1.
    ['+1', '2015550123', '2015550123'],
    ['+1', '12015550123', '2015550123'],
    ['+1', '+1 (201) 555-0123', '2015550123'],
  ])('%s %j → %s', (dialCode, input, expected) => {
    expect(read(dialCode, input)).toEqual({ ok: true, number: expected });
  });

  it.each([
    ['+254', '', 'not_digits'],
    ['+254', '+', 'not_digits'],
    ['+254', 'abc', 'not_digits'],
    ['+254', '0712X45678', 'not_digits'],
    ['+254', '++254712345678', 'not_digits'],
    ['+254', '254+712345678', 'not_digits'],
    ['+254', '٠٧١٢٣٤٥٦٧٨', 'not_digits'],
    ['+254', '+256712345678', 'other_country'],
    ['+254', '+1 2015550123', 'other_country'],
    ['+254', '71234567890', 'length'],
    ['+254', '07123', 'length'],
    ['+254', '2547123456789', 'length'],
    // "00" is not read as an international prefix (CONTRACT §6a).
    ['+254', '00254712345678', 'length'],
    ['+254', '00712345678', 'length'],
    ['+225', '701234567', 'length'],
    ['+229', '97123456', 'length'],
    ['+221', '0771234567', 'length'],
    ['+1', '1202555012', 'length'],
    ['+27', '2727123456', 'length'],
  ])('%s %j is refused: %s', (dialCode, input, problem) => {
    expect(read(dialCode, input)).toEqual({ ok: false, problem });
  });

  it('every served country: its example, with the dial code (with or without +) and with the trunk prefix, is one number', () => {
    const { countries } = readReferenceData();
    expect(countries).toHaveLength(22);
    for (const country of countries) {
      const p = plan(country.dialCode);
      const forms = [p.example, `+${p.callingCode}${p.example}`, `${p.callingCode}${p.example}`, `${country.dialCode} ${p.example}`];
      if (p.trunkPrefix) forms.push(`${p.trunkPrefix}${p.example}`, `+${p.callingCode} (${p.trunkPrefix}) ${p.example}`);
      for (const form of forms)
        expect({ country: country.code, form, read: nationalNumber(form, p) }).toEqual({ country: country.code, form, read: { ok: true, number: p.example } });
    }
  });
});

describe('msisdn: what a provider receives', () => {
  /** The connectors' MSISDN before the rule (src/providers/connector.ts until issue 24), for the documented forms. */
  const before = (dialCode: string, accountNumber: string): string => {
    const code = dialCode.replace(/\D/g, '');
    const digits = accountNumber.replace(/\D/g, '');
    if (digits.startsWith(code) && digits.length >= code.length + 8) return digits;
    return `${code}${new Set(['+225', '+229', '+242']).has(dialCode) ? digits : digits.replace(/^0/, '')}`;
  };

  it.each([
    ['+254', '712345678'],
    ['+254', '0712345678'],
    ['+254', '254712345678'],
    ['+254', '254711111111'],
    ['+254', '254712345000'],
    ['+233', '0241234567'],
    ['+233', '241234567'],
    ['+233', '0240000009'],
    ['+256', '0772123456'],
    ['+256', '256752120009'],
    ['+256', '0752123456'],
    ['+221', '221771234567'],
    ['+225', '0701234567'],
    ['+229', '0195123456'],
    ['+242', '061234567'],
    ['+250', '0720123456'],
    ['+260', '0955123456'],
    ['+237', '671234567'],
    ['+234', '08021234567'],
  ])('%s %s: the stored national number gives the MSISDN the raw form gave', (dialCode, input) => {
    const stored = read(dialCode, input);
    if (!stored.ok) throw new Error(`${input} should be read`);
    expect(msisdn(dialCode, stored.number)).toBe(before(dialCode, input));
    expect(msisdn(dialCode, input)).toBe(before(dialCode, input));
  });

  it('Gabon keeps the 0 of its numbers (E.164 +241 06 03 12 34), which the old rule dropped', () => {
    expect(msisdn('+241', '06031234')).toBe('24106031234');
  });

  it('a number stored before the rule that it cannot read is sent as then: dial code once, no trunk prefix', () => {
    expect(msisdn('+254', '07123456789')).toBe('2547123456789');
    expect(msisdn('+254', '2547123456789')).toBe('2547123456789');
  });
});

describe('requireNationalNumber: the refusal names the field and the form', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof AppError) return { code: err.code, details: err.details };
      throw err;
    }
    throw new Error('expected a refusal');
  };

  it('returns the national number', () => {
    expect(requireNationalNumber('+254 712 345 678', '+254', 'phoneNumber', 'phone')).toBe('712345678');
  });

  it.each([
    ['0712X45678', 'wallet', 'must be the wallet’s phone number, digits only'],
    ['0712X45678', 'phone', 'must be a phone number, digits only'],
    ['071234567890', 'wallet', 'must be the national number: 7 to 9 digits without the dial code (+254) or a leading 0, e.g. 712345678'],
    [
      '+256712345678',
      'phone',
      'is not a +254 number; it must be the national number: 7 to 9 digits without the dial code (+254) or a leading 0, e.g. 712345678',
    ],
  ] as const)('%s (%s) → %s', (input, kind, issue) => {
    expect(refusal(() => requireNationalNumber(input, '+254', 'accountNumber', kind))).toEqual({
      code: 'INVALID_REQUEST',
      details: [{ field: 'accountNumber', issue }],
    });
  });

  it('says the form of each kind of plan', () => {
    expect(expectedForm(plan('+233'))).toBe('9 digits without the dial code (+233) or a leading 0, e.g. 241234567');
    expect(expectedForm(plan('+225'))).toBe('10 digits without the dial code (+225), e.g. 0701234567');
    expect(expectedForm(plan('+44'))).toBe('9 or 10 digits without the dial code (+44) or a leading 0, e.g. 7400123456');
    expect(expectedForm(plan('+1'))).toBe('10 digits without the dial code (+1) or a leading 1, e.g. 2015550123');
  });
});

describe('readNumberingPlans: a plan that would misread numbers stops the service', () => {
  const entry = { dial_code: '+254', trunk_prefix: '0', lengths: [9], example: '712345678' };

  it('reads the bundled file, one plan per served dial code', () => {
    expect(readNumberingPlans(plansFile.plans).size).toBe(22);
  });

  it.each([
    [
      'a dial code of 1 and numbers of 10 and 11 digits (ambiguous)',
      { ...entry, dial_code: '+1', trunk_prefix: null, lengths: [10, 11], example: '2015550123' },
      /ambiguous/,
    ],
    ['an example the plan cannot read', { ...entry, example: '0712345678' }, /example/],
    ['a malformed dial code', { ...entry, dial_code: '254' }, /dial_code/],
    ['a length beyond E.164', { ...entry, lengths: [13] }, /E\.164/],
    ['a malformed trunk prefix', { ...entry, trunk_prefix: 'O' }, /trunk_prefix/],
  ])('refuses %s', (_what, bad, message) => {
    expect(() => readNumberingPlans([bad])).toThrow(message);
  });

  it('refuses a dial code listed twice', () => {
    expect(() => readNumberingPlans([entry, entry])).toThrow(/twice/);
  });
});
