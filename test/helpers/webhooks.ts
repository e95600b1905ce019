import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { approvedCustomer } from './factories';
import { request } from './http';
import type { ReceivedWebhook } from './receiver';
import type { TestApp } from './test-app';
import { eventually } from './wait';

/** Compressed delivery settings: three quick retries, a short timeout, fast release of a dead instance's jobs. */
export const FAST_WEBHOOKS = {
  WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms',
  WEBHOOK_TIMEOUT_MS: '500',
  JOB_HEARTBEAT_MS: '500',
};

/** Runs SQL ($1 placeholders) on a database by URL, outside the service. */
export async function dbQuery<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export const putEndpoint = (baseUrl: string, token: string, url: unknown) => request(baseUrl, 'PUT', '/v1/webhooks/endpoint', { token, body: { url } });

/** Registers the endpoint; throws unless the service accepted it. */
export async function setEndpoint(baseUrl: string, token: string, url: string | null) {
  const res = await putEndpoint(baseUrl, token, url);
  if (res.status !== 200) throw new Error(`PUT /v1/webhooks/endpoint failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The request's headers as the standardwebhooks package takes them. */
function webhookHeadersOf(received: ReceivedWebhook): Record<string, string> {
  const pick = (name: string) => {
    const value = received.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  return { 'webhook-id': pick('webhook-id'), 'webhook-timestamp': pick('webhook-timestamp'), 'webhook-signature': pick('webhook-signature') };
}

/** Verifies a received request with the standardwebhooks package, on its raw body; returns the parsed body. */
export function verifyDelivery(secret: string, received: ReceivedWebhook): any {
  return new Webhook(secret).verify(received.body, webhookHeadersOf(received));
}

export function verifies(secret: string, received: ReceivedWebhook): boolean {
  try {
    verifyDelivery(secret, received);
    return true;
  } catch {
    return false;
  }
}

export const signaturesOf = (received: ReceivedWebhook) => webhookHeadersOf(received)['webhook-signature'].split(' ').filter(Boolean);

/** Approves a customer's KYC (one customer.kyc.approved event); returns the customer and its event id. */
export async function kycApprovedEvent(app: TestApp, token: string) {
  const customer = await approvedCustomer(app, token);
  const [row] = await dbQuery<{ id: string }>(app.db.url, `select id from outbox_event where subject_id = $1 and type = 'customer.kyc.approved'`, [
    customer.customer_uuid,
  ]);
  if (!row) throw new Error(`no customer.kyc.approved event for ${customer.customer_uuid}`);
  return { customerUuid: customer.customer_uuid, eventId: row.id };
}

export const getEvent = (app: TestApp, token: string, eventId: string) =>
  request(app.url, 'GET', `/v1/webhooks/events/${encodeURIComponent(eventId)}`, { token });

/**
 * Waits (boundedly) until the event's delivery satisfies `done` (by default: it is no
 * longer pending); returns the event as GET /v1/webhooks/events/{id} shows it.
 */
export async function awaitDelivery(
  app: TestApp,
  token: string,
  eventId: string,
  done: (event: any) => boolean = (e) => e.delivery_status !== 'pending',
  opts?: { attempts?: number; everyMs?: number },
) {
  let event: any;
  const reached = await eventually(
    async () => {
      event = (await getEvent(app, token, eventId)).body.data;
      return event !== undefined && done(event);
    },
    opts ?? { attempts: 300, everyMs: 100 },
  );
  if (!reached) throw new Error(`delivery of ${eventId} did not reach the expected state in time: ${JSON.stringify(event)}`);
  return event;
}
