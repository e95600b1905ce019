import { createCipheriv } from 'node:crypto';
import {
  ProviderUnreachable,
  msisdn,
  type CardChargeRequest,
  type CardDetails,
  type InboundNotification,
  type InitiateRequest,
  type ParsedNotification,
  type Payer,
  type Route,
  type VirtualAccountRequest,
} from '../connector';
import { bodyDigest, field, lenientJson, type ProviderResponse } from '../provider-http';
import data from './flutterwave.data.json';

interface Limit {
  min: string;
  max: string;
}
export interface ChargeSpec {
  type: string;
  currency: string;
  /** Our network code → Flutterwave's `network` (null: the type takes none, as M-Pesa's). */
  networks: Record<string, string | null>;
}
/** flutterwave.data.json: Flutterwave's side of our routes, as data (docs/providers.md). */
interface FlutterwaveData {
  transfer_codes: Record<string, Record<string, string>>;
  virtual_accounts: Record<string, { currency: string }>;
  charges: Record<string, ChargeSpec>;
  card: { currencies: string[] };
  limits: Record<Product, Record<string, Limit>>;
}
export type Product = 'transfer' | 'virtual_account' | 'mobile_money' | 'card';

export const DATA = data as FlutterwaveData;
export const PRODUCT_NAMES: Record<Product, string> = {
  transfer: 'payouts',
  virtual_account: 'bank collections',
  mobile_money: 'mobile money collections',
  card: 'card payments',
};
/** Flutterwave's own ids are numbers: anything else was never one of its answers. */
export const NUMERIC_ID = /^\d+$/;

/** Flutterwave's `account_bank` for a payout to this bank or wallet (null: not served). */
export function accountBank(countryCode: string | null, networkCode: string | null): string | null {
  return (countryCode && networkCode && DATA.transfer_codes[countryCode]?.[networkCode]) || null;
}

/** The charge type (and network) of a mobile money collection in this country on this network (null: not served). */
export function chargeSpec(countryCode: string | null, networkCode: string | null): ChargeSpec | null {
  const spec = countryCode ? DATA.charges[countryCode] : undefined;
  return spec && networkCode && Object.hasOwn(spec.networks, networkCode) ? spec : null;
}

/** Which Flutterwave product carries a route (null: none). */
export function productOf(route: Route): Product | null {
  if (route.channelType === 'card') return 'card';
  if (route.direction === 'transfer') return accountBank(route.countryCode, route.networkCode) ? 'transfer' : null;
  if (route.channelType === 'bank') return route.countryCode && DATA.virtual_accounts[route.countryCode] ? 'virtual_account' : null;
  return chargeSpec(route.countryCode, route.networkCode) ? 'mobile_money' : null;
}

/** What we read of a Flutterwave transaction (a charge: card, mobile money or a bank transfer into a virtual account). */
export interface FlutterwaveTransaction {
  id: string;
  txRef: string | null;
  /** Flutterwave's other reference of a charge: the one `POST /v3/validate-charge` takes. */
  flwRef: string | null;
  status: string;
  amount: string | null;
  currency: string | null;
  processorResponse: string | null;
}

/** A verify answer → the transaction; null when Flutterwave has none ("No transaction was found for this id"). */
export function transactionOf(connector: string, res: ProviderResponse): FlutterwaveTransaction | null {
  // "No transaction was found for this id": a 400 (a 404 too, to be safe).
  if ((res.status === 400 || res.status === 404) && /no transaction/i.test(field(res.json, 'message') ?? '')) return null;
  const id = field(res.json, 'data', 'id');
  if (res.status !== 200 || !id) throw new ProviderUnreachable(connector, 'verify', `HTTP ${res.status}`);
  return {
    id,
    txRef: field(res.json, 'data', 'tx_ref'),
    flwRef: field(res.json, 'data', 'flw_ref'),
    status: (field(res.json, 'data', 'status') ?? '').toLowerCase(),
    amount: field(res.json, 'data', 'amount'),
    currency: field(res.json, 'data', 'currency'),
    processorResponse: field(res.json, 'data', 'processor_response'),
  };
}

/** The sender of an M-Pesa payout, as Flutterwave requires it (an array of one object: docs/providers.md). */
type SenderMeta = Array<{ sender: string; sender_country: string; mobile_number: string }>;

/** `POST /v3/transfers`: a payout to a bank account or a wallet, with our id as its `reference`. */
export function transferBody(request: InitiateRequest, bank: string, meta: SenderMeta | undefined): Record<string, unknown> {
  return {
    account_bank: bank,
    account_number: request.accountType === 'momo' ? msisdn(request.dialCode, request.accountNumber) : request.accountNumber,
    amount: Number(request.amount),
    narration: (request.description ?? request.reference).slice(0, 100),
    currency: request.currency,
    debit_currency: request.currency,
    reference: request.idempotencyKey,
    // No callback_url: Flutterwave takes at most 100 characters (its SDK's schema), and its webhooks come to the
    // account's address anyway (/v1/providers/flutterwave/webhook).
    beneficiary_name: request.accountName ?? undefined,
    meta,
  };
}

/** `POST /v3/charges?type=…`: a mobile money collection, with our id as its `tx_ref`. */
export function mobileMoneyChargeBody(request: InitiateRequest, spec: ChargeSpec, payer: Payer): Record<string, unknown> {
  return {
    tx_ref: request.idempotencyKey,
    amount: Number(request.amount),
    currency: request.currency,
    email: payer.email,
    phone_number: msisdn(request.dialCode, request.accountNumber),
    fullname: payer.name ?? undefined,
    network: spec.networks[request.networkCode] ?? undefined,
    country: spec.type === 'mobile_money_franco' ? request.countryCode : undefined,
    order_id: request.currency === 'RWF' ? request.idempotencyKey : undefined,
  };
}

/** `POST /v3/virtual-account-numbers`: a temporary account for one bank collection. */
export function virtualAccountBody(request: VirtualAccountRequest, payer: Payer): Record<string, unknown> {
  return {
    email: payer.email,
    tx_ref: request.idempotencyKey,
    amount: Number(request.amount),
    currency: request.currency,
    is_permanent: false,
    narration: request.accountName.slice(0, 100) || undefined,
  };
}

/** A card charge's payload, before it is encrypted (`encryptCardPayload`). Held in memory for one request. */
export function cardPayload(request: CardChargeRequest, payer: Payer): Record<string, unknown> {
  return {
    card_number: request.card.number,
    cvv: request.card.cvc,
    expiry_month: String(request.card.expMonth).padStart(2, '0'),
    expiry_year: String(request.card.expYear).slice(-2),
    currency: request.currency,
    amount: Number(request.amount),
    email: payer.email,
    fullname: payer.name ?? undefined,
    tx_ref: request.idempotencyKey,
    redirect_url: request.returnUrl,
  };
}

/** What a card charge asks for before it goes on (`meta.authorization.mode`), and our failure when we do not have it. */
export const CARD_AUTHORIZATION_MISSING = { pin: 'pin_required', avs_noauth: 'address_required' } as const;
export type CardAuthorizationMode = keyof typeof CARD_AUTHORIZATION_MISSING;
export const asksCardAuthorization = (mode: string | null): mode is CardAuthorizationMode => mode === 'pin' || mode === 'avs_noauth';

/**
 * The `authorization` a card charge is sent again with (in its encrypted payload, the same `tx_ref`) when Flutterwave
 * asks for the card's PIN or its billing address (AVS, fields city, address, state, country, zipcode); null when the
 * cardholder gave us none. Held in memory for one request.
 */
export function cardAuthorization(mode: CardAuthorizationMode, card: CardDetails): Record<string, string> | null {
  if (mode === 'pin') return card.pin ? { mode: 'pin', pin: card.pin } : null;
  const address = card.billingAddress;
  if (!address) return null;
  return { mode: 'avs_noauth', city: address.city, address: address.line1, state: address.state, country: address.country, zipcode: address.postalCode };
}

/**
 * The card payload as Flutterwave's API demands it ([SDK] lib/security.js): 3DES-EDE3 in ECB mode under the
 * 24-character encryption key, PKCS#7 padding, base64. Built in memory for one request.
 */
export function encryptCardPayload(encryptionKey: string, payload: Record<string, unknown>): string {
  const cipher = createCipheriv('des-ede3', Buffer.from(encryptionKey, 'utf8'), null);
  return Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('base64');
}

/** Flutterwave's "YYYY-MM-DD HH:mm:ss" (UTC) or ISO time; null when absent or unreadable ("N/A"). */
export function flutterwaveTime(value: string | null): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(value)) return null;
  const date = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A webhook: its body's digest, the transaction it names (Flutterwave's id) and the status it claims. */
export function parseFlutterwaveNotification(notification: InboundNotification): ParsedNotification {
  const json = lenientJson(notification.body);
  return {
    dedupeKey: bodyDigest(notification.body),
    providerReference: field(json, 'data', 'id'),
    claimed: field(json, 'data', 'status'),
  };
}

/**
 * A charge's webhook echoes the card (`data.card`: its first six and last four digits, expiry and a reusable token):
 * none of it is kept. The rest of the body is kept as it came; a body that is not JSON is kept as is.
 */
export function redactedBody(body: string): string {
  const json = lenientJson(body);
  const data = json && typeof json === 'object' ? (json as { data?: unknown }).data : undefined;
  if (!data || typeof data !== 'object' || !('card' in data)) return body;
  return JSON.stringify({ ...(json as object), data: { ...(data as object), card: '[redacted]' } });
}

/** The transaction a webhook is about: our id, sent as the transfer's `reference` (or a charge's `tx_ref`). */
export function webhookTransactionOf(notification: InboundNotification): string | null {
  const json = lenientJson(notification.body);
  return field(json, 'data', 'reference') ?? field(json, 'data', 'tx_ref');
}
