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

export function webhookHeaders(secrets: string[], eventId: string, timestamp: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-gateway-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, eventId, timestamp, body),
  };
}
