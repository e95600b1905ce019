import type { FlutterwaveConfig } from '../../config';
import { safeEqual } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import {
  ProviderRefusal,
  ProviderUnreachable,
  msisdn,
  unknownOutcome,
  type Connector,
  type DecideRequest,
  type InboundNotification,
  type InitiateRequest,
  type ParsedNotification,
  type Route,
  type SettlementDecision,
} from '../connector';
import { ProviderHttp, bodyDigest, field, lenientJson, type ProviderResponse } from '../provider-http';
import data from './flutterwave.data.json';

/**
 * Flutterwave v3 (docs/providers.md), payouts so far: bank transfers and mobile money transfers
 * (`POST /v3/transfers`, `GET /v3/transfers/{id}`). Every call carries `Authorization: Bearer
 * <secret key>`. Our transaction id is the transfer's `reference`, which Flutterwave keeps unique:
 * a retry sends the same reference, and a second transfer is never made. Webhooks (`verif-hash`,
 * a static secret compared in constant time) are hints, confirmed by the GET.
 */

const TRANSFER_CODES: Record<string, Record<string, string>> = data.transfer_codes;

export class FlutterwaveConnector implements Connector {
  readonly name = 'flutterwave';
  readonly acknowledgement = { status: 'success' };
  /** A retry looks for the transfer a webhook named. */
  readonly readsNotifications = true;
  private readonly http: ProviderHttp;

  constructor(
    private readonly config: FlutterwaveConfig,
    timeoutMs: number,
  ) {
    this.http = new ProviderHttp(this.name, config.baseUrl.replace(/\/+$/, ''), timeoutMs);
  }

  /** Payouts to the banks and wallets its data names (flutterwave.data.json). */
  serves(route: Route): boolean {
    if (route.direction !== 'transfer' || route.channelType === 'card') return false;
    return this.accountBank(route.countryCode, route.networkCode) !== null;
  }

  private accountBank(countryCode: string | null, networkCode: string | null): string | null {
    return (countryCode && networkCode && TRANSFER_CODES[countryCode]?.[networkCode]) || null;
  }

  private send(method: 'GET' | 'POST', path: string, operation: string, body?: unknown): Promise<ProviderResponse> {
    return this.http.send({ method, path, operation, body, headers: { authorization: `Bearer ${this.config.secretKey}` } });
  }

  async initiate(request: InitiateRequest): Promise<{ providerReference: string }> {
    if (request.kind !== 'transfer') throw new ProviderRefusal('ROUTE_UNAVAILABLE', 'Flutterwave collections are not connected yet', 'provider_refused', true);
    const accountBank = this.accountBank(request.countryCode, request.networkCode);
    if (!accountBank) throw new ProviderRefusal('ROUTE_UNAVAILABLE', 'Flutterwave does not serve this bank or wallet', 'provider_refused', true);
    // A retry: a webhook (authenticated by verif-hash) may have named the transfer; it is ours if Flutterwave's GET says
    // its reference is our id. Otherwise the same reference is sent again, which Flutterwave refuses if it has it.
    if (request.retry) {
      for (const id of new Set(request.retry.notifications.flatMap((n) => (n.parsed.providerReference ? [n.parsed.providerReference] : [])))) {
        if (/^\d+$/.test(id) && (await this.transferReference(id)) === request.idempotencyKey) return { providerReference: id };
      }
    }
    let res: ProviderResponse;
    try {
      res = await this.send('POST', '/v3/transfers', 'transfer', {
        account_bank: accountBank,
        account_number: request.accountType === 'momo' ? msisdn(request.dialCode, request.accountNumber) : request.accountNumber,
        amount: Number(request.amount),
        narration: (request.description ?? request.reference).slice(0, 100),
        currency: request.currency,
        debit_currency: request.currency,
        reference: request.idempotencyKey,
        // No callback_url: Flutterwave takes at most 100 characters (its SDK's schema), and its webhooks come to the
        // account's address anyway (/v1/providers/flutterwave/webhook).
        beneficiary_name: request.accountName ?? undefined,
      });
    } catch (err) {
      throw request.retry ? unknownOutcome(this.name, 'transfer', err) : err;
    }
    const id = field(res.json, 'data', 'id');
    if (res.status === 200 && field(res.json, 'status') === 'success' && id) return { providerReference: id };
    throw this.refusal(res, request.retry !== null);
  }

  /**
   * A refused transfer. A 400 about the request (an account that does not resolve, an amount out of
   * bounds) is the request's; a 401/403 is our key's. On a retry, a refusal that may mean "this
   * reference exists" is unknown: the webhook or the next poll names the transfer.
   */
  private refusal(res: ProviderResponse, retry: boolean): Error {
    const message = field(res.json, 'message') ?? `HTTP ${res.status}`;
    if (retry) return new ProviderUnreachable(this.name, 'transfer', `refused on retry: ${message}`);
    if (res.status === 401 || res.status === 403) {
      return new ProviderRefusal(
        'PROVIDER_UNAVAILABLE',
        'Flutterwave refused our account’s request; nothing was sent. Try again shortly',
        'provider_refused',
        true,
      );
    }
    if (res.status >= 400 && res.status < 500)
      return new ProviderRefusal('INVALID_REQUEST', 'Flutterwave refused the payout for this account', 'beneficiary_account_unavailable');
    return new ProviderUnreachable(this.name, 'transfer', `HTTP ${res.status}`);
  }

  /** The reference of the transfer with this id (null when Flutterwave has none). */
  private async transferReference(id: string): Promise<string | null> {
    try {
      const res = await this.send('GET', `/v3/transfers/${id}`, 'transfer status');
      return res.status === 200 ? field(res.json, 'data', 'reference') : null;
    } catch (err) {
      throw unknownOutcome(this.name, 'transfer status', err);
    }
  }

  async decide(request: DecideRequest): Promise<SettlementDecision> {
    if (request.kind !== 'transfer') throw new AppError('ROUTE_UNAVAILABLE', 'Flutterwave collections are not connected yet');
    if (!request.providerReference || !/^\d+$/.test(request.providerReference)) return { outcome: 'pending' };
    const res = await this.send('GET', `/v3/transfers/${request.providerReference}`, 'transfer status');
    if (res.status !== 200) throw new ProviderUnreachable(this.name, 'transfer status', `HTTP ${res.status}`);
    const status = field(res.json, 'data', 'status');
    if (status === 'SUCCESSFUL') return { outcome: 'successful' };
    if (status === 'FAILED') return { outcome: 'failed', reason: transferFailureReason(field(res.json, 'data', 'complete_message')) };
    return { outcome: 'pending' };
  }

  parseNotification(notification: InboundNotification): ParsedNotification {
    const json = lenientJson(notification.body);
    return {
      dedupeKey: bodyDigest(notification.body),
      providerReference: field(json, 'data', 'id'),
      claimed: field(json, 'data', 'status'),
    };
  }

  /** Flutterwave's webhook carries `verif-hash`: the static secret set on its dashboard, compared in constant time. */
  authenticateWebhook(headers: Record<string, string | string[] | undefined>): boolean {
    const hash = headers['verif-hash'];
    return typeof hash === 'string' && safeEqual(hash, this.config.webhookHash);
  }

  /** The transaction a webhook is about: our id, sent as the transfer's `reference` (or a charge's `tx_ref`). */
  webhookTransaction(notification: InboundNotification): string | null {
    const json = lenientJson(notification.body);
    return field(json, 'data', 'reference') ?? field(json, 'data', 'tx_ref');
  }

  async checkCredentials(): Promise<string[]> {
    const res = await this.send('GET', '/v3/balances', 'balances');
    if (res.status !== 200)
      throw new ProviderRefusal('PROVIDER_UNAVAILABLE', `Flutterwave refused our secret key (HTTP ${res.status})`, 'provider_refused', true);
    return ['secret key accepted (balances read)'];
  }
}

/** Flutterwave's `complete_message` on a failed transfer → our failure_reason (docs/providers.md). */
export function transferFailureReason(message: string | null): string {
  const text = (message ?? '').toLowerCase();
  if (/insufficient/.test(text)) return 'provider_float_insufficient';
  if (/invalid account|account.*(not|could not).*(found|resolved)|unable to resolve|dormant|closed/.test(text)) return 'beneficiary_account_unavailable';
  return 'provider_declined';
}
