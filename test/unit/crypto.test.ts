import { createHash, randomBytes } from 'node:crypto';
import { SecretBox, randomToken, safeEqual, sha256Hex, timeOrderedBytes, timeOrderedUuid } from '../../src/shared/crypto';

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it.each(['whsec_abc', '', 'ünïcødé ✓ 💸', 'x'.repeat(10_000)])('round-trips %#', (plaintext) => {
    const sealed = box.seal(plaintext);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    expect(box.open(sealed)).toBe(plaintext);
  });

  it('never seals the same plaintext twice the same way, and does not contain it', () => {
    const a = box.seal('whsec_same');
    const b = box.seal('whsec_same');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(a).not.toContain('whsec_same');
    expect(box.open(a)).toBe('whsec_same');
    expect(box.open(b)).toBe('whsec_same');
  });

  const flipFirstByte = (b64: string) => {
    const buf = Buffer.from(b64, 'base64url');
    buf[0] = buf[0]! ^ 0x01;
    return buf.toString('base64url');
  };

  it.each([
    ['iv', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ])('fails to open when the %s is tampered with', (_part, index) => {
    const parts = box.seal('a secret worth keeping').split('.');
    parts[index] = flipFirstByte(parts[index]!);
    expect(() => box.open(parts.join('.'))).toThrow();
  });

  it('fails to open a wrong version, a truncated value or a missing part', () => {
    const sealed = box.seal('a secret');
    const [, iv, tag, ct] = sealed.split('.');
    expect(() => box.open(['v2', iv, tag, ct].join('.'))).toThrow();
    expect(() => box.open([`v1`, iv, tag].join('.'))).toThrow();
    expect(() => box.open(sealed.slice(0, -2))).toThrow();
    expect(() => box.open('')).toThrow();
    expect(() => box.open([`v1`, iv, tag, `${ct}AAAA`].join('.'))).toThrow();
  });

  it('fails to open with a wrong key', () => {
    const sealed = box.seal('a secret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte/);
    expect(() => new SecretBox(randomBytes(33))).toThrow(/32-byte/);
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 vectors', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the UTF-8 bytes of the string', () => {
    const utf8 = createHash('sha256')
      .update(Buffer.from([0xc3, 0xa9]))
      .digest('hex'); // "é" in UTF-8
    const latin1 = createHash('sha256')
      .update(Buffer.from([0xe9]))
      .digest('hex'); // "é" in Latin-1
    expect(sha256Hex('é')).toBe(utf8);
    expect(sha256Hex('é')).not.toBe(latin1);
    expect(sha256Hex('abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('safeEqual', () => {
  it.each([
    ['equal strings', 'sk_abc', 'sk_abc', true],
    ['empty strings', '', '', true],
    ['different same-length strings', 'sk_abc', 'sk_abd', false],
    ['a prefix', 'sk_abc', 'sk_ab', false],
    ['different lengths', 'short', 'a much longer string', false],
    ['empty vs non-empty', '', 'x', false],
    ['case differences', 'ABC', 'abc', false],
  ])('%s', (_label, a, b, expected) => {
    expect(safeEqual(a, b)).toBe(expected);
    expect(safeEqual(b, a)).toBe(expected);
  });
});

describe('randomToken', () => {
  it('starts with the prefix and an underscore, followed by base64url', () => {
    const token = randomToken('sk');
    expect(token).toMatch(/^sk_[A-Za-z0-9_-]+$/);
    // 32 bytes → 43 base64url characters without padding
    expect(token.length).toBe('sk_'.length + 43);
    expect(randomToken('ci', 12)).toMatch(/^ci_[A-Za-z0-9_-]{16}$/);
  });

  it('is unique', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken('rt')));
    expect(tokens.size).toBe(1000);
  });
});

describe('time-ordered keys', () => {
  it('UUIDv7 and the other keys start with the time in milliseconds, so later keys sort after earlier ones', () => {
    const before = Date.now();
    const uuid = timeOrderedUuid();
    const hex = timeOrderedBytes(12).toString('hex');
    const after = Date.now();
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hex).toMatch(/^[0-9a-f]{24}$/);
    for (const ms of [parseInt(uuid.replace(/-/g, '').slice(0, 12), 16), parseInt(hex.slice(0, 12), 16)]) {
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    }
    const later = Array.from({ length: 1000 }, () => timeOrderedUuid());
    expect([...later].sort()).toEqual(later);
    // The random part differs between two keys of the same millisecond.
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedBytes(12).toString('hex'))).size).toBe(1000);
  });
});
