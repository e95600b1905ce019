import { defineProvider, group, variables, type ProviderEnv } from '../provider';
import type { PaymentsEnv } from '../../config';
import { FlutterwaveConnector } from './client';

/** Flutterwave v3: one secret key, the card payload's encryption key, and the webhooks' `verif-hash`. */
export interface FlutterwaveConfig {
  baseUrl: string;
  secretKey: string;
  encryptionKey: string;
  webhookHash: string;
}

const VARIABLES = ['FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_ENCRYPTION_KEY', 'FLUTTERWAVE_WEBHOOK_HASH'] as const;

/** Flutterwave's real address (docs/providers.md); a test always points the connector at its fake instead. */
const BASE_URL = 'https://api.flutterwave.com';

function configure(e: ProviderEnv, env: PaymentsEnv): FlutterwaveConfig | null {
  const flw = group(e, VARIABLES, 'Flutterwave');
  if (!flw) return null;
  // The card payload's 3DES key: Flutterwave's dashboard gives 24 characters (FLWSECK_TEST + 12 hex in test mode).
  if (Buffer.byteLength(flw.FLUTTERWAVE_ENCRYPTION_KEY, 'utf8') !== 24) {
    throw new Error('Invalid configuration: FLUTTERWAVE_ENCRYPTION_KEY must be the 24-character encryption key from Flutterwave’s dashboard (API keys)');
  }
  // A test-mode key moves no money: production on it would credit merchants for card payments and collections that
  // never happened (as MTN's sandbox target is refused).
  if (env !== 'sandbox' && flw.FLUTTERWAVE_SECRET_KEY.startsWith('FLWSECK_TEST')) {
    throw new Error('Invalid configuration: FLUTTERWAVE_SECRET_KEY is a test-mode key (FLWSECK_TEST-…); production needs the live key');
  }
  return {
    baseUrl: e.FLUTTERWAVE_BASE_URL ?? BASE_URL,
    secretKey: flw.FLUTTERWAVE_SECRET_KEY,
    encryptionKey: flw.FLUTTERWAVE_ENCRYPTION_KEY,
    webhookHash: flw.FLUTTERWAVE_WEBHOOK_HASH,
  };
}

/**
 * Flutterwave: payouts to banks and wallets, bank collections (temporary virtual accounts), mobile money
 * collections, card payments, their refunds and chargebacks, in the countries of flutterwave.data.json.
 */
export const flutterwave = defineProvider({
  name: 'flutterwave',
  key: 'flutterwave',
  env: variables(['FLUTTERWAVE_BASE_URL', ...VARIABLES]),
  configure,
  capabilities: [
    'opensVirtualAccounts',
    'chargesCards',
    'validatesCardOtp',
    'refunds',
    'receivesWebhooks',
    'redactsNotifications',
    'checksRequests',
    'readsNotifications',
    'resolvesAccounts',
    'listsTransactions',
    'reportsBalance',
    'handlesDisputes',
  ],
  create: (settings, { timeoutMs }) => new FlutterwaveConnector({ config: settings, timeoutMs }),
});
