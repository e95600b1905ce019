import type { z } from 'zod';

/**
 * Configuration problems (issue 41): what is missing or wrong, what to set instead, and where the docs say more.
 * Every rule reports here instead of throwing at the first, so a production start (and `npm run preflight`)
 * names every problem at once, each with its fix.
 */
export interface ConfigProblem {
  /** The variables to set or change; the first is the one the problem is listed under. */
  variables: readonly string[];
  /** What is wrong, naming the variables; never quoting a value (it may be a secret). */
  problem: string;
  /** What to set, with an example. */
  fix: string;
  /** Where it is explained: a section of docs/going-live.md (or docs/operations.md for the rest). */
  doc: string;
}

/** The sections of docs/going-live.md a fix points to; DOCS.configuration lists every other variable. */
export const DOCS = {
  environment: 'docs/going-live.md#going-live',
  keys: 'docs/going-live.md#keys-and-secrets',
  database: 'docs/going-live.md#database',
  redis: 'docs/going-live.md#redis',
  address: 'docs/going-live.md#public-address-proxy-probes',
  providers: 'docs/going-live.md#providers-credentials',
  routes: 'docs/going-live.md#routes',
  money: 'docs/going-live.md#money-fees-funding-payouts',
  webhooks: 'docs/going-live.md#webhooks',
  merchants: 'docs/going-live.md#merchants-people-and-kyc',
  checklist: 'docs/going-live.md#checklist',
  configuration: 'docs/operations.md#configuration',
} as const;

/** The section that explains a variable (providers' own variables: `providers`, by the caller). */
const SECTION_OF: Readonly<Record<string, keyof typeof DOCS>> = {
  PAYMENTS_ENV: 'environment',
  TOKEN_SIGNING_KEY: 'keys',
  ENCRYPTION_KEY: 'keys',
  ADMIN_API_KEY: 'keys',
  METRICS_TOKEN: 'keys',
  SMTP_URL: 'keys',
  MAIL_FROM: 'keys',
  DATABASE_URL: 'database',
  ALLOW_EMBEDDED_DATABASE: 'database',
  DB_POOL_MAX: 'database',
  REDIS_URL: 'redis',
  RATE_LIMIT_PREFIX: 'redis',
  PUBLIC_BASE_URL: 'address',
  TRUST_PROXY: 'address',
  HOST: 'address',
  PORT: 'address',
  KEEP_ALIVE_TIMEOUT_MS: 'address',
  SHUTDOWN_TIMEOUT_MS: 'address',
  PROVIDER_ROUTES: 'routes',
  FEE_DEFAULTS: 'money',
  SETTLEMENT_DELAY_S: 'money',
  PAYOUT_MINIMUMS: 'money',
  PAYOUT_RUN_INTERVAL_S: 'money',
  LEDGER_VERIFY_INTERVAL_S: 'money',
  RECONCILIATION_ENABLED: 'money',
  PROVIDER_POLL_SCHEDULE: 'webhooks',
  WEBHOOK_RETRY_SCHEDULE: 'webhooks',
  WEBHOOK_TIMEOUT_MS: 'webhooks',
  EVENT_RETENTION_DAYS: 'webhooks',
  SIGNUP_ENABLED: 'merchants',
};

/** Where a variable is explained. */
export function docFor(variable: string): string {
  if (variable.startsWith('S3_')) return DOCS.merchants;
  return DOCS[SECTION_OF[variable] ?? 'configuration'];
}

/** A variable's value the schema refused, as a problem: zod's message, and a fix from what the schema wanted. */
export function problemOfIssue(issue: z.core.$ZodIssue, doc: (variable: string) => string = docFor): ConfigProblem {
  const variable = issue.path.map(String).join('.');
  return { variables: [variable], problem: `${variable}: ${issue.message}`, fix: fixOfIssue(variable, issue), doc: doc(variable) };
}

function fixOfIssue(variable: string, issue: z.core.$ZodIssue): string {
  // The schema's own messages say what a value must be, most with an example.
  if (issue.message.startsWith('must be ')) return `set ${variable} to ${issue.message.slice('must be '.length)}`;
  switch (issue.code) {
    case 'invalid_value':
      return `set ${variable} to one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `set ${variable} to ${issue.origin === 'string' ? `at least ${issue.minimum} characters` : `a whole number of at least ${issue.minimum}`}`;
    case 'too_big':
      return `set ${variable} to ${issue.origin === 'string' ? `at most ${issue.maximum} characters` : `a whole number of at most ${issue.maximum}`}`;
    case 'invalid_type':
      return `set ${variable} to a ${issue.expected === 'number' ? 'whole number' : issue.expected}`;
    default:
      return `correct ${variable}, or unset it for its default`;
  }
}

/** Somewhere a rule reports a problem to. */
export type ReportProblem = (problem: ConfigProblem) => void;

/** The reporter of a caller that wants the first problem as an error (a provider's settings read alone). */
export const throwProblem: ReportProblem = (problem) => {
  throw new ConfigurationError([problem]);
};

/** Passes problems on and counts them: a rule that reports several returns no settings when it found any. */
export class ProblemTally {
  count = 0;
  constructor(private readonly to: ReportProblem) {}

  readonly report: ReportProblem = (problem) => {
    this.count++;
    this.to(problem);
  };
}

/**
 * Problems collected in order. A problem about variables that are all named by an earlier one is dropped: one
 * cause (PUBLIC_BASE_URL malformed) is not listed again as another (PUBLIC_BASE_URL missing).
 */
export class ProblemList {
  private readonly list: ConfigProblem[] = [];
  private readonly named = new Set<string>();

  readonly report: ReportProblem = (problem) => {
    if (problem.variables.length > 0 && problem.variables.every((v) => this.named.has(v))) return;
    this.list.push(problem);
    for (const v of problem.variables) this.named.add(v);
  };

  /**
   * A parser that throws at its first problem (one the service also calls where it uses the value): its error's
   * message becomes a problem of `about.variables`, and `fallback` stands in for the value.
   */
  attempt<T, F = T>(parse: () => T, fallback: F, about: Omit<ConfigProblem, 'problem'>): T | F {
    try {
      return parse();
    } catch (err) {
      this.report({ ...about, problem: err instanceof Error ? err.message : String(err) });
      return fallback;
    }
  }

  get all(): readonly ConfigProblem[] {
    return this.list;
  }
}

/** One problem as the operator reads it: what is wrong, then the fix and the doc, each on its own line. */
function describeProblem(problem: ConfigProblem, indent = '  '): string {
  return `${problem.problem}\n${describeFix(problem, indent)}`;
}

/** A fix and where the docs explain it, on two lines. */
export function describeFix({ fix, doc }: Pick<ConfigProblem, 'fix' | 'doc'>, indent: string): string {
  return `${indent}fix: ${fix}\n${indent}see: ${doc}`;
}

/**
 * The refusal of a configuration, naming every problem: `<heading>: <problem>` when there is one (unless `list`),
 * else `<heading> (n to fix):` and one entry per problem.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], { heading = 'Invalid configuration', list = false }: { heading?: string; list?: boolean } = {}) {
    super(
      problems.length === 1 && !list
        ? `${heading}: ${describeProblem(problems[0]!)}`
        : `${heading} (${problems.length} to fix):\n${problems.map((p) => `  - ${describeProblem(p, '      ')}`).join('\n')}`,
    );
    this.problems = problems;
  }
}
