import { createServer } from 'node:net';
import type { DestinationStream } from 'pino';
import { ManualClock } from '../../src/shared/clock';
import { approvedCustomer } from './factories';
import { request } from './http';
import { createTestDatabase, environmentOf } from './database';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from './test-app';
import { newReference, sql } from './transactions';
import { eventually } from './wait';

/** A port free now on 127.0.0.1 (the service's address must be known before it starts: its providers call it back). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Fast polling, short timeouts and a quick breaker, so that each flow takes well under a second or two. */
const FAST_RAILS = {
  PROVIDER_POLL_SCHEDULE: '200ms,300ms,500ms',
  PROVIDER_TIMEOUT_MS: '600',
  PROVIDER_BREAKER_VOLUME: '6',
  PROVIDER_BREAKER_ERROR_PERCENT: '50',
  PROVIDER_BREAKER_RESET_MS: '1500',
  PROVIDER_BREAKER_WINDOW_MS: '1000',
  RECONCILE_AFTER_MS: '800',
  SETTLEMENT_DELAY_S: '0',
};

/** For a browser test beside the fakes: the provider timeout of a loaded machine, not the fast rails' 600 ms. */
export const BROWSER_RAILS = { PROVIDER_TIMEOUT_MS: '8000' };

/**
 * The real service pointed at providers' fakes by their base-URL variables: production mode by
 * default, on a port fixed in advance so that PUBLIC_BASE_URL (the callbacks' address) is right.
 * The clock is today's (providers' timestamps are checked), and stands still unless a test moves it.
 */
export async function railsApp(env: Record<string, string>, logDestination?: DestinationStream): Promise<TestApp> {
  const db = await createTestDatabase({ migrated: environmentOf({ PAYMENTS_ENV: 'production', ...env }) });
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      const app = await createTestApp({
        database: db,
        env: { PAYMENTS_ENV: 'production', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...FAST_RAILS, ...env },
        clock: new ManualClock(new Date()),
        logDestination,
      });
      return {
        ...app,
        async close() {
          await app.close();
          await db.drop();
        },
      };
    } catch (err) {
      // The port was free when asked, and another process (the other jest worker) took it before the service listened:
      // the service refuses a busy port before it writes anything, so another port is tried.
      if (tries < 5 && /is in use/.test((err as Error).message)) continue;
      await db.drop();
      throw err;
    }
  }
}

/**
 * A production app with Flutterwave's fake connected (and any other fakes' env): the fake's
 * webhooks go to the app's account-wide address, as the dashboard's webhook URL would.
 */
export async function flutterwaveApp(
  flw: { env(): Record<string, string>; webhookUrl: string | null },
  env: Record<string, string> = {},
  logDestination?: DestinationStream,
): Promise<TestApp> {
  const app = await railsApp({ ...flw.env(), ...env }, logDestination);
  flw.webhookUrl = `${app.url}/v1/providers/flutterwave/webhook`;
  return app;
}

/** A mobile money collection in Ghana on MTN (REST body); override any field. */
export function ghMtnCollection(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customer_uuid: customerUuid,
    amount: '25.50',
    currency: 'GHS',
    country_code: 'GH',
    channel_id: 'gh_momo_deposit',
    network_id: 'gh_mtn_momo',
    account_number: '0241234567',
    dial_code: '+233',
    account_type: 'momo',
    reason: 'Order 7',
    reference: newReference('mtn-col'),
    ...overrides,
  };
}

/** A Nigerian bank collection (a virtual account at GTBank; REST body); override any field. */
export function ngBankCollection(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customer_uuid: customerUuid,
    amount: '15000',
    currency: 'NGN',
    country_code: 'NG',
    channel_id: 'ng_bank_deposit',
    network_id: 'ng_gtbank',
    account_number: '0123456789',
    dial_code: '+234',
    account_type: 'bank',
    reason: 'Invoice 88',
    reference: newReference('flw-va'),
    ...overrides,
  };
}

export interface RailsMerchant {
  merchantId: string;
  token: string;
  customerUuid: string;
}

/** A merchant with a KYC-approved customer and, when asked, money to send (an operator's adjustment). */
export async function railsMerchant(app: TestApp, fund?: { currency: string; amount: string }): Promise<RailsMerchant> {
  const merchant = await app.createMerchant('Rails Merchant');
  const { accessToken: token } = await app.token(merchant);
  const customer = await approvedCustomer(app, token);
  if (fund) {
    const res = await request(app.url, 'POST', `/v1/admin/merchants/${merchant.merchant.id}/adjustments`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      body: { currency: fund.currency, amount: fund.amount, reason: 'test funding', reference: `fund-${Date.now()}` },
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`funding failed: ${res.status} ${res.text}`);
  }
  return { merchantId: merchant.merchant.id, token, customerUuid: customer.customer_uuid };
}

export interface TxnRow {
  id: string;
  reference: string;
  status: string;
  connector: string;
  provider_reference: string | null;
  failure_reason: string | null;
}

export async function txnRow(app: TestApp, externalReference: string): Promise<TxnRow | undefined> {
  const [row] = await sql<TxnRow>(
    app,
    'select id, reference, status, connector, provider_reference, failure_reason from "transaction" where external_reference = ?',
    [externalReference],
  );
  return row;
}

/** Waits (polling PostgreSQL) until the transaction is in `status`; answers its row either way. */
export async function awaitStatus(app: TestApp, externalReference: string, status: string, attempts = 200): Promise<TxnRow | undefined> {
  let row: TxnRow | undefined;
  await eventually(
    async () => {
      row = await txnRow(app, externalReference);
      return row?.status === status;
    },
    { attempts, everyMs: 50 },
  );
  return row;
}

export async function notificationRows(app: TestApp, transactionId: string) {
  return sql<{ method: string; body: string; processed_at: Date | null; parsed: Record<string, unknown> }>(
    app,
    'select method, body, processed_at, parsed from provider_notification where transaction_id = ? order by id',
    [transactionId],
  );
}

/** /health/ready's view of each connector's circuit breaker. */
export async function breakerStates(app: TestApp): Promise<Record<string, string>> {
  const res = await request(app.url, 'GET', '/health/ready');
  return res.body?.data?.providers ?? {};
}

/** The breaker gauge for one connector, from /metrics (production needs its token). */
export async function breakerGauge(app: TestApp, connector: string, metricsToken?: string): Promise<number | null> {
  const res = await request(app.url, 'GET', '/metrics', metricsToken ? { headers: { authorization: `Bearer ${metricsToken}` } } : {});
  const match = new RegExp(`payments_provider_breaker_state\\{connector="${connector}"\\} (\\d)`).exec(res.text ?? '');
  return match ? Number(match[1]) : null;
}
