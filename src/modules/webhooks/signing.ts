import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signatures (via the `standardwebhooks` package): one
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` per secret, space
 * separated. During a rotation both the new and the old secret sign, so a
 * receiver holding either verifies.
 */
export function signatureHeader(secrets: string[], eventId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, timestamp, body)).join(' ');
}

/**
 * The webhook body (CONTRACT §8): the event with the full record as the status endpoint returns it. The one
 * builder of it: the dispatcher POSTs it, and `eventRecorded` (EventFeed) hands it to `listen` as it is.
 */
export function webhookBody(event: { id: string; type: string; createdAt: Date }, payloadJson: string): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":"${event.createdAt.toISOString()}","data":${payloadJson}}`;
}

export function webhookHeaders(secrets: string[], eventId: string, timestamp: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-gateway-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, eventId, timestamp, body),
  };
}
