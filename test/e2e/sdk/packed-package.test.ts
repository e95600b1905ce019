import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer } from '../../helpers/factories';
import { cleanEnv } from '../../helpers/process';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const SDK = path.join(ROOT, 'sdk');
const FIXTURES = path.join(ROOT, 'test/fixtures/sdk-package');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** sdk/examples/ files compiled and run in the scratch project (the example and the helpers it imports). */
const EXAMPLES = ['run.ts', 'collect-mobile-money.ts'];
/** The scratch project compiles with @types/node, at the version this repository installs. */
const TYPES_NODE = '@types/node';

type LockEntry = { version: string; integrity?: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> } & Record<
  string,
  unknown
>;
const rootLock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/**
 * The lock entries of `names` and of everything they need (dependencies, and peers that are not optional),
 * found where Node would find them from each dependent, as this repository's package-lock.json pins them:
 * npm installs them from its cache by version and integrity, offline (npm 11 asks for registry metadata
 * that `npm ci` never cached, to resolve a name without a lock entry).
 */
function lockedClosure(names: string[]): Record<string, LockEntry> {
  const entries: Record<string, LockEntry> = {};
  const locate = (from: string, name: string): string => {
    for (let base = from; ;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (rootLock.packages[candidate]) return candidate;
      if (!base) throw new Error(`${name} (needed by ${from || 'the scratch project'}) is not in package-lock.json`);
      const parent = base.lastIndexOf('/node_modules/');
      base = parent === -1 ? '' : base.slice(0, parent);
    }
  };
  const visit = (from: string, name: string) => {
    const at = locate(from, name);
    if (entries[at]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = rootLock.packages[at]!;
    entries[at] = entry;
    const optionalPeers = (entry.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    const needs = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {}).filter((p) => !optionalPeers[p]?.optional)];
    for (const dependency of needs) visit(at, dependency);
  };
  for (const name of names) visit('', name);
  return entries;
}

/** The packages a built file names: require("x") and import("x") / `from 'x'` in .js and .d.ts files, relative paths left out. */
function packagesNamedIn(dir: string): Set<string> {
  const named = new Set<string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|d\.ts)$/.test(entry.name)) continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:require\(|import\(|from\s+)["']([^"'.][^"']*)["']/g)) {
      const parts = specifier!.split('/');
      named.add(specifier!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return named;
}

/** npm pack (which builds), npm install and tsc: each takes a while on a busy 2-core machine. */
const SLOW = 180_000;

/**
 * Issue 41 point 8: `npm pack` in sdk/ gives a tarball that a project outside the repository installs
 * (npm, offline, from its cache) and uses: tsc checks the SDK's own example and TypeScript files against
 * the package's types, and the example (compiled there), an ES module and a CommonJS script run against
 * the service.
 */
describe('the packed SDK, installed outside the repository', () => {
  let scratch: string;
  let tarball: string;
  /** The scratch project, and the package as installed in it. */
  let project: string;
  let installed: string;
  let app: TestApp;
  let merchant: MerchantCredentials;
  /** The collection the SDK's example created. */
  let collectionReference: string;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-sdk-package-'));
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    merchant = await app.createMerchant('Packed SDK Merchant');
  });
  afterAll(async () => {
    await app?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  const serviceEnv = (extra: Record<string, string> = {}) =>
    cleanEnv({ PAYMENTS_BASE_URL: app.url, PAYMENTS_CLIENT_ID: merchant.merchant.clientId, PAYMENTS_CLIENT_SECRET: merchant.clientSecret, ...extra });

  it(
    'npm pack builds it and packs only dist/, the README, the changelog and package.json',
    async () => {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: SDK, timeout: 120_000 });
      const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
      tarball = path.join(scratch, packed!.filename);
      expect(fs.existsSync(tarball)).toBe(true);
      const files = packed!.files.map((f) => f.path).sort();
      expect(files.filter((f) => !f.startsWith('dist/'))).toEqual(['CHANGELOG.md', 'README.md', 'package.json']);
      expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/retries.js', 'dist/transactions.d.ts']));
      expect(files.filter((f) => f.startsWith('dist/') && !/\.(js|d\.ts)$/.test(f))).toEqual([]);

      const manifest = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8'));
      expect(packed!.filename).toBe(`payments-gateway-sdk-${manifest.version}.tgz`);
      expect(manifest).not.toHaveProperty('private');
      expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', require: './dist/index.js', default: './dist/index.js' });
      // The changelog has a section for the version packed.
      expect(fs.readFileSync(path.join(SDK, 'CHANGELOG.md'), 'utf8')).toContain(`## [${manifest.version}]`);
    },
    SLOW,
  );

  it(
    'installs into a scratch project with npm install --offline, with its dependencies and nothing from the repository',
    async () => {
      expect(path.relative(ROOT, scratch).startsWith('..')).toBe(true);
      // No node_modules above the scratch project that Node could fall back to.
      for (let dir = path.dirname(scratch); dir !== path.dirname(dir); dir = path.dirname(dir))
        expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);

      project = path.join(scratch, 'project');
      fs.mkdirSync(project);
      const sdkManifest = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8'));
      const typesNode = rootLock.packages[`node_modules/${TYPES_NODE}`]!.version;
      const devDependencies = { [TYPES_NODE]: typesNode };
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, devDependencies }, null, 2));
      fs.writeFileSync(
        path.join(project, 'package-lock.json'),
        JSON.stringify({
          name: 'scratch',
          version: '1.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: { '': { name: 'scratch', version: '1.0.0', devDependencies }, ...lockedClosure([...Object.keys(sdkManifest.dependencies), TYPES_NODE]) },
        }),
      );
      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, timeout: 120_000 });

      installed = path.join(project, 'node_modules/@payments-gateway/sdk');
      const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
      expect(manifest).toMatchObject({ name: '@payments-gateway/sdk', version: sdkManifest.version });
      expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
      for (const [name, version] of Object.entries(manifest.dependencies as Record<string, string>)) {
        expect([name, JSON.parse(fs.readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8')).version]).toEqual([name, version]);
      }
      // What dist/ names is declared (or a peer of what is, or Node's own).
      const declared = new Set([...Object.keys(manifest.dependencies), ...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
      const named = [...packagesNamedIn(path.join(installed, 'dist'))];
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((name) => !declared.has(name))).toEqual([]);
    },
    SLOW,
  );

  it(
    'tsc --noEmit compiles the SDK’s example and TypeScript files against the package’s types (ES module and CommonJS), and refuses a read no guard narrowed',
    async () => {
      // The SDK's examples as a user has them: importing the package instead of ../src.
      fs.mkdirSync(path.join(project, 'examples'));
      for (const file of EXAMPLES) {
        const source = fs.readFileSync(path.join(SDK, 'examples', file), 'utf8').replaceAll("from '../src'", "from '@payments-gateway/sdk'");
        expect(source).toContain("from '@payments-gateway/sdk'");
        fs.writeFileSync(path.join(project, 'examples', file), source);
      }
      for (const file of ['typed.mts', 'typed.cts', 'unguarded.mts']) fs.copyFileSync(path.join(FIXTURES, file), path.join(project, file));
      const compilerOptions = {
        target: 'ES2022',
        module: 'node16',
        moduleResolution: 'node16',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      };
      const files = [...EXAMPLES.map((file) => `examples/${file}`), 'typed.mts', 'typed.cts', 'unguarded.mts'];
      fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
      const failed = await run(process.execPath, [TSC, '-p', '.', '--pretty', 'false'], { cwd: project, timeout: 120_000 }).then(
        () => undefined,
        (err: { stdout: string }) => err.stdout,
      );
      // Only the file that reads a kind's field without its guard fails, once per read.
      const errors = (failed ?? '').split('\n').filter((line) => /^\S/.test(line));
      expect(errors.map((line) => line.replace(/\(\d+,\d+\)/, '').replace(/ on type[\s\S]*$/, ''))).toEqual([
        "unguarded.mts: error TS2339: Property 'beneficiary' does not exist",
        "unguarded.mts: error TS2339: Property 'payment_reference' does not exist",
      ]);
    },
    SLOW,
  );

  it('runs the SDK’s example, compiled there, against the service: a mobile money collection, created once', async () => {
    const customer = await approvedCustomer(app, (await app.token(merchant)).accessToken);
    // Type-checked above: here it is only transpiled, as the project's own build would.
    for (const file of EXAMPLES) {
      const source = fs.readFileSync(path.join(project, 'examples', file), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      fs.writeFileSync(path.join(project, 'examples', file.replace(/\.ts$/, '.js')), outputText);
    }
    const { stdout } = await run(process.execPath, ['examples/collect-mobile-money.js'], {
      cwd: project,
      env: serviceEnv({ CUSTOMER_UUID: customer.customer_uuid }),
      timeout: 60_000,
    });
    const collection = JSON.parse(stdout);
    expect(collection).toMatchObject({ type: 'collection', status: 'processing', amount: 1500, currency: 'KES', account_type: 'momo', network_id: 'ke_mpesa' });
    const rows = await sql(app, 'select reference from "transaction" where external_reference = ?', [collection.external_reference]);
    expect(rows.map((r) => r.reference)).toEqual([collection.reference]);
    collectionReference = collection.reference;
  });

  it('runs an ES module against the service: named imports, the newest transaction narrowed by isCollection, an ApiError', async () => {
    fs.copyFileSync(path.join(FIXTURES, 'latest.mjs'), path.join(project, 'latest.mjs'));
    const { stdout } = await run(process.execPath, ['latest.mjs'], { cwd: project, env: serviceEnv(), timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      type: 'collection',
      collection: { reference: collectionReference, amount: 1500, currency: 'KES' },
      unknown: { status: 404, code: 'NOT_FOUND' },
    });
  });

  it('runs a CommonJS script against the service: require() gets the same API', async () => {
    fs.copyFileSync(path.join(FIXTURES, 'require.cjs'), path.join(project, 'require.cjs'));
    const { stdout } = await run(process.execPath, ['require.cjs'], { cwd: project, env: serviceEnv(), timeout: 60_000 });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      version: JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8')).version,
      merchant: merchant.merchant.clientId,
    });
    expect(result.exports).toEqual(expect.arrayContaining(['createPaymentsClient', 'isCollection', 'isPayout', 'unwrap', 'verifyWebhook', 'ApiError']));
  });
});
