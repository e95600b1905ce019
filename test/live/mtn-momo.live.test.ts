import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { MtnMomoConnector } from '../../src/providers/mtn-momo/client';

/**
 * Live contract test against MTN's own sandbox: runs only when MTN MoMo credentials are in the
 * environment (MTN_MOMO_COLLECTION_* / MTN_MOMO_DISBURSEMENT_*, and MTN_MOMO_TARGET_ENVIRONMENT,
 * default `sandbox`), else it is skipped, and says so in its name. It checks that what the fake
 * taught the connector is what MTN does: the token, request-to-pay's 202, the 409 on a repeated
 * X-Reference-Id, the status GET, and a sandbox test number's documented outcome.
 * PUBLIC_BASE_URL (if set) is the callback host registered with the API user.
 */
const config = loadConfig({ ...process.env, PAYMENTS_ENV: 'sandbox', RECONCILE_AFTER_MS: '60000' });
const mtn = config.connectors.mtnMomo;
const live = Boolean(mtn?.collection);
const maybe = live ? it : it.skip;
if (!mtn?.collection)
  console.info(
    'MTN MoMo live contract tests skipped: set MTN_MOMO_COLLECTION_PRIMARY_KEY, MTN_MOMO_COLLECTION_USER_ID and MTN_MOMO_COLLECTION_API_KEY to run them against MTN\u2019s sandbox',
  );

describe(`MTN MoMo live contract${mtn?.collection ? ` (${mtn.baseUrl})` : ' — skipped: set MTN_MOMO_COLLECTION_PRIMARY_KEY, _USER_ID and _API_KEY to run'}`, () => {
  it('runs when MTN MoMo credentials are in the environment, and says why not otherwise', () => {
    // Any MTN_MOMO_* credential set means the whole set loaded (config.ts refuses a partial one).
    const given = Object.keys(process.env).some(
      (k) => k.startsWith('MTN_MOMO_') && !k.endsWith('BASE_URL') && !k.endsWith('TARGET_ENVIRONMENT') && !k.endsWith('LIVE_PHONE'),
    );
    expect(live || given).toBe(given);
  });

  let connector: MtnMomoConnector;
  beforeAll(() => {
    if (!live) return;
    connector = new MtnMomoConnector({ config: mtn!, timeoutMs: 20_000 });
  });
  const request = (accountNumber: string, id = randomUUID()) => ({
    idempotencyKey: id,
    kind: 'collection' as const,
    reference: `live-${id.slice(0, 8)}`,
    accountType: 'momo' as const,
    countryCode: 'GH',
    networkCode: 'MTN',
    dialCode: '+46',
    accountNumber,
    accountName: null,
    amount: '5.00',
    currency: 'GHS',
    description: 'Live contract test',
    callbackUrl: `${process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1'}/v1/providers/mtn_momo/callback/live`,
    payer: async () => ({ email: 'live-test@example.com', name: 'Live Test', countryCode: null, phone: null }),
    retry: null,
  });
  const decided = async (id: string) => {
    for (let i = 0; i < 30; i += 1) {
      const decision = await connector.decide({
        kind: 'collection',
        idempotencyKey: id,
        accountType: 'momo',
        accountNumber: '',
        amount: '5.00',
        currency: 'GHS',
        providerReference: id,
        callbackUrl: '',
        notifications: [],
        trigger: 'poll',
      });
      if (decision.outcome !== 'pending') return decision;
      await new Promise((r) => setTimeout(r, 2000));
    }
    return { outcome: 'pending' as const };
  };

  maybe(
    'issues a token',
    async () => {
      expect((await connector.checkCredentials())[0]).toContain('token issued');
    },
    30_000,
  );

  maybe(
    'request-to-pay is accepted once; the same X-Reference-Id again is not a second payment',
    async () => {
      const first = request('46733123459');
      expect(await connector.initiate(first)).toEqual({ providerReference: first.idempotencyKey });
      expect(await connector.initiate(first)).toEqual({ providerReference: first.idempotencyKey });
      expect(await decided(first.idempotencyKey)).toEqual({ outcome: 'successful' });
    },
    120_000,
  );

  maybe(
    'MTN’s documented failing test number fails',
    async () => {
      const failing = request('46733123450');
      await connector.initiate(failing);
      expect(await decided(failing.idempotencyKey)).toMatchObject({ outcome: 'failed' });
    },
    120_000,
  );
});
