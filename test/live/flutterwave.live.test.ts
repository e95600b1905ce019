import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config';
import type { CardDetails } from '../../src/providers/connector';
import { FlutterwaveConnector } from '../../src/providers/flutterwave/client';

/**
 * Live contract test against Flutterwave's test mode: runs only when FLUTTERWAVE_* credentials are in
 * the environment and the secret key is a test-mode one (FLWSECK_TEST-…), else it is skipped and says
 * so. It checks that what the fake taught the connector is what Flutterwave does: the key, a
 * temporary virtual account with its expiry, a 3-D Secure test card's redirect, a declined test card,
 * a transfer to Flutterwave's test bank account, and "no transaction" for an unknown tx_ref.
 */
const config = loadConfig({ ...process.env, PAYMENTS_ENV: 'sandbox', RECONCILE_AFTER_MS: '60000' });
const flw = config.connectors.flutterwave;
const testMode = Boolean(flw?.secretKey.startsWith('FLWSECK_TEST'));
const live = Boolean(flw) && testMode;
const maybe = live ? it : it.skip;
if (!live)
  console.info(
    flw
      ? 'Flutterwave live contract tests skipped: FLUTTERWAVE_SECRET_KEY is not a test-mode key (FLWSECK_TEST-…); they never run against live keys'
      : 'Flutterwave live contract tests skipped: set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_ENCRYPTION_KEY and FLUTTERWAVE_WEBHOOK_HASH (test mode) to run them',
  );

const card = (number: string): CardDetails => ({ number, expMonth: 9, expYear: 2032, cvc: '828', postalCode: null, pin: null, billingAddress: null });
const payer = async () => ({ email: 'live-contract@flutterwave-test.invalid', name: 'Live Contract', countryCode: 'NG', phone: '2348012345678' });

describe(`Flutterwave live contract${live ? ` (${flw!.baseUrl})` : ' — skipped: set the FLUTTERWAVE_* test-mode keys to run'}`, () => {
  it('runs when test-mode Flutterwave credentials are in the environment, and says why not otherwise', () => {
    const given = Boolean(process.env.FLUTTERWAVE_SECRET_KEY?.startsWith('FLWSECK_TEST'));
    expect(live).toBe(given);
  });

  let connector: FlutterwaveConnector;
  beforeAll(() => {
    if (live) connector = new FlutterwaveConnector({ config: flw!, timeoutMs: 30_000 });
  });

  maybe(
    'accepts the secret key',
    async () => {
      expect(await connector.checkCredentials()).toEqual(['secret key accepted (balances read)']);
    },
    60_000,
  );

  maybe(
    'opens a temporary NGN virtual account with an account number, a bank and an expiry',
    async () => {
      const id = randomUUID();
      const account = await connector.createVirtualAccount({
        idempotencyKey: id,
        reference: `live-${id.slice(0, 8)}`,
        countryCode: 'NG',
        networkCode: 'GTBINGLA',
        currency: 'NGN',
        amount: '1000.00',
        accountName: 'Live Contract',
        payer,
        retry: false,
      });
      expect(account.accountNumber).toMatch(/^\d{10}$/);
      expect(account.bankName).toBeTruthy();
      expect(account.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    },
    60_000,
  );

  maybe(
    'a 3-D Secure test card answers a redirect; a declined one fails',
    async () => {
      const base = {
        reference: 'live-card',
        amount: '100.00',
        currency: 'NGN',
        payer,
        returnUrl: 'https://127.0.0.1/v1/providers/flutterwave/return/x',
        otpUrl: () => 'https://127.0.0.1/checkout/otp/x',
      };
      const redirect = await connector.chargeCard({ ...base, idempotencyKey: randomUUID(), card: card('4187427415564246') });
      expect(redirect).toMatchObject({ outcome: 'requires_action', authenticationUrl: expect.stringMatching(/^https:/) });
      const declined = await connector.chargeCard({ ...base, idempotencyKey: randomUUID(), card: card('5258585922666506') });
      expect(declined.outcome).toBe('failed');
    },
    60_000,
  );

  maybe(
    'a transfer to Flutterwave’s test account is queued under our reference',
    async () => {
      const id = randomUUID();
      const { providerReference } = await connector.initiate({
        idempotencyKey: id,
        kind: 'transfer',
        reference: `live-${id.slice(0, 8)}`,
        accountType: 'bank',
        countryCode: 'NG',
        networkCode: 'ABNGNGLA',
        dialCode: '+234',
        accountNumber: '0690000031',
        accountName: 'Forrest Green',
        amount: '500',
        currency: 'NGN',
        description: 'Live contract test',
        callbackUrl: '',
        payer,
        retry: null,
      });
      expect(providerReference).toMatch(/^\d+$/);
    },
    60_000,
  );

  maybe(
    'an unknown tx_ref is pending, not an error (verify_by_reference’s "No transaction was found")',
    async () => {
      const decision = await connector.decide({
        kind: 'collection',
        idempotencyKey: randomUUID(),
        accountType: 'momo',
        accountNumber: '',
        amount: '100',
        currency: 'UGX',
        providerReference: null,
        callbackUrl: '',
        notifications: [],
        trigger: 'poll',
      });
      expect(decision).toEqual({ outcome: 'pending' });
    },
    60_000,
  );
});
