import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from './logger';

export interface KeyMaterial {
  /** HMAC key for access tokens (HS256). */
  tokenSigningKey: Uint8Array;
  /** AES-256-GCM key for secrets at rest. */
  encryptionKey: Buffer;
}

/** ENCRYPTION_KEY's 32 bytes (checked at start by startup-checks.ts, with the other problems). */
export function decodeEncryptionKey(raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** TOKEN_SIGNING_KEY's bytes, at least 32 (checked at start by startup-checks.ts, with the other problems). */
export function decodeSigningKey(raw: string): Uint8Array {
  if (raw.length < 32) throw new Error('TOKEN_SIGNING_KEY must be at least 32 characters');
  return new TextEncoder().encode(raw);
}

/**
 * Production refuses to start without both keys. A sandbox started without them
 * generates random keys once and keeps them in DATA_DIR/keys.json (mode 0600), so
 * tokens and sealed secrets survive restarts without a well-known default key.
 */
export function resolveKeys(config: Config, logger: Logger): KeyMaterial {
  let signing = config.tokenSigningKey;
  let encryption = config.encryptionKey;
  if (!signing || !encryption) {
    if (config.env === 'production') {
      throw new Error('TOKEN_SIGNING_KEY and ENCRYPTION_KEY are required when PAYMENTS_ENV=production');
    }
    const file = path.join(config.dataDir, 'keys.json');
    let stored: { tokenSigningKey?: string; encryptionKey?: string } = {};
    if (fs.existsSync(file)) {
      stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    } else {
      fs.mkdirSync(config.dataDir, { recursive: true });
      stored = {
        tokenSigningKey: randomBytes(48).toString('base64url'),
        encryptionKey: randomBytes(32).toString('base64'),
      };
      fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600, flag: 'wx' });
      logger.warn({ file }, 'TOKEN_SIGNING_KEY/ENCRYPTION_KEY unset: generated sandbox keys and stored them locally');
    }
    signing ??= stored.tokenSigningKey;
    encryption ??= stored.encryptionKey;
    if (!signing || !encryption) throw new Error(`${file} is missing a key; delete it to regenerate`);
  }
  return { tokenSigningKey: decodeSigningKey(signing), encryptionKey: decodeEncryptionKey(encryption) };
}
