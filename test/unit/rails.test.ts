import { loadConfig } from '../../src/config';
import { CircuitOpened, GuardedConnector } from '../../src/providers/breaker';
import { NotSentAgain, describeRoute, msisdn, type Connector, type Refunds, type Route } from '../../src/providers/connector';
import { AppError } from '../../src/shared/errors';
import { timeOrderedUuid } from '../../src/shared/crypto';
import { darajaTimestamp, stkPassword } from '../../src/providers/mpesa/mapping';
import { b2cFailureReason, stkFailureReason } from '../../src/providers/mpesa/statuses';
import { momoNote, referenceIdOf } from '../../src/providers/mtn-momo/mapping';
import { mtnFailureReason } from '../../src/providers/mtn-momo/statuses';
import { transferFailureReason } from '../../src/providers/flutterwave/statuses';
import { ConnectorRouter, parseRoutingRules } from '../../src/providers/routing';
import { TokenCache } from '../../src/providers/provider-http';
import { createLogger } from '../../src/shared/logger';

const MTN_COLLECTION = {
  MTN_MOMO_COLLECTION_PRIMARY_KEY: 'pk',
  MTN_MOMO_COLLECTION_USER_ID: '3f1c5a0e-0000-4000-8000-000000000001',
  MTN_MOMO_COLLECTION_API_KEY: 'ak',
};
const PRODUCTION = { PAYMENTS_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' };

describe('connector configuration (config.ts)', () => {
  it('refuses a half-configured product, naming what is missing', () => {
    expect(() => loadConfig({ ...PRODUCTION, MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana', MTN_MOMO_COLLECTION_PRIMARY_KEY: 'pk' })).toThrow(
      'MTN MoMo collections is configured (MTN_MOMO_COLLECTION_PRIMARY_KEY) but MTN_MOMO_COLLECTION_USER_ID, MTN_MOMO_COLLECTION_API_KEY are missing',
    );
    expect(() => loadConfig({ ...PRODUCTION, FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-x' })).toThrow(
      'Flutterwave is configured (FLUTTERWAVE_SECRET_KEY) but FLUTTERWAVE_ENCRYPTION_KEY, FLUTTERWAVE_WEBHOOK_HASH are missing',
    );
    expect(() => loadConfig({ ...PRODUCTION, MPESA_CONSUMER_KEY: 'k', MPESA_CONSUMER_SECRET: 's', MPESA_SHORTCODE: '174379' })).toThrow(
      'M-Pesa STK Push is configured (MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE) but MPESA_PASSKEY is missing',
    );
  });

  it('production needs MTN’s target environment and a public address for callbacks', () => {
    expect(() => loadConfig({ ...PRODUCTION, ...MTN_COLLECTION })).toThrow('MTN_MOMO_TARGET_ENVIRONMENT is missing');
    expect(() => loadConfig({ PAYMENTS_ENV: 'production', MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana', ...MTN_COLLECTION })).toThrow(
      'PUBLIC_BASE_URL is required in production when a provider connector is configured',
    );
  });

  it('reconciliation waits longer than a creation’s provider calls may take', () => {
    expect(loadConfig({ ...MTN_COLLECTION, RECONCILE_AFTER_MS: '5000', PROVIDER_TIMEOUT_MS: '5000' }).reconcileAfterMs).toBe(21_000);
    expect(loadConfig({ ...MTN_COLLECTION, RECONCILE_AFTER_MS: '60000', PROVIDER_TIMEOUT_MS: '5000' }).reconcileAfterMs).toBe(60_000);
    expect(loadConfig({ RECONCILE_AFTER_MS: '500' }).reconcileAfterMs).toBe(500);
  });

  it('production refuses MTN’s test environment', () => {
    expect(() => loadConfig({ ...PRODUCTION, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', ...MTN_COLLECTION })).toThrow(
      "MTN_MOMO_TARGET_ENVIRONMENT 'sandbox' is MTN's test environment",
    );
  });

  it('defaults each base URL to the provider’s real one for its environment; the variable overrides it', () => {
    const live = loadConfig({ ...PRODUCTION, MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana', ...MTN_COLLECTION }).connectors.mtnMomo!;
    expect(live).toMatchObject({ baseUrl: 'https://proxy.momoapi.mtn.com', targetEnvironment: 'mtnghana', disbursement: null });
    const sandbox = loadConfig({ ...MTN_COLLECTION }).connectors.mtnMomo!;
    expect(sandbox).toMatchObject({ baseUrl: 'https://sandbox.momodeveloper.mtn.com', targetEnvironment: 'sandbox' });
    expect(loadConfig({ ...MTN_COLLECTION, MTN_MOMO_BASE_URL: 'http://127.0.0.1:9' }).connectors.mtnMomo!.baseUrl).toBe('http://127.0.0.1:9');
    expect(loadConfig({}).connectors).toMatchObject({ mtnMomo: null, mpesa: null });
  });
});

describe('routing rules', () => {
  it('parses rules and refuses a malformed one by its text', () => {
    expect(parseRoutingRules('GH/momo/MTN/collection=mtn_momo,sandbox; KE/*/*/*=mpesa', 'PROVIDER_ROUTES')).toEqual([
      { country: 'GH', channel: 'momo', network: 'MTN', direction: 'collection', connectors: ['mtn_momo', 'sandbox'], source: 'PROVIDER_ROUTES' },
      { country: 'KE', channel: '*', network: '*', direction: '*', connectors: ['mpesa'], source: 'PROVIDER_ROUTES' },
    ]);
    expect(() => parseRoutingRules('GH/momo=mtn_momo', 'PROVIDER_ROUTES')).toThrow('PROVIDER_ROUTES rule "GH/momo=mtn_momo" must be');
    expect(() => parseRoutingRules('GH/momo/MTN/out=mtn_momo', 'PROVIDER_ROUTES')).toThrow('must be');
  });

  const fakeConnector = (name: string, serves: (r: Route) => boolean): Connector => ({
    name,
    serves,
    acknowledgement: {},
    initiate: async () => ({ providerReference: 'x' }),
    decide: async () => ({ outcome: 'pending' }),
    parseNotification: () => ({ dedupeKey: 'k', providerReference: null, claimed: null }),
    checkCredentials: async () => [],
  });
  const logger = createLogger('silent');
  const guard = (c: Connector & Partial<Refunds>) =>
    new GuardedConnector({
      connector: c,
      settings: { volumeThreshold: 1, errorThresholdPercentage: 50, resetTimeoutMs: 60_000, rollingWindowMs: 10_000 },
      observer: undefined,
      logger,
    });
  const GH_MTN: Route = { channelType: 'momo', countryCode: 'GH', networkCode: 'MTN', direction: 'collection' };

  it('production: the reference table, filtered to configured connectors that serve the route; cards need a configured processor', () => {
    const mtn = guard(fakeConnector('mtn_momo', (r) => r.networkCode === 'MTN'));
    const router = new ConnectorRouter({ connectors: new Map([['mtn_momo', mtn]]), routes: '', env: 'production' });
    expect(router.candidates(GH_MTN).map((c) => c.name)).toEqual(['mtn_momo']);
    expect(router.serves({ channelType: 'card', countryCode: null, networkCode: null, direction: 'collection' })).toBe(false);
    expect(() => router.pick({ route: { ...GH_MTN, channelType: 'bank', networkCode: 'GHCBGHAC' }, amount: '1', currency: 'GHS', accountNumber: '1' })).toThrow(
      'No provider serves bank collection in GH on GHCBGHAC here',
    );
    mtn.shutdown();
  });

  it('sandbox: the sandbox serves every route a PROVIDER_ROUTES rule does not send elsewhere; a rule may list it second (failover)', () => {
    const mtn = guard(fakeConnector('mtn_momo', () => true));
    const sandbox = guard(fakeConnector('sandbox', () => true));
    const connectors = new Map([
      ['mtn_momo', mtn],
      ['sandbox', sandbox],
    ]);
    const router = new ConnectorRouter({ connectors, routes: 'GH/momo/MTN/*=mtn_momo,sandbox', env: 'sandbox' });
    expect(router.candidates(GH_MTN).map((c) => c.name)).toEqual(['mtn_momo', 'sandbox']);
    expect(router.candidates({ ...GH_MTN, countryCode: 'UG' }).map((c) => c.name)).toEqual(['sandbox']);
    expect(() => new ConnectorRouter({ connectors, routes: 'GH/momo/MTN/*=mpesa', env: 'sandbox' })).toThrow(
      'PROVIDER_ROUTES names mpesa, which is not configured',
    );
    expect(() => new ConnectorRouter({ connectors, routes: 'GH/momo/MTN/*=sandbox', env: 'production' })).toThrow('does not move money in production');
    mtn.shutdown();
    sandbox.shutdown();
  });

  it('a refund while the breaker is open is refused outright (nothing sent); a retry it will not send is not counted as a failure', async () => {
    let calls = 0;
    const flaky = guard({
      ...fakeConnector('flaky', () => true),
      refund: async (request) => {
        calls += 1;
        if (request.retry) throw new NotSentAgain('flaky', 'refund', 'not sent again');
        throw new Error('socket hang up');
      },
    });
    const refund = { idempotencyKey: 'k', reference: 'r', chargeKey: 'c', chargeReference: '1', amount: '1', currency: 'NGN', reason: null };
    // A retry the connector declines to send leaves the breaker closed, however often it happens.
    for (let i = 0; i < 3; i += 1) await expect(flaky.refund!({ ...refund, retry: true })).rejects.toThrow(NotSentAgain);
    expect(flaky.isOpen).toBe(false);
    // (Those declined retries counted as answers: it takes more real failures than them to pass 50 %.)
    for (let i = 0; i < 10 && !flaky.isOpen; i += 1) await expect(flaky.refund!({ ...refund, retry: false })).rejects.toThrow('socket hang up');
    expect(flaky.isOpen).toBe(true);
    const sent = calls;
    // A new call refused by the open breaker says so by its type: the lifecycle routes a new transaction again on it.
    await expect(flaky.refund!({ ...refund, retry: false })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(flaky.refund!({ ...refund, retry: false })).rejects.toBeInstanceOf(CircuitOpened);
    await expect(flaky.refund!({ ...refund, retry: true })).rejects.not.toBeInstanceOf(AppError);
    expect(calls).toBe(sent);
    flaky.shutdown();
  });

  it('names routes for errors', () => {
    expect(describeRoute(GH_MTN)).toBe('momo collection in GH on MTN');
    expect(describeRoute({ channelType: 'card', countryCode: null, networkCode: null, direction: 'transfer' })).toBe('card refunds');
  });
});

describe('provider details', () => {
  it('builds an MSISDN from the dial code and the account number as merchants give it', () => {
    expect(msisdn('+233', '0241234567')).toBe('233241234567');
    expect(msisdn('+233', '241234567')).toBe('233241234567');
    expect(msisdn('+254', '254712345678')).toBe('254712345678');
    expect(msisdn('+254', '0712345678')).toBe('254712345678');
  });

  it('M-Pesa: the STK password is base64(shortcode + passkey + timestamp), the timestamp Kenya’s time', () => {
    // Daraja's own example values (its STK Push documentation).
    const passkey = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';
    expect(stkPassword('174379', passkey, '20160216165627')).toBe(Buffer.from(`174379${passkey}20160216165627`).toString('base64'));
    expect(darajaTimestamp(new Date('2026-11-25T21:30:05Z'))).toBe('20261126003005');
  });

  it('MTN: a payer message keeps to what MTN accepts (no apostrophe or &, at most 160 characters)', () => {
    expect(momoNote("Ama's order #7 & co")).toBe('Ama s order #7 co');
    expect(momoNote('x'.repeat(200))).toHaveLength(160);
    expect(momoNote("'&'")).toBe('Payment');
  });

  it('MTN: X-Reference-Id is the transaction id as a version-4 UUID, the same on every call; an older v4 id is kept', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const id = timeOrderedUuid();
    expect(id[14]).toBe('7');
    expect(referenceIdOf(id)).toMatch(v4);
    expect(referenceIdOf(id)).toBe(referenceIdOf(id));
    expect(referenceIdOf(id).replace(/-/g, '')).toBe(`${id.slice(0, 14)}4${id.slice(15)}`.replace(/-/g, ''));
    const old = '0b7e3a2c-5d1f-4c6e-9a8b-7f6e5d4c3b2a';
    expect(referenceIdOf(old)).toBe(old);
  });

  it('maps providers’ codes to our failure reasons', () => {
    expect(mtnFailureReason('NOT_ENOUGH_FUNDS', 'collection')).toBe('sender_insufficient_funds');
    expect(mtnFailureReason('PAYEE_NOT_FOUND', 'transfer')).toBe('beneficiary_account_unavailable');
    expect(mtnFailureReason('SOMETHING_NEW', 'collection')).toBe('provider_declined');
    expect(stkFailureReason('1032')).toBe('payment_declined_by_sender');
    expect(stkFailureReason('1037')).toBe('sender_unreachable');
    expect(stkFailureReason('SFC_IC0003')).toBe('provider_refused');
    expect(b2cFailureReason('SFC_IC0003')).toBe('beneficiary_account_unavailable');
    expect(mtnFailureReason('PAYEE_NOT_ALLOWED_TO_RECEIVE', 'transfer')).toBe('beneficiary_account_unavailable');
    expect(b2cFailureReason('2040')).toBe('beneficiary_account_unavailable');
    expect(transferFailureReason('DISBURSE FAILED: Insufficient funds in customer wallet')).toBe('provider_float_insufficient');
    expect(transferFailureReason('Account could not be resolved')).toBe('beneficiary_account_unavailable');
    expect(transferFailureReason(null)).toBe('provider_declined');
  });

  it('caches a token until shortly before it expires, and shares one fetch between concurrent callers', async () => {
    let now = 0;
    let fetched = 0;
    const cache = new TokenCache({
      fetchToken: async () => {
        fetched += 1;
        return { value: `t${fetched}`, expiresInS: 3600 };
      },
      now: () => now,
    });
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual(['t1', 't1', 't1']);
    now = 3_500_000;
    expect(await cache.get()).toBe('t1');
    now = 3_541_000; // within the last minute of its life
    expect(await cache.get()).toBe('t2');
    expect(fetched).toBe(2);
  });
});
