import { readConfig, type Config } from './config';
import { parseFeeDefaults } from './modules/ledger/fee-schedule';
import { parsePollSchedule, parseRetrySchedule } from './modules/webhooks/retry-schedule';
import { configuredProviders } from './providers/registry';
import { SANDBOX_CONNECTOR, deploymentRules } from './providers/routing';
import { ConfigurationError, DOCS, ProblemList, type ConfigProblem } from './shared/config-problems';
import { decodeEncryptionKey, decodeSigningKey } from './shared/keys';

/**
 * What keeps the service itself from starting, beyond config.ts's own rules (which every process shares): its keys,
 * its database and its mail in production, and the settings the modules parse when they are made (fees, schedules,
 * routes), each checked here by the module's own parser. The operator CLIs do not ask: provider:check needs no key,
 * no database and no mail. One list for the start (loadServiceConfig) and `npm run preflight` alike.
 */
export function serviceStartProblems(config: Config): ConfigProblem[] {
  const problems = new ProblemList();
  const production = config.env === 'production';

  // Keys: required in production (a sandbox without them generates its own, kept in DATA_DIR); their format everywhere.
  const keys = [
    {
      variable: 'TOKEN_SIGNING_KEY',
      value: config.tokenSigningKey,
      decode: decodeSigningKey,
      what: 'it signs access tokens',
      fix: 'set TOKEN_SIGNING_KEY to 32 characters or more, e.g. the output of `openssl rand -base64 48`, the same on every instance',
    },
    {
      variable: 'ENCRYPTION_KEY',
      value: config.encryptionKey,
      decode: decodeEncryptionKey,
      what: 'it seals secrets at rest',
      fix: 'set ENCRYPTION_KEY to 32 bytes as 64 hex characters, e.g. the output of `openssl rand -hex 32`, the same on every instance, and back it up',
    },
  ];
  for (const { variable, value, decode, what, fix } of keys) {
    if (value === undefined) {
      if (production) problems.report({ variables: [variable], problem: `${variable} is required in production: ${what}`, fix, doc: DOCS.keys });
    } else {
      problems.attempt(() => decode(value), undefined, { variables: [variable], fix, doc: DOCS.keys });
    }
  }

  if (production && config.databaseUrl === undefined && !config.allowEmbeddedDatabase) {
    problems.report({
      variables: ['DATABASE_URL'],
      problem: 'DATABASE_URL is required in production: the embedded PGlite serves one process, with no replica or backup of its own',
      fix: 'set DATABASE_URL to your PostgreSQL server, e.g. postgresql://payments:password@db.internal:5432/payments (or ALLOW_EMBEDDED_DATABASE=1 to run on the embedded one anyway)',
      doc: DOCS.database,
    });
  }

  if (production) {
    // Invitations are always on, and sign-up when SIGNUP_ENABLED=true: both email links, which production never logs.
    const needs = config.signupEnabled ? 'sign-up (SIGNUP_ENABLED=true) and invitations send' : 'invitations send';
    if (config.mail.smtpUrl === undefined) {
      problems.report({
        variables: ['SMTP_URL'],
        problem: `SMTP_URL is required in production: ${needs} email`,
        fix: 'set SMTP_URL to your mail server, e.g. smtps://user:password@smtp.example.com (percent-encode @ : / in the password)',
        doc: DOCS.keys,
      });
    }
    if (config.mail.from === undefined) {
      problems.report({
        variables: ['MAIL_FROM'],
        problem: `MAIL_FROM is required in production: ${needs} email from it`,
        fix: 'set MAIL_FROM to the sender, e.g. MAIL_FROM="Payments Gateway <no-reply@pay.example.com>"',
        doc: DOCS.keys,
      });
    }
  }

  problems.attempt(() => parseFeeDefaults(config.feeDefaults), undefined, {
    variables: ['FEE_DEFAULTS'],
    fix: 'set FEE_DEFAULTS to kind:percent pairs, e.g. collection:1,transfer:1,payment:1.5',
    doc: DOCS.money,
  });
  problems.attempt(() => parseRetrySchedule(config.webhookRetrySchedule), undefined, {
    variables: ['WEBHOOK_RETRY_SCHEDULE'],
    fix: 'set WEBHOOK_RETRY_SCHEDULE to delays like 5s,30s,2m,10m,1h (or unset it for the default)',
    doc: DOCS.webhooks,
  });
  problems.attempt(() => parsePollSchedule(config.connectors.pollSchedule), undefined, {
    variables: ['PROVIDER_POLL_SCHEDULE'],
    fix: 'set PROVIDER_POLL_SCHEDULE to delays of 100ms or more, like 15s,30s,1m,5m (or unset it for the default)',
    doc: DOCS.webhooks,
  });
  const connectors = new Set([...configuredProviders(config.connectors), ...(config.env === 'sandbox' ? [SANDBOX_CONNECTOR] : [])]);
  problems.attempt(() => deploymentRules(config.connectors.routes, (name) => connectors.has(name), config.env), undefined, {
    variables: ['PROVIDER_ROUTES'],
    fix: `write PROVIDER_ROUTES as country/channel/network/direction=connector rules, e.g. GH/momo/MTN/*=mtn_momo, naming only configured connectors (here: ${[...connectors].join(', ') || 'none'})`,
    doc: DOCS.routes,
  });
  return [...problems.all];
}

/** Throws, naming every problem serviceStartProblems finds, before anything is started. */
export function assertServiceStartable(config: Config): void {
  const problems = serviceStartProblems(config);
  if (problems.length > 0) throw new ConfigurationError(problems, { heading: SERVICE_HEADING, list: true });
}

const SERVICE_HEADING = 'Invalid configuration, the service cannot start';

/**
 * Every problem that keeps the service from starting with these variables, at once (issue 41): config.ts's, then
 * the service's own. The configuration is only for use when there are none.
 */
export function checkServiceConfiguration(env: NodeJS.ProcessEnv = process.env): { config: Config; problems: readonly ConfigProblem[] } {
  const { config, problems: read } = readConfig(env);
  const problems = new ProblemList();
  for (const problem of [...read, ...serviceStartProblems(config)]) problems.report(problem);
  return { config, problems: problems.all };
}

/** The service's configuration (main.ts), or a ConfigurationError naming every problem with its fix. */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { config, problems } = checkServiceConfiguration(env);
  if (problems.length > 0) throw new ConfigurationError(problems, { heading: SERVICE_HEADING, list: true });
  return config;
}
