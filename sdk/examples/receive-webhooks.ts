import http from 'node:http';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../src';
import { env, runIfMain } from './run';

/** One line per event; `event.data` is typed by `event.type`. */
export function describeEvent(event: WebhookEvent): string {
  switch (event.type) {
    case 'collection.successful':
      return `collection ${event.data.reference}: ${event.data.amount} ${event.data.currency} received`;
    case 'transfer.successful':
      return `transfer ${event.data.reference}: ${event.data.destination_amount} ${event.data.destination_currency} delivered`;
    case 'customer.kyc.approved':
    case 'customer.kyc.rejected':
      return `customer ${event.data.customer_uuid}: KYC ${event.data.kyc_status}`;
    case 'payout.created':
    case 'payout.paid':
    case 'payout.failed':
      return `payout ${event.data.id}: ${event.data.amount} ${event.data.currency} ${event.data.status}`;
    case 'dispute.created':
    case 'dispute.updated':
    case 'dispute.closed':
    case 'dispute.funds_withdrawn':
    case 'dispute.funds_reinstated':
    case 'dispute.evidence_due_soon':
      return `dispute ${event.data.id} of ${event.data.payment_reference}: ${event.data.status}, evidence due by ${event.data.evidence_due_by}`;
    case 'webhook.test':
      return `test event (${event.data.requested_at}): verified`;
    default:
      return `${event.type} ${event.data.reference}: ${event.data.status}`;
  }
}

/**
 * A webhook endpoint: verifies each delivery on its raw body (several secrets while you roll a new one
 * out), answers 204, then handles it. Delivery is at least once: an id seen before is not handled again.
 */
export function startWebhookReceiver(secrets: string | string[], onEvent: (event: WebhookEvent) => void, port = 3000): Promise<http.Server> {
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let event: WebhookEvent;
      try {
        event = verifyWebhook(Buffer.concat(chunks), req.headers, secrets);
      } catch (err) {
        res.writeHead(err instanceof WebhookVerificationError ? 401 : 400).end();
        return;
      }
      res.writeHead(204).end();
      if (!seen.has(event.id)) {
        seen.add(event.id);
        onEvent(event);
      }
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

runIfMain(module, () => startWebhookReceiver(env('WEBHOOK_SECRET').split(','), (event) => console.log(describeEvent(event))).then(() => 'listening on :3000'));
