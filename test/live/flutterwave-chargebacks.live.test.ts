import { loadConfig } from '../../src/config';
import { ProviderRefusal } from '../../src/providers/connector';
import { FlutterwaveConnector } from '../../src/providers/flutterwave/client';
import { flutterwaveDisputes } from '../../src/providers/flutterwave/records';
import { lenientJson } from '../../src/providers/provider-http';

/**
 * Live contract test of Flutterwave's chargeback API against its test mode: runs only when FLUTTERWAVE_* credentials are
 * in the environment and the secret key is a test-mode one (FLWSECK_TEST-…), else it is skipped and says so. Flutterwave
 * opens no chargeback on request in test mode, so it checks what can be checked without one: the list's envelope and
 * every chargeback in it read (GET /v3/chargebacks), and an answer to a chargeback that does not exist refused
 * (PUT /v3/chargebacks/{id}) as a ProviderRefusal. It never answers a real chargeback.
 */
const config = loadConfig({ ...process.env, PAYMENTS_ENV: 'sandbox', RECONCILE_AFTER_MS: '60000' });
const flw = config.connectors.flutterwave;
const testMode = Boolean(flw?.secretKey.startsWith('FLWSECK_TEST'));
const live = Boolean(flw) && testMode;
const maybe = live ? it : it.skip;
if (!live)
  console.info(
    flw
      ? 'Flutterwave chargeback live contract tests skipped: FLUTTERWAVE_SECRET_KEY is not a test-mode key (FLWSECK_TEST-…); they never run against live keys'
      : 'Flutterwave chargeback live contract tests skipped: set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_ENCRYPTION_KEY and FLUTTERWAVE_WEBHOOK_HASH (test mode) to run them',
  );

describe(`Flutterwave chargebacks live contract${live ? ` (${flw!.baseUrl})` : ' — skipped: set the FLUTTERWAVE_* test-mode keys to run'}`, () => {
  it('runs when test-mode Flutterwave credentials are in the environment, and says why not otherwise', () => {
    const given = Boolean(process.env.FLUTTERWAVE_SECRET_KEY?.startsWith('FLWSECK_TEST'));
    expect(live).toBe(given);
  });

  let connector: FlutterwaveConnector;
  beforeAll(() => {
    if (live) connector = new FlutterwaveConnector({ config: flw!, timeoutMs: 30_000 });
  });

  maybe(
    'lists the chargebacks of the last 120 days: the documented envelope, and every one read',
    async () => {
      const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
      const get = (path: string) =>
        fetch(`${flw!.baseUrl.replace(/\/+$/, '')}${path}`, { headers: { authorization: `Bearer ${flw!.secretKey}`, accept: 'application/json' } }).then(
          async (res) => {
            const text = await res.text();
            return { status: res.status, text, json: lenientJson(text) };
          },
        );
      const { unread } = await flutterwaveDisputes(get, since);
      expect(unread).toBe(0);
      expect(Array.isArray(await connector.listDisputes(since))).toBe(true);
    },
    120_000,
  );

  maybe(
    'an answer to a chargeback that does not exist is refused, as a ProviderRefusal',
    async () => {
      const answer = connector.answerDispute('999999999', 'accept', 'Live contract test: no such chargeback');
      await expect(answer).rejects.toBeInstanceOf(ProviderRefusal);
      await expect(connector.answerDispute('999999999', 'decline', 'Live contract test')).rejects.toMatchObject({
        code: expect.stringMatching(/^(NOT_FOUND|INVALID_STATE)$/),
      });
    },
    60_000,
  );
});
