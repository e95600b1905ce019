import QRCode from 'qrcode';
import { uniqueViolation } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedBytes } from '../../shared/crypto';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { parseAmount, type Decimal } from '../../shared/money';
import { pageRequestSchema, toPage, type Page, type PageQuery } from '../../shared/pagination';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput } from '../../shared/validation';
import type { AuditContext, AuditEntry } from '../audit/audit-log';
import type { CheckoutMerchants } from './checkout.merchants';
import type { PaymentLink } from './checkout.records';
import { newSessionId, type CheckoutService, type DomesticMethods } from './checkout.service';
import { openLinkSchema, paymentLinkSchema, slugField, type OpenLinkInput, type PaymentLinkCommand } from './checkout.schemas';
import type { PaymentLinkPageView } from './checkout.views';
import { LINK_ID, type PaymentLinkStore, type StoredLink } from './payment-link.store';

export interface PaymentLinkServiceDeps {
  store: PaymentLinkStore;
  checkout: CheckoutService;
  merchants: CheckoutMerchants;
  methods: DomesticMethods;
  publicAddress: PublicAddress;
  clock: Clock;
}

/** A session opened from a link lives an hour. */
const LINK_SESSION_TTL_S = 3_600;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const newLinkId = () => `plink_${timeOrderedBytes(18).toString('base64url')}`;
/** 8 characters of base32: 40 random bits. */
const newSlug = () => [...randomBytes(8)].map((b) => BASE32[b % 32]).join('');

/** A link, and the QR code of its URL. */
export type PaymentLinkWithQr = PaymentLink & { qrSvg: string };

/**
 * Payment links (issue 37, part 4): a reusable page (`/pay/{slug}`) that opens a checkout session per
 * visit. Created and deactivated by the merchant (audited); opened by payers through the page routes.
 */
export class PaymentLinkService {
  constructor(private readonly deps: PaymentLinkServiceDeps) {}

  async createLink(merchantId: string, command: PaymentLinkCommand, audit?: AuditContext): Promise<PaymentLinkWithQr> {
    const body = parseInput(paymentLinkSchema, command);
    const { country, minorUnit } = await this.deps.merchants.domesticCurrency(merchantId, body.currency);
    const amount = body.amount == null ? null : parseAmount(body.amount, minorUnit);
    if (amount !== null) {
      for (const field of ['minAmount', 'maxAmount'] as const) {
        if (body[field] != null) throw AppError.invalidField(field, 'must be left out when the amount is fixed');
      }
    }
    const minAmount = body.minAmount == null ? null : parseAmount(body.minAmount, minorUnit, 'minAmount');
    const maxAmount = body.maxAmount == null ? null : parseAmount(body.maxAmount, minorUnit, 'maxAmount');
    if (minAmount && maxAmount && minAmount.gt(maxAmount)) throw AppError.invalidField('maxAmount', 'must be at least minAmount');
    const available = this.deps.methods(country, body.currency);
    if (available.length === 0) throw AppError.invalidField('currency', `has no payment method available in ${country} here yet`);
    if (body.paymentMethods && !body.paymentMethods.some((m) => available.includes(m))) {
      throw AppError.invalidField('paymentMethods', `must include one of the methods available for ${body.currency}: ${available.join(', ')}`);
    }
    const now = this.deps.clock.now();
    if (body.expiresAt && body.expiresAt <= now) throw AppError.invalidField('expiresAt', 'must be in the future');
    const link = {
      id: newLinkId(),
      merchantId,
      slug: body.slug ?? newSlug(),
      name: body.name,
      amount,
      currency: body.currency,
      description: body.description ?? null,
      paymentMethods: body.paymentMethods ?? null,
      // Email is always asked: card processors need it, and the payer's receipt goes there.
      collect: (['email', 'phone', 'name'] as const).filter((f) => f === 'email' || (body.collect ?? []).includes(f)),
      minAmount,
      maxAmount,
      maxPayments: body.maxPayments ?? null,
      expiresAt: body.expiresAt ?? null,
      redirectUrl: body.redirectUrl ?? null,
      createdAt: now,
    };
    const entry: AuditEntry | null = audit
      ? { merchantId, ...audit, action: 'payment_link.created', target: { type: 'payment_link', id: link.id }, after: { slug: link.slug, name: link.name } }
      : null;
    try {
      return this.withQr(await this.deps.store.insert(link, entry));
    } catch (err) {
      if (uniqueViolation(err) === 'payment_link_slug_key') throw AppError.duplicateField('slug', 'is already taken; choose another');
      throw err;
    }
  }

  async listLinks(merchantId: string, query: PageQuery): Promise<Page<PaymentLinkWithQr>> {
    const { limit, after } = parseInput(pageRequestSchema, query, 'query');
    const rows = await this.deps.store.list(merchantId, limit, after);
    const page = toPage(rows, limit);
    return { hasMore: page.hasMore, items: await Promise.all(page.items.map(async (i) => ({ cursor: i.cursor, node: await this.withQr(i.node) }))) };
  }

  /** The merchant's link; another merchant's, or a junk id, is NOT_FOUND alike. */
  async getLink(merchantId: string, id: string): Promise<PaymentLinkWithQr> {
    return this.withQr(await this.own(merchantId, id));
  }

  /** No new session opens through it; sessions already open may still be paid. Deactivating twice changes nothing. */
  async deactivateLink(merchantId: string, id: string, audit: AuditContext): Promise<PaymentLinkWithQr> {
    const link = await this.own(merchantId, id);
    if (!link.active) return this.withQr(link);
    const entry: AuditEntry = {
      merchantId,
      ...audit,
      action: 'payment_link.deactivated',
      target: { type: 'payment_link', id },
      before: { active: true },
      after: { active: false },
    };
    return this.withQr((await this.deps.store.deactivate(id, merchantId, this.deps.clock.now(), entry)) ?? (await this.own(merchantId, id)));
  }

  /** The landing page; null when no link has this slug. */
  async pageView(slug: string): Promise<PaymentLinkPageView | null> {
    const link = await this.bySlug(slug);
    if (!link) return null;
    const merchant = await this.deps.merchants.pageMerchant(link.merchantId);
    const format = (d: Decimal | null) => (d === null ? null : this.deps.merchants.format(d, link.currency));
    return {
      slug: link.slug,
      state: this.stateOf(link),
      name: link.name,
      merchantName: merchant.name,
      merchantLogoPath: merchant.logoPath,
      countryCode: merchant.country ?? (await this.deps.merchants.domesticCurrency(link.merchantId, link.currency)).country,
      description: link.description,
      currency: link.currency,
      amount: format(link.amount),
      minAmount: format(link.minAmount),
      maxAmount: format(link.maxAmount),
      collect: link.collect,
    };
  }

  /**
   * A payer's visit: checks the link (active, not expired, not used up) and the amount (the fixed one, or
   * within the bounds), then opens a checkout session for it. Every visit's POST opens one session.
   */
  async open(slug: string, input: OpenLinkInput): Promise<{ sessionId: string; url: string }> {
    const link = await this.bySlug(slug);
    if (!link) throw AppError.notFound('Payment link');
    const state = this.stateOf(link);
    if (state !== 'active') throw new AppError('INVALID_STATE', STATE_REFUSALS[state]);
    const body = parseInput(openLinkSchema, input);
    const amount = this.amountOf(link, body.amount);
    const n = await this.deps.store.nextSessionNumber(link.id);
    const sessionId = newSessionId();
    const session = await this.deps.checkout.createSession(
      link.merchantId,
      {
        amount,
        currency: link.currency,
        reference: `plink-${link.slug}-${n}`,
        customer: { email: body.email, phone: body.phone ?? null, name: body.name ?? null },
        paymentMethods: link.paymentMethods ?? undefined,
        // Without the merchant's page, the payer comes back to the checkout page, which shows the outcome.
        redirectUrl: link.redirectUrl ?? this.deps.checkout.pageUrl(sessionId),
        description: link.description ?? link.name,
        expiresIn: LINK_SESSION_TTL_S,
      },
      { paymentLinkId: link.id, sessionId },
    );
    return { sessionId: session.id, url: session.url };
  }

  private amountOf(link: StoredLink, given: unknown): Decimal {
    const minorUnit = this.deps.merchants.minorUnit(link.currency);
    if (link.amount !== null) {
      if (given != null && !parseAmount(given, minorUnit).eq(link.amount))
        throw AppError.invalidField('amount', `must be ${this.deps.merchants.format(link.amount, link.currency)}, the link’s amount`);
      return link.amount;
    }
    if (given == null) throw AppError.invalidField('amount', 'is required: this link lets the payer choose it');
    const amount = parseAmount(given, minorUnit);
    if (link.minAmount && amount.lt(link.minAmount))
      throw AppError.invalidField('amount', `must be at least ${this.deps.merchants.format(link.minAmount, link.currency)}`);
    if (link.maxAmount && amount.gt(link.maxAmount))
      throw AppError.invalidField('amount', `must be at most ${this.deps.merchants.format(link.maxAmount, link.currency)}`);
    return amount;
  }

  private stateOf(link: StoredLink): PaymentLinkPageView['state'] {
    if (!link.active) return 'inactive';
    if (link.expiresAt && link.expiresAt <= this.deps.clock.now()) return 'expired';
    if (link.maxPayments !== null && link.paymentsCount >= link.maxPayments) return 'used_up';
    return 'active';
  }

  private async own(merchantId: string, id: string): Promise<StoredLink> {
    const link = LINK_ID.test(id) ? await this.deps.store.find(id) : null;
    if (!link || link.merchantId !== merchantId) throw AppError.notFound('Payment link');
    return link;
  }

  private async bySlug(slug: string): Promise<StoredLink | null> {
    return slugField.safeParse(slug).success ? this.deps.store.findBySlug(slug) : null;
  }

  private async withQr(link: StoredLink): Promise<PaymentLinkWithQr> {
    const url = `${this.deps.publicAddress.url}/pay/${link.slug}`;
    return { ...link, url, qrSvg: await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
  }
}

const STATE_REFUSALS: Record<Exclude<PaymentLinkPageView['state'], 'active'>, string> = {
  inactive: 'This payment link has been deactivated',
  expired: 'This payment link has expired',
  used_up: 'This payment link has reached its maximum number of payments',
};
