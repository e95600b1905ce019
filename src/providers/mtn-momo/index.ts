import { mtnMomoRules } from './rules';
import { anySet, defineProvider, group, variables, type ProviderEnv } from '../provider';
import type { PaymentsEnv } from '../../config';
import { DOCS, ProblemTally, throwProblem, type ReportProblem } from '../../shared/config-problems';
import { MtnMomoConnector } from './client';

/** MTN MoMo Open API: one target environment (a country, or `sandbox`), with the products configured. */
export interface MtnMomoConfig {
  baseUrl: string;
  targetEnvironment: string;
  collection: MtnMomoProduct | null;
  disbursement: MtnMomoProduct | null;
}
export interface MtnMomoProduct {
  primaryKey: string;
  userId: string;
  apiKey: string;
}

const PRODUCT_VARIABLES = (product: 'COLLECTION' | 'DISBURSEMENT') =>
  [`MTN_MOMO_${product}_PRIMARY_KEY`, `MTN_MOMO_${product}_USER_ID`, `MTN_MOMO_${product}_API_KEY`] as const;

/** MTN's real addresses (docs/providers.md); a test always points the connector at its fake instead. */
const BASE_URLS = { sandbox: 'https://sandbox.momodeveloper.mtn.com', live: 'https://proxy.momoapi.mtn.com' } as const;

function configure(e: ProviderEnv, env: PaymentsEnv, report: ReportProblem = throwProblem): MtnMomoConfig | null {
  const products = [...PRODUCT_VARIABLES('COLLECTION'), ...PRODUCT_VARIABLES('DISBURSEMENT')];
  if (!anySet(e, products)) return null;
  const problems = new ProblemTally(report);
  const collection = group(e, PRODUCT_VARIABLES('COLLECTION'), 'MTN MoMo collections', problems.report);
  const disbursement = group(e, PRODUCT_VARIABLES('DISBURSEMENT'), 'MTN MoMo disbursements', problems.report);
  const target = e.MTN_MOMO_TARGET_ENVIRONMENT ?? (env === 'sandbox' ? 'sandbox' : undefined);
  const fixTarget = "set MTN_MOMO_TARGET_ENVIRONMENT to your account's country, e.g. mtnghana or mtnuganda";
  if (!target) {
    problems.report({
      variables: ['MTN_MOMO_TARGET_ENVIRONMENT'],
      problem: 'MTN MoMo is configured but MTN_MOMO_TARGET_ENVIRONMENT is missing',
      fix: fixTarget,
      doc: DOCS.providers,
    });
  } else if (target === 'sandbox' && env !== 'sandbox') {
    // MTN's test environment pays nothing real: production on it would credit merchants for collections that never happened.
    problems.report({
      variables: ['MTN_MOMO_TARGET_ENVIRONMENT'],
      problem: "MTN_MOMO_TARGET_ENVIRONMENT 'sandbox' is MTN's test environment; production needs a country's",
      fix: `${fixTarget}, with that environment's live credentials`,
      doc: DOCS.providers,
    });
  }
  if (problems.count > 0 || !target || (!collection && !disbursement)) return null;
  const product = (v: Record<string, string> | null, p: string) =>
    v && { primaryKey: v[`MTN_MOMO_${p}_PRIMARY_KEY`]!, userId: v[`MTN_MOMO_${p}_USER_ID`]!, apiKey: v[`MTN_MOMO_${p}_API_KEY`]! };
  return {
    baseUrl: e.MTN_MOMO_BASE_URL ?? (target === 'sandbox' ? BASE_URLS.sandbox : BASE_URLS.live),
    targetEnvironment: target,
    collection: product(collection, 'COLLECTION'),
    disbursement: product(disbursement, 'DISBURSEMENT'),
  };
}

/** MTN MoMo: mobile money collections (request-to-pay) and payouts (disbursement transfer) in its target environment's country. */
export const mtnMomo = defineProvider({
  name: 'mtn_momo',
  key: 'mtnMomo',
  env: variables(['MTN_MOMO_BASE_URL', 'MTN_MOMO_TARGET_ENVIRONMENT', ...PRODUCT_VARIABLES('COLLECTION'), ...PRODUCT_VARIABLES('DISBURSEMENT')]),
  configure,
  rules: mtnMomoRules,
  capabilities: ['checksRequests', 'resolvesAccounts', 'reportsBalance'],
  create: (settings, { timeoutMs }) => new MtnMomoConnector({ config: settings, timeoutMs }),
});
