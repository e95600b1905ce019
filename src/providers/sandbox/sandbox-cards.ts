/**
 * The sandbox's test cards (CONTRACT §7), a table like the settlement rules:
 * any future expiry, any CVC of the brand's length and any postal code.
 */
export type SandboxCardBehaviour =
  { outcome: 'successful'; refundsFail?: boolean; disputed?: boolean } | { outcome: 'requires_action' } | { outcome: 'failed'; reason: string };

export const SANDBOX_TEST_CARDS: Readonly<Record<string, SandboxCardBehaviour>> = {
  /** Succeeds without authentication. */
  '4242424242424242': { outcome: 'successful' },
  /** Requires 3-D Secure: the cardholder completes or fails it on the sandbox's page. */
  '4000002500003155': { outcome: 'requires_action' },
  /** Succeeds; every refund of it fails (refund_declined), as a processor's refund can. */
  '4000000000005126': { outcome: 'successful', refundsFail: true },
  /** Succeeds, then is always disputed (issue 39): a chargeback (`fraudulent`) opens within a run of the dispute sweep. Stripe's number for the same. */
  '4000000000000259': { outcome: 'successful', disputed: true },
  /** Declined: insufficient funds. */
  '4000000000009995': { outcome: 'failed', reason: 'insufficient_funds' },
};

/** Any other (Luhn-valid) number is declined: the sandbox never charges a real card. */
export function sandboxCardBehaviour(cardNumber: string): SandboxCardBehaviour {
  return Object.hasOwn(SANDBOX_TEST_CARDS, cardNumber) ? SANDBOX_TEST_CARDS[cardNumber]! : { outcome: 'failed', reason: 'card_not_supported_in_sandbox' };
}
