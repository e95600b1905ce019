import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { formatAmount, parseAmount, type Decimal } from '../../../shared/money';
import { accountNumberField, amountField, BANK_ACCOUNT_NUMBER, countryCodeField, dialCodeField, referenceField, requiredText } from '../../../shared/fields';
import { requireNationalNumber } from '../../../shared/phone-numbers';
import type { CustomerService, Payer } from '../../customers/customer.service';
import type { DecideTrigger, Route as ConnectorRoute, RouteLeg, SettlementDecision } from '../../../providers/connector';
import type { Rails } from '../../rails/rails';
import type { ReferenceService } from '../../reference/reference.service';
import type { CollectionTransaction, PayoutTransaction, TransferTransaction } from '../transaction.record';
import { SETTLE, type ProviderAnswer } from '../transaction.kinds';
import { CHANNEL_TYPES, type Channel, type ChannelType, type Country, type Network, type RampType } from '../../reference/reference.types';

/** Fields every cross-border transaction has, in the domain's names. */
export const crossBorderFields = {
  customerUuid: requiredText(64),
  amount: amountField,
  countryCode: countryCodeField,
  channelId: requiredText(64),
  networkId: requiredText(64),
  accountNumber: accountNumberField,
  dialCode: dialCodeField,
  accountType: z.enum(CHANNEL_TYPES, { error: 'must be bank or momo' }),
  reason: requiredText(140),
  reference: referenceField,
};

/**
 * A bank account number is not a phone number: letters and digits only, kept exactly as given (a
 * wallet's number is read by the phone rule in checkAccountNumber). Checked with the body, so its
 * 400 comes before the customer's checks, as every field's does.
 */
export function bankAccountNumbers(body: { accountType?: unknown; accountNumber?: unknown }, ctx: z.core.$RefinementCtx): void {
  if (body.accountType !== 'bank' || typeof body.accountNumber !== 'string') return;
  if (BANK_ACCOUNT_NUMBER.test(body.accountNumber) || !accountNumberField.safeParse(body.accountNumber).success) return;
  ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: 'must be 4 to 34 letters or digits (a bank account number)' });
}

/**
 * A transaction with a route and an account: a collection (money in), a transfer or a payout to the merchant's own
 * account (money out; a payout travels as a transfer does, to a destination instead of a customer's beneficiary).
 */
export type CrossBorderTransaction = CollectionTransaction | TransferTransaction | PayoutTransaction;

/** The direction a transaction's connector serves: a payout is paid out as a transfer is. */
const directionOf = (txn: CrossBorderTransaction) => (txn.kind === 'payout' ? 'transfer' : txn.kind);

export interface Route {
  customer: Payer;
  country: Country;
  channel: Channel;
  network: Network;
}

const bad = AppError.invalidField;

/**
 * CONTRACT §6's check order after body validation: the customer exists for this
 * merchant (404), is KYC-approved (403), the channel is a `rampType` channel of
 * the country with the same account type, and the network belongs to that
 * country and channel type (400). Currency, dial code, account number (checkAccountNumber), amount and reference
 * follow in the callers, in that order.
 */
export async function checkRoute(
  customers: CustomerService,
  reference: ReferenceService,
  merchantId: string,
  body: { customerUuid: string; countryCode: string; channelId: string; networkId: string; accountType: ChannelType },
  rampType: RampType,
): Promise<Route> {
  const customer = await customers.getPayer(merchantId, body.customerUuid);
  if (customer.kycStatus !== 'approved') throw new AppError('KYC_REQUIRED', 'The customer must be KYC-approved first (its overall KYC status approved)');
  const country = reference.country(body.countryCode);
  if (!country) throw bad('countryCode', 'is not a supported country');
  const channel = reference.channel(body.channelId);
  if (!channel || channel.countryCode !== country.code || channel.rampType !== rampType || channel.status !== 'active') {
    throw bad('channelId', `must be an active ${rampType} channel of ${country.code}`);
  }
  if (channel.channelType !== body.accountType) {
    throw bad('channelId', `is a ${channel.channelType} channel, but the account type is ${body.accountType}`);
  }
  const network = reference.network(body.networkId);
  if (!network || network.countryCode !== country.code || network.channelType !== body.accountType) {
    throw bad('networkId', `must be a ${body.accountType} network of ${country.code}`);
  }
  return { customer, country, channel, network };
}

export function checkDialCode(country: Country, dialCode: string): void {
  if (dialCode !== country.dialCode) throw bad('dialCode', `must be ${country.dialCode} for ${country.code}`);
}

/**
 * The account as it is kept: a bank account number as given; a wallet's phone number as its national
 * number under the country's plan (CONTRACT §6a: `+254 712 345 678`, `254712345678` and `0712345678`
 * are `712345678`), or 400 naming the expected form. After the dial code check, which names the plan.
 */
export function checkAccountNumber(country: Country, body: { accountType: ChannelType; accountNumber: string }): string {
  return body.accountType === 'momo' ? requireNationalNumber(body.accountNumber, country.dialCode, 'accountNumber', 'wallet') : body.accountNumber;
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

/** The columns every cross-border transaction takes from its checked route and body, with the account as kept (checkAccountNumber). */
export function routeColumns(route: Route, body: { reference: string; accountType: ChannelType; dialCode: string; reason: string }, accountNumber: string) {
  return {
    externalReference: body.reference,
    customerId: route.customer.id,
    accountType: body.accountType,
    countryCode: route.country.code,
    channelId: route.channel.id,
    networkId: route.network.id,
    accountNumber,
    dialCode: body.dialCode,
    reason: body.reason,
  };
}

/** The route a cross-border transaction travels: its channel type, country, network and direction (its kind). */
function crossBorderRoute(reference: ReferenceService, txn: CrossBorderTransaction): ConnectorRoute {
  return {
    channelType: txn.accountType,
    countryCode: txn.countryCode,
    networkCode: reference.network(txn.networkId)?.code ?? null,
    direction: directionOf(txn),
  };
}

/**
 * What the provider is asked to move, in its currency: each kind says which of its amounts (a collection its
 * amount, a transfer its payout, the destination amount).
 */
export interface Moved {
  amount: Decimal;
  currency: string;
}

/** A new cross-border transaction's leg: its route, and what the provider is asked to move there, to or from which account. */
export function crossBorderLeg(reference: ReferenceService, txn: CrossBorderTransaction, moved: Moved): RouteLeg {
  return { route: crossBorderRoute(reference, txn), ...askedToMove(reference, moved), accountNumber: txn.accountNumber };
}

/** What every provider request of a cross-border transaction says about its route, account and money (from the stored row). */
export function crossBorderRequest(reference: ReferenceService, txn: CrossBorderTransaction, moved: Moved, idempotencyKey: string) {
  return {
    ...askedToMove(reference, moved),
    idempotencyKey,
    kind: directionOf(txn),
    reference: txn.reference,
    accountType: txn.accountType,
    countryCode: txn.countryCode,
    networkCode: reference.network(txn.networkId)?.code ?? txn.networkId,
    dialCode: txn.dialCode,
    accountNumber: txn.accountNumber,
    description: txn.reason,
  };
}

/** What the provider was asked to move, with its currency's decimals. */
export function askedToMove(reference: ReferenceService, { amount, currency }: Moved): { amount: string; currency: string } {
  return { amount: formatAmount(amount, reference.currencyMinorUnit(currency) ?? 2), currency };
}

/**
 * Money out to an account (a transfer's beneficiary, a payout's destination), asked of the transaction's connector from
 * the stored row, so reconciliation can ask again with the same key (`retry`: with what has arrived since).
 */
export async function payOut(
  rails: Rails,
  reference: ReferenceService,
  txn: TransferTransaction | PayoutTransaction,
  moved: Moved,
  idempotencyKey: string,
  retry: boolean,
): Promise<ProviderAnswer> {
  const { providerReference } = await rails.of(txn).initiate({
    ...crossBorderRequest(reference, txn, moved, idempotencyKey),
    accountName: txn.accountName,
    callbackUrl: rails.callbackUrl(txn),
    payer: rails.payer(txn),
    retry: retry ? await rails.retryContext(txn) : null,
  });
  return { status: 'processing', providerReference, followUps: [{ name: SETTLE, delayMs: rails.firstPollMs(txn) }] };
}

/** The status query of a cross-border transaction (the settlement job's question), from its stored row. */
export async function crossBorderDecide(
  rails: Rails,
  reference: ReferenceService,
  txn: CrossBorderTransaction,
  moved: Moved,
  trigger: DecideTrigger,
): Promise<SettlementDecision> {
  return rails.decide(txn, {
    kind: directionOf(txn),
    idempotencyKey: txn.id,
    accountType: txn.accountType,
    accountNumber: txn.accountNumber,
    ...askedToMove(reference, moved),
    providerReference: txn.providerReference,
    ...(await rails.decideContext(txn, trigger)),
  });
}
