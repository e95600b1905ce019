import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase } from '../../src/db/database';
import { resolveKeys } from '../../src/shared/keys';
import { createLogger, type Logger } from '../../src/shared/logger';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.env).toBe('sandbox');
    expect(config.bodyLimitBytes).toBe(1_048_576);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('./.data'));
    expect(config.tokenSigningKey).toBeUndefined();
    expect(config.encryptionKey).toBeUndefined();
    expect(config.adminApiKey).toBeUndefined();
  });

  it('rate-limit keys start with RATE_LIMIT_PREFIX, by default the database’s name (issue 34)', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://pay:pw@db.internal:5432/payments_live?sslmode=require' }).rateLimits.prefix).toBe('payments_live');
    expect(loadConfig({ DATABASE_URL: 'postgres://pay@db.internal/pay%2Dstaging' }).rateLimits.prefix).toBe('pay-staging');
    // An empty path: PostgreSQL's default database, the user's name.
    expect(loadConfig({ DATABASE_URL: 'postgresql://ops@db.internal:5432' }).rateLimits.prefix).toBe('ops');
    // The embedded PGlite: its data directory's, stable across restarts, different for another directory.
    const embedded = loadConfig({ DATA_DIR: '/srv/a/.data' }).rateLimits.prefix;
    expect(embedded).toMatch(/^pglite-[0-9a-f]{12}$/);
    expect(loadConfig({ DATA_DIR: '/srv/a/.data' }).rateLimits.prefix).toBe(embedded);
    expect(loadConfig({ DATA_DIR: '/srv/b/.data' }).rateLimits.prefix).not.toBe(embedded);
    // Set, it wins; it must be printable without spaces.
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/payments', RATE_LIMIT_PREFIX: 'eu-prod' }).rateLimits.prefix).toBe('eu-prod');
    expect(() => loadConfig({ RATE_LIMIT_PREFIX: 'two words' })).toThrow(/RATE_LIMIT_PREFIX/);
    expect(loadConfig({}).rateLimits.adminFailures).toBe(30);
  });

  it('production refuses a weak ADMIN_API_KEY (shorter than 16 characters, as METRICS_TOKEN); the sandbox takes it', () => {
    expect(() => loadConfig({ PAYMENTS_ENV: 'production', ADMIN_API_KEY: 'x'.repeat(15) })).toThrow(
      /ADMIN_API_KEY must be at least 16 characters in production/,
    );
    expect(loadConfig({ PAYMENTS_ENV: 'production', ADMIN_API_KEY: 'x'.repeat(16) }).adminApiKey).toBe('x'.repeat(16));
    expect(loadConfig({ ADMIN_API_KEY: 'short' }).adminApiKey).toBe('short');
  });

  it('production refuses the embedded database unless ALLOW_EMBEDDED_DATABASE=1, before starting anything', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-embedded-'));
    const logger = createLogger('silent');
    try {
      await expect(openDatabase(loadConfig({ PAYMENTS_ENV: 'production', DATA_DIR: dataDir }), logger)).rejects.toThrow(
        /production needs DATABASE_URL.*ALLOW_EMBEDDED_DATABASE=1/,
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
      expect(loadConfig({ PAYMENTS_ENV: 'production', ALLOW_EMBEDDED_DATABASE: '1' }).allowEmbeddedDatabase).toBe(true);
      expect(() => loadConfig({ ALLOW_EMBEDDED_DATABASE: 'yes' })).toThrow(/ALLOW_EMBEDDED_DATABASE/);
      // With DATABASE_URL, production opens it (nothing embedded is started).
      const handle = await openDatabase(
        loadConfig({ PAYMENTS_ENV: 'production', DATABASE_URL: 'postgresql://127.0.0.1:5432/unopened', DATA_DIR: dataDir }),
        logger,
      );
      expect(handle).toMatchObject({ url: 'postgresql://127.0.0.1:5432/unopened', embedded: false });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '', PAYMENTS_ENV: '', BODY_LIMIT_BYTES: '', ADMIN_API_KEY: '' });
    expect(config.port).toBe(4000);
    expect(config.env).toBe('sandbox');
    expect(config.bodyLimitBytes).toBe(1_048_576);
    expect(config.adminApiKey).toBeUndefined();
  });

  it('reads the values it is given', () => {
    const config = loadConfig({ PORT: '8080', PAYMENTS_ENV: 'production', BODY_LIMIT_BYTES: '2048', DATA_DIR: '/tmp/pgw' });
    expect(config.port).toBe(8080);
    expect(config.env).toBe('production');
    expect(config.bodyLimitBytes).toBe(2048);
    expect(config.dataDir).toBe('/tmp/pgw');
  });

  it('rejects PAYMENTS_ENV=staging with an error naming the variable', () => {
    expect(() => loadConfig({ PAYMENTS_ENV: 'staging' })).toThrow(/Invalid configuration.*PAYMENTS_ENV/);
  });

  it.each([
    ['a non-numeric port', { PORT: 'abc' }, /PORT/],
    ['a negative port', { PORT: '-1' }, /PORT/],
    ['a tiny body limit', { BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES/],
    ['an unknown log level', { LOG_LEVEL: 'verbose' }, /LOG_LEVEL/],
  ])('rejects %s', (_label, env, pattern) => {
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it('takes Flutterwave’s three secrets together, its encryption key only at the 3DES length (24 characters)', () => {
    const flw = { FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-abc-X', FLUTTERWAVE_ENCRYPTION_KEY: 'FLWSECK_TEST0123456789ab', FLUTTERWAVE_WEBHOOK_HASH: 'h' };
    expect(loadConfig(flw).connectors.flutterwave).toMatchObject({ encryptionKey: 'FLWSECK_TEST0123456789ab' });
    expect(() => loadConfig({ ...flw, FLUTTERWAVE_ENCRYPTION_KEY: 'too-short' })).toThrow(/FLUTTERWAVE_ENCRYPTION_KEY must be the 24-character/);
    expect(() => loadConfig({ FLUTTERWAVE_SECRET_KEY: 'x' })).toThrow(/FLUTTERWAVE_ENCRYPTION_KEY, FLUTTERWAVE_WEBHOOK_HASH are missing/);
    // A test-mode key moves no money: production refuses it, the sandbox takes it.
    const production = { PAYMENTS_ENV: 'production', PUBLIC_BASE_URL: 'https://pay.example.com' };
    expect(() => loadConfig({ ...flw, ...production })).toThrow(/FLUTTERWAVE_SECRET_KEY is a test-mode key/);
    expect(loadConfig({ ...flw, ...production, FLUTTERWAVE_SECRET_KEY: 'FLWSECK-abc-X' }).connectors.flutterwave).toMatchObject({ secretKey: 'FLWSECK-abc-X' });
  });
});

describe('resolveKeys', () => {
  let dir: string;
  const logger: Logger = createLogger('silent');
  const configIn = (dataDir: string, env: Record<string, string> = {}): Config => loadConfig({ DATA_DIR: dataDir, ...env });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-keys-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses to run in production without keys, and writes nothing', () => {
    const dataDir = path.join(dir, 'data');
    expect(() => resolveKeys(configIn(dataDir, { PAYMENTS_ENV: 'production' }), logger)).toThrow(/TOKEN_SIGNING_KEY and ENCRYPTION_KEY are required/);
    expect(() => resolveKeys(configIn(dataDir, { PAYMENTS_ENV: 'production', TOKEN_SIGNING_KEY: 'x'.repeat(40) }), logger)).toThrow(/required/);
    expect(() => resolveKeys(configIn(dataDir, { PAYMENTS_ENV: 'production', ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') }), logger)).toThrow(
      /required/,
    );
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('uses the given keys in production', () => {
    const keys = resolveKeys(
      configIn(dir, {
        PAYMENTS_ENV: 'production',
        TOKEN_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
        ENCRYPTION_KEY: 'ab'.repeat(32),
      }),
      logger,
    );
    expect(Buffer.from(keys.tokenSigningKey).toString('utf8')).toBe('production-signing-key-0123456789abcdef');
    expect(keys.encryptionKey).toEqual(Buffer.alloc(32, 0xab));
    expect(fs.existsSync(path.join(dir, 'keys.json'))).toBe(false);
  });

  it('rejects keys that are too short', () => {
    expect(() => resolveKeys(configIn(dir, { PAYMENTS_ENV: 'production', TOKEN_SIGNING_KEY: 'short', ENCRYPTION_KEY: 'ab'.repeat(32) }), logger)).toThrow(
      /TOKEN_SIGNING_KEY/,
    );
    expect(() =>
      resolveKeys(
        configIn(dir, { PAYMENTS_ENV: 'production', TOKEN_SIGNING_KEY: 'x'.repeat(40), ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }),
        logger,
      ),
    ).toThrow(/ENCRYPTION_KEY/);
  });

  it('generates sandbox keys once into DATA_DIR/keys.json (mode 0600) and reuses them', () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const file = path.join(dataDir, 'keys.json');
    const first = resolveKeys(configIn(dataDir), logger);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.encryptionKey).toHaveLength(32);
    expect(first.tokenSigningKey.length).toBeGreaterThanOrEqual(32);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored).toEqual({ tokenSigningKey: expect.any(String), encryptionKey: expect.any(String) });

    const second = resolveKeys(configIn(dataDir), logger);
    expect(Buffer.from(second.tokenSigningKey)).toEqual(Buffer.from(first.tokenSigningKey));
    expect(second.encryptionKey).toEqual(first.encryptionKey);

    // A different data directory gets different random keys (no well-known default).
    const elsewhere = resolveKeys(configIn(path.join(dir, 'other')), logger);
    expect(elsewhere.encryptionKey).not.toEqual(first.encryptionKey);
    expect(Buffer.from(elsewhere.tokenSigningKey)).not.toEqual(Buffer.from(first.tokenSigningKey));
  });
});

describe('PAYOUT_MINIMUMS (issue 38)', () => {
  it('defaults every supported currency, and a setting overrides only the currencies it names', () => {
    const defaults = loadConfig({}).payoutMinimums;
    expect(defaults).toMatchObject({ NGN: '100', KES: '500', USD: '1000', UGX: '1000' });
    const set = loadConfig({ PAYOUT_MINIMUMS: 'NGN:1000, KES:100.50,UGX:5000' }).payoutMinimums;
    expect(set).toMatchObject({ NGN: '1000', KES: '100.50', UGX: '5000', GHS: defaults.GHS });
  });

  it('refuses at start a malformed entry, an unknown currency, more decimals than the minor unit, or zero', () => {
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'NGN=100' })).toThrow(/PAYOUT_MINIMUMS: "NGN=100" is not CURRENCY:amount/);
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'EUR:10' })).toThrow(/EUR is not a supported currency/);
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'UGX:10.5' })).toThrow(/UGX has 0 decimals at most/);
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'KES:1.005' })).toThrow(/KES has 2 decimals at most/);
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'NGN:0.00' })).toThrow(/must be more than 0/);
    expect(() => loadConfig({ PAYOUT_MINIMUMS: 'NGN:-5' })).toThrow(/not CURRENCY:amount/);
  });
});

describe('S3_* (issue 39: dispute evidence files)', () => {
  const all = {
    S3_REGION: 'eu-west-1',
    S3_BUCKET: 'dispute-files',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-value-never-quoted',
  };

  it('none set: files stay in PostgreSQL; all set: the store, path style and endpoint optional', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: '' }).s3).toBeNull();
    expect(loadConfig(all).s3).toEqual({
      endpoint: undefined,
      region: 'eu-west-1',
      bucket: 'dispute-files',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret-value-never-quoted',
      forcePathStyle: false,
    });
    expect(loadConfig({ ...all, S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_FORCE_PATH_STYLE: 'true' }).s3).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
  });

  it('refuses at start a partial configuration, naming what is set and what is missing, never the secret', () => {
    const partial = () => loadConfig({ S3_BUCKET: 'dispute-files', S3_SECRET_ACCESS_KEY: 'secret-value-never-quoted' });
    expect(partial).toThrow(/S3 storage for dispute files is partly configured \(S3_BUCKET, S3_SECRET_ACCESS_KEY set, S3_REGION, S3_ACCESS_KEY_ID missing\)/);
    expect(partial).not.toThrow(/secret-value-never-quoted/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY missing/);
  });

  it('refuses a malformed endpoint, bucket or path-style flag', () => {
    expect(() => loadConfig({ ...all, S3_ENDPOINT: 'http://127.0.0.1:9000/bucket' })).toThrow(/S3_ENDPOINT: must be an http\(s\) origin/);
    expect(() => loadConfig({ ...all, S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ ...all, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
