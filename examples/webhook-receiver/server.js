'use strict';
/*
 * A webhook receiver for the payments gateway, complete: `WEBHOOK_SECRET=whsec_… PORT=5000 node server.js`
 * (README.md beside this file). It
 *   1. verifies the Standard Webhooks signature on the raw body, and refuses a bad or stale one (401);
 *   2. acknowledges an event it has already seen (same webhook-id) without handling it again;
 *   3. answers 204 at once, then handles the event: here, one printed line per event type.
 *
 * Plain CommonJS on purpose: `node server.js` runs it as it is, and the gateway's own test
 * (test/e2e/webhooks/example-receiver.test.ts) loads this very file.
 */
const http = require('node:http');
const express = require('express');
const { Webhook, WebhookVerificationError } = require('standardwebhooks');

/**
 * What to do with each event type the service sends (src/modules/outbox/event-types.ts in the
 * gateway). `data` is the record as the REST status endpoint returns it: a KycRecord for
 * customer.kyc.*, a Transaction record for a transaction's events, a CheckoutSession for checkout.session.*, a Payout for payout.*, a Dispute for dispute.*, a WebhookTest
 * for webhook.test. Put your own work here; this example
 * describes the event in one line.
 */
const handlers = Object.freeze({
  'customer.kyc.approved': (kyc) => `customer ${kyc.customer_uuid}: KYC approved, it may now transact`,
  'customer.kyc.rejected': (kyc) => `customer ${kyc.customer_uuid}: KYC rejected (${kyc.rejection_reason ?? 'no reason given'})`,
  // *.processing and payment.requires_action come only if you chose them (PUT /v1/webhooks/endpoint, event_types).
  'collection.processing': (t) => `collection ${t.reference} (${t.external_reference}): waiting for ${t.amount} ${t.currency}`,
  'collection.successful': (t) => `collection ${t.reference} (${t.external_reference}): ${t.amount} ${t.currency} received`,
  'collection.failed': (t) => `collection ${t.reference} (${t.external_reference}): failed (${t.failure_reason})`,
  'collection.expired': (t) => `collection ${t.reference} (${t.external_reference}): expired unpaid`,
  'transfer.processing': (t) => `transfer ${t.reference} (${t.external_reference}): ${t.destination_amount} ${t.destination_currency} on its way`,
  'transfer.successful': (t) => `transfer ${t.reference} (${t.external_reference}): ${t.destination_amount} ${t.destination_currency} paid out`,
  'transfer.failed': (t) => `transfer ${t.reference} (${t.external_reference}): failed (${t.failure_reason})`,
  'payment.processing': (t) => `payment ${t.reference} (${t.external_reference}): ${t.amount} ${t.currency} being processed`,
  'payment.requires_action': (t) => `payment ${t.reference} (${t.external_reference}): waiting for the payer (${t.next_action?.type})`,
  'payment.successful': (t) => `payment ${t.reference} (${t.external_reference}): ${t.amount} ${t.currency} paid`,
  'payment.failed': (t) => `payment ${t.reference} (${t.external_reference}): failed (${t.failure_reason})`,
  'payment.expired': (t) => `payment ${t.reference} (${t.external_reference}): expired unpaid (nobody paid into its bank_info)`,
  'refund.processing': (t) => `refund ${t.reference} of ${t.payment_reference}: ${t.amount} ${t.currency} being given back`,
  'refund.successful': (t) => `refund ${t.reference} of ${t.payment_reference}: ${t.amount} ${t.currency} given back`,
  'refund.failed': (t) => `refund ${t.reference} of ${t.payment_reference}: failed (${t.failure_reason})`,
  // A payout of your balance to your own account (`data` is the payout): reconcile it with GET /v1/payouts/{id}/report.
  'payout.created': (p) => `payout ${p.id}: ${p.amount} ${p.currency} on its way to ${p.destination.account_number_masked}`,
  'payout.paid': (p) => `payout ${p.id}: ${p.amount} ${p.currency} paid (trace ${p.trace_reference})`,
  'payout.failed': (p) => `payout ${p.id}: failed (${p.failure_reason}); its money is back in your balance`,
  // A funding of your own balance (POST /v1/balance/funding): credited to your available balance when it arrives.
  'funding.processing': (t) =>
    `funding ${t.reference} (${t.external_reference}): pay ${t.amount} ${t.currency} into ${t.bankInfo?.accountNumber} by ${t.expires_at}`,
  'funding.successful': (t) => `funding ${t.reference} (${t.external_reference}): ${t.amount} ${t.currency} added to your available balance`,
  'funding.failed': (t) => `funding ${t.reference} (${t.external_reference}): failed (${t.failure_reason})`,
  'funding.expired': (t) => `funding ${t.reference} (${t.external_reference}): expired unpaid`,
  // A cardholder disputes a card payment (`data` is the dispute): answer before evidence_due_by (POST /v1/disputes/{id}/evidence, then /submit).
  'dispute.created': (d) => `dispute ${d.id} of ${d.payment_reference}: ${d.amount} ${d.currency} (${d.reason}), evidence due by ${d.evidence_due_by}`,
  'dispute.evidence_due_soon': (d) => `dispute ${d.id}: evidence due by ${d.evidence_due_by}`,
  'dispute.updated': (d) => `dispute ${d.id}: ${d.status}`,
  'dispute.funds_withdrawn': (d) => `dispute ${d.id}: ${d.amount} ${d.currency} and the fee ${d.fee} held from your balance`,
  'dispute.funds_reinstated': (d) => `dispute ${d.id}: won, ${d.amount} ${d.currency} and the fee back in your balance`,
  'dispute.closed': (d) => `dispute ${d.id}: ${d.status}`,
  // A hosted checkout session (`data` is its record): fulfil the order named by your reference once it is complete.
  'checkout.session.completed': (s) => `checkout ${s.id} (${s.reference}): paid by ${s.payment_reference}, ${s.amount} ${s.currency}`,
  'checkout.session.expired': (s) => `checkout ${s.id} (${s.reference}): expired unpaid`,
  'webhook.test': () => 'test event: this receiver verified it and answered 204',
});

const SECRET_SHAPE = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/**
 * The receiver as an Express app: POST /hooks.
 * @param {{ secret: string, print?: (line: string) => void, maxRemembered?: number }} options
 *   secret: the merchant's webhook secret (whsec_…); print: where its lines go (console.log);
 *   maxRemembered: how many webhook-ids it keeps to recognise a repeat (10 000).
 */
function createApp({ secret, print = console.log, maxRemembered = 10_000 }) {
  if (typeof secret !== 'string' || !SECRET_SHAPE.test(secret)) throw new Error('the webhook secret must be the whsec_… string the gateway gave the merchant');
  const webhook = new Webhook(secret);

  // The webhook-ids already accepted, oldest first (a Map keeps insertion order). Delivery is at
  // least once: a retry after a lost answer, or a resend (POST /v1/webhooks/events/{id}/resend),
  // carries the same webhook-id. Kept in memory, and bounded, this forgets on restart and after
  // `maxRemembered` newer events. A real receiver keeps it in its database instead: a table with a
  // unique constraint on webhook_id, written before answering, e.g.
  //   insert into received_webhook (webhook_id, type, body) values ($1, $2, $3) on conflict (webhook_id) do nothing
  // (no row inserted: a repeat), with the event handled from that table by its own job queue, so
  // that nothing is lost if the process stops right after answering.
  const seen = new Map();
  const remember = (id) => {
    seen.set(id, Date.now());
    if (seen.size > maxRemembered) seen.delete(seen.keys().next().value);
  };

  const handle = (id, event) => {
    try {
      const handler = handlers[event.type];
      // An event type added later is acknowledged and skipped, not refused: refusing would only make the gateway retry it.
      print(handler ? `handled ${id} ${event.type}: ${handler(event.data)}` : `skipped ${id}: no handler for ${event.type}`);
    } catch (err) {
      print(`failed to handle ${id} (${event.type}): ${err.message}`);
    }
  };

  const app = express();
  app.disable('x-powered-by');

  // express.raw keeps the body as the bytes received: the signature covers exactly those bytes,
  // and a body parsed and serialised again would not match it.
  app.post('/hooks', express.raw({ type: 'application/json', limit: '1mb' }), (req, res) => {
    const id = req.get('webhook-id') ?? '';
    let event;
    try {
      // Checks the signature (any of the space-separated ones: during a secret rotation there are
      // several) and refuses a webhook-timestamp more than 5 minutes from this machine's clock.
      event = webhook.verify(Buffer.isBuffer(req.body) ? req.body : '', {
        'webhook-id': id,
        'webhook-timestamp': req.get('webhook-timestamp') ?? '',
        'webhook-signature': req.get('webhook-signature') ?? '',
      });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      print(`refused ${id || '(no webhook-id)'}: ${err.message}`);
      return res.status(401).type('text').send('invalid webhook signature');
    }
    if (typeof event?.type !== 'string') {
      print(`refused ${id}: a signed body that is not an event`);
      return res.status(400).type('text').send('not an event');
    }

    if (seen.has(id)) {
      print(`duplicate ${id} (${event.type}): acknowledged, not handled again`);
      return res.sendStatus(204);
    }
    remember(id);
    // Answer first: the gateway waits at most WEBHOOK_TIMEOUT_MS (10 s) and retries otherwise.
    res.sendStatus(204);
    setImmediate(() => handle(id, event));
  });

  // An error, from reading the request (a body over the limit: 413) or from this code (500, and
  // the gateway retries): a short text answer, never a stack trace.
  app.use((err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status < 600 ? err.status : 500;
    print(`answered ${status}: ${err.message}`);
    res
      .status(status)
      .type('text')
      .send(status < 500 ? 'bad request' : 'error');
  });
  return app;
}

/**
 * Starts the receiver on 127.0.0.1 (port 0: any free port).
 * @returns {Promise<{ url: string, server: import('node:http').Server, close: () => Promise<void> }>}
 */
function start({ port = 0, ...options }) {
  return new Promise((resolve, reject) => {
    const server = http.createServer(createApp(options)); // a bad secret throws here: a rejection
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const close = () =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve({ url: `http://127.0.0.1:${server.address().port}/hooks`, server, close });
    });
  });
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 5000);
  if (!process.env.WEBHOOK_SECRET) {
    console.error('Set WEBHOOK_SECRET to the merchant’s webhook secret (whsec_…).');
    process.exit(1);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, not ${process.env.PORT}`);
    process.exit(1);
  }
  start({ secret: process.env.WEBHOOK_SECRET, port }).then(
    ({ url, close }) => {
      console.log(`webhook receiver listening on ${url}`);
      const stop = () => close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err) => {
      console.error(`webhook receiver could not start: ${err.message}`);
      process.exit(1);
    },
  );
}

module.exports = { createApp, start, handlers };
