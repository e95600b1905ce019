/*
 * What the hosted checkout's pages show (issue 37): the views the checkout service builds and the
 * page renderer (src/transport/checkout/) turns into HTML. Plain data, no I/O: the renderer is pure.
 */

/** The ways a payer pays on the page, in the order the page offers them (mobile money first). */
export const CHECKOUT_METHODS = ['momo', 'card', 'bank_transfer'] as const;
export type CheckoutMethod = (typeof CHECKOUT_METHODS)[number];

/** The page's two languages. */
export type CheckoutLanguage = 'en' | 'fr';

export type CheckoutSessionStatus = 'open' | 'complete' | 'expired';

/** A mobile money network the payer may choose (the country's momo networks). */
export interface NetworkChoice {
  /** The network's code, as routes name it: "MTN", "VODAFONE", "AIRTEL", "MPESA"… */
  code: string;
  name: string;
}

/** The account a bank-transfer attempt is paid into. */
interface BankDetails {
  accountName: string;
  accountNumber: string;
  bankName: string;
  bankCode: string;
}

/** One payment attempt of a session: the transaction the payer started on the page. */
export interface CheckoutAttemptView {
  /** The transaction's reference (pay_…). */
  reference: string;
  method: CheckoutMethod;
  status: 'initiating' | 'processing' | 'requires_action' | 'successful' | 'failed' | 'expired';
  /** Why it failed, as the transaction says it (insufficient_funds, authentication_failed, pin_required…). */
  failureReason: string | null;
  /** A page the payer must visit (3-D Secure, a provider's approval page), when there is one. */
  nextActionUrl: string | null;
  /** Card: the card's brand and last four digits. */
  cardBrand: string | null;
  cardLast4: string | null;
  /** Mobile money: the wallet's number as the payer sees it (national form). */
  phone: string | null;
  /**
   * Mobile money: the network's code (as `networks` names it) the request went to, when the service
   * knows it. Optional: without it the page predicts the network from the number's prefix.
   */
  network?: string | null;
  /** Bank transfer: where to pay, and until when. */
  bankDetails: BankDetails | null;
  expiresAt: Date | null;
}

/** Everything a checkout page shows about its session. */
export interface CheckoutPageView {
  id: string;
  status: CheckoutSessionStatus;
  merchantName: string;
  /** Where this service serves the merchant's logo (`/checkout/logos/{sha256}`), if it uploaded one: an <img> from our own origin, never a script. */
  merchantLogoPath: string | null;
  /** Origins the merchant allows to frame the page (the routes' frame-ancestors); none: never framed. */
  embedOrigins?: readonly string[];
  /** With exactly its currency's decimals: "2500.00", "3700". */
  amount: string;
  currency: string;
  /** The merchant's country (the payer's, for these domestic methods). */
  countryCode: string;
  description: string | null;
  /** What the session allows and the country, currency and configured connectors can carry, in page order. */
  methods: CheckoutMethod[];
  /** Mobile money networks of the country (empty without momo). */
  networks: NetworkChoice[];
  customer: { email: string; phone: string | null; name: string | null };
  /** Back to the merchant: after success (`redirectUrl`), or when the payer gives up (`cancelUrl`). */
  redirectUrl: string;
  cancelUrl: string | null;
  expiresAt: Date;
  /** The latest attempt, if the payer started one. */
  attempt: CheckoutAttemptView | null;
}

/** A payment link's landing page (`/pay/{slug}`) before a session is opened. */
export interface PaymentLinkPageView {
  slug: string;
  state: 'active' | 'inactive' | 'expired' | 'used_up';
  name: string;
  merchantName: string;
  /** As CheckoutPageView's. */
  merchantLogoPath: string | null;
  /** The merchant's country (the page's language when the payer's browser prefers neither English nor French). */
  countryCode: string | null;
  description: string | null;
  currency: string;
  /** Fixed amount ("2500.00"), or null when the payer chooses within the bounds. */
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  /** What the payer must give on the landing page (the link's `collect`). */
  collect: Array<'email' | 'phone' | 'name'>;
}
