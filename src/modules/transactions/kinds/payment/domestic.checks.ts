import type { Route } from '../../../../providers/connector';
import { AppError } from '../../../../shared/errors';
import type { Decimal } from '../../../../shared/money';
import { requireNationalNumber } from '../../../../shared/phone-numbers';
import type { ReferenceService } from '../../../reference/reference.service';
import type { Country, Network } from '../../../reference/reference.types';
import { checkWithinBounds } from '../cross-border.checks';
import { CHANNEL_OF_METHOD, type PaymentMethod } from './payment-methods';
import { CARD_ROUTE } from './payment.kind';

/*
 * Domestic payments by mobile money and bank transfer (issue 37, CONTRACT §7): a payer in the merchant's own
 * country pays in its currency, with no customer and no KYC, as Paystack's and Flutterwave's charge APIs take
 * them. They travel the country's collection routes and connectors; the cross-border rules are not theirs.
 */

/** Whether some configured connector serves a route (ConnectorRouter.serves). */
type Serves = (route: Route) => boolean;

const bad = AppError.invalidField;

export type DomesticMethod = Exclude<PaymentMethod, 'card'>;

/** The route a domestic payment of `method` travels to `network` (a funding travels a bank transfer's). */
export function domesticRouteOf(method: DomesticMethod, countryCode: string, network: Pick<Network, 'code'> | null): Route {
  return { channelType: CHANNEL_OF_METHOD[method], countryCode, networkCode: network?.code ?? null, direction: 'collection' };
}

/**
 * The payer's country: the merchant's (set at sign-up). A merchant an operator made has none, and then its
 * currency says which (`country_code` names it where several countries share the currency, XOF or XAF).
 */
export function domesticCountry(reference: ReferenceService, merchantCountry: string | null, body: { currency: string; countryCode?: string | null }): Country {
  if (merchantCountry) {
    if (body.countryCode && body.countryCode !== merchantCountry) {
      throw bad('countryCode', `must be ${merchantCountry}, your country: mobile money and bank transfer payments are domestic`);
    }
    const country = reference.country(merchantCountry);
    if (!country) throw bad('paymentMethod', `is not available: your country ${merchantCountry} is not one this service covers`);
    return country;
  }
  if (body.countryCode) {
    const country = reference.country(body.countryCode);
    if (!country) throw bad('countryCode', 'is not a supported country');
    return country;
  }
  const sharing = reference.listCountries().filter((c) => c.currency === body.currency);
  if (sharing.length === 1) return sharing[0]!;
  if (sharing.length === 0) throw bad('currency', 'is not the currency of a country this service covers');
  throw bad('countryCode', `is required: ${body.currency} is the currency of ${sharing.map((c) => c.code).join(', ')}`);
}

/** In the country's currency, and within its deposit channel's bounds where it has one. */
export function checkDomesticAmount(reference: ReferenceService, country: Country, method: DomesticMethod, currency: string, amount: Decimal): void {
  if (currency !== country.currency) {
    throw bad('currency', `must be ${country.currency}: mobile money and bank transfer payments are domestic, in ${country.name}’s currency`);
  }
  const channel = reference.channels(country.code, 'deposit').find((c) => c.channelType === CHANNEL_OF_METHOD[method] && c.status === 'active');
  if (channel) checkWithinBounds(channel, amount, 'amount');
}

/** The country's mobile money networks a configured connector collects from (the checkout page offers these only). */
export function servedMomoNetworks(reference: ReferenceService, serves: Serves, countryCode: string): Network[] {
  return reference.networks(countryCode, 'momo').filter((n) => serves(domesticRouteOf('momo', countryCode, n)));
}

/**
 * The payer's mobile money network: the one named (by id, `gh_mtn`, or code, `MTN`), else the one the number's
 * prefix belongs to (`predict`), else the country's only served one; otherwise the payer must say.
 */
export function momoNetwork(
  reference: ReferenceService,
  serves: Serves,
  country: Country,
  named: string | null | undefined,
  nationalNumber: string,
  predict: (countryCode: string, nationalNumber: string) => string | null,
): Network {
  const networks = reference.networks(country.code, 'momo');
  const served = servedMomoNetworks(reference, serves, country.code);
  if (named) {
    const wanted = named.toUpperCase();
    const network = networks.find((n) => n.id.toUpperCase() === wanted || n.code.toUpperCase() === wanted);
    if (!network) throw bad('network', `must be a mobile money network of ${country.code}: ${networks.map((n) => n.code).join(', ') || 'none'}`);
    return network;
  }
  const predicted = predict(country.code, nationalNumber);
  const byPrefix = predicted ? networks.find((n) => n.code === predicted) : undefined;
  if (byPrefix) return byPrefix;
  if (served.length === 1) return served[0]!;
  if (served.length === 0)
    throw new AppError('ROUTE_UNAVAILABLE', `No provider serves mobile money payments in ${country.code} here; nothing was written or sent`);
  throw bad('network', `is required: the number’s network could not be told from its prefix (one of ${served.map((n) => n.code).join(', ')})`);
}

/** The first of the country's banks a connector opens accounts to pay into (collects into), or undefined. */
export function servedBank(reference: ReferenceService, serves: Serves, countryCode: string): Network | undefined {
  return reference.networks(countryCode, 'bank').find((n) => serves(domesticRouteOf('bank_transfer', countryCode, n)));
}

/** A bank transfer's account is opened at the first of the country's banks a connector serves. */
export function transferBank(reference: ReferenceService, serves: Serves, country: Country): Network {
  const bank = servedBank(reference, serves, country.code);
  if (!bank) throw new AppError('ROUTE_UNAVAILABLE', `No provider serves bank transfer payments in ${country.code} here; nothing was written or sent`);
  return bank;
}

/** The payer's wallet as it is kept: its national number under the country's plan (CONTRACT §6a). */
export function walletNumber(country: Country, phone: string): string {
  return requireNationalNumber(phone, country.dialCode, 'phone', 'wallet');
}

/**
 * The methods a payer in `countryCode` paying `currency` can use here, in the checkout page's order: mobile
 * money and bank transfer in the country's own currency where a connector serves them, and a card wherever a
 * card processor is connected.
 */
export function domesticMethods(reference: ReferenceService, serves: Serves, countryCode: string, currency: string): PaymentMethod[] {
  const country = reference.country(countryCode);
  const local = country?.currency === currency;
  const anyServed = (method: DomesticMethod) =>
    local && reference.networks(countryCode, CHANNEL_OF_METHOD[method]).some((n) => serves(domesticRouteOf(method, countryCode, n)));
  const methods: PaymentMethod[] = [];
  if (anyServed('momo')) methods.push('momo');
  if (serves(CARD_ROUTE)) methods.push('card');
  if (anyServed('bank_transfer')) methods.push('bank_transfer');
  return methods;
}
