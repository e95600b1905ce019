import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { randomToken, sha256Hex, timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Role } from '../access/permissions';
import type { RequestOrigin } from '../audit/audit-log';
import type { MerchantAccess } from '../auth/merchant-access';
import { REFRESH_TOKEN_TTL_MS, type OAuthService, type TokenGrant } from '../auth/oauth.service';
import type { TokenRevocations } from '../auth/token-revocations';

/** A person's session as they see it in their profile. */
export interface UserSession {
  id: string;
  merchantId: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date | null;
}

/** A new session's tokens, with what the dashboard needs to know of it. */
export interface SessionGrant extends TokenGrant {
  familyId: string;
  merchantId: string;
  role: Role;
  /** The person must enrol in 2FA before anything else (the merchant requires it, or production does for the role). */
  enrolmentOnly: boolean;
}

export interface SessionServiceDeps {
  sql: Sql;
  clock: Clock;
  oauth: OAuthService;
  revocations: TokenRevocations;
  access: MerchantAccess;
  logger: Logger;
  /** The 2FA policy (two-factor-policy.ts), bound to the environment: the same one refresh asks. */
  twoFactorRequired: (role: Role, merchantRequires: boolean) => boolean;
}

/** At most this much of a user agent is kept (shown in the sessions list). */
const USER_AGENT_MAX = 512;

/**
 * A person's dashboard sessions: each is a token family (token_family.user_id) with its first refresh
 * token, written in one statement as OAuthService's client_credentials grant writes an API key's, then
 * answered through OAuthService.grant. Refresh, rotation, reuse detection and revocation are the
 * OAuth service's; ending a session revokes its family the way OAuthService does (revoked_at, a
 * token_revocation row, announced to every instance).
 */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  /**
   * A new session for a member at a merchant. The merchant's row is held FOR SHARE, so an operator's
   * disable either waits and revokes this family too, or came first and nothing is written.
   * `twoFactor`: whether the person has 2FA (a person who must and has not is given an enrolment-only session).
   */
  async start(userId: string, merchantId: string, origin: RequestOrigin, twoFactor: boolean): Promise<SessionGrant> {
    const now = this.deps.clock.now();
    const refreshToken = randomToken('rt');
    const familyId = timeOrderedUuid();
    const [row] = await this.deps.sql.query<{ client_id: string | null; require_two_factor: boolean | null; role: Role | null; issued: number }>(
      `with enabled as (select id, client_id, require_two_factor from merchant where id = $1 and disabled_at is null for share),
            member as (select role from membership where user_id = $2 and merchant_id = $1),
            family as (insert into token_family (id, merchant_id, user_id, user_agent, ip, created_at, last_seen_at, revoked_at, revoked_reason)
                       select $3, $1, $2, $4, $5, $6, $6, null, null from enabled, member returning id),
            refresh as (insert into refresh_token (id, family_id, merchant_id, token_hash, created_at, expires_at, used_at)
                        select $7, family.id, $1, $8, $6, $9, null from family returning 1),
            signed_in as (update app_user set last_sign_in_at = $6 where id = $2 and exists (select 1 from family) returning 1)
       select (select client_id from enabled) as client_id, (select require_two_factor from enabled) as require_two_factor,
              (select role from member) as role, (select count(*) from refresh)::int as issued`,
      [
        merchantId,
        userId,
        familyId,
        origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
        origin.ip ?? null,
        now,
        timeOrderedUuid(),
        sha256Hex(refreshToken),
        new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      ],
      'accounts_session_start',
    );
    if (!row?.role) throw AppError.forbidden('You are not a member of this merchant');
    if (row.issued !== 1 || !row.client_id) throw AppError.merchantDisabled();
    this.deps.access.learned(merchantId, true);
    const enrolmentOnly = this.deps.twoFactorRequired(row.role, row.require_two_factor === true) && !twoFactor;
    const holder = { role: row.role, kind: 'user' as const, actorId: userId, ...(enrolmentOnly ? { enrolmentOnly } : {}) };
    const grant = await this.deps.oauth.grant(merchantId, row.client_id, familyId, refreshToken, holder);
    this.deps.logger.info({ merchantId, familyId, userId }, 'dashboard session started');
    return { ...grant, familyId, merchantId, role: row.role, enrolmentOnly };
  }

  /** The session a dashboard cookie's refresh token belongs to, while it can still refresh: its family and person. */
  async ofRefreshToken(refreshToken: string): Promise<{ familyId: string; userId: string; merchantId: string } | undefined> {
    const [row] = await this.deps.sql.query<{ family_id: string; user_id: string; merchant_id: string }>(
      `select f.id as family_id, f.user_id, f.merchant_id from refresh_token rt join token_family f on f.id = rt.family_id
        where rt.token_hash = $1 and rt.used_at is null and rt.expires_at > $2 and f.revoked_at is null and f.user_id is not null`,
      [sha256Hex(refreshToken), this.deps.clock.now()],
      'accounts_session_of_refresh',
    );
    return row ? { familyId: row.family_id, userId: row.user_id, merchantId: row.merchant_id } : undefined;
  }

  /** The person's sessions that can still refresh (not ended, a refresh token unused and unexpired), most recently seen first. */
  async list(userId: string): Promise<UserSession[]> {
    const rows = await this.deps.sql.query<{
      id: string;
      merchant_id: string;
      user_agent: string | null;
      ip: string | null;
      created_at: Date;
      last_seen_at: Date | null;
    }>(
      `select f.id, f.merchant_id, f.user_agent, f.ip, f.created_at, f.last_seen_at from token_family f
        where f.user_id = $1 and f.revoked_at is null
          and exists (select 1 from refresh_token rt where rt.family_id = f.id and rt.used_at is null and rt.expires_at > $2)
        order by coalesce(f.last_seen_at, f.created_at) desc, f.id desc`,
      [userId, this.deps.clock.now()],
      'accounts_sessions_list',
    );
    return rows.map((r) => ({ id: r.id, merchantId: r.merchant_id, userAgent: r.user_agent, ip: r.ip, createdAt: r.created_at, lastSeenAt: r.last_seen_at }));
  }

  /** Ends one of the person's sessions; false when it is not theirs, or already ended. */
  async end(userId: string, familyId: string, reason: string): Promise<boolean> {
    return (await this.revoke(userId, { only: familyId }, reason)).length === 1;
  }

  /** Ends every session of the person but `keep` (none: all of them); answers how many were ended. */
  async endAll(userId: string, reason: string, keep?: string): Promise<number> {
    return (await this.revoke(userId, { except: keep ?? null }, reason)).length;
  }

  /**
   * Revokes families of the person, with their token_revocation rows, in one statement; then tells
   * every instance (TokenRevocations.announce), so their access tokens stop working at once.
   */
  private async revoke(userId: string, which: { only: string } | { except: string | null }, reason: string): Promise<string[]> {
    const only = 'only' in which;
    const rows = await this.deps.sql.query<{ id: string }>(
      `with ended as (update token_family set revoked_at = $1, revoked_reason = $2
                       where user_id = $3 and revoked_at is null and ${only ? 'id = $4::uuid' : '($4::uuid is null or id <> $4::uuid)'} returning id),
            logged as (insert into token_revocation (family_id, revoked_at) select id, $1 from ended)
       select id from ended`,
      [this.deps.clock.now(), reason, userId, only ? which.only : which.except],
    );
    for (const { id } of rows) await this.deps.revocations.announce(id);
    if (rows.length > 0) this.deps.logger.info({ userId, sessions: rows.length, reason }, 'dashboard sessions ended');
    return rows.map((r) => r.id);
  }
}
