import { CHECKOUT_STRINGS, chooseLanguage, failureMessage } from '../../src/transport/checkout/checkout-i18n';

describe('chooseLanguage', () => {
  it.each([
    // Accept-Language decides between en and fr, by quality, then by order.
    ['fr-FR,fr;q=0.9,en;q=0.8', 'GH', 'fr'],
    ['en-US,en;q=0.9', 'SN', 'en'],
    ['en;q=0.5,fr;q=0.6', 'KE', 'fr'],
    ['fr;q=0.4, en;q=0.7', 'CI', 'en'],
    ['fr-CI', null, 'fr'],
    ['EN-gb', 'CM', 'en'],
    ['en, fr', 'CI', 'en'],
    ['fr, en', 'GH', 'fr'],
    ['de-DE,de;q=0.9,fr;q=0.3', 'GH', 'fr'],
    ['sw-KE,sw;q=0.9,en;q=0.1', 'TZ', 'en'],
    // q=0 means "not acceptable".
    ['fr;q=0, en;q=0', 'CI', 'fr'],
    ['fr;q=0', 'GH', 'en'],
    ['en;q=0, fr;q=0.2', 'GH', 'fr'],
    // No preference between en and fr: the country decides.
    [undefined, 'CI', 'fr'],
    [undefined, 'SN', 'fr'],
    [undefined, 'cm', 'fr'],
    [undefined, 'NE', 'fr'],
    [undefined, 'GH', 'en'],
    [undefined, 'KE', 'en'],
    [undefined, null, 'en'],
    ['', 'BJ', 'fr'],
    ['*', 'TG', 'fr'],
    ['de,es;q=0.5', 'ML', 'fr'],
    ['de,es;q=0.5', 'NG', 'en'],
    ['garbage;;;q=x,,', 'BF', 'fr'],
    ['en;q=abc', 'CD', 'en'],
  ])('%p in %p → %p', (header, country, expected) => {
    expect(chooseLanguage(header, country)).toBe(expected);
  });

  it('every francophone country of the brief reads French without a browser preference', () => {
    for (const c of ['BJ', 'BF', 'CM', 'CI', 'CD', 'CG', 'GA', 'ML', 'SN', 'TG']) expect(chooseLanguage(undefined, c)).toBe('fr');
    for (const c of ['GH', 'KE', 'UG', 'TZ', 'RW', 'ZM', 'NG', 'ZA', 'MW']) expect(chooseLanguage(undefined, c)).toBe('en');
  });

  it('a very long header is cut, not a cost', () => {
    expect(chooseLanguage('x;q=0.1,'.repeat(10_000) + 'fr', 'GH')).toBe('en');
  });
});

describe('the strings', () => {
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('French has every English string, with the same placeholders, and none is empty', () => {
    const en = CHECKOUT_STRINGS.en;
    const fr = CHECKOUT_STRINGS.fr;
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(en[key].trim()).not.toBe('');
      expect(fr[key].trim()).not.toBe('');
      expect({ key, placeholders: placeholders(fr[key]) }).toEqual({ key, placeholders: placeholders(en[key]) });
    }
  });
});

describe('failureMessage', () => {
  it.each([
    ['insufficient_funds', 'not enough money'],
    ['card_declined', 'declined'],
    ['authentication_failed', 'could not confirm'],
    ['authentication_expired', 'too long'],
    ['pin_required', 'Your card needs its PIN: enter the card again with its PIN'],
    ['incorrect_pin', 'did not accept the PIN'],
    ['address_required', 'billing address'],
    ['not_paid_before_expiry', 'did not arrive'],
    ['timeout', 'not approved in time'],
    ['processing_error', 'went wrong'],
  ])('%p says %p', (reason, words) => {
    expect(failureMessage(reason, 'en')).toContain(words);
    expect(failureMessage(reason, 'fr')).not.toBe(failureMessage(null, 'fr'));
  });

  it('any other reason, or none, reads as a generic sentence', () => {
    for (const reason of [null, 'something_new', 'constructor', '__proto__', 'toString']) {
      expect(failureMessage(reason, 'en')).toBe('The payment was not completed.');
      expect(failureMessage(reason, 'fr')).toBe('Le paiement n’a pas abouti.');
    }
  });
});
