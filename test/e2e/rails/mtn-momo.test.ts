import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { graphql, request } from '../../helpers/http';
import {
  awaitStatus,
  breakerGauge,
  breakerStates,
  ghMtnCollection,
  notificationRows,
  railsApp,
  railsMerchant,
  txnRow,
  type RailsMerchant,
} from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { historyRows, newReference, outboxRows, sql, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * MTN MoMo end to end, in production mode, with the service pointed at a faithful fake of MTN's
 * Open API by MTN_MOMO_BASE_URL (test/fakes/mtn-momo.fake.ts). Ghana's MTN route: collections
 * by request-to-pay, payouts by disbursement transfer.
 */

const METRICS_TOKEN = 'rails-metrics-token-0123456789';
const COLLECT = '/v1/crossborder/global-collection';
const SEND = '/v1/crossborder/global-transfer';

const collection = (customerUuid: string, accountNumber = '0241234567', overrides: Record<string, unknown> = {}) =>
  ghMtnCollection(customerUuid, { account_number: accountNumber, ...overrides });

function transfer(customerUuid: string, accountNumber = '0241234567') {
  return {
    customer_uuid: customerUuid,
    amount: '40',
    source_currency: 'GHS',
    destination_currency: 'GHS',
    country_code: 'GH',
    channel_id: 'gh_momo_withdrawal',
    network_id: 'gh_mtn_momo',
    account_number: accountNumber,
    account_name: 'Ama Mensah',
    dial_code: '+233',
    account_type: 'momo',
    reason: 'Payout 3',
    reference: newReference('mtn-trf'),
  };
}

/** The POSTs the fake received for one transaction (its X-Reference-Id). */
const postsFor = (fake: MtnMomoFake, id: string) =>
  fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('/token') && r.headers['x-reference-id'] === id);

describe('MTN MoMo connector (production, against the fake)', () => {
  let fake: MtnMomoFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    // Ghana's production environment (MTN's test environment is refused in production).
    fake = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnghana', currency: 'GHS' });
    app = await railsApp({ ...fake.env(), METRICS_TOKEN });
    m = await railsMerchant(app, { currency: 'GHS', amount: '10000' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.dropCallbacks = false;
    fake.down = false;
  });

  it('readiness is degraded, naming what MTN alone does not serve: card payments and the other channels', async () => {
    const ready = await request(app.url, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data).toMatchObject({ status: 'degraded', providers: { mtn_momo: 'closed' } });
    const unserved = app.service.app.services.reference.unservedChannels().map((c) => c.id);
    expect(unserved).not.toContain('gh_momo_deposit');
    expect(unserved).toContain('ke_momo_deposit');
    expect(ready.body.data.degraded).toEqual([
      'no connector serves card payments',
      expect.stringContaining(`no connector serves ${unserved.length} channels (`),
    ]);
  });

  it('collects: request-to-pay with MTN’s headers, the callback prompts a status query, the money lands in the books', async () => {
    const body = collection(m.customerUuid);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('processing');
    const row = (await txnRow(app, body.reference))!;
    expect(row.connector).toBe('mtn_momo');

    // What MTN received: its documented headers and body, keyed by our transaction id.
    const [post] = postsFor(fake, referenceIdOf(row.id));
    expect(post).toBeDefined();
    expect(post!.path).toBe('/collection/v1_0/requesttopay');
    expect(post!.headers['x-target-environment']).toBe('mtnghana');
    expect(post!.headers['x-callback-url']).toMatch(new RegExp(`^${app.url}/v1/providers/mtn_momo/callback/${row.id}\\.[A-Za-z0-9_-]{32}$`));
    expect(post!.headers.authorization).toMatch(/^Bearer /);
    const sent = JSON.parse(post!.body);
    expect(sent).toMatchObject({ amount: '25.50', currency: 'GHS', externalId: row.reference, payer: { partyIdType: 'MSISDN', partyId: '233241234567' } });
    expect(row.provider_reference).toBe(referenceIdOf(row.id));

    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    await fake.callbackDelivered(referenceIdOf(row.id));
    const kept = await notificationRows(app, row.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.method).toBe(fake.requests.find((r) => r.path.includes('/callback/'))?.method ?? kept[0]!.method);
    expect(JSON.parse(kept[0]!.body)).toMatchObject({ status: 'SUCCESSFUL' });
    expect((await historyRows(app, row.reference)).map((h) => h.to_status)).toEqual(['processing', 'successful']);
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['collection.successful']);
    // Provider clearing is per connector: the money in transit at MTN is on its own account.
    const [clearing] = await sql(app, `select id from ledger_account where id = 'p:provider_clearing:mtn_momo:GHS'`);
    expect(clearing).toBeDefined();
  });

  it('settles by polling when MTN’s only callback is lost', async () => {
    fake.dropCallbacks = true;
    const body = collection(m.customerUuid);
    expect((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status).toBe(200);
    const row = await awaitStatus(app, body.reference, 'successful');
    expect(row?.status).toBe('successful');
    expect(await notificationRows(app, row!.id)).toEqual([]);
    // Asked by GET, not told.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/collection/v1_0/requesttopay/${referenceIdOf(row!.id)}`)).toBe(true);
  });

  it('maps MTN’s failure reasons (NOT_ENOUGH_FUNDS) and pays out with a disbursement transfer', async () => {
    const poor = collection(m.customerUuid, '0240000001');
    await request(app.url, 'POST', COLLECT, { token: m.token, body: poor });
    const failed = await awaitStatus(app, poor.reference, 'failed');
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'sender_insufficient_funds' });

    const payout = transfer(m.customerUuid);
    const res = await request(app.url, 'POST', SEND, { token: m.token, body: payout });
    expect(res.status).toBe(200);
    const row = (await txnRow(app, payout.reference))!;
    const [post] = postsFor(fake, referenceIdOf(row.id));
    expect(post!.path).toBe('/disbursement/v1_0/transfer');
    expect(JSON.parse(post!.body)).toMatchObject({ amount: '40.00', payee: { partyIdType: 'MSISDN', partyId: '233241234567' } });
    expect((await awaitStatus(app, payout.reference, 'successful'))?.status).toBe('successful');
  });

  it('a forged callback changes nothing: a wrong token is 404 and kept nowhere; a right token with a lie only prompts a query', async () => {
    const body = collection(m.customerUuid, '0240000009'); // MTN keeps it PENDING until decided
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = (await txnRow(app, body.reference))!;

    const wrong = await request(app.url, 'PUT', `/v1/providers/mtn_momo/callback/${row.id}.${'A'.repeat(32)}`, {
      body: { status: 'SUCCESSFUL', externalId: row.reference },
    });
    expect(wrong.status).toBe(404);
    const otherConnector = await request(app.url, 'POST', `/v1/providers/nobody/callback/${row.id}.${'A'.repeat(32)}`, { body: {} });
    expect(otherConnector.status).toBe(404);
    expect(await notificationRows(app, row.id)).toEqual([]);

    // The right address (as if it leaked), claiming success: kept, then MTN is asked, and MTN says PENDING.
    const callbackUrl = postsFor(fake, referenceIdOf(row.id))[0]!.headers['x-callback-url'] as string;
    const lie = await request(app.url, 'PUT', callbackUrl.slice(app.url.length), { body: { status: 'SUCCESSFUL', financialTransactionId: '1' } });
    expect(lie.status).toBe(200);
    expect(await eventually(async () => (await notificationRows(app, row.id))[0]?.processed_at != null)).toBe(true);
    expect((await txnRow(app, body.reference))?.status).toBe('processing');

    // MTN's own verdict decides.
    await fake.decide(referenceIdOf(row.id), 'FAILED', 'APPROVAL_REJECTED');
    expect(await awaitStatus(app, body.reference, 'failed')).toMatchObject({ failure_reason: 'payment_declined_by_sender' });
  });

  it('a callback body PostgreSQL cannot store is never a 500: escaped NUL and lone surrogates are dropped from what is read', async () => {
    const body = collection(m.customerUuid);
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = (await awaitStatus(app, body.reference, 'successful'))!;
    const callbackPath = (postsFor(fake, referenceIdOf(row.id))[0]!.headers['x-callback-url'] as string).slice(app.url.length);
    const res = await fetch(`${app.url}${callbackPath}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"SUCC\\u0000ESS","referenceId":"\\ud800x"}',
    });
    expect(res.status).toBe(200);
    const kept = (await notificationRows(app, row.id)).find((n) => n.body.includes('u0000'));
    expect(kept?.parsed).toMatchObject({ claimed: 'SUCCESS', providerReference: 'x' });
  });

  it('a duplicate callback changes nothing', async () => {
    const body = collection(m.customerUuid);
    await request(app.url, 'POST', COLLECT, { token: m.token, body });
    const row = (await awaitStatus(app, body.reference, 'successful'))!;
    await fake.callbackDelivered(referenceIdOf(row.id));
    expect(await fake.sendCallback(referenceIdOf(row.id))).toBe(200);
    expect(await fake.sendCallback(referenceIdOf(row.id))).toBe(200);
    expect(await notificationRows(app, row.id)).toHaveLength(1);
    expect((await historyRows(app, row.reference)).map((h) => h.to_status)).toEqual(['processing', 'successful']);
    expect((await outboxRows(app, row.reference)).map((o) => o.type)).toEqual(['collection.successful']);
  });

  it('a timeout on initiation is resolved by a status query: recorded, reconciled, sent once', async () => {
    fake.failNext('accept-then-timeout', { path: 'requesttopay' });
    const body = collection(m.customerUuid);
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body });
    expect(res.status).toBe(500);
    expect(res.body.message).toContain('will be finished automatically');
    const row = (await txnRow(app, body.reference))!;
    expect(row.status).toBe('initiating');
    // Reconciliation looks it up (MTN has it) instead of sending it again.
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    expect(postsFor(fake, referenceIdOf(row.id))).toHaveLength(1);
    expect(fake.resources.get(referenceIdOf(row.id))?.status).toBe('SUCCESSFUL');
  });

  it('a 5xx on initiation is never taken for a failure: retried with the same X-Reference-Id once MTN answers', async () => {
    fake.failNext('500', { path: 'requesttopay' });
    const body = collection(m.customerUuid);
    expect((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status).toBe(500);
    const row = (await txnRow(app, body.reference))!;
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    // The 500 created nothing; the retry is the one request MTN holds.
    expect([...fake.resources.keys()].filter((k) => k === referenceIdOf(row.id))).toHaveLength(1);
  });

  it('the breaker opens while MTN is down (new initiations refused, nothing written) and closes once it answers again', async () => {
    fake.down = true;
    // Failures until the breaker opens: each is recorded (the outcome is unknown) and reconciled later.
    let opened = false;
    const recorded: string[] = [];
    for (let i = 0; i < 50 && !opened; i += 1) {
      const body = collection(m.customerUuid);
      if ((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status === 500) recorded.push(body.reference);
      opened = (await breakerStates(app)).mtn_momo === 'open';
    }
    expect(opened).toBe(true);
    expect(recorded.length).toBeGreaterThan(0);
    expect(await breakerGauge(app, 'mtn_momo', METRICS_TOKEN)).toBe(2);

    const before = await transactionCount(app);
    const refused = await request(app.url, 'POST', COLLECT, { token: m.token, body: collection(m.customerUuid) });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ status: 'error', code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('momo collection in GH on MTN') });
    expect(await transactionCount(app)).toBe(before);

    fake.down = false;
    // After the reset timeout one trial goes through (half-open); its success closes the breaker.
    expect(await eventually(async () => (await breakerStates(app)).mtn_momo !== 'open', { attempts: 100, everyMs: 50 })).toBe(true);
    const body = collection(m.customerUuid);
    expect((await request(app.url, 'POST', COLLECT, { token: m.token, body })).status).toBe(200);
    expect(await eventually(async () => (await breakerStates(app)).mtn_momo === 'closed')).toBe(true);
    expect(await breakerGauge(app, 'mtn_momo', METRICS_TOKEN)).toBe(0);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    // What was recorded while MTN was down is reconciled once it answers, never taken for failed (an open breaker
    // or no answer says nothing about whether MTN got the request).
    const first = recorded[0]!;
    expect((await awaitStatus(app, first, 'successful', 600))?.status).toBe('successful');
    for (const reference of recorded) expect((await txnRow(app, reference))?.status).not.toBe('failed');
  }, 60_000);

  it('refuses a wallet number that is not a phone number before anything is written', async () => {
    const before = await transactionCount(app);
    const letters = await request(app.url, 'POST', COLLECT, { token: m.token, body: collection(m.customerUuid, '0241X34567') });
    expect(letters.status).toBe(400);
    expect(letters.body.details).toEqual([{ field: 'account_number', issue: 'must be the wallet’s phone number, digits only' }]);
    expect(await transactionCount(app)).toBe(before);
  });

  it('production refuses a route with no connector by name, writes nothing, and shows it unavailable', async () => {
    const before = await transactionCount(app);
    const bank = collection(m.customerUuid, '0123456789', { channel_id: 'gh_bank_deposit', network_id: 'gh_gcb', account_type: 'bank' });
    const res = await request(app.url, 'POST', COLLECT, { token: m.token, body: bank });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      status: 'error',
      code: 'ROUTE_UNAVAILABLE',
      message: 'No provider serves bank collection in GH on GHCBGHAC here; nothing was written or sent',
    });
    expect(await transactionCount(app)).toBe(before);
    const channels = await request(app.url, 'GET', '/v1/crossborder/channels?country_code=GH&ramptype=deposit', { token: m.token });
    const status = Object.fromEntries(channels.body.data.map((c: { channel_id: string; status: string }) => [c.channel_id, c.status]));
    expect(status).toEqual({ gh_bank_deposit: 'unavailable', gh_momo_deposit: 'active' });
    // The same over GraphQL: the channel's status, and the refusal's code in extensions.
    const gql = await graphql(
      app.url,
      `
        {
          channels(countryCode: "GH", rampType: DEPOSIT) {
            channelId
            status
          }
        }
      `,
      { token: m.token },
    );
    expect(gql.body.data.channels).toEqual([
      { channelId: 'gh_bank_deposit', status: 'UNAVAILABLE' },
      { channelId: 'gh_momo_deposit', status: 'ACTIVE' },
    ]);
    const refused = await graphql(
      app.url,
      `
        mutation ($input: InitiateCollectionInput!) {
          initiateCollection(input: $input) {
            reference
          }
        }
      `,
      {
        token: m.token,
        variables: {
          input: {
            customerUuid: m.customerUuid,
            amount: '25.50',
            currency: 'GHS',
            countryCode: 'GH',
            channelId: 'gh_bank_deposit',
            networkId: 'gh_gcb',
            accountNumber: '0123456789',
            dialCode: '+233',
            accountType: 'BANK',
            reason: 'Order',
            reference: newReference('gql-bank'),
          },
        },
      },
    );
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'ROUTE_UNAVAILABLE' }, message: expect.stringContaining('bank collection in GH') });
    expect(await transactionCount(app)).toBe(before);
  });
});
