import { RequestContext } from '@mikro-orm/core';
import type { DestinationStream } from 'pino';
import { startService, type RunningService } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';
import type { MerchantCredentials } from '../../src/modules/merchants/merchant.service';
import { ManualClock } from '../../src/shared/clock';
import { TEST_SERVICE_KEYS, createTestDatabase, environmentOf, type TestDatabase } from './database';
import { request } from './http';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

/** The mail settings a production test service starts with when the test brings none (port 9: nothing listens, sends fail). */
export const TEST_PRODUCTION_MAIL = { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'Payments Gateway <no-reply@pay.example.com>' };

/** Suites send many requests from one address and merchant; the rate limit tests set real budgets. */
export const TEST_RATE_LIMITS = {
  RATE_LIMIT_MERCHANT: '1000000',
  RATE_LIMIT_TOKEN_CLIENT: '100000',
  RATE_LIMIT_TOKEN_IP: '100000',
  RATE_LIMIT_CHECKOUT_IP: '100000',
  RATE_LIMIT_TOKEN_FAILURES: '100000',
  RATE_LIMIT_TOKEN_IP_FAILURES: '100000',
  RATE_LIMIT_ADMIN: '100000',
  RATE_LIMIT_ADMIN_FAILURES: '100000',
};

export interface TestApp {
  url: string;
  clock: ManualClock;
  service: RunningService;
  db: TestDatabase;
  /** Text the service printed (the sandbox demo merchant banner). */
  printed: string[];
  /** PAYMENTS_ENV of the app under test. */
  env: 'sandbox' | 'production';
  createMerchant(name?: string): Promise<MerchantCredentials>;
  /** A fresh access + refresh token for the merchant, through the real token endpoint. */
  token(merchant: MerchantCredentials): Promise<{ accessToken: string; refreshToken: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  logDestination?: DestinationStream;
  /** Start on an existing database (a second instance); otherwise a fresh one is created and dropped. */
  database?: TestDatabase;
  clock?: ManualClock;
}

/** The real service (bootstrap, all three doors) on a fresh, migrated PostgreSQL database and a free port. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  // A copy of a migrated template: each file's service starts without running every migration again.
  const db = opts.database ?? (await createTestDatabase({ migrated: environmentOf(opts.env) }));
  const clock = opts.clock ?? new ManualClock(new Date('2026-11-22T12:00:00Z'));
  const printed: string[] = [];
  const env: Record<string, string> = {
    PAYMENTS_ENV: 'sandbox',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    ...TEST_SERVICE_KEYS,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    LOG_LEVEL: opts.logDestination ? 'trace' : 'silent',
    TOKEN_REVOCATION_POLL_MS: '200',
    DB_POOL_MAX: '10',
    SANDBOX_KYC_DELAY_MS: '100',
    JOB_POLL_INTERVAL_MS: '100',
    JOB_HEARTBEAT_MS: '500',
    // The daily reconciliation would reconcile "yesterday" at every start, calling providers' fakes (its own tests turn it on).
    RECONCILIATION_ENABLED: 'false',
    ...TEST_RATE_LIMITS,
    ...opts.env,
  };
  // Production refuses to start without mail (invitations send it): a server nobody listens on, unless the test brings its own.
  if (env.PAYMENTS_ENV === 'production') Object.assign(env, { ...TEST_PRODUCTION_MAIL, ...opts.env });
  const config = loadConfig(env);
  const service = await startService(config, { clock, logDestination: opts.logDestination, print: (t) => printed.push(t) });
  const url = service.url;
  return {
    url,
    env: config.env,
    clock,
    service,
    db,
    printed,
    createMerchant: (name = 'Test Merchant') => RequestContext.create(service.orm.em, () => service.app.services.merchants.createMerchant({ name })),
    async token(merchant) {
      const res = await request(url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret },
      });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
      return { accessToken: res.body.data.access_token, refreshToken: res.body.data.refresh_token };
    },
    async close() {
      await service.close();
      if (!opts.database) await db.drop();
    },
  };
}
