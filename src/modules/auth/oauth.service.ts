import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import { randomToken, sha256Hex } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { parseInput, type Command } from '../../shared/validation';
import type { Merchant } from '../merchants/merchant.entity';
import type { MerchantService } from '../merchants/merchant.service';
import { ACCESS_TOKEN_TTL_S, type AccessTokens, type AuthContext } from './access-tokens';
import { RefreshToken } from './refresh-token.entity';
import { TokenFamily } from './token-family.entity';
import type { TokenRevocations } from './token-revocations';
import type { MerchantAccess } from './merchant-access';

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

/** OAuth 2.0: client_credentials and refresh_token grants, rotation with reuse detection, revocation. */
export class OAuthService {
  constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly merchants: MerchantService,
    private readonly accessTokens: AccessTokens,
    private readonly revocations: TokenRevocations,
    private readonly access: MerchantAccess,
    private readonly logger: Logger,
  ) {}

  /** `basic` is the client from an HTTP Basic header, when the request carried one. */
  async issueToken(command: TokenRequest, basic?: ClientCredentials): Promise<TokenGrant> {
    const body = parseInput(tokenRequestSchema, command);
    const client = this.clientFrom(body, basic);
    switch (body.grantType) {
      case 'client_credentials':
        if (!client) throw AppError.invalidClient();
        return this.clientCredentialsGrant(await this.merchants.authenticateClient(client.clientId, client.clientSecret));
      case 'refresh_token': {
        if (!body.refreshToken) throw AppError.invalidField('refreshToken', 'is required');
        // The spec lets a client refresh without resending credentials; when it does send them, they must be right.
        const merchant = client ? await this.merchants.authenticateClient(client.clientId, client.clientSecret) : undefined;
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
    const merchant = client ? await this.merchants.authenticateClient(client.clientId, client.clientSecret) : undefined;
    const familyId = await this.familyOf(body.token);
    if (!familyId) return;
    const family = await this.orm.em.findOne(TokenFamily, { id: familyId });
    if (!family || (merchant && family.merchantId !== merchant.id)) return;
    await this.revokeFamily(familyId, 'revoked_by_client');
  }

  /** The doors' single check of `Authorization: Bearer …`. */
  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
    if (!match) throw AppError.invalidToken();
    const auth = await this.accessTokens.verify(match[1]!);
    if (this.revocations.isRevoked(auth.familyId)) throw AppError.invalidToken();
    // A merchant that no longer exists, or that an operator disabled (from memory in the common case).
    if (!(await this.access.isActive(auth.merchantId))) throw AppError.invalidToken();
    return auth;
  }

  /** Whether the token is still good now (for long-lived sockets that authenticated earlier). */
  isStillValid(auth: AuthContext): boolean {
    return this.clock.now() < auth.expiresAt && !this.revocations.isRevoked(auth.familyId) && !this.access.isKnownInactive(auth.merchantId);
  }

  /**
   * An operator disables a merchant (no token is issued to it any more, and every token
   * family it holds is revoked, so its requests and open sockets end on every instance)
   * or enables it again (it then gets new tokens; the old ones stay revoked). Returns the
   * merchant; 404 when there is none.
   */
  async setMerchantDisabled(merchantId: string, disabled: boolean): Promise<Merchant> {
    const now = this.clock.now();
    const revoked = await this.orm.em.fork().transactional(async (em) => {
      // The row lock orders this against a concurrent grant (which holds it FOR SHARE): a family
      // created before this commits is revoked below; one after sees the merchant disabled.
      const rows: Array<{ id: string }> = await em.execute(
        `update merchant set disabled_at = ${disabled ? 'coalesce(disabled_at, ?)' : 'null'}, updated_at = ? where id = ? returning id`,
        disabled ? [now, now, merchantId] : [now, merchantId],
      );
      if (rows.length === 0) throw AppError.notFound('Merchant');
      if (!disabled) return [];
      const families: Array<{ id: string }> = await em.execute(
        `update token_family set revoked_at = ?, revoked_reason = 'merchant_disabled' where merchant_id = ? and revoked_at is null returning id`,
        [now, merchantId],
      );
      for (const family of families) await em.execute('insert into token_revocation (family_id, revoked_at) values (?, ?)', [family.id, now]);
      return families.map((f) => f.id);
    });
    await this.access.changed(merchantId);
    for (const familyId of revoked) await this.revocations.announce(familyId);
    this.logger.warn(
      { merchantId, disabled, familiesRevoked: revoked.length },
      disabled ? 'merchant disabled by an operator' : 'merchant enabled by an operator',
    );
    return this.merchants.getMerchant(merchantId, true);
  }

  /** Milliseconds until the token expires, by the service's clock. */
  msUntilExpiry(auth: AuthContext): number {
    return auth.expiresAt.getTime() - this.clock.now().getTime();
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

  private async clientCredentialsGrant(merchant: Merchant): Promise<TokenGrant> {
    const now = this.clock.now();
    const refreshToken = randomToken('rt');
    const family = await this.orm.em.fork().transactional(async (em) => {
      // Still enabled, and stays so until this family is committed (an operator's disable waits, then revokes it).
      const enabled: unknown[] = await em.execute('select 1 from merchant where id = ? and disabled_at is null for share', [merchant.id]);
      if (enabled.length === 0) throw AppError.merchantDisabled();
      const created = em.create(TokenFamily, { merchantId: merchant.id, createdAt: now });
      this.newRefreshToken(em, created.id, merchant.id, refreshToken, now);
      return created;
    });
    this.access.learned(merchant.id, true);
    this.logger.info({ merchantId: merchant.id, familyId: family.id }, 'access token issued (client_credentials)');
    return this.grant(merchant.id, merchant.clientId, family.id, refreshToken);
  }

  private async refreshTokenGrant(presented: string, client?: Merchant): Promise<TokenGrant> {
    const tokenHash = sha256Hex(presented);
    const now = this.clock.now();
    const successor = randomToken('rt');
    // One atomic statement claims the token: of any number of concurrent refreshes
    // with it, exactly one sees used_at still null.
    const claimed = await this.orm.em.transactional(async (em) => {
      const rows: Array<{ family_id: string; merchant_id: string }> = await em.execute(
        `update refresh_token rt set used_at = ?
           from token_family f
          where rt.token_hash = ? and rt.used_at is null and rt.expires_at > ?
            and f.id = rt.family_id and f.revoked_at is null
            and (?::uuid is null or rt.merchant_id = ?::uuid)
          returning rt.family_id, rt.merchant_id`,
        [now, tokenHash, now, client?.id ?? null, client?.id ?? null],
      );
      const row = rows[0];
      if (!row) return null;
      this.newRefreshToken(em, row.family_id, row.merchant_id, successor, now);
      return row;
    });
    if (!claimed) {
      await this.handleUnusableRefreshToken(tokenHash);
      throw AppError.invalidToken('The refresh token is invalid, expired, revoked or already used');
    }
    const merchant = client ?? (await this.merchants.getMerchant(claimed.merchant_id));
    this.logger.info({ merchantId: merchant.id, familyId: claimed.family_id }, 'access token issued (refresh_token)');
    return this.grant(merchant.id, merchant.clientId, claimed.family_id, successor);
  }

  /** A used token presented again is a stolen or replayed token: end its whole family. */
  private async handleUnusableRefreshToken(tokenHash: string): Promise<void> {
    const token = await this.orm.em.fork().findOne(RefreshToken, { tokenHash });
    if (token?.usedAt) {
      const revoked = await this.revokeFamily(token.familyId, 'refresh_token_reuse');
      if (revoked) this.logger.warn({ merchantId: token.merchantId, familyId: token.familyId }, 'refresh token reuse: family revoked');
    }
  }

  /** Revokes a family; true when this call revoked it (false when it already was). Commits before announcing. */
  private async revokeFamily(familyId: string, reason: string): Promise<boolean> {
    const now = this.clock.now();
    const revoked = await this.orm.em.fork().transactional(async (em) => {
      const count = await em.nativeUpdate(TokenFamily, { id: familyId, revokedAt: null }, { revokedAt: now, revokedReason: reason });
      if (count > 0) await em.execute('insert into token_revocation (family_id, revoked_at) values (?, ?)', [familyId, now]);
      return count > 0;
    });
    await this.revocations.announce(familyId);
    return revoked;
  }

  private async familyOf(token: string): Promise<string | undefined> {
    if (token.startsWith('rt_')) {
      const found = await this.orm.em.findOne(RefreshToken, { tokenHash: sha256Hex(token) });
      return found?.familyId;
    }
    try {
      return (await this.accessTokens.verify(token)).familyId;
    } catch {
      return undefined;
    }
  }

  /** Creates (and marks for insert on `em`) a refresh token; only its hash is stored. */
  private newRefreshToken(em: EntityManager, familyId: string, merchantId: string, token: string, now: Date): RefreshToken {
    return em.create(RefreshToken, {
      familyId,
      merchantId,
      tokenHash: sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      usedAt: null,
    });
  }

  private async grant(merchantId: string, clientId: string, familyId: string, refreshToken: string): Promise<TokenGrant> {
    const accessToken = await this.accessTokens.issue(merchantId, clientId, familyId);
    return { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S, refreshToken };
  }
}
