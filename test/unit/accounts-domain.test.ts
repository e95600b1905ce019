import { PASSWORD_HASH_OPTIONS, hashPassword, passwordProblem, verifyPassword } from '../../src/modules/accounts/passwords';
import { RECOVERY_CODE_COUNT, looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeHash } from '../../src/modules/accounts/recovery-codes';
import { matchTotp, newTotpSecret, totpCodeAt, totpEnrolment } from '../../src/modules/accounts/totp';

/** The accounts' pure domain (issue 36): password rules and hashing, TOTP, recovery codes. */
describe('passwords', () => {
  it('at least 10 characters, at most 256, and not the email (or its local part), in any case', () => {
    expect(passwordProblem('short', 'ann@shop.test')).toBe('must be at least 10 characters');
    expect(passwordProblem('x'.repeat(257), 'ann@shop.test')).toBe('must be at most 256 characters');
    expect(passwordProblem('ANN@shop.test', 'ann@shop.test')).toBe('must not be your email address');
    expect(passwordProblem('annabelle1', 'annabelle1@shop.test')).toBe('must not be your email address');
    expect(passwordProblem('correct horse battery', 'ann@shop.test')).toBeUndefined();
  });

  it('hashes with argon2id at OWASP’s cost and verifies in both directions; an unknown email verifies false', async () => {
    expect(PASSWORD_HASH_OPTIONS).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', undefined)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
  });
});

describe('TOTP', () => {
  const at = new Date('2026-11-28T12:00:10Z');
  const secret = newTotpSecret();

  it('accepts the code of now and of one step either side, not two', () => {
    for (const offset of [-30_000, 0, 30_000]) expect(matchTotp(secret, totpCodeAt(secret, new Date(at.getTime() + offset)), at, null)).toBeDefined();
    expect(matchTotp(secret, totpCodeAt(secret, new Date(at.getTime() + 60_000)), at, null)).toBeUndefined();
    expect(matchTotp(secret, '12345', at, null)).toBeUndefined();
    expect(matchTotp(secret, 'abcdef', at, null)).toBeUndefined();
  });

  it('never accepts a code twice, nor an older one after a newer', () => {
    const step = matchTotp(secret, totpCodeAt(secret, at), at, null)!;
    expect(matchTotp(secret, totpCodeAt(secret, at), at, step)).toBeUndefined();
    expect(matchTotp(secret, totpCodeAt(secret, new Date(at.getTime() - 30_000)), at, step)).toBeUndefined();
    expect(matchTotp(secret, totpCodeAt(secret, new Date(at.getTime() + 30_000)), at, step)).toBe(step + 1);
  });

  it('enrolment shows an otpauth URI with the secret and its QR code as SVG', async () => {
    const { otpauthUri, qrSvg } = await totpEnrolment(secret, 'ann@shop.test');
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Payments%20Gateway:ann%40shop\.test\?/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });
});

describe('recovery codes', () => {
  it('ten distinct codes from an alphabet without look-alikes, hashed the same however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    const code = codes[0]!;
    expect(recoveryCodeHash(code.toUpperCase().replace('-', ' '))).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).not.toContain(code.replace('-', ''));
    expect(looksLikeRecoveryCode(code)).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
  });
});
