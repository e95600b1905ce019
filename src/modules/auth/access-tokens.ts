import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { AppError } from '../../shared/errors';
import type { Clock } from '../../shared/clock';
import { isRole, type Principal, type Role } from '../access/permissions';

/** Fixed by the spec: an access token lives exactly one hour. */
export const ACCESS_TOKEN_TTL_S = 3600;
/**
 * How far ahead of this service's clock a token's `iat` may be: the clock skew
 * tolerated between instances. Further ahead, the token was not issued by a clock we trust.
 */
export const ISSUED_AT_SKEW_S = 60;
const ISSUER = 'payments-gateway';
const AUDIENCE = 'payments-gateway:v1';
/** Verified tokens remembered at most (the oldest is forgotten first): about 5 MB. */
const VERIFIED_TOKENS_MAX = 10_000;

/** Who is calling, as proven by a valid access token: the merchant, and the key or person acting for it with their role. */
export interface AuthContext extends Principal {
  merchantId: string;
  /** The API key's client_id; a person's session: the merchant's own (its first key's) for the record. */
  clientId: string;
  familyId: string;
  expiresAt: Date;
  /** The API key's id, or the person's (app_user) id. */
  actorId: string;
}

/** What a token says of its holder besides the merchant (claims `rol`, `knd`, `aid`, `enr`). */
export type TokenHolder = Pick<AuthContext, 'role' | 'kind' | 'actorId' | 'enrolmentOnly'>;

/**
 * Access tokens are HS256 JWTs: checking one is a signature and an expiry check
 * against the injected clock, with no database round trip.
 */
export class AccessTokens {
  /** Made once: handing jose raw bytes would rebuild the key on every sign and every verify. */
  private readonly key: KeyObject;
  /**
   * Tokens whose signature and claims were checked, with what they say: a token
   * presented again costs a map lookup and an expiry check, not an HMAC and a
   * JSON parse. Only correctly signed tokens enter; revocation is checked by the
   * caller on every request, and the token's times here, against the clock, every time.
   */
  private readonly verified = new Map<string, { auth: AuthContext; issuedAt: Date }>();

  private readonly clock: Clock;

  constructor(deps: { signingKey: Uint8Array; clock: Clock }) {
    this.key = createSecretKey(deps.signingKey);
    this.clock = deps.clock;
  }

  async issue(merchantId: string, clientId: string, familyId: string, holder: TokenHolder): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims = { cid: clientId, fam: familyId, rol: holder.role, knd: holder.kind, aid: holder.actorId, ...(holder.enrolmentOnly ? { enr: true } : {}) };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(merchantId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
      .sign(this.key);
  }

  /** Throws INVALID_TOKEN for anything but a well-formed, correctly signed, unexpired token. */
  async verify(token: string): Promise<AuthContext> {
    const known = this.verified.get(token);
    if (known) {
      // The same time checks as a first verification, so the memory never outlives them.
      if (withinTimes(this.clock.now(), known.issuedAt, known.auth.expiresAt)) return known.auth;
      this.verified.delete(token);
      throw AppError.invalidToken();
    }
    const checked = await this.verifySignatureAndClaims(token);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, checked);
    return checked.auth;
  }

  private async verifySignatureAndClaims(token: string): Promise<{ auth: AuthContext; issuedAt: Date }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: 'at+jwt',
        currentDate: this.clock.now(),
        clockTolerance: 0,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const { sub, cid, fam, exp, iat, rol, knd, aid, enr } = payload;
      if (typeof sub !== 'string' || typeof cid !== 'string' || typeof fam !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
        throw new Error('missing claims');
      }
      // A token issued before roles existed (it lives an hour at most) was an API key's, with the default role.
      const legacy = rol === undefined && knd === undefined && aid === undefined;
      if (!legacy && (!isRole(rol) || (knd !== 'api_key' && knd !== 'user') || typeof aid !== 'string')) throw new Error('missing holder claims');
      const issuedAt = new Date(iat * 1000);
      const expiresAt = new Date(exp * 1000);
      if (!withinTimes(this.clock.now(), issuedAt, expiresAt)) throw new Error('token times out of bounds');
      const holder: TokenHolder = legacy
        ? { role: 'developer', kind: 'api_key', actorId: cid }
        : { role: rol as Role, kind: knd as 'api_key' | 'user', actorId: aid as string };
      const auth: AuthContext = { merchantId: sub, clientId: cid, familyId: fam, expiresAt, ...holder };
      if (enr === true) auth.enrolmentOnly = true;
      return { auth, issuedAt };
    } catch {
      throw AppError.invalidToken();
    }
  }
}

/**
 * A token's times, judged by the service's clock: unexpired, issued no more than
 * ISSUED_AT_SKEW_S ahead of now, and living no longer than the service issues
 * (ACCESS_TOKEN_TTL_S). The key alone must not buy a token that is valid for years
 * or that starts its hour tomorrow.
 */
function withinTimes(now: Date, issuedAt: Date, expiresAt: Date): boolean {
  const lifetimeMs = expiresAt.getTime() - issuedAt.getTime();
  return now < expiresAt && issuedAt.getTime() <= now.getTime() + ISSUED_AT_SKEW_S * 1000 && lifetimeMs > 0 && lifetimeMs <= ACCESS_TOKEN_TTL_S * 1000;
}
