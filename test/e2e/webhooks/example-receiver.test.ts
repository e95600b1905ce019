import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { handlers, start, type RunningReceiver } from '../../../examples/webhook-receiver/server';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { EVENT_TYPES } from '../../../src/modules/outbox/event-types';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { awaitDelivery, kycApprovedEvent, setEndpoint } from '../../helpers/webhooks';

const ROOT = path.join(__dirname, '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

/**
 * Issue 24: the README's receiver is examples/webhook-receiver/server.js, and this runs that very
 * file against the real service: signatures verified on the raw body, a bad or stale one refused,
 * each event handled once (a resend, same webhook-id, is acknowledged and not handled again).
 */
describe('examples/webhook-receiver against the service', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;
  let receiver: RunningReceiver;
  /** Every line the receiver printed, in order. */
  const printed: string[] = [];
  const print = (line: string) => printed.push(line);
  const linesFor = (verb: 'handled' | 'duplicate' | 'refused', id: string) =>
    printed.filter((l) => l.startsWith(`${verb} ${id} `) || l.startsWith(`${verb} ${id}:`));
  /** The receiver handles an event just after answering: wait for its line. */
  const handledOnce = async (id: string) => {
    expect(await eventually(async () => linesFor('handled', id).length > 0)).toBe(true);
    return linesFor('handled', id);
  };
  const attemptsOf = (event: any) => event.attempts.map((a: any) => [a.attempt_number, a.status_code, a.success]);

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Example Receiver');
    token = (await app.token(merchant)).accessToken;
    receiver = await start({ secret: merchant.webhookSecret, port: 0, print });
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    await setEndpoint(app.url, token, receiver.url);
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('handles every event type the service sends, pins the versions this test runs, and is the code the README shows', () => {
    expect(Object.keys(handlers).sort()).toEqual([...EVENT_TYPES].sort());
    // The root installs what the example imports (express as a devDependency): the same exact versions.
    const example = readJson('examples/webhook-receiver/package.json');
    const root = readJson('package.json');
    expect(example.dependencies).toEqual({ express: root.devDependencies.express, standardwebhooks: root.dependencies.standardwebhooks });
    for (const version of Object.values(example.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(example).toMatchObject({ private: true, scripts: { start: 'node server.js' } });

    // README, A first webhook: each line of code of its excerpt is a line of server.js.
    const excerpt = /Its core, from `server\.js`[^\n]*\n\n```js\n([\s\S]*?)\n```/.exec(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))?.[1] ?? '';
    const code = excerpt
      .split('\n')
      .map((line) => line.replace(/\s*\/\/ .*$/, '').trim())
      .filter(Boolean);
    expect(code.length).toBeGreaterThan(15);
    const serverLines = new Set(
      readFileSync(path.join(ROOT, 'examples/webhook-receiver/server.js'), 'utf8')
        .split('\n')
        .map((line) => line.trim()),
    );
    expect(code.filter((line) => !serverLines.has(line))).toEqual([]);
  });

  it('verifies and handles a collection.successful once; its resend (same webhook-id) is acknowledged, not handled again', async () => {
    const customer = await approvedCustomer(app, token);
    const kycEvents = await request(app.url, 'GET', '/v1/webhooks/events?type=customer.kyc.approved', { token });
    expect(kycEvents.body.data).toHaveLength(1);
    const kycEventId: string = kycEvents.body.data[0].id;

    // A bank collection stays processing until paid: the sandbox's simulate decides it now.
    const body = bankCollectionBody(customer.customer_uuid);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body });
    expect(created.status).toBe(200);
    const reference: string = created.body.data.reference;
    const simulated = await request(app.url, 'POST', `/v1/sandbox/transactions/${reference}/simulate`, { token, body: { outcome: 'successful' } });
    expect(simulated.status).toBe(200);
    const events = await request(app.url, 'GET', '/v1/webhooks/events?type=collection.successful', { token });
    expect(events.body.data).toHaveLength(1);
    const eventId: string = events.body.data[0].id;

    const delivered = await awaitDelivery(app, token, eventId);
    expect(delivered.delivery_status).toBe('delivered');
    expect(attemptsOf(delivered)).toEqual([[1, 204, true]]);
    expect(await handledOnce(eventId)).toEqual([`handled ${eventId} collection.successful: collection ${reference} (${body.reference}): 5000 KES received`]);
    expect(await handledOnce(kycEventId)).toEqual([
      `handled ${kycEventId} customer.kyc.approved: customer ${customer.customer_uuid}: KYC approved, it may now transact`,
    ]);

    const resent = await request(app.url, 'POST', `/v1/webhooks/events/${eventId}/resend`, { token });
    expect(resent.status).toBe(200);
    const again = await awaitDelivery(app, token, eventId, (e) => e.delivery_status === 'delivered' && e.attempt_count === 2);
    expect(attemptsOf(again)).toEqual([
      [1, 204, true],
      [2, 204, true],
    ]);
    // The receiver prints a repeat before answering it, and schedules no handling for it: both counts are final.
    expect(linesFor('duplicate', eventId)).toEqual([`duplicate ${eventId} (collection.successful): acknowledged, not handled again`]);
    expect(linesFor('handled', eventId)).toHaveLength(1);
    expect(linesFor('refused', eventId)).toEqual([]);
  });

  it('a test event (POST /v1/webhooks/test-event) checks it without a transaction: handled once, and the answer shows its 204', async () => {
    const sent = await request(app.url, 'POST', '/v1/webhooks/test-event', { token });
    expect(sent.status).toBe(201);
    expect(attemptsOf(sent.body.data)).toEqual([[1, 204, true]]);
    expect(await handledOnce(sent.body.data.id)).toEqual([`handled ${sent.body.data.id} webhook.test: test event: this receiver verified it and answered 204`]);
  });

  it('refuses a wrong, stale or missing signature and a changed body with 401; a refused webhook-id is not remembered', async () => {
    const id = `evt_example_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({
      id,
      type: 'customer.kyc.rejected',
      created_at: new Date().toISOString(),
      data: { customer_uuid: '3f1c2d4e-0000-4000-8000-000000000000', kyc_status: 'rejected', rejection_reason: 'document_unreadable' },
    });
    const signed = (secret: string, at = new Date()) => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    });
    const post = (headers: Record<string, string>, raw = body) =>
      fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
    const anotherSecret = `whsec_${randomBytes(32).toString('base64')}`;

    const refused = [
      await post(signed(anotherSecret)),
      await post(signed(merchant.webhookSecret), body.replace('document_unreadable', 'none')),
      await post(signed(merchant.webhookSecret, new Date(Date.now() - 10 * 60 * 1000))),
      await post({ 'webhook-id': id }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('invalid webhook signature');
    }
    expect(linesFor('refused', id)).toEqual([
      `refused ${id}: No matching signature found`,
      `refused ${id}: No matching signature found`,
      `refused ${id}: Message timestamp too old`,
      `refused ${id}: Missing required headers`,
    ]);
    expect(linesFor('handled', id)).toEqual([]);

    // The genuine message, twice at once: both acknowledged, handled once.
    const genuine = signed(merchant.webhookSecret);
    const answers = await Promise.all([post(genuine), post(genuine)]);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    expect(linesFor('duplicate', id)).toHaveLength(1);
    expect(await handledOnce(id)).toEqual([
      `handled ${id} customer.kyc.rejected: customer 3f1c2d4e-0000-4000-8000-000000000000: KYC rejected (document_unreadable)`,
    ]);
  });

  it('after a secret rotation verifies with the old secret during the overlap, and with the new one once restarted with it', async () => {
    const rotated = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.webhook_secret;

    const during = await kycApprovedEvent(app, token);
    expect(attemptsOf(await awaitDelivery(app, token, during.eventId))).toEqual([[1, 204, true]]);
    expect(await handledOnce(during.eventId)).toHaveLength(1);

    await receiver.close();
    receiver = await start({ secret: newSecret, port: 0, print });
    await setEndpoint(app.url, token, receiver.url);
    const after = await kycApprovedEvent(app, token);
    expect(attemptsOf(await awaitDelivery(app, token, after.eventId))).toEqual([[1, 204, true]]);
    expect(await handledOnce(after.eventId)).toHaveLength(1);
  });
});
