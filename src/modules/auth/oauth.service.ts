import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { randomToken, safeEqual, sha256Hex, timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { parseInput, type Command } from '../../shared/validation';
import type { Merchant } from '../merchants/merchant.entity';
import type { MerchantService } from '../merchants/merchant.service';
import { ACCESS_TOKEN_TTL_S } from './access-tokens';
import { RefreshToken } from './refresh-token.entity';
import { TokenFamily } from './token-family.entity';
import type { TokenRevocations } from './token-revocations';
import type { MerchantAccess } from './merchant-access';
import type { KeyRole, Role } from '../access/permissions';
import type { AuditContext, AuditLog } from '../audit/audit-log';
import type { TokenHolder, AccessTokens, AuthContext } from './access-tokens';

/** How long a refresh token lives unused (a session, or an integration's family, ends after this long idle). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const credential = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(512, 'must be at most 512 characters').optional();

/** RFC 6749 token request (client credentials or refresh), in the domain's names (REST: `grant_type`, …). */
export const tokenRequestSchema = z.object({
  grantType: z.string({ error: 'is required' }).min(1, 'is required'),
  clientId: credential,
  clientSecret: credential,
  refreshToken: credential,
  scope: z.string({ error: 'must be a string' }).max(512, 'must be at most 512 characters').optional(),
});
export type TokenRequest = Command<typeof tokenRequestSchema>;

/** RFC 7009 revocation request. */
export const revokeRequestSchema = z.object({
  token: z.string({ error: 'is required' }).min(1, 'is required').max(4096, 'must be at most 4096 characters'),
  tokenTypeHint: z.enum(['refresh_token', 'access_token']).optional(),
  clientId: credential,
  clientSecret: credential,
});
export type RevokeRequest = Command<typeof revokeRequestSchema>;

/** What a refresh reads of the family's holder. */
interface FamilyHolderRow {
  api_key_id: string | null;
  user_id: string | null;
  merchant_client_id: string;
  key_client_id: string | null;
  key_role: KeyRole | null;
  member_role: Role | null;
  two_factor: boolean | null;
  require_two_factor: boolean;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenGrant {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshToken: string;
}

/** A client whose secret was checked: the API key, its merchant and its role. */
export interface AuthenticatedClient {
  /** The merchant's id. */
  id: string;
  clientId: string;
  keyId: string;
  role: KeyRole;
}

// Compared against when a client_id is unknown, so both failures take the same time.
const UNKNOWN_CLIENT_HASH = sha256Hex(randomToken('sk'));

/** What OAuthService is built with (the composition root passes it). */
export interface OAuthServiceDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  merchants: MerchantService;
  accessTokens: AccessTokens;
  revocations: TokenRevocations;
  access: MerchantAccess;
  logger: Logger;
  /** Whether a person in this role, at a merchant that does or does not require it, must have 2FA (accounts' policy; none: never). */
  twoFactorRequired?: (role: Role, merchantRequires: boolean) => boolean;
  /** The audit log's writer (an operator disabling or enabling a merchant). */
  audit: AuditLog;
}

/**
 * OAuth 2.0: client_credentials and refresh_token grants, rotation with reuse detection, revocation.
 * The two grants are hot (every integration asks for tokens): each is one read of the client and
 * one statement that writes the family or rotation, in its own implicit transaction (BENCHMARKS.md,
 * issue 22). The rarer paths (revocation, reuse, disabling) use the ORM.
 */
export class OAuthService {
  constructor(private readonly deps: OAuthServiceDeps) {}

  /** `basic` is the client from an HTTP Basic header, when the request carried one. */
  async issueToken(command: TokenRequest, basic?: ClientCredentials): Promise<TokenGrant> {
    const body = parseInput(tokenRequestSchema, command);
    const client = this.clientFrom(body, basic);
    switch (body.grantType) {
      case 'client_credentials':
        if (!client) throw AppError.invalidClient();
        return this.clientCredentialsGrant(await this.authenticateClient(client.clientId, client.clientSecret));
      case 'refresh_token': {
        if (!body.refreshToken) throw AppError.invalidField('refreshToken', 'is required');
        // The spec lets a client refresh without resending credentials; when it does send them, they must be right.
        const merchant = client ? await this.authenticateClient(client.clientId, client.clientSecret) : undefined;
        return this.refreshTokenGrant(body.refreshToken, merchant);
      }
      default:
        throw AppError.invalidField('grantType', 'must be client_credentials or refresh_token');
    }
  }

  /**
   * RFC 7009: revokes the family of a refresh or access token. Answers the same
   * whether or not the token was known, so it cannot be used to probe tokens.
   */
  async revokeToken(command: RevokeRequest, basic?: ClientCredentials): Promise<void> {
    const body = parseInput(revokeRequestSchema, command);
    const client = this.clientFrom(body, basic);
    const merchant = client ? await this.authenticateClient(client.clientId, client.clientSecret) : undefined;
    const familyId = await this.familyOf(body.token);
    if (!familyId) return;
    const family = await this.deps.orm.em.findOne(TokenFamily, { id: familyId });
    if (!family || (merchant && family.merchantId !== merchant.id)) return;
    await this.revokeFamily(familyId, 'revoked_by_client');
  }

  /** The doors' single check of `Authorization: Bearer …`. */
  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
    if (!match) throw AppError.invalidToken();
    const auth = await this.deps.accessTokens.verify(match[1]!);
    if (this.deps.revocations.isRevoked(auth.familyId)) throw AppError.invalidToken();
    // A merchant that no longer exists, or that an operator disabled (from memory in the common case).
    if (!(await this.deps.access.isActive(auth.merchantId))) throw AppError.invalidToken();
    return auth;
  }

  /** Whether the token is still good now (for long-lived sockets that authenticated earlier). */
  isStillValid(auth: AuthContext): boolean {
    return this.deps.clock.now() < auth.expiresAt && !this.deps.revocations.isRevoked(auth.familyId) && !this.deps.access.isKnownInactive(auth.merchantId);
  }

  /**
   * An operator disables a merchant (no token is issued to it any more, and every token
   * family it holds is revoked, so its requests and open sockets end on every instance)
   * or enables it again (it then gets new tokens; the old ones stay revoked). Returns the
   * merchant; 404 when there is none. `audit`: the operator, and from where; a change (not a
   * merchant already so) writes one `merchant.disabled` or `merchant.enabled` entry with it.
   */
  async setMerchantDisabled(merchantId: string, disabled: boolean, audit?: AuditContext): Promise<Merchant> {
    const now = this.deps.clock.now();
    const revoked = await this.deps.orm.em.fork().transactional(async (em) => {
      // The row lock orders this against a concurrent grant (which holds it FOR SHARE): a family
      // created before this commits is revoked below; one after sees the merchant disabled.
      const rows: Array<{ id: string; was_disabled: boolean }> = await em.execute(
        `update merchant m set disabled_at = ${disabled ? 'coalesce(m.disabled_at, ?)' : 'null'}, updated_at = ?
           from (select id, disabled_at is not null as was_disabled from merchant where id = ? for update) old
          where m.id = old.id returning m.id, old.was_disabled`,
        disabled ? [now, now, merchantId] : [now, merchantId],
      );
      const [row] = rows;
      if (!row) throw AppError.notFound('Merchant');
      if (audit && row.was_disabled !== disabled) {
        await this.deps.audit.recordOn(em, {
          merchantId,
          ...audit,
          action: disabled ? 'merchant.disabled' : 'merchant.enabled',
          target: { type: 'merchant', id: merchantId },
          before: { disabled: row.was_disabled },
          after: { disabled },
        });
      }
      if (!disabled) return [];
      const families: Array<{ id: string }> = await em.execute(
        `update token_family set revoked_at = ?, revoked_reason = 'merchant_disabled' where merchant_id = ? and revoked_at is null returning id`,
        [now, merchantId],
      );
      for (const family of families) await em.execute('insert into token_revocation (family_id, revoked_at) values (?, ?)', [family.id, now]);
      return families.map((f) => f.id);
    });
    await this.deps.access.changed(merchantId);
    for (const familyId of revoked) await this.deps.revocations.announce(familyId);
    this.deps.logger.warn(
      { merchantId, disabled, familiesRevoked: revoked.length },
      disabled ? 'merchant disabled by an operator' : 'merchant enabled by an operator',
    );
    return this.deps.merchants.getMerchant(merchantId, true);
  }

  /** Milliseconds until the token expires, by the service's clock. */
  msUntilExpiry(auth: AuthContext): number {
    return auth.expiresAt.getTime() - this.deps.clock.now().getTime();
  }

  private clientFrom(body: { clientId?: string; clientSecret?: string }, basic?: ClientCredentials): ClientCredentials | undefined {
    const inBody = body.clientId !== undefined || body.clientSecret !== undefined;
    if (basic && inBody) {
      throw AppError.invalidRequest('Authenticate the client with HTTP Basic or with body parameters, not both');
    }
    if (basic) return basic;
    if (!inBody) return undefined;
    if (!body.clientId || !body.clientSecret) throw AppError.invalidClient();
    return { clientId: body.clientId, clientSecret: body.clientSecret };
  }

  /**
   * The API key's secret checked against its hash (constant time, the same for an unknown or revoked
   * key); a disabled merchant is refused.
   */
  private async authenticateClient(clientId: string, clientSecret: string): Promise<AuthenticatedClient> {
    const [row] = await this.deps.sql.query<{ id: string; key_id: string; role: KeyRole; client_secret_hash: string; disabled_at: Date | null }>(
      `select m.id, k.id as key_id, k.role, k.client_secret_hash, m.disabled_at
         from api_key k join merchant m on m.id = k.merchant_id
        where k.client_id = $1 and k.revoked_at is null`,
      [clientId],
      'oauth_client',
    );
    const ok = safeEqual(sha256Hex(clientSecret), row?.client_secret_hash ?? UNKNOWN_CLIENT_HASH);
    if (!row || !ok) throw AppError.invalidClient();
    if (row.disabled_at) throw AppError.merchantDisabled();
    return { id: row.id, clientId, keyId: row.key_id, role: row.role };
  }

  /**
   * A new family and its first refresh token, in one statement. The merchant's row is held FOR SHARE
   * until it commits: an operator's disable (FOR UPDATE) waits, then revokes this family too; a
   * merchant disabled meanwhile writes nothing.
   */
  private async clientCredentialsGrant(merchant: AuthenticatedClient): Promise<TokenGrant> {
    const now = this.deps.clock.now();
    const refreshToken = randomToken('rt');
    const familyId = timeOrderedUuid();
    // The key's row is held FOR SHARE too: a revocation (FOR UPDATE) waits, then revokes this family with the key's others.
    const [row] = await this.deps.sql.query<{ issued: number }>(
      `with enabled as (select id from merchant where id = $1 and disabled_at is null for share),
            key as (update api_key set last_used_at = $3 where id = $7 and revoked_at is null and exists (select 1 from enabled) returning id),
            family as (insert into token_family (id, merchant_id, api_key_id, created_at, revoked_at, revoked_reason)
                       select $2, $1, key.id, $3, null, null from key returning id),
            refresh as (insert into refresh_token (id, family_id, merchant_id, token_hash, created_at, expires_at, used_at)
                        select $4, family.id, $1, $5, $3, $6, null from family returning 1)
       select (select count(*) from refresh)::int as issued`,
      [merchant.id, familyId, now, timeOrderedUuid(), sha256Hex(refreshToken), new Date(now.getTime() + REFRESH_TOKEN_TTL_MS), merchant.keyId],
      'oauth_client_credentials',
    );
    if (row?.issued !== 1) throw AppError.merchantDisabled();
    this.deps.access.learned(merchant.id, true);
    this.deps.logger.info({ merchantId: merchant.id, familyId }, 'access token issued (client_credentials)');
    return this.grant(merchant.id, merchant.clientId, familyId, refreshToken, { role: merchant.role, kind: 'api_key', actorId: merchant.keyId });
  }

  /**
   * Rotation in one statement: the presented token is claimed (of any number of concurrent refreshes
   * with it, exactly one sees used_at still null) and its successor written with it.
   */
  private async refreshTokenGrant(presented: string, client?: AuthenticatedClient): Promise<TokenGrant> {
    const tokenHash = sha256Hex(presented);
    const now = this.deps.clock.now();
    const successor = randomToken('rt');
    // The holder is read afresh: a person's role (and whether they must enrol in 2FA first) as it is now,
    // an API key's as it is now. A revoked key's or a removed member's families are revoked with them.
    const [claimed] = await this.deps.sql.query<FamilyHolderRow & { family_id: string; merchant_id: string }>(
      `with claimed as (
         update refresh_token rt set used_at = $1
           from token_family f
          where rt.token_hash = $2 and rt.used_at is null and rt.expires_at > $1
            and f.id = rt.family_id and f.revoked_at is null
            and ($3::uuid is null or rt.merchant_id = $3::uuid)
          returning rt.family_id, rt.merchant_id, f.api_key_id, f.user_id),
       seen as (update token_family set last_seen_at = $1 where id = (select family_id from claimed) and user_id is not null),
       successor as (
         insert into refresh_token (id, family_id, merchant_id, token_hash, created_at, expires_at, used_at)
         select $4, family_id, merchant_id, $5, $1, $6, null from claimed returning 1)
       select c.family_id, c.merchant_id, c.api_key_id, c.user_id, mc.client_id as merchant_client_id,
              k.client_id as key_client_id, k.role as key_role, ms.role as member_role,
              u.totp_enabled_at is not null as two_factor, mc.require_two_factor,
              (select count(*) from successor) as written
         from claimed c
         join merchant mc on mc.id = c.merchant_id
         left join api_key k on k.id = c.api_key_id and k.revoked_at is null
         left join membership ms on ms.user_id = c.user_id and ms.merchant_id = c.merchant_id
         left join app_user u on u.id = c.user_id`,
      [now, tokenHash, client?.id ?? null, timeOrderedUuid(), sha256Hex(successor), new Date(now.getTime() + REFRESH_TOKEN_TTL_MS)],
      'oauth_refresh',
    );
    if (!claimed) {
      await this.handleUnusableRefreshToken(tokenHash);
      throw AppError.invalidToken('The refresh token is invalid, expired, revoked or already used');
    }
    const holder = this.holderOf(claimed);
    if (!holder) throw AppError.invalidToken('The refresh token is invalid, expired, revoked or already used');
    this.deps.logger.info({ merchantId: claimed.merchant_id, familyId: claimed.family_id }, 'access token issued (refresh_token)');
    return this.grant(claimed.merchant_id, holder.clientId, claimed.family_id, successor, holder);
  }

  /** Who a family's tokens speak for now: its key (still unrevoked) or its person (still a member); none: refused. */
  private holderOf(row: FamilyHolderRow): (TokenHolder & { clientId: string }) | undefined {
    if (row.api_key_id) {
      return row.key_role && row.key_client_id ? { role: row.key_role, kind: 'api_key', actorId: row.api_key_id, clientId: row.key_client_id } : undefined;
    }
    if (row.user_id) {
      if (!row.member_role) return undefined;
      const enrolmentOnly = this.deps.twoFactorRequired?.(row.member_role, row.require_two_factor) === true && !row.two_factor;
      return { role: row.member_role, kind: 'user', actorId: row.user_id, clientId: row.merchant_client_id, ...(enrolmentOnly ? { enrolmentOnly } : {}) };
    }
    // A family from before keys existed: the merchant's first key, with the default role.
    return { role: 'developer', kind: 'api_key', actorId: row.merchant_client_id, clientId: row.merchant_client_id };
  }

  /** A used token presented again is a stolen or replayed token: end its whole family. */
  private async handleUnusableRefreshToken(tokenHash: string): Promise<void> {
    const token = await this.deps.orm.em.fork().findOne(RefreshToken, { tokenHash });
    if (token?.usedAt) {
      const revoked = await this.revokeFamily(token.familyId, 'refresh_token_reuse');
      if (revoked) this.deps.logger.warn({ merchantId: token.merchantId, familyId: token.familyId }, 'refresh token reuse: family revoked');
    }
  }

  /** Revokes a family; true when this call revoked it (false when it already was). Commits before announcing. */
  private async revokeFamily(familyId: string, reason: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const revoked = await this.deps.orm.em.fork().transactional(async (em) => {
      const count = await em.nativeUpdate(TokenFamily, { id: familyId, revokedAt: null }, { revokedAt: now, revokedReason: reason });
      if (count > 0) await em.execute('insert into token_revocation (family_id, revoked_at) values (?, ?)', [familyId, now]);
      return count > 0;
    });
    await this.deps.revocations.announce(familyId);
    return revoked;
  }

  private async familyOf(token: string): Promise<string | undefined> {
    if (token.startsWith('rt_')) {
      const found = await this.deps.orm.em.findOne(RefreshToken, { tokenHash: sha256Hex(token) });
      return found?.familyId;
    }
    try {
      return (await this.deps.accessTokens.verify(token)).familyId;
    } catch {
      return undefined;
    }
  }

  /** Answers a grant: a new access token for the family's holder, with the refresh token already stored. */
  async grant(merchantId: string, clientId: string, familyId: string, refreshToken: string, holder: TokenHolder): Promise<TokenGrant> {
    const accessToken = await this.deps.accessTokens.issue(merchantId, clientId, familyId, holder);
    return { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S, refreshToken };
  }
}
