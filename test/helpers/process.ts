import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { TEST_ADMIN_KEY, TEST_PRODUCTION_MAIL, TEST_RATE_LIMITS } from './test-app';

export const DIST_MAIN = path.resolve(__dirname, '../../dist/src/main.js');
export const DIST_CLI = (name: string) => path.resolve(__dirname, `../../dist/src/cli/${name}.js`);

/** Runs a built CLI (`dist/src/cli/<name>.js`); resolves with its exit code and output (killed after 30 s). */
export function runCli(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_CLI(name), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function assertBuilt(): void {
  if (!fs.existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` (npm test does this first)');
}

/**
 * The environment of a built service process on `databaseUrl` (any free port,
 * fixed test keys, the test admin key), plus `extra`.
 */
export function serviceEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'info',
    TOKEN_SIGNING_KEY: 'service-process-signing-key-0123456789abcdefghij',
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    ...TEST_RATE_LIMITS,
    ...(extra.PAYMENTS_ENV === 'production' ? TEST_PRODUCTION_MAIL : {}),
    ...extra,
  });
}

/** The environment of a child process: this one's, without anything that would pick a database or keys. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'TOKEN_SIGNING_KEY', 'ENCRYPTION_KEY', 'REDIS_URL', 'ADMIN_API_KEY', 'PORT']) delete env[key];
  return { ...env, ...extra };
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built service and resolves once it logs that it is listening. */
export function startServiceProcess(env: NodeJS.ProcessEnv, timeoutMs = 45_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [DIST_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let listening = false;
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start in ${timeoutMs} ms\n${out}\n${err}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening\n${out}\n${err}`));
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const match = listening ? null : /"url":"(http:\/\/[^"]+)","env"/.exec(out);
      if (!match) return;
      listening = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        child,
        url: match[1]!,
        stdout: () => out,
        stderr: () => err,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            // Already gone (an exit code, or killed by a signal such as FAULT_INJECT's SIGKILL).
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill(signal);
          }),
      });
    });
  });
}
