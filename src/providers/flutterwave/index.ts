import { flutterwaveRules } from './rules';
import { defineProvider, group, variables, type ProviderEnv } from '../provider';
import type { PaymentsEnv } from '../../config';
import { DOCS, ProblemTally, throwProblem, type ReportProblem } from '../../shared/config-problems';
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

function configure(e: ProviderEnv, env: PaymentsEnv, report: ReportProblem = throwProblem): FlutterwaveConfig | null {
  const problems = new ProblemTally(report);
  const flw = group(e, VARIABLES, 'Flutterwave', problems.report);
  // The card payload's 3DES key: Flutterwave's dashboard gives 24 characters (FLWSECK_TEST + 12 hex in test mode).
  const encryptionKey = e.FLUTTERWAVE_ENCRYPTION_KEY;
  if (encryptionKey !== undefined && Buffer.byteLength(encryptionKey, 'utf8') !== 24) {
    problems.report({
      variables: ['FLUTTERWAVE_ENCRYPTION_KEY'],
      problem: 'FLUTTERWAVE_ENCRYPTION_KEY must be the 24-character encryption key from Flutterwave’s dashboard (API keys)',
      fix: 'set FLUTTERWAVE_ENCRYPTION_KEY to the encryption key of Settings → API keys in Flutterwave’s dashboard (24 characters)',
      doc: DOCS.providers,
    });
  }
  // A test-mode key moves no money: production on it would credit merchants for card payments and collections that
  // never happened (as MTN's sandbox target is refused).
  if (env !== 'sandbox' && e.FLUTTERWAVE_SECRET_KEY?.startsWith('FLWSECK_TEST')) {
    problems.report({
      variables: ['FLUTTERWAVE_SECRET_KEY'],
      problem: 'FLUTTERWAVE_SECRET_KEY is a test-mode key (FLWSECK_TEST-…); production needs the live key',
      fix: 'set FLUTTERWAVE_SECRET_KEY to the live secret key (FLWSECK-…) of Settings → API keys, with the live encryption key and webhook hash',
      doc: DOCS.providers,
    });
  }
  if (!flw || problems.count > 0) return null;
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
  rules: flutterwaveRules,
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
