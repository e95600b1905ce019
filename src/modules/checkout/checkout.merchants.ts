import type { Sql } from '../../db/sql';
import { systemClock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { formatAmount, type Decimal } from '../../shared/money';
import { checkoutLogoPath } from '../merchants/checkout-settings';
import type { Route } from '../../providers/connector';
import type { ReferenceService } from '../reference/reference.service';
import { servedMomoNetworks } from '../transactions/kinds/payment/domestic.checks';
import type { NetworkChoice } from './checkout.views';

/** What a checkout page shows of its merchant. */
export interface PageMerchant {
  name: string;
  /** Set at sign-up; null for a merchant an operator made. */
  country: string | null;
  /** Where this service serves its logo (`/checkout/logos/{sha256}`), if it uploaded one. */
  logoPath: string | null;
  /** Origins allowed to frame its checkout page (its frame-ancestors); empty: none. */
  embedOrigins: string[];
}

/** How long a merchant's country is remembered for session creation (set once at sign-up: it does not move). */
const REMEMBER_MS = 60_000;

/**
 * The merchant's side of a checkout: its name and country (the payer's, for domestic methods), and
 * the currency a session may be in. The country is remembered a minute, so creating a session costs
 * one statement (its INSERT) in the steady state.
 */
export class CheckoutMerchants {
  private readonly remembered = new Map<string, { merchant: PageMerchant; until: number }>();

  constructor(private readonly deps: { sql: Sql; reference: ReferenceService; serves: (route: Route) => boolean }) {}

  /** Fresh: what the page shows. */
  async pageMerchant(merchantId: string): Promise<PageMerchant> {
    const [row] = await this.deps.sql.query<{ name: string; country: string | null; logo: string | null; checkout_embed_origins: string[] }>(
      'select m.name, m.country, l.sha256 as logo, m.checkout_embed_origins from merchant m left join checkout_logo l on l.merchant_id = m.id where m.id = $1',
      [merchantId],
      'checkout_merchant',
    );
    if (!row) throw AppError.notFound('Merchant');
    const merchant = {
      name: row.name,
      country: row.country,
      logoPath: row.logo === null ? null : checkoutLogoPath(row.logo),
      embedOrigins: row.checkout_embed_origins,
    };
    this.remembered.set(merchantId, { merchant, until: systemClock.now().getTime() + REMEMBER_MS });
    return merchant;
  }

  /** A logo by its digest (its public name), with its type; null when no merchant has it. */
  async logo(sha256: string): Promise<{ contentType: string; bytes: Buffer } | null> {
    const [row] = await this.deps.sql.query<{ content_type: string; content: Buffer }>(
      'select content_type, content from checkout_logo where sha256 = $1 limit 1',
      [sha256],
      'checkout_logo',
    );
    return row ? { contentType: row.content_type, bytes: row.content } : null;
  }

  /**
   * The country whose domestic methods a session in `currency` uses, and the currency's minor unit:
   * the merchant's country (its currency only); for a merchant without one, the one country that uses
   * the currency. 400 naming `currency` otherwise.
   */
  async domesticCurrency(merchantId: string, currency: string): Promise<{ country: string; minorUnit: number }> {
    const merchant = await this.merchant(merchantId);
    const { reference } = this.deps;
    if (merchant.country) {
      const country = reference.country(merchant.country);
      if (!country) throw AppError.invalidField('currency', `cannot be taken: your country (${merchant.country}) is not served`);
      if (country.currency !== currency) throw AppError.invalidField('currency', `must be ${country.currency}, the currency of your country (${country.code})`);
      return { country: country.code, minorUnit: country.minorUnit };
    }
    const countries = reference.listCountries().filter((c) => c.currency === currency);
    if (countries.length === 1) return { country: countries[0]!.code, minorUnit: countries[0]!.minorUnit };
    if (countries.length === 0) throw AppError.invalidField('currency', 'is not the currency of a country we serve');
    throw AppError.invalidField('currency', 'is used by several countries: your account names no country, so a checkout cannot take it');
  }

  minorUnit(currency: string): number {
    return this.deps.reference.currencyMinorUnit(currency) ?? 2;
  }

  /** With exactly the currency's decimals. */
  format(amount: Decimal, currency: string): string {
    return formatAmount(amount, this.deps.reference.currencyMinorUnit(currency) ?? 2);
  }

  /** A network's code (as `momoNetworks` names it), from its id. */
  networkCode(networkId: string | null): string | null {
    return networkId ? (this.deps.reference.network(networkId)?.code ?? null) : null;
  }

  /** The country's mobile money networks a configured connector serves: a network no connector serves is not offered. */
  momoNetworks(country: string): NetworkChoice[] {
    return servedMomoNetworks(this.deps.reference, this.deps.serves, country).map((n) => ({ code: n.code, name: n.name }));
  }

  private async merchant(merchantId: string): Promise<PageMerchant> {
    const known = this.remembered.get(merchantId);
    if (known && known.until > systemClock.now().getTime()) return known.merchant;
    if (this.remembered.size > 10_000) this.remembered.clear();
    return this.pageMerchant(merchantId);
  }
}
