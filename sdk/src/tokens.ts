import type { Client } from 'openapi-fetch';
import { unwrap } from './errors';
import type { components, paths } from './generated/openapi';

type TokenRequest = components['schemas']['TokenRequest'];

interface Grant {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, by this machine's clock (ms). */
  expiresAt: number;
}

export interface TokenOptions {
  clientId: string;
  clientSecret: string;
  /** Renew this long before the access token expires (default 60 s). */
  refreshMarginMs: number;
  /** This machine's clock in ms (default Date.now); tests move it. */
  now: () => number;
}

/**
 * OAuth 2.0 client credentials against POST /v1/oauth/token (CONTRACT §3). The access token is kept
 * in memory and renewed before it expires with the refresh token, which rotates: the newest one is
 * kept, since a used one is refused (and presenting it again revokes the family). If the refresh
 * fails, client credentials are used again. Concurrent callers share one renewal.
 */
export class TokenManager {
  #grant: Grant | undefined;
  #renewal: Promise<Grant> | undefined;

  /** `tokenClient`: an openapi-fetch client without the bearer middleware (the token endpoint takes none). */
  constructor(
    private readonly tokenClient: Client<paths>,
    private readonly options: TokenOptions,
  ) {}

  /** A current access token: the one held, unless it expires within the margin. */
  async accessToken(): Promise<string> {
    const grant = this.#grant;
    if (grant && this.options.now() < grant.expiresAt - this.options.refreshMarginMs) return grant.accessToken;
    return (await this.#renew()).accessToken;
  }

  /** The service refused `rejected` (401): renew once, unless another request has renewed it already. */
  async renewAfterRejection(rejected: string): Promise<string> {
    if (!this.#renewal && this.#grant && this.#grant.accessToken !== rejected) return this.accessToken();
    return (await this.#renew()).accessToken;
  }

  #renew(): Promise<Grant> {
    this.#renewal ??= this.#obtain().finally(() => {
      this.#renewal = undefined;
    });
    return this.#renewal;
  }

  async #obtain(): Promise<Grant> {
    const { clientId, clientSecret } = this.options;
    const refreshToken = this.#grant?.refreshToken;
    if (refreshToken) {
      try {
        return await this.#request({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, client_secret: clientSecret });
      } catch {
        // Expired, revoked or already used: start a new family with the client's credentials.
      }
    }
    return this.#request({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  }

  async #request(body: TokenRequest): Promise<Grant> {
    const requestedAt = this.options.now();
    const token = unwrap(await this.tokenClient.POST('/v1/oauth/token', { body }));
    this.#grant = { accessToken: token.access_token, refreshToken: token.refresh_token, expiresAt: requestedAt + token.expires_in * 1000 };
    return this.#grant;
  }
}
