import { containsCardNumber, findCardNumbers, luhnValid, redactCardNumbers } from '../../src/shared/card-numbers';
import { luhnCard } from '../helpers/payments';

const card = luhnCard;

const REDACTED = '[card number redacted]';

/** Published test numbers of each brand: all pass Luhn. */
const PUBLISHED: Array<[string, string]> = [
  ['Visa', '4242424242424242'],
  ['Visa', '4111111111111111'],
  ['Visa', '4012888888881881'],
  ['Visa (13 digits)', '4222222222222'],
  ['Visa', '4000056655665556'],
  ['Visa (3-D Secure)', '4000002500003155'],
  ['Visa (insufficient funds)', '4000000000009995'],
  ['Visa (19 digits)', '4000000000000000006'],
  ['Mastercard', '5555555555554444'],
  ['Mastercard', '5105105105105100'],
  ['Mastercard', '5200828282828210'],
  ['Mastercard 2-series', '2223003122003222'],
  ['Mastercard 2-series', '2221000000000009'],
  ['Amex', '378282246310005'],
  ['Amex', '371449635398431'],
  ['Amex', '378734493671000'],
  ['Discover', '6011111111111117'],
  ['Discover', '6011000990139424'],
  ['Discover', '6445644564456445'],
  ['Verve (19 digits)', '5061460410120223210'],
  ['Verve (19 digits)', '5060990580000217499'],
  ['JCB', '3566002020360505'],
  ['Diners Club (14 digits)', '36227206271667'],
  ['UnionPay', '6200000000000005'],
];

describe('luhnValid', () => {
  it.each(PUBLISHED)('passes the published %s number %s', (_brand, pan) => {
    expect(luhnValid(pan)).toBe(true);
  });

  it.each(PUBLISHED)('fails the %s number %s with its check digit changed', (_brand, pan) => {
    const wrong = pan.slice(0, -1) + String((Number(pan.at(-1)) + 1) % 10);
    expect(luhnValid(wrong)).toBe(false);
  });

  it.each([
    ['0', true],
    ['00', true],
    ['0000000000000000', true],
    ['18', true],
    ['59', true],
    ['79927398713', true], // the textbook example
    ['79927398710', false],
    ['79927398711', false],
    ['1', false],
    ['4242424242424241', false],
    ['1234567812345678', false],
    ['1234567812345670', true],
  ])('%p: %p', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });

  it('catches every single-digit error in 4242424242424242', () => {
    const pan = '4242424242424242';
    for (let i = 0; i < pan.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === pan[i]) continue;
        const typo = pan.slice(0, i) + d + pan.slice(i + 1);
        expect([typo, luhnValid(typo)]).toEqual([typo, false]);
      }
    }
  });

  it('catches every swap of two adjacent different digits except 09 ↔ 90', () => {
    const pan = '5105105105105100';
    for (let i = 0; i + 1 < pan.length; i++) {
      const [a, b] = [pan[i]!, pan[i + 1]!];
      if (a === b || `${a}${b}` === '09' || `${a}${b}` === '90') continue;
      const swapped = pan.slice(0, i) + b + a + pan.slice(i + 2);
      expect([swapped, luhnValid(swapped)]).toEqual([swapped, false]);
    }
  });

  it.each([
    ['', 'empty'],
    ['4242 4242 4242 4242', 'spaces'],
    ['4242-4242-4242-4242', 'dashes'],
    ['-4242424242424242', 'a sign'],
    ['424242424242424.2', 'a decimal point'],
    ['abcdefghijklmnop', 'letters'],
    ['４２４２４２４２４２４２４２４２', 'full-width digits'],
    ['4242424242424242\n', 'a trailing newline'],
  ])('is false for %p (%s), never an error', (text) => {
    expect(luhnValid(text)).toBe(false);
  });
});

describe('findCardNumbers', () => {
  it.each(PUBLISHED.filter(([, pan]) => pan.length >= 13))('finds the bare %s number %s', (_brand, pan) => {
    expect(findCardNumbers(pan)).toEqual([pan]);
  });

  it.each<[string, string, string[]]>([
    ['in JSON', JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2027, cvc: '123' } }), ['4242424242424242']],
    ['in JSON as a number', '{"card":{"number":5555555555554444}}', ['5555555555554444']],
    ['in a log line', 'level=30 time=2025-06-15T12:00:00.000Z msg="charge failed" pan=378282246310005 amount=2500.00', ['378282246310005']],
    ['in a pino JSON line', '{"level":50,"time":1718452800000,"req":{"body":"number=6011111111111117&cvc=123"}}', ['6011111111111117']],
    ['in an error message', 'Int cannot represent non-integer value: "4000002500003155"', ['4000002500003155']],
    ['against letters', 'card4242424242424242x', ['4242424242424242']],
    ['at the start and end', '4242424242424242 and 5555555555554444', ['4242424242424242', '5555555555554444']],
    ['in a URL', '/v1/payments?card=4111111111111111&x=1', ['4111111111111111']],
    ['13 digits', 'n=4222222222222;', ['4222222222222']],
    ['19 digits', 'n=4000000000000000006;', ['4000000000000000006']],
    ['several, in order', 'a 4242424242424242 b 378282246310005 c 4242424242424242', ['4242424242424242', '378282246310005', '4242424242424242']],
  ])('finds a number %s', (_where, text, found) => {
    expect(findCardNumbers(text)).toEqual(found);
  });

  it.each<[string, string]>([
    ['an empty text', ''],
    ['a text without digits', 'no card here'],
    ['a 12-digit Luhn-valid run', `phone ${card('2547', 12)}`],
    ['a 12-digit mobile money number', 'msisdn=254712345678'],
    ['a 20-digit Luhn-valid run', `ref ${card('4242', 20)}`],
    ['a 21-digit run containing a card number', '424242424242424242424'],
    ['a card number with a digit on both sides', `1${'4242424242424242'}5`],
    ['a 17-digit non-Luhn run starting with a digit and then a card number', `7${'4242424242424242'}`],
    ['a 17-digit non-Luhn run made of a card number and then a digit', `${'4242424242424242'}7`],
    ['a 20-digit run ending in a 19-digit card number', `9${card('4242', 19)}`],
    ['a 20-digit run starting with a 19-digit card number', `${card('4242', 19)}9`],
    ['a non-Luhn 16-digit run', 'pan=4242424242424241'],
    ['a non-Luhn 13-digit run', 'n=4222222222223'],
    ['a non-Luhn 19-digit run', 'n=4000000000000000007'],
    ['a UUID', 'txn 123e4567-e89b-12d3-a456-426614174000'],
    ['a UUID of digits', '12345678-1234-1234-1234-123456789012'],
    ['an ISO timestamp', '2025-06-15T12:34:56.789Z'],
    ['an ISO timestamp with offset', '2025-06-15T12:34:56.789+01:00'],
    ['an amount', '4242424242.42 NGN'],
    ['grouped digits (findCardNumbers looks for contiguous runs)', '4242 4242 4242 4242'],
  ])('finds nothing in %s', (_what, text) => {
    expect(findCardNumbers(text)).toEqual([]);
  });

  it('cross-checks: the 12- and 20-digit runs above are Luhn-valid, so only their length excludes them', () => {
    expect(luhnValid(card('2547', 12))).toBe(true);
    expect(luhnValid(card('4242', 20))).toBe(true);
    expect(findCardNumbers(card('2547', 13))).toEqual([card('2547', 13)]);
    expect(findCardNumbers(card('4242', 19))).toEqual([card('4242', 19)]);
  });

  it('cross-checks: the runs above that embed a card number fail Luhn as a whole, so only maximal runs are judged', () => {
    expect(luhnValid('74242424242424242')).toBe(false);
    expect(luhnValid('42424242424242427')).toBe(false);
    expect(luhnValid('142424242424242425')).toBe(false);
  });
});

describe('redactCardNumbers', () => {
  it.each<[string, string]>([
    ['4242424242424242', REDACTED],
    ['4242 4242 4242 4242', REDACTED],
    ['4242-4242-4242-4242', REDACTED],
    ['4242 4242-4242 4242', REDACTED],
    ['3782 822463 10005', REDACTED], // Amex 4-6-5
    ['3782-822463-10005', REDACTED],
    ['4222 2222 22222', REDACTED], // 13 digits
    ['4000 0000 0000 0000 006', REDACTED], // 19 digits
    ['5061 4604 1012 0223 210', REDACTED], // Verve, 19 digits
    ['4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2', REDACTED],
    ['card 4242 4242 4242 4242, exp 12/27', `card ${REDACTED}, exp 12/27`],
    ['"number":"5555-5555-5555-4444"', `"number":"${REDACTED}"`],
    ['x4242424242424242y', `x${REDACTED}y`],
    ['Int cannot represent non-integer value: "4242 4242 4242 4242"', `Int cannot represent non-integer value: "${REDACTED}"`],
    ['4242 4242 4242 4242 1234', `${REDACTED} 1234`],
    ['a 4242 4242 4242 4242 b 3782 822463 10005 c', `a ${REDACTED} b ${REDACTED} c`],
  ])('redacts %p', (text, expected) => {
    expect(redactCardNumbers(text)).toBe(expected);
  });

  it.each<[string, string]>([
    ['an empty text', ''],
    ['a text without digits', 'nothing to see'],
    ['a non-Luhn grouped number', '4242 4242 4242 4241'],
    ['a non-Luhn dashed number', '4242-4242-4242-4241'],
    ['a 12-digit grouped number', '4242 4242 4242'],
    ['a 12-digit mobile money number', '+254 712 345 678'],
    ['a 20-digit Luhn-valid run', card('4242', 20)],
    ['a UUID', '123e4567-e89b-12d3-a456-426614174000'],
    ['an ISO timestamp', '2025-06-15T12:34:56.789Z'],
    ['a date and time', '2025-06-15 12:34:56'],
    ['an amount', 'amount 2500.00 NGN'],
    ['an expiry and CVC', 'exp 12/27 cvc 123'],
  ])('leaves %s unchanged', (_what, text) => {
    expect(redactCardNumbers(text)).toBe(text);
  });

  it('leaves nothing findCardNumbers would find', () => {
    const texts = [
      ...PUBLISHED.map(([, pan]) => `log pan=${pan} done`),
      JSON.stringify({ a: '4242424242424242', b: ['5555 5555 5555 4444', '378282246310005'] }),
      '4242424242424242\n4242-4242-4242-4242\n4242 4242 4242 4242',
    ];
    for (const text of texts) expect([text, findCardNumbers(redactCardNumbers(text))]).toEqual([text, []]);
  });

  /**
   * A card number with another number one space or dash away (a CVC, an expiry,
   * a quantity) forms a longer run that fails Luhn as a whole; the card number in
   * it must still be cut.
   */
  describe('a card number next to another number', () => {
    it.each([
      ['4242424242424242 123', '4242424242424242'],
      ['4242 4242 4242 4242 12', '4242424242424242'],
      ['card 4242-4242-4242-4242-12/25', '4242424242424242'],
      ['qty 1 4242424242424242', '4242424242424242'],
      ['order 12 4242 4242 4242 4242', '4242424242424242'],
      ['5555 5555 5555 4444 123', '5555555555554444'],
      ['378282246310005 1234', '378282246310005'],
    ])('%p', (text, pan) => {
      const out = redactCardNumbers(text);
      expect(out).toContain(REDACTED);
      expect(out.replace(/[ -]/g, '')).not.toContain(pan);
    });
  });
});

/** Issue 18, point 4: stored free text refuses a card number, and only a card number. */
describe('containsCardNumber', () => {
  it.each([
    'card 4242424242424242',
    '4242424242424242',
    'ref4242424242424242x',
    '4242 4242 4242 4242',
    '4242-4242-4242-4242',
    'order-5555-5555-5555-4444',
    'amex 3782 822463 10005',
    luhnCard('4', 13),
    luhnCard('6', 19),
    luhnCard('2221', 16),
  ])('finds a card number in %p', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    ['a Luhn-invalid number', '4242424242424241'],
    ['12 digits', luhnCard('4', 12)],
    ['20 digits', luhnCard('4', 20)],
    ['a time in milliseconds (no card network starts with 1)', luhnCard('1764036000', 13)],
    ['a timestamped reference', `pay-34567-${luhnCard('1764', 13)}-1`],
    ['dates and order numbers in groups that are not a card’s', '2026-11-25-4242-4242-42'],
    ['a phone number', '+254 711 111 111'],
    ['short text', 'Order 1001'],
  ])('finds none in %s', (_what, text) => {
    expect(containsCardNumber(text)).toBe(false);
  });
});
