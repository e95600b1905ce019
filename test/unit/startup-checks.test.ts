import { loadConfig, readConfig } from '../../src/config';
import { mtnMomo } from '../../src/providers/mtn-momo';
import { ConfigurationError, ProblemList, docFor } from '../../src/shared/config-problems';
import { checkServiceConfiguration, loadServiceConfig } from '../../src/startup-checks';

/**
 * Issue 41: a production start names every missing or invalid variable at once, each with its fix and the section
 * of docs/going-live.md that explains it; `npm run preflight` lists the same problems (one list of rules).
 */

/** What a production deployment sets when nothing is missing. */
const COMPLETE = {
  PAYMENTS_ENV: 'production',
  TOKEN_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
  ENCRYPTION_KEY: 'ab'.repeat(32),
  DATABASE_URL: 'postgresql://payments:pw@db.internal:5432/payments',
  SMTP_URL: 'smtps://mailer:s3cret-pass@smtp.example.com',
  MAIL_FROM: 'Payments Gateway <no-reply@pay.example.com>',
  PUBLIC_BASE_URL: 'https://pay.example.com',
  MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana',
  MTN_MOMO_COLLECTION_PRIMARY_KEY: 'pk',
  MTN_MOMO_COLLECTION_USER_ID: '3f1c5a0e-0000-4000-8000-000000000001',
  MTN_MOMO_COLLECTION_API_KEY: 'ak',
};

const without = (names: string[], env: Record<string, string> = COMPLETE) => Object.fromEntries(Object.entries(env).filter(([k]) => !names.includes(k)));
const variablesOf = (env: Record<string, string>) => checkServiceConfiguration(env).problems.map((p) => p.variables.join(','));

describe('the service’s start: every problem at once (startup-checks.ts)', () => {
  it('a complete production configuration and an empty sandbox one have none', () => {
    expect(checkServiceConfiguration(COMPLETE).problems).toEqual([]);
    expect(loadServiceConfig(COMPLETE).env).toBe('production');
    expect(checkServiceConfiguration({}).problems).toEqual([]);
  });

  it('six variables missing: all six named, each with its fix and its section of going-live.md', () => {
    const six = ['TOKEN_SIGNING_KEY', 'ENCRYPTION_KEY', 'DATABASE_URL', 'SMTP_URL', 'MAIL_FROM', 'PUBLIC_BASE_URL'];
    const { problems } = checkServiceConfiguration(without(six));
    expect(problems.map((p) => p.variables[0]).sort()).toEqual([...six].sort());
    for (const p of problems) {
      expect(p.problem).toContain(p.variables[0]);
      expect(p.fix).toMatch(new RegExp(`^set ${p.variables[0]} to .*e\\.g\\. `));
      expect(p.doc).toMatch(/^docs\/going-live\.md#(keys-and-secrets|database|public-address-proxy-probes)$/);
    }
    expect(problems.find((p) => p.variables[0] === 'DATABASE_URL')).toMatchObject({ doc: 'docs/going-live.md#database' });
    // The refusal the service prints: a heading with the count, then each problem, its fix and its doc.
    let message = '';
    try {
      loadServiceConfig(without(six));
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigurationError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration, the service cannot start \(6 to fix\):\n/);
    for (const name of six)
      expect(message).toMatch(
        new RegExp(`\\n {2}- ${name} is required in production[^\\n]*\\n {6}fix: set ${name} to [^\\n]+\\n {6}see: docs/going-live\\.md#`),
      );
  });

  it('invalid values are listed with the missing ones, each once, and a refused value does not hide the rules after it', () => {
    const env = {
      ...without(['TOKEN_SIGNING_KEY', 'MAIL_FROM']),
      PORT: 'abc',
      ENCRYPTION_KEY: 'too-short',
      METRICS_TOKEN: 'short',
      ADMIN_API_KEY: 'x'.repeat(15),
      PUBLIC_BASE_URL: 'https://pay.example.com/path',
      PAYOUT_MINIMUMS: 'NGN=100',
      FEE_DEFAULTS: 'payment:lots',
      WEBHOOK_RETRY_SCHEDULE: '5s,soon',
      PROVIDER_ROUTES: 'KE/momo/MPESA/*=mpesa',
      S3_BUCKET: 'dispute-files',
      FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-abc-X',
    };
    expect(variablesOf(env)).toEqual([
      // The schema's refusals first, then config.ts's rules, then the service's own.
      'PORT',
      'METRICS_TOKEN',
      'PUBLIC_BASE_URL',
      'ADMIN_API_KEY',
      'FLUTTERWAVE_ENCRYPTION_KEY,FLUTTERWAVE_WEBHOOK_HASH',
      'FLUTTERWAVE_SECRET_KEY',
      'PAYOUT_MINIMUMS',
      'S3_REGION,S3_ACCESS_KEY_ID,S3_SECRET_ACCESS_KEY',
      'TOKEN_SIGNING_KEY',
      'ENCRYPTION_KEY',
      'MAIL_FROM',
      'FEE_DEFAULTS',
      'WEBHOOK_RETRY_SCHEDULE',
      'PROVIDER_ROUTES',
    ]);
    const byVariable = new Map(checkServiceConfiguration(env).problems.map((p) => [p.variables[0], p]));
    // PUBLIC_BASE_URL is malformed: said once, by its format (not again as missing for the provider's callbacks).
    expect(byVariable.get('PUBLIC_BASE_URL')).toMatchObject({
      problem: expect.stringMatching(/^PUBLIC_BASE_URL: must be an http\(s\) origin without a path/),
      fix: 'set PUBLIC_BASE_URL to an http(s) origin without a path, e.g. https://pay.example.com',
      doc: 'docs/going-live.md#public-address-proxy-probes',
    });
    expect(byVariable.get('PORT')).toMatchObject({ fix: 'set PORT to a whole number' });
    expect(byVariable.get('METRICS_TOKEN')).toMatchObject({ fix: 'set METRICS_TOKEN to at least 16 characters', doc: 'docs/going-live.md#keys-and-secrets' });
    expect(byVariable.get('ENCRYPTION_KEY')).toMatchObject({ problem: 'ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64' });
    expect(byVariable.get('PROVIDER_ROUTES')).toMatchObject({
      problem: expect.stringContaining('PROVIDER_ROUTES names mpesa, which is not configured'),
      fix: expect.stringContaining('naming only configured connectors (here: mtn_momo)'),
      doc: 'docs/going-live.md#routes',
    });
    expect(byVariable.get('S3_REGION')).toMatchObject({ doc: 'docs/going-live.md#merchants-people-and-kyc' });
  });

  it('never quotes a value: a refused secret is named, not shown', () => {
    const env = { ...COMPLETE, SMTP_URL: 'https://mailer:hunter2-secret@smtp.example.com', ENCRYPTION_KEY: 'hunter3-secret', ADMIN_API_KEY: 'hunter4' };
    const shown = JSON.stringify(checkServiceConfiguration(env).problems);
    expect(variablesOf(env)).toEqual(['SMTP_URL', 'ADMIN_API_KEY', 'ENCRYPTION_KEY']);
    expect(shown).not.toMatch(/hunter/);
  });

  it('the operator tools read config.ts’s rules only: production without keys, database or mail loads (they need none to start)', () => {
    const bare = { PAYMENTS_ENV: 'production' };
    expect(readConfig(bare).problems).toEqual([]);
    expect(loadConfig(bare).env).toBe('production');
    expect(variablesOf(bare)).toEqual(['TOKEN_SIGNING_KEY', 'ENCRYPTION_KEY', 'DATABASE_URL', 'SMTP_URL', 'MAIL_FROM']);
    // With ALLOW_EMBEDDED_DATABASE=1, the embedded database is chosen, not missing.
    expect(variablesOf({ ...bare, ALLOW_EMBEDDED_DATABASE: '1' })).not.toContain('DATABASE_URL');
    // loadConfig still throws every problem of its own at once.
    expect(() => loadConfig({ PORT: 'abc', LOG_LEVEL: 'verbose' })).toThrow(
      /^Invalid configuration \(2 to fix\):\n {2}- PORT: [^\n]+\n {6}fix: [^\n]+\n {6}see: [^\n]+\n {2}- LOG_LEVEL: /,
    );
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      /^Invalid configuration: LOG_LEVEL: .*\n {2}fix: set LOG_LEVEL to one of fatal, error, warn, info, debug, trace, silent\n {2}see: docs\/operations\.md#configuration$/,
    );
  });

  it('a provider reports every problem of its own: a half-configured product and a missing target environment together', () => {
    const env = { PAYMENTS_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.com', MTN_MOMO_DISBURSEMENT_API_KEY: 'ak' };
    expect(readConfig(env).problems.map((p) => p.problem)).toEqual([
      'MTN MoMo disbursements is configured (MTN_MOMO_DISBURSEMENT_API_KEY) but MTN_MOMO_DISBURSEMENT_PRIMARY_KEY, MTN_MOMO_DISBURSEMENT_USER_ID are missing',
      'MTN MoMo is configured but MTN_MOMO_TARGET_ENVIRONMENT is missing',
    ]);
    expect(readConfig(env).config.connectors.mtnMomo).toBeNull();
    // Read alone (a test's fake, a tool), its first problem is thrown.
    expect(() => mtnMomo.configure(env, 'production')).toThrow(ConfigurationError);
    expect(() => mtnMomo.configure(env, 'production')).toThrow(/^Invalid configuration: MTN MoMo disbursements is configured/);
  });

  it('each variable’s fix points to the section that explains it', () => {
    expect(docFor('TOKEN_SIGNING_KEY')).toBe('docs/going-live.md#keys-and-secrets');
    expect(docFor('REDIS_URL')).toBe('docs/going-live.md#redis');
    expect(docFor('S3_BUCKET')).toBe('docs/going-live.md#merchants-people-and-kyc');
    expect(docFor('GRAPHQL_MAX_DEPTH')).toBe('docs/operations.md#configuration');
    const [provider] = readConfig({ MPESA_CONSUMER_KEY: 'k' }).problems;
    expect(provider).toMatchObject({
      doc: 'docs/going-live.md#providers-credentials',
      fix: expect.stringMatching(/^set MPESA_CONSUMER_SECRET, MPESA_SHORTCODE, MPESA_PASSKEY/),
    });
  });

  it('a problem about variables already named is dropped; one naming another is kept', () => {
    const list = new ProblemList();
    const about = (variables: string[], problem: string) => ({ variables, problem, fix: 'f', doc: 'd' });
    list.report(about(['A'], 'A is malformed'));
    list.report(about(['A'], 'A is missing'));
    list.report(about(['A', 'B'], 'A and B'));
    list.report(about(['B'], 'B again'));
    expect(list.all.map((p) => p.problem)).toEqual(['A is malformed', 'A and B']);
    expect(list.attempt(() => JSON.parse('{'), 'fallback', { variables: ['C'], fix: 'f', doc: 'd' })).toBe('fallback');
    expect(list.all.at(-1)).toMatchObject({ variables: ['C'], problem: expect.stringContaining('JSON') });
  });
});
