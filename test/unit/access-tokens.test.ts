import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_S, AccessTokens, ISSUED_AT_SKEW_S } from '../../src/modules/auth/access-tokens';
import { ManualClock } from '../../src/shared/clock';
import { AppError } from '../../src/shared/errors';

/** Whose token: a developer API key (the holder's claims ride along). */
const HOLDER = { role: 'developer', kind: 'api_key', actorId: 'key-1' } as const;

const KEY = new TextEncoder().encode('unit-test-signing-key-0123456789abcdefghijklmnop');
const OTHER_KEY = new TextEncoder().encode('another-signing-key-0123456789abcdefghijklmnopq');
const START = new Date('2026-11-22T12:00:00.000Z');

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decodePart = (token: string, index: 0 | 1) => JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8'));

async function expectInvalidToken(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('INVALID_TOKEN');
  expect((err as AppError).httpStatus).toBe(401);
}

describe('AccessTokens', () => {
  let clock: ManualClock;
  let tokens: AccessTokens;
  const merchantId = randomUUID();
  const familyId = randomUUID();

  beforeEach(() => {
    clock = new ManualClock(START);
    tokens = new AccessTokens({ signingKey: KEY, clock });
  });

  describe('a token verified once (remembered)', () => {
    it('verifies again to the same claims, and expires at exactly 3600 s all the same', async () => {
      const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
      const first = await tokens.verify(token);
      clock.advance(ACCESS_TOKEN_TTL_S * 1000 - 1);
      expect(await tokens.verify(token)).toEqual(first);
      clock.advance(1);
      await expectInvalidToken(tokens.verify(token));
      await expectInvalidToken(tokens.verify(token));
    });

    it('does not make a tampered copy acceptable', async () => {
      const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
      await tokens.verify(token);
      const [header, , signature] = token.split('.');
      const forged = `${header}.${b64url({ ...decodePart(token, 1), sub: randomUUID() })}.${signature}`;
      await expectInvalidToken(tokens.verify(forged));
      await expectInvalidToken(tokens.verify(`${token}x`));
    });
  });

  it('issues a token that verifies to the merchant, client, family and holder (role, kind, actor)', async () => {
    const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    expect(token.split('.')).toHaveLength(3);
    expect(decodePart(token, 0)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    const claims = decodePart(token, 1);
    expect(claims.iat).toBe(START.getTime() / 1000);
    expect(claims.exp - claims.iat).toBe(ACCESS_TOKEN_TTL_S);
    expect(ACCESS_TOKEN_TTL_S).toBe(3600);

    await expect(tokens.verify(token)).resolves.toEqual({
      merchantId,
      clientId: 'ci_abc',
      familyId,
      expiresAt: new Date(START.getTime() + 3600_000),
      role: 'developer',
      kind: 'api_key',
      actorId: 'key-1',
    });
    expect(claims).toMatchObject({ rol: 'developer', knd: 'api_key', aid: 'key-1' });
  });

  it('issues a distinct token each time', async () => {
    const a = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    const b = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    expect(a).not.toBe(b);
  });

  it('is valid at iat+3599 s and rejected at exactly iat+3600 s', async () => {
    const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    clock.advance(3599_000);
    await expect(tokens.verify(token)).resolves.toMatchObject({ merchantId });
    clock.advance(1_000);
    await expectInvalidToken(tokens.verify(token));
    clock.advance(24 * 3600_000);
    await expectInvalidToken(tokens.verify(token));
  });

  it('rejects a token signed with another key', async () => {
    const foreign = await new AccessTokens({ signingKey: OTHER_KEY, clock }).issue(merchantId, 'ci_abc', familyId, HOLDER);
    await expect(new AccessTokens({ signingKey: OTHER_KEY, clock }).verify(foreign)).resolves.toMatchObject({ merchantId });
    await expectInvalidToken(tokens.verify(foreign));
  });

  it('rejects a tampered payload', async () => {
    const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const otherMerchant = b64url({ ...claims, sub: randomUUID() });
    await expectInvalidToken(tokens.verify([header, otherMerchant, signature].join('.')));
    const longerLife = b64url({ ...claims, exp: claims.exp + 86400 });
    await expectInvalidToken(tokens.verify([header, longerLife, signature].join('.')));
    // The unmodified token still verifies, so the rejections above are about the tampering.
    await expect(tokens.verify(token)).resolves.toMatchObject({ merchantId });
  });

  it('rejects an alg:none token, with or without a signature part', async () => {
    const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
    const [, payload, signature] = token.split('.');
    const none = b64url({ alg: 'none', typ: 'at+jwt' });
    await expectInvalidToken(tokens.verify(`${none}.${payload}.`));
    await expectInvalidToken(tokens.verify(`${none}.${payload}.${signature}`));
    await expectInvalidToken(tokens.verify(`${none}.${payload}`));
  });

  it('rejects other algorithms, a wrong typ, issuer or audience even with the right key', async () => {
    const iat = Math.floor(START.getTime() / 1000);
    const base = () =>
      new SignJWT({ cid: 'ci_abc', fam: familyId })
        .setSubject(merchantId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .setJti(randomUUID());
    // Sanity check: a hand-built token with every expected claim verifies.
    const good = await base().setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuer('payments-gateway').setAudience('payments-gateway:v1').sign(KEY);
    await expect(tokens.verify(good)).resolves.toMatchObject({ merchantId, familyId });

    const hs512 = await base().setProtectedHeader({ alg: 'HS512', typ: 'at+jwt' }).setIssuer('payments-gateway').setAudience('payments-gateway:v1').sign(KEY);
    await expectInvalidToken(tokens.verify(hs512));
    const plainJwt = await base().setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer('payments-gateway').setAudience('payments-gateway:v1').sign(KEY);
    await expectInvalidToken(tokens.verify(plainJwt));
    const wrongIssuer = await base().setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuer('someone-else').setAudience('payments-gateway:v1').sign(KEY);
    await expectInvalidToken(tokens.verify(wrongIssuer));
    const wrongAudience = await base().setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuer('payments-gateway').setAudience('other').sign(KEY);
    await expectInvalidToken(tokens.verify(wrongAudience));
    const noFamily = await new SignJWT({ cid: 'ci_abc' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(merchantId)
      .setIssuer('payments-gateway')
      .setAudience('payments-gateway:v1')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(KEY);
    await expectInvalidToken(tokens.verify(noFamily));
  });

  describe('token times, by the injected clock', () => {
    const nowS = () => Math.floor(clock.now().getTime() / 1000);
    /** A token with every claim right, signed with the service's key, issued at `iat` and expiring at `exp`. */
    const signed = (iat: number, exp: number) =>
      new SignJWT({ cid: 'ci_abc', fam: familyId })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setSubject(merchantId)
        .setIssuer('payments-gateway')
        .setAudience('payments-gateway:v1')
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(KEY);

    it('refuses a lifetime (exp − iat) longer than the one the service issues, or none at all', async () => {
      const now = nowS();
      await expectInvalidToken(tokens.verify(await signed(now, now + ACCESS_TOKEN_TTL_S + 1)));
      await expectInvalidToken(tokens.verify(await signed(now, now + 10 * 365 * 86400)));
      await expectInvalidToken(tokens.verify(await signed(now - 3000, now + 10 * 365 * 86400)));
      await expectInvalidToken(tokens.verify(await signed(now + 30, now + 30)));
      // Exactly the issued lifetime, however far into it: accepted.
      await expect(tokens.verify(await signed(now, now + ACCESS_TOKEN_TTL_S))).resolves.toMatchObject({ merchantId });
      await expect(tokens.verify(await signed(now - ACCESS_TOKEN_TTL_S + 1, now + 1))).resolves.toMatchObject({ merchantId });
    });

    it(`refuses an iat more than ${ISSUED_AT_SKEW_S} s ahead of the clock; up to ${ISSUED_AT_SKEW_S} s is clock skew`, async () => {
      const now = nowS();
      await expectInvalidToken(tokens.verify(await signed(now + 86400, now + 86400 + ACCESS_TOKEN_TTL_S)));
      await expectInvalidToken(tokens.verify(await signed(now + ISSUED_AT_SKEW_S + 1, now + ISSUED_AT_SKEW_S + 1 + ACCESS_TOKEN_TTL_S)));
      await expect(tokens.verify(await signed(now + ISSUED_AT_SKEW_S, now + ISSUED_AT_SKEW_S + ACCESS_TOKEN_TTL_S))).resolves.toMatchObject({ merchantId });
    });

    it('a remembered token is held to the same times: with the clock set back before its iat (beyond the skew) it is refused, and back again accepted', async () => {
      const token = await tokens.issue(merchantId, 'ci_abc', familyId, HOLDER);
      await expect(tokens.verify(token)).resolves.toMatchObject({ merchantId });
      clock.set(new Date(START.getTime() - (ISSUED_AT_SKEW_S + 1) * 1000));
      await expectInvalidToken(tokens.verify(token));
      clock.set(new Date(START.getTime() - ISSUED_AT_SKEW_S * 1000));
      await expect(tokens.verify(token)).resolves.toMatchObject({ merchantId });
      clock.set(START);
      await expect(tokens.verify(token)).resolves.toMatchObject({ merchantId });
    });
  });

  it.each(['', 'garbage', 'a.b.c', 'Bearer x'])('rejects the malformed token %p', async (raw) => {
    await expectInvalidToken(tokens.verify(raw));
  });
});
