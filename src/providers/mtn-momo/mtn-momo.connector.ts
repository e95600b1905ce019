import type { MtnMomoConfig, MtnMomoProduct } from '../../config';
import { AppError } from '../../shared/errors';
import {
  checkWalletNumber,
  msisdn,
  type RouteLeg,
  unknownOutcome,
  ProviderRefusal,
  ProviderUnreachable,
  type Connector,
  type DecideRequest,
  type InboundNotification,
  type InitiateRequest,
  type ParsedNotification,
  type Route,
  type SettlementDecision,
} from '../connector';
import { ProviderHttp, TokenCache, bodyDigest, field, lenientJson, type ProviderResponse } from '../provider-http';

/**
 * MTN wants `X-Reference-Id` to be a version-4 UUID; a transaction's id is a UUIDv7 (time-ordered,
 * shared/crypto.ts). Its version digit set to 4 is still unique (every v7 id has 7 there) and the
 * same on every call, so a retry and a reconciliation name the same request. Older v4 ids stay as they are.
 */
export function referenceIdOf(transactionId: string): string {
  return `${transactionId.slice(0, 14)}4${transactionId.slice(15)}`;
}

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

/** A target environment is one country's MTN; `sandbox` is MTN's test environment (every MTN country here routes to it). */
const MTN_TARGET_COUNTRIES: Record<string, string> = {
  mtnghana: 'GH',
  mtnuganda: 'UG',
  mtnrwanda: 'RW',
  mtnsouthafrica: 'ZA',
  mtnbenin: 'BJ',
  mtncameroon: 'CM',
  mtnivorycoast: 'CI',
  mtncongo: 'CG',
  mtnzambia: 'ZM',
};

/** MTN's reasons for a FAILED request → our failure_reason (docs/providers.md). */
const FAILURE_REASONS: Record<string, { collection: string; transfer: string }> = {
  PAYER_NOT_FOUND: { collection: 'sender_account_not_found', transfer: 'beneficiary_account_unavailable' },
  PAYEE_NOT_FOUND: { collection: 'provider_declined', transfer: 'beneficiary_account_unavailable' },
  PAYEE_NOT_ALLOWED_TO_RECEIVE: { collection: 'provider_declined', transfer: 'beneficiary_account_unavailable' },
  NOT_ENOUGH_FUNDS: { collection: 'sender_insufficient_funds', transfer: 'provider_float_insufficient' },
  APPROVAL_REJECTED: { collection: 'payment_declined_by_sender', transfer: 'provider_declined' },
  EXPIRED: { collection: 'sender_did_not_respond', transfer: 'provider_declined' },
  TRANSACTION_CANCELED: { collection: 'payment_declined_by_sender', transfer: 'provider_declined' },
  PAYER_LIMIT_REACHED: { collection: 'sender_limit_reached', transfer: 'provider_declined' },
  PAYEE_LIMIT_REACHED: { collection: 'provider_declined', transfer: 'beneficiary_limit_reached' },
  NOT_ALLOWED: { collection: 'provider_refused', transfer: 'provider_refused' },
  NOT_ALLOWED_TARGET_ENVIRONMENT: { collection: 'provider_refused', transfer: 'provider_refused' },
  INVALID_CALLBACK_URL_HOST: { collection: 'provider_refused', transfer: 'provider_refused' },
  INVALID_CURRENCY: { collection: 'provider_refused', transfer: 'provider_refused' },
  INTERNAL_PROCESSING_ERROR: { collection: 'provider_error', transfer: 'provider_error' },
  SERVICE_UNAVAILABLE: { collection: 'provider_error', transfer: 'provider_error' },
  COULD_NOT_PERFORM_TRANSACTION: { collection: 'provider_error', transfer: 'provider_error' },
};

export function mtnFailureReason(code: string | null, kind: 'collection' | 'transfer'): string {
  return (code && FAILURE_REASONS[code]?.[kind]) ?? 'provider_declined';
}

/** The reason MTN gives: `{ code, message }` in its documentation, a bare string from its sandbox. */
function reasonCode(json: unknown): string | null {
  return field(json, 'reason', 'code') ?? field(json, 'reason');
}

/**
 * payerMessage / payeeNote: at most 160 characters, and MTN refuses some characters outright
 * (an apostrophe, `&`): only letters, digits, spaces and plain punctuation go through.
 */
export function momoNote(text: string): string {
  return (
    text
      .replace(/[^\p{L}\p{N} .,:;\-_/#()]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160) || 'Payment'
  );
}

/** MTN's 500s that are about our account's configuration, not a failure to answer (its error codes page). */
const CONFIGURATION_CODES = new Set(['NOT_ALLOWED_TARGET_ENVIRONMENT', 'INVALID_CALLBACK_URL_HOST', 'INVALID_CURRENCY', 'NOT_ALLOWED']);

const PRODUCT_PATHS = {
  collection: { product: 'collection', create: '/collection/v1_0/requesttopay', party: 'payer' },
  transfer: { product: 'disbursement', create: '/disbursement/v1_0/transfer', party: 'payee' },
} as const;

export class MtnMomoConnector implements Connector {
  readonly name = 'mtn_momo';
  /** MTN reads only the status code of a callback's answer. */
  readonly acknowledgement = { status: 'received' };
  private readonly http: ProviderHttp;
  private readonly tokens: Partial<Record<'collection' | 'transfer', TokenCache>> = {};
  private readonly country: string | null;

  constructor(
    private readonly config: MtnMomoConfig,
    timeoutMs: number,
  ) {
    this.http = new ProviderHttp(this.name, config.baseUrl.replace(/\/+$/, ''), timeoutMs);
    this.country = config.targetEnvironment === 'sandbox' ? null : (MTN_TARGET_COUNTRIES[config.targetEnvironment] ?? null);
    for (const kind of ['collection', 'transfer'] as const) {
      const product = this.product(kind);
      if (product) this.tokens[kind] = new TokenCache(() => this.fetchToken(kind, product));
    }
  }

  private product(kind: 'collection' | 'transfer'): MtnMomoProduct | null {
    return kind === 'collection' ? this.config.collection : this.config.disbursement;
  }

  /** A wallet is a phone number. */
  check(leg: RouteLeg): void {
    checkWalletNumber(leg.accountNumber);
  }

  serves(route: Route): boolean {
    if (route.channelType !== 'momo' || route.networkCode !== 'MTN' || !this.product(route.direction)) return false;
    return this.country === null ? Object.values(MTN_TARGET_COUNTRIES).includes(route.countryCode ?? '') : route.countryCode === this.country;
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
    const note = momoNote(request.description ?? request.reference);
    let res: ProviderResponse;
    try {
      res = await this.call(
        kind,
        'POST',
        path.create,
        operation,
        { 'x-reference-id': referenceId, 'x-callback-url': request.callbackUrl },
        {
          amount: request.amount,
          // MTN's sandbox environment takes EUR only (its documentation); a country's takes its currency.
          currency: this.config.targetEnvironment === 'sandbox' ? 'EUR' : request.currency,
          externalId: request.reference,
          [path.party]: { partyIdType: 'MSISDN', partyId: msisdn(request.dialCode, request.accountNumber) },
          payerMessage: note,
          payeeNote: note,
        },
      );
    } catch (err) {
      // First attempt: a token refused is definite (nothing was sent). A retry's first attempt may have gone through.
      throw request.retry ? unknownOutcome(this.name, operation, err) : err;
    }
    if (res.status === 202) return { providerReference: referenceId };
    // 409 on this X-Reference-Id: MTN holds a request with it (a retry's first attempt); the status query says what became of it.
    if (res.status === 409) return { providerReference: referenceId };
    throw this.refusal(res, kind, operation);
  }

  /** Whether MTN has the request (GET answers it), for a retry; 404: it never arrived. */
  private async lookUp(kind: 'collection' | 'transfer', referenceId: string): Promise<boolean> {
    const res = await this.call(kind, 'GET', `${PRODUCT_PATHS[kind].create}/${referenceId}`, 'status');
    if (res.status === 200) return true;
    if (res.status === 404) return false;
    throw new ProviderUnreachable(this.name, 'status', `HTTP ${res.status}`);
  }

  /**
   * What MTN's answer to a creation means. A 400 refuses the request itself (a bad number, a message
   * MTN will not take): the client's error, not MTN's fault. 401/403 (our credentials, our
   * subscription) and the 500s MTN documents for our account's configuration
   * (NOT_ALLOWED_TARGET_ENVIRONMENT, INVALID_CALLBACK_URL_HOST, INVALID_CURRENCY, NOT_ALLOWED) are
   * definite too, and the provider's side: the breaker counts them. Any other 5xx, or a 429: unknown.
   * MTN's own words go to the log, never to the merchant.
   */
  private refusal(res: ProviderResponse, kind: 'collection' | 'transfer', operation: string): Error {
    const code = field(res.json, 'code');
    if (res.status === 400) {
      return new ProviderRefusal(
        'INVALID_REQUEST',
        `MTN MoMo refused the ${kind === 'collection' ? 'payment request' : 'payout'} for this account (${code ?? 'bad request'})`,
        mtnFailureReason(code, kind),
      );
    }
    if (res.status === 401 || res.status === 403 || (res.status >= 500 && code !== null && CONFIGURATION_CODES.has(code))) {
      return new ProviderRefusal(
        'PROVIDER_UNAVAILABLE',
        'MTN MoMo refused our account’s request; nothing was sent. Try again shortly',
        'provider_refused',
        true,
      );
    }
    return new ProviderUnreachable(this.name, operation, `HTTP ${res.status} ${code ?? ''}`.trim());
  }

  async decide(request: DecideRequest): Promise<SettlementDecision> {
    if (request.kind === 'refund' || request.kind === 'payment') throw new AppError('ROUTE_UNAVAILABLE', 'MTN MoMo does not carry card payments');
    const res = await this.call(request.kind, 'GET', `${PRODUCT_PATHS[request.kind].create}/${referenceIdOf(request.idempotencyKey)}`, 'status');
    if (res.status !== 200) {
      // 404 for a request MTN answered 202 to: not visible yet; ask again later.
      if (res.status === 404) return { outcome: 'pending' };
      throw new ProviderUnreachable(this.name, 'status', `HTTP ${res.status}`);
    }
    const status = field(res.json, 'status');
    if (status === 'SUCCESSFUL') return { outcome: 'successful' };
    if (status === 'FAILED') return { outcome: 'failed', reason: mtnFailureReason(reasonCode(res.json), request.kind) };
    return { outcome: 'pending' };
  }

  /** The callback is the GET's body, unsigned: kept, never believed. Any body at all is fine here. */
  parseNotification(notification: InboundNotification): ParsedNotification {
    const json = lenientJson(notification.body);
    return {
      dedupeKey: bodyDigest(notification.body),
      providerReference: field(json, 'referenceId') ?? field(json, 'financialTransactionId'),
      claimed: field(json, 'status'),
    };
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
