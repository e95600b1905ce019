import { mpesaRules } from './rules';
import { defineProvider, group, variables, type ProviderEnv } from '../provider';
import type { PaymentsEnv } from '../../config';
import { ProblemTally, throwProblem, type ReportProblem } from '../../shared/config-problems';
import { MpesaConnector } from './client';

/** Safaricom M-Pesa Daraja: STK Push collections and B2C payouts, each when configured. */
export interface MpesaConfig {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  stk: { shortcode: string; passkey: string } | null;
  b2c: { shortcode: string; initiatorName: string; securityCredential: string } | null;
}

const STK_VARIABLES = ['MPESA_CONSUMER_KEY', 'MPESA_CONSUMER_SECRET', 'MPESA_SHORTCODE', 'MPESA_PASSKEY'] as const;
const B2C_VARIABLES = [
  'MPESA_CONSUMER_KEY',
  'MPESA_CONSUMER_SECRET',
  'MPESA_B2C_SHORTCODE',
  'MPESA_B2C_INITIATOR_NAME',
  'MPESA_B2C_SECURITY_CREDENTIAL',
] as const;

/** Daraja's real addresses (docs/providers.md); a test always points the connector at its fake instead. */
const BASE_URLS = { sandbox: 'https://sandbox.safaricom.co.ke', live: 'https://api.safaricom.co.ke' } as const;

function configure(e: ProviderEnv, env: PaymentsEnv, report: ReportProblem = throwProblem): MpesaConfig | null {
  const problems = new ProblemTally(report);
  const stk = group(e, STK_VARIABLES, 'M-Pesa STK Push', problems.report);
  const b2c = group(e, B2C_VARIABLES, 'M-Pesa B2C', problems.report);
  if (problems.count > 0) return null;
  if (!stk && !b2c) return null;
  return {
    baseUrl: e.MPESA_BASE_URL ?? (env === 'sandbox' ? BASE_URLS.sandbox : BASE_URLS.live),
    consumerKey: e.MPESA_CONSUMER_KEY!,
    consumerSecret: e.MPESA_CONSUMER_SECRET!,
    stk: stk && { shortcode: stk.MPESA_SHORTCODE, passkey: stk.MPESA_PASSKEY },
    b2c: b2c && {
      shortcode: b2c.MPESA_B2C_SHORTCODE,
      initiatorName: b2c.MPESA_B2C_INITIATOR_NAME,
      securityCredential: b2c.MPESA_B2C_SECURITY_CREDENTIAL,
    },
  };
}

/** M-Pesa (Kenya): collections by STK Push, payouts by B2C, in whole shillings. */
export const mpesa = defineProvider({
  name: 'mpesa',
  key: 'mpesa',
  env: variables([
    'MPESA_BASE_URL',
    'MPESA_CONSUMER_KEY',
    'MPESA_CONSUMER_SECRET',
    'MPESA_SHORTCODE',
    'MPESA_PASSKEY',
    'MPESA_B2C_SHORTCODE',
    'MPESA_B2C_INITIATOR_NAME',
    'MPESA_B2C_SECURITY_CREDENTIAL',
  ]),
  configure,
  rules: mpesaRules,
  capabilities: ['checksRequests', 'roundsPayouts', 'readsNotifications'],
  create: (settings, { timeoutMs, now }) => new MpesaConnector({ config: settings, timeoutMs, now }),
});
