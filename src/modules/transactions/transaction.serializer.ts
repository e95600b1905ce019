import { toJsonNumber, type Decimal } from '../../shared/money';
import type { Transaction } from './transaction.record';

const money = (d: Decimal | null) => (d === null ? null : toJsonNumber(d));
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Spec §4.2: what a collection initiation returns, exactly. */
export function serializeCollectionInitiation(t: Transaction) {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    status: t.status,
    amount: money(t.amount),
    currency: t.currency,
    account_type: t.accountType,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
  };
}

/** A transfer's money and beneficiary, as both the initiation and the status record show them. */
function transferFigures(t: Transaction) {
  return {
    source_amount: money(t.sourceAmount),
    source_currency: t.sourceCurrency,
    destination_amount: money(t.destinationAmount),
    destination_currency: t.destinationCurrency,
    rate: money(t.rate),
    fee: money(t.fee),
  };
}

const beneficiary = (t: Transaction) => ({ account_name: t.accountName, account_number: t.accountNumber, network_id: t.networkId });

/** CONTRACT §6: what a transfer initiation returns. */
export function serializeTransferInitiation(t: Transaction) {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    status: t.status,
    ...transferFigures(t),
    account_type: t.accountType,
    beneficiary: beneficiary(t),
    created_at: iso(t.createdAt),
  };
}

/**
 * The full record the status endpoint returns for any kind. Webhook events carry
 * the same JSON, so a receiver sees exactly what the status endpoint shows.
 */
export function serializeTransaction(t: Transaction) {
  const common = {
    reference: t.reference,
    external_reference: t.externalReference,
    type: t.kind,
    status: t.status,
    failure_reason: t.failureReason,
    customer_uuid: t.customerId,
    account_type: t.accountType,
    country_code: t.countryCode,
    channel_id: t.channelId,
    network_id: t.networkId,
    dial_code: t.dialCode,
    reason: t.reason,
    provider_reference: t.providerReference,
  };
  const times = { created_at: iso(t.createdAt), updated_at: iso(t.updatedAt), completed_at: iso(t.completedAt) };
  if (t.kind === 'transfer') {
    return {
      ...common,
      ...transferFigures(t),
      quote_id: t.quoteId,
      beneficiary: beneficiary(t),
      ...times,
    };
  }
  return {
    ...common,
    amount: money(t.amount),
    currency: t.currency,
    account_number: t.accountNumber,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
    expires_at: iso(t.expiresAt),
    ...times,
  };
}
