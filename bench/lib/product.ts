/**
 * What every harness run needs around the product: a fresh PostgreSQL database on
 * 127.0.0.1, the product itself (the built dist/src/main.js) as a child process with an
 * explicit environment, and the facts of the machine it ran on. Shared by npm run bench
 * (bench/run.ts) and npm run soak (bench/soak.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { spawnTracked } from './children';
import { sleep } from './stats';
import type { MachineFacts } from './types';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
const PRODUCT_MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const PG_HOST = '127.0.0.1:5432';
const REDIS_URL = 'redis://127.0.0.1:6379';

export const round = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------
// Databases

async function withAdminClient<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `postgres://postgres@${PG_HOST}/postgres` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(name: string): Promise<string> {
  await withAdminClient((c) => c.query(`create database "${name}"`));
  return `postgres://postgres@${PG_HOST}/${name}`;
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((c) => c.query(`drop database if exists "${name}" with (force)`));
}

// ---------------------------------------------------------------------------------------------
// The product

export interface Server {
  name: string;
  child: ReturnType<typeof spawnTracked>;
  pid: number;
  url: string;
  logPath?: string;
}

/** A minimal, explicit environment: nothing inherited can pick another database, key or setting. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

export interface ProductKeys {
  signing: string;
  encryption: string;
  admin: string;
}

export interface ProductOptions {
  /** SANDBOX_SETTLE_MS: when the sandbox decides a mobile money collection or a transfer. */
  settleMs: number;
  dbPoolMax: number;
  /** The product writes a V8 CPU profile here when it stops (null: none). */
  profileDir?: string | null;
  /** Added to (and overriding) the environment below, e.g. real rate limits for the soak. */
  env?: Record<string, string>;
}

/** Starts the product on a free loopback port and resolves once it logs its URL (at most 90 s). */
export async function startProduct(label: string, databaseUrl: string, keys: ProductKeys, tmp: string, opts: ProductOptions): Promise<Server> {
  if (!fs.existsSync(PRODUCT_MAIN)) throw new Error(`${PRODUCT_MAIN} is missing: run npm run build`);
  const logPath = path.join(tmp, `product-${label}.log`);
  const fd = fs.openSync(logPath, 'a');
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    NODE_ENV: 'production',
    PAYMENTS_ENV: 'sandbox',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(tmp, `data-${label}`),
    REDIS_URL,
    TOKEN_SIGNING_KEY: keys.signing,
    ENCRYPTION_KEY: keys.encryption,
    ADMIN_API_KEY: keys.admin,
    LOG_LEVEL: 'info',
    SANDBOX_KYC_DELAY_MS: '100',
    SANDBOX_SETTLE_MS: String(opts.settleMs),
    MAX_SOCKETS_PER_MERCHANT: '200',
    DB_POOL_MAX: String(opts.dbPoolMax),
    // The limiter runs (its Redis counter is part of each request's cost) but the load never reaches a budget.
    RATE_LIMIT_MERCHANT: '1000000000',
    RATE_LIMIT_TOKEN_CLIENT: '1000000000',
    RATE_LIMIT_TOKEN_IP: '1000000000',
    ...opts.env,
  };
  // The product's log goes straight to a file: writing it is the product's own work, not ours.
  const nodeArgs = opts.profileDir ? ['--cpu-prof', '--cpu-prof-dir', opts.profileDir, '--cpu-prof-name', `product-${label}.cpuprofile`] : [];
  const child = spawnTracked(process.execPath, [...nodeArgs, PRODUCT_MAIN], { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const deadline = Date.now() + 90_000;
  for (;;) {
    await sleep(100);
    const text = fs.readFileSync(logPath, 'utf8');
    const match = /"url":"(http:\/\/[^"]+)","env"/.exec(text) ?? /"url":"(http:\/\/[^"]+)"[^\n]*listening/.exec(text);
    if (match) return { name: `product-${label}`, child, pid: child.pid!, url: match[1]!, logPath };
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the product (${label}) exited (${child.exitCode ?? child.signalCode}) before listening:\n${text.slice(-3000)}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the product (${label}) did not log its URL within 90 s:\n${text.slice(-3000)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The machine

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

async function redisVersion(): Promise<string> {
  const net = await import('node:net');
  return new Promise<string>((resolve) => {
    const socket = net.connect(6379, '127.0.0.1');
    let buf = '';
    socket.setTimeout(2000, () => (socket.destroy(), resolve('unknown')));
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (d) => {
      buf += d.toString();
      const v = /redis_version:(\S+)/.exec(buf);
      if (v) {
        socket.destroy();
        resolve(v[1]!);
      }
    });
    socket.on('error', () => resolve('unknown'));
  });
}

export async function machineFacts(): Promise<MachineFacts> {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const postgres = await withAdminClient(async (c) => (await c.query('show server_version')).rows[0].server_version as string);
  let redis = 'unknown';
  try {
    redis = await redisVersion();
  } catch {
    // not essential
  }
  return {
    cpuModel: model.trim(),
    cores: os.cpus().length,
    memoryGb: round(os.totalmem() / 1024 ** 3, 1)!,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    redis,
    commit: sh('git', ['rev-parse', '--short', 'HEAD']) || 'unknown',
    // Only the product's code counts here (bench/ and tsconfig.json may be edited to run the bench).
    uncommittedChanges: sh('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src']).length > 0,
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg().map((x) => round(x, 2)!),
  };
}
