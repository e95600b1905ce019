import { randomToken, sha256Hex, timeOrderedUuid } from '../../shared/crypto';

/** What an emailed link is for, and how long it lives (a verification link a day, a reset link an hour). */
const USER_TOKEN_TTL_MS = { verify_email: 24 * 60 * 60 * 1000, reset_password: 60 * 60 * 1000 } as const;
export type UserTokenPurpose = keyof typeof USER_TOKEN_TTL_MS;

/** A link's token as it is mailed (random, 256 bits), and its row's values: only the token's SHA-256 is stored. */
export function newUserToken(purpose: UserTokenPurpose, now: Date) {
  const token = randomToken(purpose === 'verify_email' ? 've' : 'pr');
  return { token, id: timeOrderedUuid(), tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + USER_TOKEN_TTL_MS[purpose]) };
}

/** The values of INSERT_USER_TOKEN for a person. */
export function userTokenRow(userId: string, purpose: UserTokenPurpose, link: ReturnType<typeof newUserToken>): unknown[] {
  return [link.id, userId, purpose, link.tokenHash, link.createdAt, link.expiresAt];
}

/** Inserts a link's row: `$1…$6` as userTokenRow orders them. */
export const INSERT_USER_TOKEN = `insert into user_token (id, user_id, purpose, token_hash, created_at, expires_at, used_at) values ($1, $2, $3, $4, $5, $6, null)`;

/**
 * Claims a link's token: single use (of concurrent claims exactly one sees used_at null), unexpired, of
 * this purpose. Answers the user's id, or nothing. `$1` token hash, `$2` purpose, `$3` now.
 */
export const CLAIM_USER_TOKEN = `update user_token set used_at = $3 where token_hash = $1 and purpose = $2 and used_at is null and expires_at > $3 returning user_id`;

/** A link is checked by its hash: what a token as mailed is stored as. */
export const userTokenHash = (token: string) => sha256Hex(token);
