import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyWebhook } from '../../../sdk/src';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { request } from '../../helpers/http';
import { startReceiver, type Receiver, type ReceivedWebhook } from '../../helpers/receiver';
import { enrollBody, kycBody } from '../../helpers/factories';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { setEndpoint } from '../../helpers/webhooks';
import { cleanEnv } from '../../helpers/process';
import { activeSubscriptions } from '../../helpers/ws';

/** The CLI as the root build makes it (`npx tsc -p .`): the same source as cli/'s own build. */
const CLI = path.resolve(__dirname, '../../../dist/cli/src/main.js');

/** A running CLI process: what it printed, line by line. */
interface CliProcess {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** What every waited-for effect may take at most (bounded polling, never a sleep). */
const WAIT = { attempts: 400, everyMs: 50 };

describe('payments-gateway CLI: listen, trigger, events resend (issue 41 point 9)', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let other: MerchantCredentials;
  let receiver: Receiver;
  let configHome: string;
  /** The secret the first `listen` printed; the receiver verifies every request with it. */
  let printedSecret = '';
  const started: CliProcess[] = [];
  /** The event the first trigger produced (resent in the last test). */
  let collectionEventId = '';

  const envOf = (m: MerchantCredentials) =>
    cleanEnv({
      PAYMENTS_BASE_URL: app.url,
      PAYMENTS_CLIENT_ID: m.merchant.clientId,
      PAYMENTS_CLIENT_SECRET: m.clientSecret,
      XDG_CONFIG_HOME: configHome,
    });

  function start(args: string[], m = merchant): CliProcess {
    const child = spawn(process.execPath, [CLI, ...args], { env: envOf(m), stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      buffered += d;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const cli = { child, lines, stderr: () => stderr, exited };
    started.push(cli);
    return cli;
  }

  /** Runs a command to its end (killed after 60 s). */
  async function run(args: string[], m = merchant) {
    const cli = start(args, m);
    const timer = setTimeout(() => cli.child.kill('SIGKILL'), 60_000);
    const code = await cli.exited;
    clearTimeout(timer);
    return { code, stdout: cli.lines.join('\n'), stderr: cli.stderr() };
  }

  /** `listen` processes of this test's merchant with their stream set up on the service. */
  let listening = 0;
  const streamsAre = (n: number) => eventually(async () => (await activeSubscriptions(app.url)) === n, WAIT);

  /**
   * Starts `listen`, waits for its "Ready!" line, then for the service to have set its stream up (the subscription
   * gauge: graphql-ws has no "subscribed" message), so that an event recorded after this reaches it. Answers the
   * secret it printed.
   */
  async function listen(receiverUrl: string, extra: string[] = []): Promise<{ cli: CliProcess; secret: string }> {
    if (!(await streamsAre(listening))) throw new Error('a stopped listen’s stream is still open');
    const cli = start(['listen', '--forward-to', receiverUrl, ...extra]);
    const ready = await eventually(async () => cli.lines.some((l) => l.startsWith('Ready!')) || cli.child.exitCode !== null, WAIT);
    const line = cli.lines.find((l) => l.startsWith('Ready!'));
    if (!ready || !line || !(await streamsAre(listening + 1))) throw new Error(`listen did not start: ${cli.lines.join('\n')} ${cli.stderr()}`);
    listening += 1;
    return { cli, secret: /(whsec_\S+)/.exec(line)![1]! };
  }

  async function stop(cli: CliProcess): Promise<number | null> {
    cli.child.kill('SIGINT');
    const code = await cli.exited;
    listening -= 1;
    return code;
  }

  /** The events the receiver got on a path, verified with the printed secret (throws on one that does not verify). */
  const verified = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => ({ event: verifyWebhook(r.body, r.headers, printedSecret), request: r }));
  const typesAt = (path: string): string[] => verified(path).map((v) => v.event.type);

  beforeAll(async () => {
    // No automatic settlement: each trigger decides its transactions (sandbox simulate).
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', WEBHOOK_RETRY_SCHEDULE: '200ms' } });
    merchant = await app.createMerchant('CLI Merchant');
    other = await app.createMerchant('Another Merchant');
    configHome = mkdtempSync(path.join(tmpdir(), 'pg-cli-'));
    // The local receiver verifies each request with the secret listen printed: 200 if it verifies, 400 if not.
    receiver = await startReceiver((r: ReceivedWebhook) => {
      try {
        verifyWebhook(r.body, r.headers, printedSecret);
        return 200;
      } catch {
        return 400;
      }
    });
  });

  afterAll(async () => {
    for (const cli of started) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await Promise.all(started.map((c) => c.exited));
    await receiver?.close();
    await app?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('listen forwards the event trigger produces, signed with the printed local secret, and prints one line for it; the endpoint setting is untouched', async () => {
    const { cli, secret } = await listen(`${receiver.url.replace('/hooks', '/first')}`);
    printedSecret = secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Kept in the config dir, readable by its owner only.
    const file = path.join(configHome, 'payments-gateway', 'cli.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ listen_secret: secret });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const triggered = await run(['trigger', 'collection.successful']);
    expect(triggered).toMatchObject({ code: 0, stderr: '' });
    expect(triggered.stdout).toMatch(/^Trigger succeeded: collection col_\S+, paid/);
    const reference = /collection (col_\S+),/.exec(triggered.stdout)![1];

    expect(await eventually(async () => typesAt('/first').includes('collection.successful'), WAIT)).toBe(true);
    // The trigger's customer was approved on the way (customer.kyc.approved, a default type, came too).
    const delivery = verified('/first').find((v) => v.event.type === 'collection.successful');
    expect(delivery!.event).toMatchObject({ type: 'collection.successful', data: { reference, status: 'successful' } });
    collectionEventId = delivery!.event.id;
    // Headers as production's: webhook-id is the event's id; the body is the event log's, byte for byte as a delivery's.
    expect(delivery!.request.headers).toMatchObject({ 'webhook-id': collectionEventId, 'content-type': 'application/json' });
    const logged = await request(app.url, 'GET', `/v1/webhooks/events/${collectionEventId}`, { token: (await app.token(merchant)).accessToken });
    expect(JSON.parse(delivery!.request.body)).toEqual({
      id: collectionEventId,
      type: 'collection.successful',
      created_at: logged.body.data.created_at,
      data: logged.body.data.data,
    });
    // One line per delivery: type, id, the receiver's status (it verified the signature: 200), time.
    expect(await eventually(async () => cli.lines.some((l) => l.includes(collectionEventId)), WAIT)).toBe(true);
    expect(cli.lines.find((l) => l.includes(collectionEventId))).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\S+Z {2}--> collection\\.successful \\[${collectionEventId}\\] {2}<-- \\[200\\] POST http://127\\.0\\.0\\.1:\\d+/first`,
      ),
    );
    // No tunnel and no endpoint: the merchant's webhook setting is as it was.
    const profile = await request(app.url, 'GET', '/v1/merchant', { token: (await app.token(merchant)).accessToken });
    expect(profile.body.data.webhook_url).toBeNull();
    expect(await stop(cli)).toBe(0);
  });

  it('after a restart listen prints the same secret; --events keeps only those types; another merchant’s events never arrive', async () => {
    expect(printedSecret).not.toBe('');
    const all = await listen(`${receiver.url.replace('/hooks', '/all')}`);
    const filtered = await listen(`${receiver.url.replace('/hooks', '/filtered')}`, ['--events', 'dispute.created']);
    expect([all.secret, filtered.secret]).toEqual([printedSecret, printedSecret]);

    // The other merchant's event, recorded (and seen in its own log) before this merchant's sentinel.
    expect(await run(['trigger', 'collection.successful'], other)).toMatchObject({ code: 0 });
    const othersEvents = (await request(app.url, 'GET', '/v1/webhooks/events?limit=100', { token: (await app.token(other)).accessToken })).body.data;
    expect(othersEvents.map((e: { type: string }) => e.type)).toContain('collection.successful');

    // This merchant's sentinel: a card payment (payment.successful) and its chargeback (dispute.created, and the hold of its amount).
    const SENTINEL = ['dispute.created', 'dispute.funds_withdrawn', 'payment.successful'];
    const triggered = await run(['trigger', 'dispute.created']);
    expect(triggered).toMatchObject({ code: 0, stderr: '' });
    expect(await eventually(async () => SENTINEL.every((t) => typesAt('/all').includes(t)) && typesAt('/filtered').includes('dispute.created'), WAIT)).toBe(
      true,
    );

    // Every request verified with the secret printed before the restart (verified() throws otherwise).
    expect(typesAt('/filtered')).toEqual(['dispute.created']);
    expect(typesAt('/all').sort()).toEqual(SENTINEL);
    const everything = JSON.stringify(receiver.received);
    for (const e of othersEvents) expect(everything).not.toContain(e.id);
    expect(everything).not.toContain(other.merchant.id);
    expect(everything).not.toContain(other.merchant.clientId);
    expect(filtered.cli.lines.filter((l) => l.includes('-->'))).toEqual([expect.stringContaining('--> dispute.created [evt_')]);
    expect(await stop(all.cli)).toBe(0);
    expect(await stop(filtered.cli)).toBe(0);
  });

  it('trigger produces each event it names (transfer.failed, refund.successful, funding.successful, payment.requires_action once chosen)', async () => {
    const token = (await app.token(merchant)).accessToken;
    const profile = (await request(app.url, 'GET', '/v1/merchant', { token })).body.data;
    // payment.requires_action is a progress event: recorded only for a merchant who chose it, and trigger says so.
    const unchosen = await run(['trigger', 'payment.requires_action']);
    expect(unchosen.code).toBe(0);
    expect(unchosen.stderr).toContain('payment.requires_action is not among the event types you chose');
    const chosen = await request(app.url, 'PUT', '/v1/webhooks/endpoint', {
      token,
      body: { url: null, event_types: [...profile.webhook_event_types, 'payment.requires_action'] },
    });
    expect(chosen.status).toBe(200);

    const { cli } = await listen(`${receiver.url.replace('/hooks', '/each')}`);
    for (const event of ['transfer.failed', 'refund.successful', 'funding.successful', 'payment.requires_action']) {
      const result = await run(['trigger', event]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`Expect ${event}.`);
    }
    const wanted = ['transfer.failed', 'refund.successful', 'funding.successful', 'payment.requires_action'];
    expect(await eventually(async () => wanted.every((t) => typesAt('/each').includes(t)), WAIT)).toBe(true);
    expect(verified('/each').find((v) => v.event.type === 'payment.requires_action')!.event.data).toMatchObject({
      status: 'requires_action',
      card: { last4: '3155' },
    });
    expect(verified('/each').find((v) => v.event.type === 'funding.successful')!.event.data).toMatchObject({
      type: 'funding',
      status: 'successful',
      amount: 50000,
      currency: 'NGN',
      fee: 0,
    });
    expect(await stop(cli)).toBe(0);
  });

  it('events resend <id> delivers the event again to the webhook endpoint, and prints how it answered', async () => {
    expect(collectionEventId).not.toBe('');
    const endpoint = await startReceiver();
    try {
      await setEndpoint(app.url, (await app.token(merchant)).accessToken, endpoint.url);
      const resent = await run(['events', 'resend', collectionEventId]);
      expect(resent).toMatchObject({ code: 0, stderr: '' });
      expect(resent.stdout).toContain(`Resending collection.successful [${collectionEventId}] to your webhook endpoint`);
      expect(resent.stdout).toMatch(new RegExp(`--> collection\\.successful \\[${collectionEventId}\\] {2}<-- \\[200\\] POST ${endpoint.url} \\(attempt 1\\)`));
      // Signed with the endpoint's secret, as every production delivery; same webhook-id.
      expect(endpoint.received).toHaveLength(1);
      expect(verifyWebhook(endpoint.received[0]!.body, endpoint.received[0]!.headers, merchant.webhookSecret)).toMatchObject({
        id: collectionEventId,
        type: 'collection.successful',
      });
    } finally {
      await endpoint.close();
    }
    // An unknown event: the service's 404, said on stderr, exit 1.
    const unknown = await run(['events', 'resend', 'evt_unknown']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error: POST \/v1\/webhooks\/events\/evt_unknown\/resend: 404 /);
  });

  it('refuses what it cannot do: an unknown event type to listen for, an event trigger does not make, a wrong API key', async () => {
    const badType = await run(['listen', '--forward-to', receiver.url, '--events', 'collection.nope']);
    expect(badType.code).toBe(1);
    expect(badType.stderr).toContain('types has "collection.nope", not an event type');
    const badTrigger = await run(['trigger', 'payout.paid']);
    expect(badTrigger).toMatchObject({ code: 1 });
    expect(badTrigger.stderr).toContain('cannot trigger "payout.paid": choose one of collection.successful, transfer.failed');
    const wrongKey = await run(['listen', '--forward-to', receiver.url], { ...merchant, clientSecret: 'sk_wrong' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^Error: POST \/v1\/oauth\/token: 401 /);
  });

  it('trigger against a sandbox that decides at once (SANDBOX_SETTLE_MS=0): each event still made, a transfer failed by the sandbox’s own rule', async () => {
    const quick = await createTestApp({ env: { SANDBOX_SETTLE_MS: '0' } });
    try {
      const m = await quick.createMerchant('Quick Sandbox Merchant');
      const token = (await quick.token(m)).accessToken;
      const made: Record<string, string> = {};
      for (const event of ['collection.successful', 'transfer.failed', 'refund.successful']) {
        const result = await run(['trigger', event, '--api-url', quick.url], m);
        expect({ event, code: result.code, stderr: result.stderr }).toEqual({ event, code: 0, stderr: '' });
        made[event] =
          result.stdout.match({ 'collection.successful': /col_\w+/, 'transfer.failed': /trf_\w+/, 'refund.successful': /rfd_\w+/ }[event]!)?.[0] ?? '';
      }
      const statusOf = async (reference: string) =>
        (await request(quick.url, 'GET', `/v1/crossborder/global-transfer/${reference}`, { token })).body.data.status;
      expect(await statusOf(made['collection.successful']!)).toBe('successful');
      expect(await statusOf(made['transfer.failed']!)).toBe('failed');
      expect(await statusOf(made['refund.successful']!)).toBe('successful');
    } finally {
      await quick.close();
    }
  });

  it('trigger refuses a production service before making anything; listen forwards production events too', async () => {
    const METRICS_TOKEN = 'cli-test-metrics-token-0123456789';
    const production = await createTestApp({ env: { PAYMENTS_ENV: 'production', METRICS_TOKEN } });
    const liveStreams = async () => {
      const text = await (await fetch(`${production.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      return Number(/^payments_graphql_ws_active_subscriptions (\d+)$/m.exec(text)?.[1]);
    };
    try {
      const live = await production.createMerchant('Live Merchant');
      const refused = await run(['trigger', 'collection.successful', '--api-url', production.url], live);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`Error: trigger makes sandbox objects, and ${production.url} runs in production: nothing was made\n`);
      const token = (await production.token(live)).accessToken;
      expect((await request(production.url, 'GET', '/v1/customers', { token })).body.data).toEqual([]);
      expect((await request(production.url, 'GET', '/v1/transactions', { token })).body.data).toEqual([]);
      // listen works in production as well (read-only): an operator's KYC decision reaches the local receiver.
      const cli = start(['listen', '--forward-to', receiver.url.replace('/hooks', '/live'), '--api-url', production.url], live);
      expect(await eventually(async () => cli.lines.some((l) => l.startsWith('Ready!')), WAIT)).toBe(true);
      expect(await eventually(async () => (await liveStreams()) === 1, WAIT)).toBe(true);
      const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
      const uuid = (await request(production.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody() })).body.data.customer_uuid;
      expect((await request(production.url, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody() })).status).toBe(200);
      const queue = (await request(production.url, 'GET', '/v1/admin/kyc/pending?limit=100', { headers: admin })).body.data;
      const submission = queue.find((q: { customer_uuid: string }) => q.customer_uuid === uuid).submission_id;
      expect((await request(production.url, 'POST', `/v1/admin/kyc/${submission}/approve`, { headers: admin })).status).toBe(200);
      expect(await eventually(async () => typesAt('/live').includes('customer.kyc.approved'), WAIT)).toBe(true);
      expect(verified('/live')[0]!.event.data).toMatchObject({ customer_uuid: uuid, kyc_status: 'approved' });
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
    } finally {
      await production.close();
    }
  });
});
