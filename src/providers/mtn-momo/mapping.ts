import { msisdn, type InboundNotification, type InitiateRequest, type ParsedNotification } from '../connector';
import { bodyDigest, field, lenientJson } from '../provider-http';

/**
 * MTN wants `X-Reference-Id` to be a version-4 UUID; a transaction's id is a UUIDv7 (time-ordered,
 * shared/crypto.ts). Its version digit set to 4 is still unique (every v7 id has 7 there) and the
 * same on every call, so a retry and a reconciliation name the same request. Older v4 ids stay as they are.
 */
export function referenceIdOf(transactionId: string): string {
  return `${transactionId.slice(0, 14)}4${transactionId.slice(15)}`;
}

/** A target environment is one country's MTN; `sandbox` is MTN's test environment (every MTN country here routes to it). */
export const MTN_TARGET_COUNTRIES: Record<string, string> = {
  mtnghana: 'GH',
  mtnuganda: 'UG',
  mtnrwanda: 'RW',
  mtnsouthafrica: 'ZA',
  mtnbenin: 'BJ',
  mtncameroon: 'CM',
  mtnivorycoast: 'CI',
  mtncongo: 'CG',
  mtnzambia: 'ZM',
};

/** Our direction → MTN's product, its creation path, and which party the account is. */
export const PRODUCT_PATHS = {
  collection: { product: 'collection', create: '/collection/v1_0/requesttopay', party: 'payer' },
  transfer: { product: 'disbursement', create: '/disbursement/v1_0/transfer', party: 'payee' },
} as const;

/**
 * payerMessage / payeeNote: at most 160 characters, and MTN refuses some characters outright
 * (an apostrophe, `&`): only letters, digits, spaces and plain punctuation go through.
 */
export function momoNote(text: string): string {
  return (
    text
      .replace(/[^\p{L}\p{N} .,:;\-_/#()]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160) || 'Payment'
  );
}

/** A request-to-pay's or a transfer's body. */
export function creationBody(request: InitiateRequest, targetEnvironment: string): Record<string, unknown> {
  const note = momoNote(request.description ?? request.reference);
  return {
    amount: request.amount,
    // MTN's sandbox environment takes EUR only (its documentation); a country's takes its currency.
    currency: targetEnvironment === 'sandbox' ? 'EUR' : request.currency,
    externalId: request.reference,
    [PRODUCT_PATHS[request.kind].party]: { partyIdType: 'MSISDN', partyId: msisdn(request.dialCode, request.accountNumber) },
    payerMessage: note,
    payeeNote: note,
  };
}

/** The callback is the GET's body, unsigned: kept, never believed. Any body at all is fine here. */
export function parseMtnNotification(notification: InboundNotification): ParsedNotification {
  const json = lenientJson(notification.body);
  return {
    dedupeKey: bodyDigest(notification.body),
    providerReference: field(json, 'referenceId') ?? field(json, 'financialTransactionId'),
    claimed: field(json, 'status'),
  };
}
