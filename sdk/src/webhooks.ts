import { Webhook, WebhookVerificationError as SignatureError } from 'standardwebhooks';
import type { components } from './generated/openapi';

type Schemas = components['schemas'];
type EventRecord = Schemas['WebhookEvent'];
export type WebhookEventType = EventRecord['type'];

/** The record each kind of event carries in `data` (the first part of its type). */
interface PayloadOfKind {
  customer: Schemas['KycRecord'];
  collection: Schemas['CollectionRecord'];
  transfer: Schemas['TransferRecord'];
  payment: Schemas['Payment'];
  refund: Schemas['Refund'];
  /** checkout.session.*: the hosted checkout session (issue 37). */
  checkout: Schemas['CheckoutSession'];
  /** payout.created, payout.paid, payout.failed: the payout (issue 38). */
  payout: Schemas['Payout'];
  /** funding.*: a funding of your balance (issue 41), as the status endpoint answers it. */
  funding: Schemas['Funding'];
  /** dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated, .evidence_due_soon: the dispute (issue 39). */
  dispute: Schemas['Dispute'];
  /** webhook.test: sent on request (POST /v1/webhooks/test-event), about nothing. */
  webhook: Schemas['WebhookTest'];
}
type PayloadOf<T extends WebhookEventType> = T extends `${infer Kind extends keyof PayloadOfKind}.${string}` ? PayloadOfKind[Kind] : never;
// Fails to compile when the service adds an event kind that PayloadOfKind does not name.
const everyKindHasAPayload: Exclude<WebhookEventType, `${keyof PayloadOfKind}.${string}`> extends never ? true : false = true;
void everyKindHasAPayload;

/**
 * A webhook's body, `{id, type, created_at, data}` (the WebhookEvent record of the OpenAPI document
 * without its delivery fields), narrowed by `type`: `data` is a KycRecord for customer.kyc.*, a CheckoutSession
 * for checkout.session.*, a Payout for payout.*, a Dispute for dispute.*, a WebhookTest for webhook.test, else the transaction as the status endpoint answers it.
 */
export type WebhookEvent = {
  [T in WebhookEventType]: Pick<EventRecord, 'id' | 'created_at'> & { type: T; data: PayloadOf<T> & EventRecord['data'] };
}[WebhookEventType];

export type WebhookFailure = 'missing_headers' | 'bad_signature' | 'stale_timestamp' | 'invalid_timestamp';

const EXPLAINED: Record<string, [WebhookFailure, string]> = {
  'Missing required headers': ['missing_headers', 'the webhook-id, webhook-timestamp and webhook-signature headers are required'],
  'No matching signature found': [
    'bad_signature',
    'no signature matches the webhook secret(s): a wrong secret, or a body changed on the way (verify the raw body, before parsing it)',
  ],
  'Message timestamp too old': ['stale_timestamp', 'webhook-timestamp is over 5 minutes old (a replay, or a clock out of sync)'],
  'Message timestamp too new': ['stale_timestamp', 'webhook-timestamp is over 5 minutes ahead (a clock out of sync)'],
  'Invalid Signature Headers': ['invalid_timestamp', 'webhook-timestamp is not a number of seconds'],
};

/** A webhook that must not be acted on; answer it 4xx (the service sends it again later if it was genuine). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(`Webhook refused: ${message}`);
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: WebhookHeaders, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  // A repeated id or timestamp is not trusted; repeated signature headers are one list.
  if (Array.isArray(value)) return name === 'webhook-signature' ? value.join(' ') : '';
  return value ?? '';
}

/**
 * Verifies a webhook the service sent (Standard Webhooks: HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 * a timestamp within 5 minutes) on its raw body, and returns the typed event. `secrets`: the webhook
 * secret, or several while you roll one out: the service signs with every live secret during a
 * rotation's overlap, so either the old or the new one verifies. Throws a WebhookVerificationError.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secrets: string | readonly string[]): WebhookEvent {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new TypeError('verifyWebhook: give at least one webhook secret');
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const signed = {
    'webhook-id': headerOf(headers, 'webhook-id'),
    'webhook-timestamp': headerOf(headers, 'webhook-timestamp'),
    'webhook-signature': headerOf(headers, 'webhook-signature'),
  };
  for (const secret of list) {
    try {
      return new Webhook(secret).verify(body, signed) as WebhookEvent;
    } catch (err) {
      if (!(err instanceof SignatureError)) throw err;
      const [reason, message] = EXPLAINED[err.message] ?? ['bad_signature', err.message];
      // Only the signature depends on the secret: try the next one for that alone.
      if (reason !== 'bad_signature') throw new WebhookVerificationError(reason, message);
    }
  }
  throw new WebhookVerificationError(...EXPLAINED['No matching signature found']!);
}
