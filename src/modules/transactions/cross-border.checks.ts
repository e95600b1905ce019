import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { parseAmount, type Decimal } from '../../shared/money';
import { amountField, referenceField } from './transaction.fields';
import type { CustomerService, Payer } from '../customers/customer.service';
import type { ReferenceService } from '../reference/reference.service';
import type { Channel, Country, Network, RampType } from '../reference/reference.types';

const text = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const code = (pattern: RegExp, example: string) => z.string({ error: 'is required' }).regex(pattern, `must look like ${example}`);

/** Fields every cross-border transaction has. */
export const crossBorderFields = {
  customer_uuid: text(64),
  amount: amountField,
  country_code: code(/^[A-Z]{2}$/, 'KE'),
  channel_id: text(64),
  network_id: text(64),
  account_number: z.string({ error: 'is required' }).regex(/^[0-9A-Za-z]{4,34}$/, 'must be 4 to 34 letters or digits'),
  dial_code: code(/^\+\d{1,4}$/, '+254'),
  account_type: z.enum(['bank', 'momo'], { error: 'must be bank or momo' }),
  reason: text(140),
  reference: referenceField,
};

export interface Route {
  customer: Payer;
  country: Country;
  channel: Channel;
  network: Network;
}

const bad = (field: string, issue: string) => AppError.invalidRequest(`${field} ${issue}`, [{ field, issue }]);

/**
 * CONTRACT §6's check order after body validation: the customer exists for this
 * merchant (404), is KYC-approved (403), the channel is a `rampType` channel of
 * the country with the same account type, and the network belongs to that
 * country and channel type (400). Currency, dial code, amount and reference
 * follow in the callers, in that order.
 */
export async function checkRoute(
  customers: CustomerService,
  reference: ReferenceService,
  merchantId: string,
  body: { customer_uuid: string; country_code: string; channel_id: string; network_id: string; account_type: 'bank' | 'momo' },
  rampType: RampType,
): Promise<Route> {
  const customer = await customers.getPayer(merchantId, body.customer_uuid);
  if (customer.kycStatus !== 'approved') {
    throw new AppError('KYC_REQUIRED', 'The customer must be KYC-approved (overall_kyc_status approved) first');
  }
  const country = reference.country(body.country_code);
  if (!country) throw bad('country_code', 'is not a supported country');
  const channel = reference.channel(body.channel_id);
  if (!channel || channel.countryCode !== country.code || channel.rampType !== rampType || channel.status !== 'active') {
    throw bad('channel_id', `must be an active ${rampType} channel of ${country.code}`);
  }
  if (channel.channelType !== body.account_type) {
    throw bad('channel_id', `is a ${channel.channelType} channel but account_type is ${body.account_type}`);
  }
  const network = reference.network(body.network_id);
  if (!network || network.countryCode !== country.code || network.channelType !== body.account_type) {
    throw bad('network_id', `must be a ${body.account_type} network of ${country.code}`);
  }
  return { customer, country, channel, network };
}

export function checkDialCode(country: Country, dialCode: string): void {
  if (dialCode !== country.dialCode) throw bad('dial_code', `must be ${country.dialCode} for ${country.code}`);
}

/** Within the currency's precision and the channel's bounds (both in the channel's currency). */
export function checkLocalAmount(channel: Channel, value: unknown, field = 'amount'): Decimal {
  const amount = parseAmount(value, channel.minorUnit, field);
  return checkWithinBounds(channel, amount, field);
}

export function checkWithinBounds(channel: Channel, amount: Decimal, field: string): Decimal {
  if (amount.lt(channel.minAmount) || amount.gt(channel.maxAmount)) {
    throw bad(field, `must be between ${channel.minAmount.toFixed(channel.minorUnit)} and ${channel.maxAmount.toFixed(channel.minorUnit)} ${channel.currency}`);
  }
  return amount;
}

/** The columns every cross-border transaction takes from its checked route and body. */
export function routeColumns(
  route: Route,
  body: { reference: string; account_type: 'bank' | 'momo'; account_number: string; dial_code: string; reason: string },
) {
  return {
    externalReference: body.reference,
    customerId: route.customer.id,
    accountType: body.account_type,
    countryCode: route.country.code,
    channelId: route.channel.id,
    networkId: route.network.id,
    accountNumber: body.account_number,
    dialCode: body.dial_code,
    reason: body.reason,
  };
}
