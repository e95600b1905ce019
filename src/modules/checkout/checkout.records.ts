import { z } from 'zod';
import { toJsonMoney, type Decimal } from '../../shared/money';
import { currency, money, record, timestamp, type RecordOf } from '../../shared/records';
import { CHECKOUT_METHODS, type CheckoutMethod, type CheckoutSessionStatus } from './checkout.views';

/*
 * The checkout module's records (issue 37): a session and a payment link as the store reads them, and
 * as REST, the webhook payloads (`checkout.session.*`) and GraphQL show them. REST's serializers are here
 * (the webhook payload is the session's REST record, so the module writes it); GraphQL maps the same
 * domain records (transport/graphql/checkout/).
 */

export interface CheckoutCustomer {
  email: string;
  phone: string | null;
  name: string | null;
}

/** A checkout session as stored (`checkout_session`), with its successful payment's reference when it has one. */
export interface CheckoutSession {
  id: string;
  merchantId: string;
  status: CheckoutSessionStatus;
  amount: Decimal;
  currency: string;
  reference: string;
  customer: CheckoutCustomer;
  /** What the merchant allowed; null: every method available. */
  paymentMethods: CheckoutMethod[] | null;
  redirectUrl: string;
  cancelUrl: string | null;
  metadata: Record<string, string> | null;
  /** What the page and the payments say it is for. */
  description: string | null;
  paymentLinkId: string | null;
  attempts: number;
  transactionId: string | null;
  /** The successful payment's `pay_…` reference (joined from the transaction). */
  paymentReference: string | null;
  /** The page's address (PUBLIC_BASE_URL/checkout/{id}). */
  url: string;
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
  expiredAt: Date | null;
}

export const LINK_COLLECT = ['email', 'phone', 'name'] as const;
export type LinkCollect = (typeof LINK_COLLECT)[number];

/** A payment link as stored (`payment_link`). */
export interface PaymentLink {
  id: string;
  merchantId: string;
  slug: string;
  name: string;
  /** Fixed; null: the payer chooses within min/max. */
  amount: Decimal | null;
  currency: string;
  description: string | null;
  paymentMethods: CheckoutMethod[] | null;
  collect: LinkCollect[];
  minAmount: Decimal | null;
  maxAmount: Decimal | null;
  maxPayments: number | null;
  /** Its completed sessions. */
  paymentsCount: number;
  expiresAt: Date | null;
  redirectUrl: string | null;
  active: boolean;
  createdAt: Date;
  deactivatedAt: Date | null;
  /** PUBLIC_BASE_URL/pay/{slug}. */
  url: string;
}

const methods = z.array(z.enum(CHECKOUT_METHODS));
const orNull = <T extends z.ZodType>(s: T) => s.nullable();

export const CheckoutSessionRecord = record(
  'CheckoutSession',
  z.object({
    id: z.string().describe('`cs_…`: the page’s key, unguessable'),
    object: z.literal('checkout.session'),
    url: z.string().describe('The hosted page to send the payer to'),
    status: z.enum(['open', 'complete', 'expired']),
    amount: money,
    currency,
    reference: z.string().describe('Yours; each payment attempt’s reference is it with `-1`, `-2`… added'),
    customer: z.object({ email: z.string(), phone: orNull(z.string()), name: orNull(z.string()) }),
    payment_methods: orNull(methods).describe('The methods you allowed; null: every method available to your country and currency'),
    redirect_url: z.string(),
    cancel_url: orNull(z.string()),
    metadata: orNull(z.record(z.string(), z.string())),
    description: orNull(z.string()).describe('What the page and each attempt’s payment say it is for'),
    payment_link_id: orNull(z.string()).describe('The payment link that opened it (`plink_…`), if any'),
    payment_reference: orNull(z.string()).describe('The successful payment’s reference (`pay_…`), once complete'),
    attempts: z.number().int().describe('Payment attempts started on the page'),
    expires_at: timestamp,
    created_at: timestamp,
    completed_at: orNull(timestamp),
    expired_at: orNull(timestamp),
  }),
  'A hosted checkout session: open, then complete (paid) or expired. Also the payload of checkout.session.* webhooks.',
);

export function serializeCheckoutSession(s: CheckoutSession): RecordOf<typeof CheckoutSessionRecord> {
  return {
    id: s.id,
    object: 'checkout.session',
    url: s.url,
    status: s.status,
    amount: toJsonMoney(s.amount),
    currency: s.currency,
    reference: s.reference,
    customer: { email: s.customer.email, phone: s.customer.phone ?? null, name: s.customer.name ?? null },
    payment_methods: s.paymentMethods,
    redirect_url: s.redirectUrl,
    cancel_url: s.cancelUrl,
    metadata: s.metadata,
    description: s.description,
    payment_link_id: s.paymentLinkId,
    payment_reference: s.paymentReference,
    attempts: s.attempts,
    expires_at: s.expiresAt.toISOString(),
    created_at: s.createdAt.toISOString(),
    completed_at: s.completedAt?.toISOString() ?? null,
    expired_at: s.expiredAt?.toISOString() ?? null,
  };
}

export const PaymentLinkRecord = record(
  'PaymentLink',
  z.object({
    id: z.string().describe('`plink_…`'),
    object: z.literal('payment_link'),
    url: z.string().describe('The link’s public page, `/pay/{slug}`'),
    qr_svg: z.string().describe('The URL as a QR code, an SVG document'),
    slug: z.string(),
    name: z.string(),
    active: z.boolean(),
    amount: orNull(money).describe('Fixed; null: the payer chooses, within min_amount and max_amount'),
    currency,
    description: orNull(z.string()),
    payment_methods: orNull(methods),
    collect: z.array(z.enum(LINK_COLLECT)).describe('What the payer gives; email is always asked (card processors need it)'),
    min_amount: orNull(money),
    max_amount: orNull(money),
    max_payments: orNull(z.number().int()),
    payments_count: z.number().int().describe('Completed checkout sessions opened through it'),
    expires_at: orNull(timestamp),
    redirect_url: orNull(z.string()),
    created_at: timestamp,
    deactivated_at: orNull(timestamp),
  }),
  'A reusable payment link: each visit opens a checkout session.',
);

const moneyOrNull = (d: Decimal | null) => (d === null ? null : toJsonMoney(d));

export function serializePaymentLink(l: PaymentLink, qrSvg: string): RecordOf<typeof PaymentLinkRecord> {
  return {
    id: l.id,
    object: 'payment_link',
    url: l.url,
    qr_svg: qrSvg,
    slug: l.slug,
    name: l.name,
    active: l.active,
    amount: moneyOrNull(l.amount),
    currency: l.currency,
    description: l.description,
    payment_methods: l.paymentMethods,
    collect: l.collect,
    min_amount: moneyOrNull(l.minAmount),
    max_amount: moneyOrNull(l.maxAmount),
    max_payments: l.maxPayments,
    payments_count: l.paymentsCount,
    expires_at: l.expiresAt?.toISOString() ?? null,
    redirect_url: l.redirectUrl,
    created_at: l.createdAt.toISOString(),
    deactivated_at: l.deactivatedAt?.toISOString() ?? null,
  };
}
