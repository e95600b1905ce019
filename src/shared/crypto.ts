import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { systemClock } from './clock';

/** A random token with a readable prefix, e.g. `sk_…`, so leaked secrets are recognisable by scanners. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Keys for rows written on the hot paths are time-ordered (RFC 9562's UUIDv7 for uuid keys; the
 * same 48-bit millisecond prefix for text ones), so each new index entry lands on the index's
 * last page instead of a random one: after a checkpoint, a random key costs a full-page image in
 * the WAL on nearly every insert (bench/wal-keys.sh: 3,833 vs 164 bytes of WAL per insert).
 */
export { v7 as timeOrderedUuid } from 'uuid';

/** `length` bytes: the time in milliseconds (6 bytes, big-endian, as UUIDv7's), then random bytes. */
export function timeOrderedBytes(length: number): Buffer {
  const bytes = randomBytes(length);
  bytes.writeUIntBE(systemClock.now().getTime(), 0, 6);
  return bytes;
}

/**
 * SHA-256 hex digest. Used for secrets we only need to check and that carry 256
 * bits of entropy (client secrets, refresh tokens): a slow password hash buys
 * nothing against brute force there and would cost every token request.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison: both sides are hashed to equal length first, so neither length nor content leaks. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/** A key for one purpose, derived from a master key (HKDF-SHA256): one configured secret, no key used for two things. */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
}

/** HMAC-SHA256 of the parts (joined unambiguously), base64url. */
export function hmac(key: Buffer, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(`${part.length}:${part};`);
  return mac.digest('base64url');
}

/**
 * Authenticated encryption (AES-256-GCM) for secrets we must recover later, such
 * as the webhook signing secret. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ct].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}
