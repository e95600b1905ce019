import { toJsonMoney, type Decimal } from '../../shared/money';
import type { Transaction } from './transaction.record';

const money = (d: Decimal | null) => (d === null ? null : toJsonMoney(d));
const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * Where the customer must go before the transaction can be decided: a payment awaiting 3-D Secure,
 * or a mobile money collection whose provider has the payer approve on a page (Flutterwave's
 * Ghana, Uganda, Rwanda and Zambia charges). Null otherwise.
 */
export function nextActionOf(t: Transaction): { type: 'redirect_to_url'; url: string; expires_at: string | null } | null {
  const waiting = t.status === 'requires_action' || (t.kind === 'collection' && t.status === 'processing');
  return waiting && t.nextActionUrl ? { type: 'redirect_to_url' as const, url: t.nextActionUrl, expires_at: iso(t.expiresAt) } : null;
}

/** A collection's `next_action`, present only when the payer has a page to open. */
const collectionNextAction = (t: Transaction) => {
  const action = nextActionOf(t);
  return action ? { next_action: action } : {};
};

/** Spec §4.2: what a collection initiation returns (and `next_action` when the payer must approve on a page). */
export function serializeCollectionInitiation(t: Transaction) {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    status: t.status,
    amount: money(t.amount),
    currency: t.currency,
    fee: money(t.fee),
    account_type: t.accountType,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
    ...collectionNextAction(t),
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
 * CONTRACT §7: a card payment, as its initiation, verification, the status
 * endpoint and its webhooks show it. Of the card only brand, last4 and the
 * fingerprint exist. `next_action` is set while the payment awaits 3-D Secure.
 */
export function serializePayment(t: Transaction) {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    type: t.kind,
    status: t.status,
    failure_reason: t.failureReason,
    amount: money(t.amount),
    currency: t.currency,
    fee: money(t.fee),
    amount_refunded: money(t.refundedAmount),
    payment_method: t.paymentMethod,
    card: t.cardBrand ? { brand: t.cardBrand, last4: t.cardLast4, fingerprint: t.cardFingerprint } : null,
    next_action: nextActionOf(t),
    customer_uuid: t.customerId,
    description: t.description,
    redirect_url: t.redirectUrl,
    provider_reference: t.providerReference,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    completed_at: iso(t.completedAt),
  };
}

/**
 * The full record the status endpoint returns for any kind. Webhook events carry
 * the same JSON, so a receiver sees exactly what the status endpoint shows.
 */
/** A refund, as POST /v1/refunds, GET /v1/refunds/{reference}, the status endpoint and its webhooks show it. */
export function serializeRefund(t: Transaction) {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    type: t.kind,
    status: t.status,
    failure_reason: t.failureReason,
    payment_reference: t.parentReference,
    amount: money(t.amount),
    currency: t.currency,
    reason: t.reason,
    provider_reference: t.providerReference,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    completed_at: iso(t.completedAt),
  };
}

export function serializeTransaction(t: Transaction) {
  if (t.kind === 'payment') return serializePayment(t);
  if (t.kind === 'refund') return serializeRefund(t);
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
    fee: money(t.fee),
    account_number: t.accountNumber,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
    ...collectionNextAction(t),
    expires_at: iso(t.expiresAt),
    ...times,
  };
}
