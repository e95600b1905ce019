import * as crypto from '../../src/shared/crypto';
import { newTransactionReference } from '../../src/modules/transactions/lifecycle.service';
import { containsCardNumber } from '../../src/shared/card-numbers';
import { referenceField } from '../../src/shared/fields';

/**
 * A service reference never holds 13 digits in a row: one that did could read as a card number (refused when a merchant
 * quotes it as its own reference, redacted in the logs). A CI run met one: `col_…` reused as a merchant reference was a 400.
 */
describe('service references', () => {
  afterEach(() => jest.restoreAllMocks());

  it('draws again when the bytes would spell 13 digits in a row (here a Luhn-valid card number)', () => {
    // 4242424242424242 is a card number: hex "4242424242424242…" would be a reference a merchant could not reuse.
    const cardLike = Buffer.from('4242424242424242aaaaaaaa', 'hex');
    const fine = Buffer.from('019ad0f3c4e2a1b2c3d4e5f6', 'hex');
    const draw = jest.spyOn(crypto, 'timeOrderedBytes').mockReturnValueOnce(cardLike).mockReturnValueOnce(fine);
    expect(containsCardNumber(`col_${cardLike.toString('hex')}`)).toBe(true);
    expect(newTransactionReference('col')).toBe('col_019ad0f3c4e2a1b2c3d4e5f6');
    expect(draw).toHaveBeenCalledTimes(2);
  });

  it('every reference drawn is a valid merchant reference (no run of 13 digits), over many draws', () => {
    for (let i = 0; i < 20_000; i++) {
      const reference = newTransactionReference('col');
      expect(/\d{13}/.test(reference)).toBe(false);
      if (i % 1000 === 0) expect(referenceField.safeParse(reference).success).toBe(true);
    }
  });
});
