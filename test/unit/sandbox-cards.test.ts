import { checkCard } from '../../src/modules/transactions/kinds/payment/card.rules';
import { SANDBOX_TEST_CARDS, sandboxCardBehaviour, type SandboxCardBehaviour } from '../../src/providers/sandbox/sandbox-cards';
import { luhnValid } from '../../src/shared/card-numbers';

const NOT_SUPPORTED: SandboxCardBehaviour = { outcome: 'failed', reason: 'card_not_supported_in_sandbox' };

const TEST_CARDS: Array<[string, SandboxCardBehaviour]> = [
  ['4242424242424242', { outcome: 'successful' }],
  ['4000002500003155', { outcome: 'requires_action' }],
  ['4000000000009995', { outcome: 'failed', reason: 'insufficient_funds' }],
  ['4000000000005126', { outcome: 'successful', refundsFail: true }],
  ['4000000000000259', { outcome: 'successful', disputed: true }],
];

describe('sandbox test cards', () => {
  it('are exactly the five documented cards', () => {
    expect(Object.keys(SANDBOX_TEST_CARDS).sort()).toEqual(TEST_CARDS.map(([n]) => n).sort());
  });

  it.each(TEST_CARDS)('%s behaves as documented', (number, behaviour) => {
    expect(sandboxCardBehaviour(number)).toEqual(behaviour);
    expect(SANDBOX_TEST_CARDS[number]).toEqual(behaviour);
  });

  it.each(TEST_CARDS)('%s is a card the API accepts (Luhn-valid 16-digit Visa), so a merchant can actually send it', (number) => {
    expect(luhnValid(number)).toBe(true);
    const checked = checkCard({ number, expMonth: 12, expYear: 2030, cvc: '123' }, new Date('2025-06-15T00:00:00Z'));
    expect(checked).toMatchObject({ digits: number, brand: 'visa', last4: number.slice(-4) });
  });

  it.each([
    ['4111111111111111', 'another Visa test number'],
    ['5555555555554444', 'a Mastercard test number'],
    ['378282246310005', 'an Amex test number'],
    ['6011111111111117', 'a Discover test number'],
    ['5061460410120223210', 'a Verve test number'],
    ['4242424242424241', 'a near miss of the successful card'],
    ['424242424242424', 'the successful card missing a digit'],
    ['42424242424242420', 'the successful card with a digit more'],
    ['4000002500003156', 'a near miss of the 3-D Secure card'],
    ['4000000000009996', 'a near miss of the insufficient-funds card'],
    ['', 'an empty string'],
  ])('declines %s (%s) as card_not_supported_in_sandbox', (number) => {
    expect(sandboxCardBehaviour(number)).toEqual(NOT_SUPPORTED);
  });

  it.each(['4242 4242 4242 4242', '4242-4242-4242-4242', ' 4242424242424242'])(
    'matches digits only: %p is not the successful card (the service passes checkCard().digits)',
    (number) => {
      expect(sandboxCardBehaviour(number)).toEqual(NOT_SUPPORTED);
    },
  );

  /** Names of Object.prototype's properties are not test cards either. */
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('declines %p like any other non-test number', (number) => {
    expect(sandboxCardBehaviour(number)).toEqual(NOT_SUPPORTED);
  });
});
