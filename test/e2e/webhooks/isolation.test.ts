import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { momoCollectionBody } from '../../helpers/transactions';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';
import { dbQuery, setEndpoint } from '../../helpers/webhooks';

/**
 * Issue 34, H1: one merchant's endpoint that never answers must not hold up anyone else.
 * Deliveries run in a lane of their own (never settlement's workers), each endpoint has a few
 * deliveries in flight at most (the rest wait), and an endpoint that keeps timing out has its
 * circuit opened: attempted less often, recovering by itself, its deliveries kept.
 */

/** Settlement quick enough to measure, attempts that give up after 2 s, and every test event allowed. */
const ENV = {
  SANDBOX_SETTLE_MS: '300',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms',
  WEBHOOK_TEST_EVENTS_PER_MINUTE: '1000',
  JOB_HEARTBEAT_MS: '500',
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Merchant {
  token: string;
  customerUuid: string;
}

async function merchantWithEndpoint(app: TestApp, name: string, endpoint: string, withCustomer: boolean): Promise<Merchant> {
  const credentials = await app.createMerchant(name);
  const { accessToken: token } = await app.token(credentials);
  await setEndpoint(app.url, token, endpoint);
  const customerUuid = withCustomer ? (await approvedCustomer(app, token)).customer_uuid : '';
  return { token, customerUuid };
}

/**
 * One collection of Y's, timed on the wall clock: from its initiation to its final status (the
 * settlement, a job), and to its `collection.successful` webhook at Y's receiver.
 */
async function timeCollection(app: TestApp, y: Merchant, receiver: Receiver): Promise<{ settleMs: number; webhookMs: number }> {
  const started = Date.now();
  const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: y.token, body: momoCollectionBody(y.customerUuid) });
  expect(created.status).toBe(200);
  const reference: string = created.body.data.reference;
  let settleMs = 0;
  const settled = await eventually(
    async () => {
      const res = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${reference}`, { token: y.token });
      if (res.body.data.status === 'processing') return false;
      settleMs = Date.now() - started;
      return true;
    },
    { attempts: 2000, everyMs: 10 },
  );
  expect(settled).toBe(true);
  const hook = () => receiver.received.find((r) => r.body.includes(reference) && r.body.includes('collection.successful'));
  expect(await eventually(async () => hook() !== undefined, { attempts: 2000, everyMs: 10 })).toBe(true);
  return { settleMs, webhookMs: hook()!.at - started };
}

async function timeCollections(app: TestApp, y: Merchant, receiver: Receiver, n = 5) {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(await timeCollection(app, y, receiver));
  return { settleMs: median(runs.map((r) => r.settleMs)), webhookMs: median(runs.map((r) => r.webhookMs)) };
}

/** X sends test events as fast as it can (each answer comes at once: an attempt beyond X's slots waits). */
async function flood(app: TestApp, x: Merchant, n: number): Promise<number[]> {
  const statuses = await Promise.all(
    Array.from({ length: n }, () => request(app.url, 'POST', '/v1/webhooks/test-event', { token: x.token }).then((r) => r.status)),
  );
  return statuses;
}

describe.each([
  ['one instance', 1],
  ['two instances', 2],
])("a merchant whose endpoint never answers, on %s: everyone else's settlement and webhooks keep their pace", (_label, instances) => {
  let apps: TestApp[];
  let two: TwoInstances | undefined;
  let hanging: Receiver;
  let healthy: Receiver;

  beforeAll(async () => {
    hanging = await startReceiver(() => 'hang');
    healthy = await startReceiver(() => 200);
    if (instances === 1) apps = [await createTestApp({ env: ENV })];
    else {
      two = await startTwoInstances(ENV);
      apps = [two.a, two.b];
    }
  });
  afterAll(async () => {
    await hanging.close();
    await healthy.close();
    if (two) await two.close();
    else await apps[0]!.close();
  });

  it("X's 100 test events to a hanging URL leave Y's settlement within 2 × its unloaded time, and X gets at most its slots at once", async () => {
    const [first] = apps;
    const x = await merchantWithEndpoint(first!, 'Merchant X (dark endpoint)', hanging.url, false);
    const y = await merchantWithEndpoint(first!, 'Merchant Y', healthy.url, true);
    // Y's own pace with nothing else running, measured on the instance it uses under load.
    const unloaded = await timeCollections(apps[apps.length - 1]!, y, healthy);

    // X's flood goes to every instance, so each one's workers see X's deliveries.
    const statuses = (await Promise.all(apps.map((app) => flood(app, x, 100 / instances)))).flat();
    expect(statuses.every((s) => s === 201)).toBe(true);
    // X's endpoint has taken what it can: its slots, each waiting on a POST that never ends (until its circuit opens).
    expect(await eventually(async () => hanging.received.length >= 1)).toBe(true);

    const loaded = await timeCollections(apps[apps.length - 1]!, y, healthy);
    expect(loaded.settleMs).toBeLessThanOrEqual(2 * unloaded.settleMs);
    expect(loaded.webhookMs).toBeLessThanOrEqual(2 * unloaded.webhookMs);

    // Across every instance, X never had more in flight than an endpoint not known to answer promptly is offered
    // (WEBHOOK_SLOW_ENDPOINT_CONCURRENCY, 2).
    expect(hanging.load.maxOpen).toBeGreaterThanOrEqual(1);
    expect(hanging.load.maxOpen).toBeLessThanOrEqual(2);
    // None of X's deliveries was dropped: each is pending (waiting, or between attempts), none failed.
    const rows = await dbQuery<{ status: string; count: number }>(
      first!.db.url,
      `select d.status, count(*)::int as count from webhook_delivery d join outbox_event e on e.id = d.event_id
       where e.type = 'webhook.test' group by d.status`,
    );
    expect(rows).toEqual([{ status: 'pending', count: 100 }]);
  });
});

describe('the per-endpoint cap and the circuit', () => {
  let app: TestApp;
  let answer: 'hang' | 200 = 'hang';
  let endpoint: Receiver;

  beforeAll(async () => {
    endpoint = await startReceiver(() => answer);
    app = await createTestApp({
      env: {
        ...ENV,
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_CIRCUIT_FAILURES: '3',
        WEBHOOK_CIRCUIT_OPEN_S: '2',
      },
    });
  });
  afterAll(async () => {
    await endpoint.close();
    await app.close();
  });

  it('opens after repeated timeouts (nothing is sent while open), lets one attempt through after, and closes on an answer: every delivery kept and delivered', async () => {
    const x = await merchantWithEndpoint(app, 'Merchant X (flaky endpoint)', endpoint.url, false);
    const statuses = await flood(app, x, 12);
    expect(statuses.every((s) => s === 201)).toBe(true);

    // Three unanswered attempts in a row open the circuit.
    const circuit = async () =>
      (await dbQuery<{ failures: number; open: boolean }>(app.db.url, 'select failures, open_until > now() as open from webhook_endpoint'))[0];
    expect(await eventually(async () => (await circuit())?.open === true, { attempts: 200, everyMs: 25 })).toBe(true);
    expect(endpoint.load.maxOpen).toBeLessThanOrEqual(2);

    // While open, nothing more is sent: the count of requests stands still once the last in flight timed out.
    expect(await eventually(async () => endpoint.load.open === 0, { attempts: 200, everyMs: 25 })).toBe(true);
    const sentWhileOpen = endpoint.received.length;
    const stillOpen = await circuit();
    expect(stillOpen?.open).toBe(true);
    await eventually(async () => (await circuit())?.open === false, { attempts: 200, everyMs: 25 });
    // Sent during the open period: nothing (read before it ended).
    expect(endpoint.received.length - sentWhileOpen).toBeLessThanOrEqual(1);

    // The endpoint comes back; the circuit's probe gets an answer and every kept delivery goes out.
    answer = 200;
    const delivered = async () =>
      (await dbQuery<{ n: number }>(app.db.url, `select count(*)::int as n from webhook_delivery where status = 'delivered'`))[0]!.n === 12;
    expect(await eventually(delivered, { attempts: 600, everyMs: 50 })).toBe(true);
    const failed = await dbQuery<{ n: number }>(app.db.url, `select count(*)::int as n from webhook_delivery where status = 'failed'`);
    expect(failed[0]!.n).toBe(0);
    expect((await circuit())?.failures).toBe(0);
    expect(endpoint.load.maxOpen).toBeLessThanOrEqual(2);
  });

  it('an endpoint that answers promptly is offered all its slots (slow start: 2 until its first prompt answer), never more', async () => {
    const prompt = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), 150));
    });
    const load = { open: 0, maxOpen: 0 };
    prompt.on('request', (_req, res) => {
      load.maxOpen = Math.max(load.maxOpen, ++load.open);
      res.on('close', () => load.open--);
    });
    await new Promise<void>((resolve) => prompt.listen(0, '127.0.0.1', resolve));
    const wide = await createTestApp({ env: { ...ENV, WEBHOOK_ENDPOINT_CONCURRENCY: '6' } });
    try {
      const url = `http://127.0.0.1:${(prompt.address() as AddressInfo).port}/hooks`;
      const x = await merchantWithEndpoint(wide, 'Merchant X (prompt endpoint)', url, false);
      // One first, so that the endpoint is known to answer promptly; then a burst.
      expect((await request(wide.url, 'POST', '/v1/webhooks/test-event', { token: x.token })).status).toBe(201);
      expect((await flood(wide, x, 40)).every((s) => s === 201)).toBe(true);
      const delivered = async () =>
        (await dbQuery<{ n: number }>(wide.db.url, `select count(*)::int as n from webhook_delivery where status = 'delivered'`))[0]!.n === 41;
      expect(await eventually(delivered, { attempts: 600, everyMs: 50 })).toBe(true);
      expect(load.maxOpen).toBeGreaterThan(2);
      expect(load.maxOpen).toBeLessThanOrEqual(6);
    } finally {
      await wide.close();
      prompt.closeAllConnections();
      await new Promise((resolve) => prompt.close(resolve));
    }
  });

  it("the merchant's own test event or resend lets one attempt through an open circuit, and a new endpoint address starts closed", async () => {
    // Unanswered by a dropped connection (at once), not a short timeout: on a loaded machine a short timeout also
    // cuts the mended receiver's answers, and two such reopen the circuit for 600 s.
    let reply: 'reset' | 200 = 'reset';
    const mended = await startReceiver(() => reply);
    const other = await startReceiver(() => 200);
    const paused = await createTestApp({
      env: { ...ENV, WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_CIRCUIT_FAILURES: '2', WEBHOOK_CIRCUIT_OPEN_S: '600' },
    });
    try {
      const circuitOpen = async () =>
        (await dbQuery<{ open: boolean }>(paused.db.url, 'select open_until > now() as open from webhook_endpoint'))[0]?.open === true;
      const x = await merchantWithEndpoint(paused, 'Merchant X (mends its receiver)', mended.url, false);
      expect((await flood(paused, x, 4)).every((s) => s === 201)).toBe(true);
      expect(await eventually(circuitOpen, { attempts: 200, everyMs: 25 })).toBe(true);

      // Mended: the merchant's test event goes through the open circuit (at once, or as soon as the circuit's one
      // slot is free of an attempt still timing out), and its answer closes it, 600 s before the circuit would have.
      reply = 200;
      const probe = await request(paused.url, 'POST', '/v1/webhooks/test-event', { token: x.token });
      expect(probe.status).toBe(201);
      expect(await eventually(async () => !(await circuitOpen()), { attempts: 400, everyMs: 25 })).toBe(true);
      const allDelivered = async () =>
        (await dbQuery<{ n: number }>(paused.db.url, `select count(*)::int as n from webhook_delivery where status <> 'delivered'`))[0]!.n === 0;
      expect(await eventually(allDelivered, { attempts: 400, everyMs: 25 })).toBe(true);

      // Dark again: the circuit opens; a resend is let through (one attempt, unanswered, which reopens it).
      reply = 'reset';
      expect((await flood(paused, x, 3)).every((s) => s === 201)).toBe(true);
      expect(await eventually(circuitOpen, { attempts: 200, everyMs: 25 })).toBe(true);
      // (Each test event was let through the circuit in turn: the ones after it opened are retries in waiting.)
      const [waiting] = await dbQuery<{ id: string }>(
        paused.db.url,
        `select event_id as id from webhook_delivery where status = 'pending' order by event_id limit 1`,
      );
      const before = mended.received.length;
      expect((await request(paused.url, 'POST', `/v1/webhooks/events/${waiting!.id}/resend`, { token: x.token })).status).toBe(200);
      expect(await eventually(async () => mended.received.length === before + 1, { attempts: 200, everyMs: 25 })).toBe(true);

      // A new address: its circuit starts closed, and every waiting delivery goes there.
      await setEndpoint(paused.url, x.token, other.url);
      expect(await circuitOpen()).toBe(false);
      expect(await eventually(allDelivered, { attempts: 600, everyMs: 50 })).toBe(true);
      expect(other.received.length).toBeGreaterThanOrEqual(1);
    } finally {
      await paused.close();
      await mended.close();
      await other.close();
    }
  });

  it('test events are limited per merchant: the 11th in a minute is 429 RATE_LIMITED with Retry-After, in both doors', async () => {
    const limited = await createTestApp({ env: { WEBHOOK_TIMEOUT_MS: '500' } });
    try {
      const receiver = await startReceiver(() => 200);
      try {
        const x = await merchantWithEndpoint(limited, 'Merchant X (tester)', receiver.url, false);
        const other = await merchantWithEndpoint(limited, 'Merchant Z (tester)', receiver.url, false);
        for (let i = 0; i < 10; i++) expect((await request(limited.url, 'POST', '/v1/webhooks/test-event', { token: x.token })).status).toBe(201);
        const refused = await request(limited.url, 'POST', '/v1/webhooks/test-event', { token: x.token });
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const viaGraphql = await graphql(limited.url, 'mutation { sendWebhookTestEvent { id } }', { token: x.token });
        expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
        // Nothing was recorded for the refused ones, and another merchant is not affected.
        const count = await dbQuery<{ n: number }>(limited.db.url, `select count(*)::int as n from outbox_event where type = 'webhook.test'`);
        expect(count[0]!.n).toBe(10);
        expect((await request(limited.url, 'POST', '/v1/webhooks/test-event', { token: other.token })).status).toBe(201);
      } finally {
        await receiver.close();
      }
    } finally {
      await limited.close();
    }
  });
});

describe('a test event whose attempt the request makes, then the pump (L5)', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (chunk: string) => void lines.push(chunk) };
  let app: TestApp;
  let slow: http.Server;
  let url: string;

  beforeAll(async () => {
    // Answers 200 after 300 ms. The event's delivery falls due for the pump only once the request's attempt could be
    // over (timeout + 5 s; webhook-delivery.sql.ts), so what this checks is that every request's own attempt is made
    // and answered within it, and that a pick afterwards finds nothing to send and logs nothing as an error.
    slow = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), 300));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
    app = await createTestApp({ env: { WEBHOOK_TIMEOUT_MS: '1000' }, logDestination: capture });
  });
  afterAll(async () => {
    await app.close();
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
  });

  it('logs no error: a pick after the requests finds their deliveries done, and sends nothing', async () => {
    const x = await merchantWithEndpoint(app, 'Merchant X (tests its receiver)', url, false);
    for (let i = 0; i < 5; i++) {
      const sent = await request(app.url, 'POST', '/v1/webhooks/test-event', { token: x.token });
      expect(sent.status).toBe(201);
      expect(sent.body.data.attempts).toHaveLength(1);
      expect(sent.body.data.attempts[0].status_code).toBe(200);
    }
    // Each delivery was made due later (after the request's attempt could be over), and is done: a pick now finds
    // nothing to send, and no second attempt is made.
    const due = await dbQuery<{ later: boolean }>(
      app.db.url,
      `select bool_and(created_at + interval '5 seconds' < next_attempt_at) as later from webhook_delivery`,
    );
    expect(due[0]!.later === null || due[0]!.later === true).toBe(true);
    expect(await app.service.app.services.webhookPump.pickNow()).toBe(0);
    const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors).toEqual([]);
    const delivered = await dbQuery<{ n: number }>(app.db.url, `select count(*)::int as n from webhook_delivery where status = 'delivered'`);
    expect(delivered[0]!.n).toBe(5);
    const attempts = await dbQuery<{ n: number }>(app.db.url, 'select count(*)::int as n from webhook_attempt');
    expect(attempts[0]!.n).toBe(5);
  });
});

describe('a test event picked by the pump while the request still holds its attempt (L5, the held path)', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (chunk: string) => void lines.push(chunk) };
  let app: TestApp;
  let gate: http.Server;
  let url: string;
  const posts: http.ServerResponse[] = [];

  beforeAll(async () => {
    // Holds each POST open until the test answers it: the request's attempt stays claimed for as long as the test says.
    gate = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => void posts.push(res));
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/hooks`;
    app = await createTestApp({ env: { WEBHOOK_TIMEOUT_MS: '10000' }, logDestination: capture });
  });
  afterAll(async () => {
    await app.close();
    gate.closeAllConnections();
    await new Promise((resolve) => gate.close(resolve));
  });

  it('the pump passes over the attempt held by the request: no error logged, no second POST, one attempt', async () => {
    const x = await merchantWithEndpoint(app, 'Merchant X (slow receiver)', url, false);
    const sending = request(app.url, 'POST', '/v1/webhooks/test-event', { token: x.token });
    // The request's attempt is in flight: its POST is at the receiver, unanswered.
    expect(await eventually(async () => posts.length === 1, { attempts: 200, everyMs: 25 })).toBe(true);
    // The event's delivery (due timeout + 5 s behind the request) made due now, and a pick run while the attempt is held.
    const made = await dbQuery<{ n: number }>(app.db.url, `update webhook_delivery set next_attempt_at = now() where status = 'pending' returning 1 as n`);
    expect(made).toHaveLength(1);
    expect(await app.service.app.services.webhookPump.pickNow()).toBe(0);
    // The pick ran while the request's POST was still open, and sent nothing of its own.
    expect(posts).toHaveLength(1);
    expect(posts[0]!.writableEnded).toBe(false);

    posts[0]!.writeHead(200).end('ok');
    const sent = await sending;
    expect(sent.status).toBe(201);
    expect(sent.body.data.attempts).toHaveLength(1);
    expect(sent.body.data.attempts[0].status_code).toBe(200);
    const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50);
    expect(errors).toEqual([]);
    expect(posts).toHaveLength(1);
    const attempts = await dbQuery<{ n: number }>(app.db.url, 'select count(*)::int as n from webhook_attempt');
    expect(attempts[0]!.n).toBe(1);
    const delivered = await dbQuery<{ n: number }>(app.db.url, `select count(*)::int as n from webhook_delivery where status = 'delivered'`);
    expect(delivered[0]!.n).toBe(1);
  });
});
