import fc from 'fast-check';
import { mayHaveInexactNumber, parseExactNumbers } from '../../src/transport/exact-json';

/**
 * Issue 18: JSON.parse reads `1500.000000000000000000000000000001` as 1500. The doors read
 * JSON with exact numbers: one a double cannot carry stays its text, for its field to refuse.
 */
describe('exact JSON numbers', () => {
  it('keeps a number a double cannot carry as its literal text', () => {
    expect(parseExactNumbers('{"amount":1500.000000000000000000000000000001}')).toEqual({ amount: '1500.000000000000000000000000000001' });
    expect(parseExactNumbers('{"amount":99999999999999.99}')).toEqual({ amount: '99999999999999.99' });
    expect(parseExactNumbers('[12345678901234567890]')).toEqual(['12345678901234567890']);
    expect(parseExactNumbers('{"a":{"b":[1, 0.1000000000000000000001]}}')).toEqual({ a: { b: [1, '0.1000000000000000000001'] } });
  });

  it('reads every number a double carries exactly as that number', () => {
    expect(parseExactNumbers('{"amount":9999999999999.99,"n":1.5e2,"z":0,"neg":-42.5}')).toEqual({ amount: 9999999999999.99, n: 150, z: 0, neg: -42.5 });
  });

  it('looks twice only at a text with a long number literal', () => {
    expect(mayHaveInexactNumber('{"amount":1500.000000000000000000000000000001}')).toBe(true);
    expect(mayHaveInexactNumber('{"amount": \n 12345678901234567}')).toBe(true);
    expect(mayHaveInexactNumber('[1,2,12345678901234567]')).toBe(true);
    expect(mayHaveInexactNumber('12345678901234567')).toBe(true);
    // A card number in a string is not a number literal.
    expect(mayHaveInexactNumber('{"amount":"2500.00","card":{"number":"4242424242424242"}}')).toBe(false);
    expect(mayHaveInexactNumber('{"amount":2500.5,"exp_year":2030}')).toBe(false);
  });

  it('never misses a literal JSON.parse would round: the scan finds every inexact one', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const plain: unknown = JSON.parse(text);
        const exact = parseExactNumbers(text);
        // Where the exact reading differs, the scan must have flagged the text.
        if (JSON.stringify(plain) !== JSON.stringify(exact)) expect(mayHaveInexactNumber(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^-?[1-9]\d{0,25}(\.\d{1,25})?$/), (literal) => {
        const text = `{"amount":${literal}}`;
        const exact = parseExactNumbers(text) as { amount: number | string };
        if (typeof exact.amount === 'string') expect(mayHaveInexactNumber(text)).toBe(true);
        else expect(String(exact.amount) === literal || Number(literal) === exact.amount).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
