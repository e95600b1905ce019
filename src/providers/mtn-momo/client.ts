import { AppError } from '../../shared/errors';
import {
  unknownOutcome,
  ProviderRefusal,
  ProviderUnreachable,
  type ChecksRequests,
  type Connector,
  type DecideRequest,
  type InboundNotification,
  type InitiateRequest,
  type ParsedNotification,
  type Route,
  type RouteLeg,
  type SettlementDecision,
} from '../connector';
import { Decimal } from '../../shared/money';
import type { AccountResolutionRequest, ReportsBalance, ResolvesAccounts } from '../capabilities';
import { applyRules } from '../rules';
import { mtnMomoRules } from './rules';
import { ProviderHttp, TokenCache, field, type ProviderResponse } from '../provider-http';
import type { MtnMomoConfig, MtnMomoProduct } from './index';
import { MTN_TARGET_COUNTRIES, PRODUCT_PATHS, creationBody, parseMtnNotification, referenceIdOf } from './mapping';
import { creationRefusal, mtnDecision } from './statuses';

/**
 * MTN MoMo Open API (docs/providers.md): collections by request-to-pay, payouts by
 * disbursement transfer.
 *
 * - `POST /{product}/token/` (Basic userId:apiKey, Ocp-Apim-Subscription-Key) gives a bearer
 *   token, cached until shortly before it expires.
 * - `POST /collection/v1_0/requesttopay` and `POST /disbursement/v1_0/transfer` with
 *   `X-Reference-Id` = the transaction's id as a version-4 UUID (`referenceIdOf`) answer 202; a second POST with the same id answers
 *   409 RESOURCE_ALREADY_EXIST, so a retry after a crash is never sent twice: it is resolved by
 *   `GET …/{referenceId}`.
 * - The result comes once, unsigned, to `X-Callback-Url`; it is only a hint: the GET decides.
 */
export class MtnMomoConnector implements Connector, ChecksRequests, ResolvesAccounts, ReportsBalance {
  readonly name = 'mtn_momo';
  /** MTN reads only the status code of a callback's answer. */
  readonly acknowledgement = { status: 'received' };
  private readonly http: ProviderHttp;
  private readonly tokens: Partial<Record<'collection' | 'transfer', TokenCache>> = {};
  private readonly country: string | null;

  private readonly config: MtnMomoConfig;

  /** `timeoutMs`: each call's (PROVIDER_TIMEOUT_MS). */
  constructor({ config, timeoutMs }: { config: MtnMomoConfig; timeoutMs: number }) {
    this.config = config;
    this.http = new ProviderHttp({ connector: this.name, baseUrl: config.baseUrl.replace(/\/+$/, ''), timeoutMs });
    this.country = config.targetEnvironment === 'sandbox' ? null : (MTN_TARGET_COUNTRIES[config.targetEnvironment] ?? null);
    for (const kind of ['collection', 'transfer'] as const) {
      const product = this.product(kind);
      if (product) this.tokens[kind] = new TokenCache({ fetchToken: () => this.fetchToken(kind, product) });
    }
  }

  private product(kind: 'collection' | 'transfer'): MtnMomoProduct | null {
    return kind === 'collection' ? this.config.collection : this.config.disbursement;
  }

  /** A wallet is a phone number (rules.ts; the sandbox applies the same). */
  check(leg: RouteLeg): void {
    applyRules(mtnMomoRules.rules, leg);
  }

  /** MTN's wallets in its countries (rules.ts), through a configured product; a country's target environment serves that country only. */
  serves(route: Route): boolean {
    if (!mtnMomoRules.covers(route) || !this.product(route.direction)) return false;
    return this.country === null || route.countryCode === this.country;
  }

  /** Its wallets, in the countries it serves, through whichever product is configured (disbursement first). */
  resolvesAccountsOn(route: Route): boolean {
    return this.serves({ ...route, direction: 'transfer' }) || this.serves({ ...route, direction: 'collection' });
  }

  /**
   * MTN's account-holder check: `GET /{product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo` → `name` (else
   * `given_name family_name`). 404: no such wallet; anything else but a 200 is no answer.
   */
  async resolveAccount(request: AccountResolutionRequest): Promise<{ accountName: string }> {
    const kind = this.product('transfer') ? 'transfer' : 'collection';
    const product = PRODUCT_PATHS[kind].product;
    const res = await this.call(
      kind,
      'GET',
      `/${product}/v1_0/accountholder/msisdn/${request.msisdn ?? request.accountNumber}/basicuserinfo`,
      'account holder',
    );
    const name = field(res.json, 'name') ?? [field(res.json, 'given_name'), field(res.json, 'family_name')].filter(Boolean).join(' ');
    if (res.status === 200 && name) return { accountName: name };
    if (res.status === 404) throw new ProviderRefusal('NOT_FOUND', 'No MTN MoMo wallet has this number', 'account_not_found');
    throw new ProviderUnreachable(this.name, 'account holder', `HTTP ${res.status}`);
  }

  private async fetchToken(kind: 'collection' | 'transfer', product: MtnMomoProduct): Promise<{ value: string; expiresInS: number }> {
    const path = PRODUCT_PATHS[kind];
    const res = await this.http.send(
      {
        method: 'POST',
        path: `/${path.product}/token/`,
        operation: `${path.product} token`,
        headers: {
          authorization: `Basic ${Buffer.from(`${product.userId}:${product.apiKey}`).toString('base64')}`,
          'ocp-apim-subscription-key': product.primaryKey,
        },
      },
      { unknownOn5xx: false },
    );
    const token = field(res.json, 'access_token');
    // MTN's sandbox answers wrong credentials with 500 {"error":"login_failed"}: a refusal too. Any other 5xx is no answer.
    if (res.status >= 500 && field(res.json, 'error') !== 'login_failed')
      throw new ProviderUnreachable(this.name, `${path.product} token`, `HTTP ${res.status}`);
    if (res.status !== 200 || !token) {
      // Our credentials, not the request: the provider is unusable until they are fixed.
      throw new ProviderRefusal('PROVIDER_UNAVAILABLE', `MTN MoMo refused our ${path.product} credentials (HTTP ${res.status})`, 'provider_refused', true);
    }
    return { value: token, expiresInS: Number(field(res.json, 'expires_in') ?? 3600) || 3600 };
  }

  /** A call of one product, with its token and MTN's headers. */
  private call(kind: 'collection' | 'transfer', method: 'GET' | 'POST', path: string, operation: string, extra: Record<string, string> = {}, body?: unknown) {
    // A creation reads MTN's 500s itself (some are definite refusals); everything else takes a 5xx for no answer.
    const product = this.product(kind);
    const tokens = this.tokens[kind];
    if (!product || !tokens)
      throw new ProviderRefusal('ROUTE_UNAVAILABLE', `MTN MoMo ${PRODUCT_PATHS[kind].product} is not configured`, 'provider_refused', true);
    return tokens.withToken((token) =>
      this.http.send(
        {
          method,
          path,
          operation,
          body,
          headers: {
            authorization: `Bearer ${token}`,
            'x-target-environment': this.config.targetEnvironment,
            'ocp-apim-subscription-key': product.primaryKey,
            ...extra,
          },
        },
        { unknownOn5xx: method === 'GET' },
      ),
    );
  }

  async initiate(request: InitiateRequest): Promise<{ providerReference: string }> {
    const kind = request.kind;
    const path = PRODUCT_PATHS[kind];
    const referenceId = referenceIdOf(request.idempotencyKey);
    const operation = path.product === 'collection' ? 'requesttopay' : 'transfer';
    // A retry may follow a request MTN received: look first, send only what it never got. A lookup (or a token) that
    // fails says nothing about the first request: unknown, asked again later.
    if (request.retry) {
      try {
        if (await this.lookUp(kind, referenceId)) return { providerReference: referenceId };
      } catch (err) {
        throw unknownOutcome(this.name, 'status', err);
      }
    }
    let res: ProviderResponse;
    try {
      res = await this.call(
        kind,
        'POST',
        path.create,
        operation,
        { 'x-reference-id': referenceId, 'x-callback-url': request.callbackUrl },
        creationBody(request, this.config.targetEnvironment),
      );
    } catch (err) {
      // First attempt: a token refused is definite (nothing was sent). A retry's first attempt may have gone through.
      throw request.retry ? unknownOutcome(this.name, operation, err) : err;
    }
    if (res.status === 202) return { providerReference: referenceId };
    // 409 on this X-Reference-Id: MTN holds a request with it (a retry's first attempt); the status query says what became of it.
    if (res.status === 409) return { providerReference: referenceId };
    throw creationRefusal(this.name, res, kind, operation);
  }

  /** Whether MTN has the request (GET answers it), for a retry; 404: it never arrived. */
  private async lookUp(kind: 'collection' | 'transfer', referenceId: string): Promise<boolean> {
    const res = await this.call(kind, 'GET', `${PRODUCT_PATHS[kind].create}/${referenceId}`, 'status');
    if (res.status === 200) return true;
    if (res.status === 404) return false;
    throw new ProviderUnreachable(this.name, 'status', `HTTP ${res.status}`);
  }

  async decide(request: DecideRequest): Promise<SettlementDecision> {
    if (request.kind === 'refund' || request.kind === 'payment') throw new AppError('ROUTE_UNAVAILABLE', 'MTN MoMo does not carry card payments');
    const res = await this.call(request.kind, 'GET', `${PRODUCT_PATHS[request.kind].create}/${referenceIdOf(request.idempotencyKey)}`, 'status');
    if (res.status !== 200) {
      // 404 for a request MTN answered 202 to: not visible yet; ask again later.
      if (res.status === 404) return { outcome: 'pending' };
      throw new ProviderUnreachable(this.name, 'status', `HTTP ${res.status}`);
    }
    return mtnDecision(res.json, request.kind);
  }

  /**
   * Reconciliation's clearing check: what MTN holds for us, the collection account's and the disbursement account's
   * together (one clearing account covers both), by `GET /{product}/v1_0/account/balance` → `{availableBalance,
   * currency}`. An account in another currency holds none of this one.
   */
  async balance(currency: string): Promise<Decimal> {
    let total = new Decimal(0);
    for (const kind of ['collection', 'transfer'] as const) {
      if (!this.product(kind)) continue;
      const product = PRODUCT_PATHS[kind].product;
      const res = await this.call(kind, 'GET', `/${product}/v1_0/account/balance`, 'balance');
      const available = field(res.json, 'availableBalance');
      if (res.status !== 200 || available === null) throw new ProviderUnreachable(this.name, 'balance', `HTTP ${res.status}`);
      if (field(res.json, 'currency') === currency) total = total.plus(available);
    }
    return total;
  }

  parseNotification(notification: InboundNotification): ParsedNotification {
    return parseMtnNotification(notification);
  }

  async checkCredentials(): Promise<string[]> {
    const lines: string[] = [];
    for (const kind of ['collection', 'transfer'] as const) {
      const tokens = this.tokens[kind];
      if (!tokens) continue;
      await tokens.get();
      lines.push(`${PRODUCT_PATHS[kind].product}: token issued (target environment ${this.config.targetEnvironment})`);
    }
    return lines;
  }
}
