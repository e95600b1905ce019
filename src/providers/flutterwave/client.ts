import { safeEqual } from '../../shared/crypto';
import { Decimal } from '../../shared/money';
import {
  NotSentAgain,
  ProviderRefusal,
  ProviderUnreachable,
  unknownOutcome,
  type CardCharge,
  type CardChargeRequest,
  type CardOtpAnswer,
  type CardOtpRequest,
  type ChargesCards,
  type ChecksRequests,
  type Connector,
  type DecideRequest,
  type InboundNotification,
  type InitiateRequest,
  type OpensVirtualAccounts,
  type ParsedNotification,
  type ReadsNotifications,
  type ReceivesWebhooks,
  type RedactsNotifications,
  type RefundRequest,
  type Refunds,
  type Route,
  type RouteLeg,
  type SettlementDecision,
  type ValidatesCardOtp,
  type VirtualAccount,
  type VirtualAccountRequest,
} from '../connector';
import type {
  AccountResolutionRequest,
  HandlesDisputes,
  ListsTransactions,
  ProviderDispute,
  ProviderRecord,
  RecordWindow,
  ReportsBalance,
  ResolvesAccounts,
} from '../capabilities';
import { ProviderHttp, field, lenientJson, type ProviderResponse } from '../provider-http';
import { applyRules } from '../rules';
import { FlutterwaveCards } from './cards';
import { flutterwaveRules } from './rules';
import { chargebackOf, flutterwaveBalance, flutterwaveDisputes, flutterwaveRecords } from './records';
import type { FlutterwaveConfig } from './index';
import {
  NUMERIC_ID,
  accountBank,
  chargeSpec,
  encryptCardPayload,
  flutterwaveTime,
  mobileMoneyChargeBody,
  parseFlutterwaveNotification,
  redactedBody,
  transactionOf,
  transferBody,
  virtualAccountBody,
  webhookTransactionOf,
  type FlutterwaveTransaction,
} from './mapping';
import { chargeDecision, chargebackRefusal, flutterwaveRefusal, refundDecision, transferDecision } from './statuses';

/**
 * Flutterwave v3 (docs/providers.md): payouts to banks and wallets (`POST /v3/transfers`), bank
 * collections into temporary virtual accounts, mobile money collections (`POST /v3/charges`), card
 * payments (the card 3DES-encrypted) and their refunds. Every call carries `Authorization: Bearer
 * <secret key>`. Our transaction id is the transfer's `reference` or the charge's `tx_ref`, so a
 * retry finds what the first attempt started. Webhooks (`verif-hash`, a static secret compared in
 * constant time) are hints, confirmed by `GET /v3/transfers/{id}` or a transaction verify. Chargebacks: listed
 * (`GET /v3/chargebacks`), answered (`PUT /v3/chargebacks/{id}`) and read from their webhooks (records.ts).
 */
export class FlutterwaveConnector
  implements
    Connector,
    OpensVirtualAccounts,
    ChargesCards,
    ValidatesCardOtp,
    Refunds,
    ReceivesWebhooks,
    RedactsNotifications,
    ChecksRequests,
    ReadsNotifications,
    ResolvesAccounts,
    ListsTransactions,
    ReportsBalance,
    HandlesDisputes
{
  readonly name = 'flutterwave';
  readonly acknowledgement = { status: 'success' };
  /** A retry looks for the transfer a webhook named. */
  readonly readsNotifications = true as const;
  private readonly http: ProviderHttp;
  private readonly cards: FlutterwaveCards;

  private readonly config: FlutterwaveConfig;

  /** `timeoutMs`: each call's (PROVIDER_TIMEOUT_MS). */
  constructor({ config, timeoutMs }: { config: FlutterwaveConfig; timeoutMs: number }) {
    this.config = config;
    this.http = new ProviderHttp({ connector: this.name, baseUrl: config.baseUrl.replace(/\/+$/, ''), timeoutMs });
    this.cards = new FlutterwaveCards({
      connector: this.name,
      encryptionKey: config.encryptionKey,
      send: (method, path, operation, body) => this.send(method, path, operation, body),
      verify: (id) => this.verify(id),
      byReference: (txRef) => this.byReference(txRef),
    });
    // The card payload's cipher must exist in this runtime (an OpenSSL without 3DES would fail every card): checked at start.
    try {
      encryptCardPayload(config.encryptionKey, {});
    } catch (err) {
      throw new Error(`Flutterwave's card encryption (3DES) is not available here: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Payouts to the banks and wallets its data names; bank collections (temporary virtual accounts)
   * and mobile money collections in the countries its data names; card payments and their refunds.
   */
  serves(route: Route): boolean {
    return flutterwaveRules.covers(route);
  }

  /** Flutterwave's own rules (rules.ts: its currencies for cards, its least and most per transaction), before anything is written; the sandbox applies the same. */
  check(leg: RouteLeg): void {
    applyRules(flutterwaveRules.rules, leg);
  }

  private send(method: 'GET' | 'POST' | 'PUT', path: string, operation: string, body?: unknown): Promise<ProviderResponse> {
    return this.http.send({ method, path, operation, body, headers: { authorization: `Bearer ${this.config.secretKey}` } });
  }

  async initiate(request: InitiateRequest): Promise<{ providerReference: string; nextActionUrl?: string | null }> {
    return request.kind === 'transfer' ? this.transfer(request) : this.chargeMobileMoney(request);
  }

  private async transfer(request: InitiateRequest): Promise<{ providerReference: string }> {
    const bank = accountBank(request.countryCode, request.networkCode);
    if (!bank) throw new ProviderRefusal('ROUTE_UNAVAILABLE', 'Flutterwave does not serve this bank or wallet', 'provider_refused', true);
    // A retry: a webhook (authenticated by verif-hash) may have named the transfer; it is ours if Flutterwave's GET says
    // its reference is our id. Otherwise the same reference is sent again, which Flutterwave refuses if it has it.
    if (request.retry) {
      for (const id of new Set(request.retry.notifications.flatMap((n) => (n.parsed.providerReference ? [n.parsed.providerReference] : [])))) {
        if (NUMERIC_ID.test(id) && (await this.transferReference(id)) === request.idempotencyKey) return { providerReference: id };
      }
    }
    let res: ProviderResponse;
    try {
      const meta = bank === 'MPS' && request.currency === 'KES' ? await this.senderMeta(request) : undefined;
      res = await this.send('POST', '/v3/transfers', 'transfer', transferBody(request, bank, meta));
    } catch (err) {
      throw request.retry ? unknownOutcome(this.name, 'transfer', err) : err;
    }
    const id = field(res.json, 'data', 'id');
    if (res.status === 200 && field(res.json, 'status') === 'success' && id) return { providerReference: id };
    throw this.refusal(res, request.retry !== null, 'transfer');
  }

  /**
   * M-Pesa payouts: Flutterwave requires the sender (our customer) by full name, country and mobile number. Sent as an
   * array of one object, as the official SDK's schema (transferSchema, KES) demands and its transfer samples show; the
   * docs' mobile money page prints a bare object (docs/providers.md).
   */
  private async senderMeta(request: InitiateRequest): Promise<Array<{ sender: string; sender_country: string; mobile_number: string }>> {
    const sender = await request.payer();
    if (!sender.name || !sender.countryCode || !sender.phone) {
      throw new ProviderRefusal('INVALID_REQUEST', 'An M-Pesa payout needs the sending customer’s name, country and phone number', 'provider_refused');
    }
    return [{ sender: sender.name, sender_country: sender.countryCode, mobile_number: sender.phone }];
  }

  /**
   * A mobile money collection: `POST /v3/charges?type=…` with our id as `tx_ref`. Ghana's, Uganda's, Rwanda's and
   * Zambia's answer a page the payer opens to approve (`meta.authorization.redirect`); M-Pesa and the francophone
   * wallets prompt the phone. A retry first asks by `tx_ref` whether Flutterwave has the charge.
   */
  private async chargeMobileMoney(request: InitiateRequest): Promise<{ providerReference: string; nextActionUrl: string | null }> {
    const spec = chargeSpec(request.countryCode, request.networkCode);
    if (!spec) throw new ProviderRefusal('ROUTE_UNAVAILABLE', 'Flutterwave does not serve this wallet', 'provider_refused', true);
    if (request.retry) {
      const found = await this.byReference(request.idempotencyKey).catch((err: unknown) => {
        throw unknownOutcome(this.name, 'verify', err);
      });
      if (found) return { providerReference: found.id, nextActionUrl: null };
    }
    const payer = await request.payer();
    let res: ProviderResponse;
    try {
      res = await this.send('POST', `/v3/charges?type=${spec.type}`, 'charge', mobileMoneyChargeBody(request, spec, payer));
    } catch (err) {
      throw request.retry ? unknownOutcome(this.name, 'charge', err) : err;
    }
    if (res.status === 200 && field(res.json, 'status') === 'success') {
      return {
        providerReference: field(res.json, 'data', 'id') ?? request.idempotencyKey,
        nextActionUrl: field(res.json, 'meta', 'authorization', 'redirect'),
      };
    }
    throw this.refusal(res, request.retry !== null, 'charge');
  }

  /** A temporary account for one bank collection (`is_permanent: false`): Flutterwave closes it an hour after it opens. */
  async createVirtualAccount(request: VirtualAccountRequest): Promise<VirtualAccount> {
    const payer = await request.payer();
    const res = await this.send('POST', '/v3/virtual-account-numbers', 'virtual account', virtualAccountBody(request, payer));
    const accountNumber = field(res.json, 'data', 'account_number');
    if (res.status !== 200 || field(res.json, 'status') !== 'success' || !accountNumber) throw this.refusal(res, request.retry, 'virtual account');
    const bankName = field(res.json, 'data', 'bank_name') ?? 'Flutterwave';
    return {
      accountName: request.accountName,
      accountNumber,
      bankName,
      bankCode: '',
      providerReference: field(res.json, 'data', 'order_ref') ?? field(res.json, 'data', 'flw_ref') ?? request.idempotencyKey,
      expiresAt: flutterwaveTime(field(res.json, 'data', 'expiry_date')),
    };
  }

  /** Nigerian bank accounts (and wallets reached by account number), by the bank's CBN/NIP code. */
  resolvesAccountsOn(route: Route, bankCode: string | null): boolean {
    return route.countryCode === 'NG' && bankCode !== null;
  }

  /**
   * `POST /v3/accounts/resolve {account_number, account_bank}` → `data.account_name`. Flutterwave answers an account
   * it cannot find with 400 `status: error` (no such account); anything else but a 200 is no answer.
   */
  async resolveAccount(request: AccountResolutionRequest): Promise<{ accountName: string }> {
    const res = await this.send('POST', '/v3/accounts/resolve', 'account resolve', { account_number: request.accountNumber, account_bank: request.bankCode });
    const name = field(res.json, 'data', 'account_name');
    if (res.status === 200 && field(res.json, 'status') === 'success' && name) return { accountName: name };
    if (res.status === 400 || res.status === 404)
      throw new ProviderRefusal('NOT_FOUND', 'No account with this number exists at this bank', 'account_not_found');
    throw new ProviderUnreachable(this.name, 'account resolve', `HTTP ${res.status}`);
  }

  /** A card charge (cards.ts): the PIN or billing address sent again where asked, 3-D Secure, or our code page. */
  chargeCard(request: CardChargeRequest): Promise<CardCharge> {
    return this.cards.chargeCard(request);
  }

  /** The code the issuer sent, for our charge waiting for it (cards.ts). */
  validateCardOtp(request: CardOtpRequest): Promise<CardOtpAnswer> {
    return this.cards.validateCardOtp(request);
  }

  /** Reconciliation's question: the charge with our id as `tx_ref` (cards.ts). */
  concludeCardCharge(idempotencyKey: string, expected: { amount: string; currency: string }): Promise<CardCharge> {
    return this.cards.concludeCardCharge(idempotencyKey, expected);
  }

  /**
   * `POST /v3/transactions/{id}/refund`. Flutterwave takes no key for a refund, so one whose answer was lost is never
   * sent again (a second would pay twice): reconciliation keeps asking in vain, and the log says to look it up.
   */
  async refund(request: RefundRequest): Promise<{ providerReference: string }> {
    if (request.retry)
      throw new NotSentAgain(this.name, 'refund', 'an earlier attempt may have reached Flutterwave; not sent again (look it up on the dashboard)');
    if (!request.chargeReference || !NUMERIC_ID.test(request.chargeReference))
      throw new ProviderRefusal('INVALID_STATE', 'The payment has no Flutterwave transaction to refund', 'provider_refused');
    const res = await this.send('POST', `/v3/transactions/${request.chargeReference}/refund`, 'refund', {
      amount: Number(request.amount),
      comments: (request.reason ?? request.reference).slice(0, 100),
    });
    const id = field(res.json, 'data', 'id');
    if (res.status === 200 && field(res.json, 'status') === 'success' && id) return { providerReference: id };
    if (res.status === 400) throw new ProviderRefusal('INVALID_STATE', 'The card processor refused to refund this payment', 'refund_declined');
    throw this.refusal(res, false, 'refund');
  }

  private refusal(res: ProviderResponse, retry: boolean, operation: string): Error {
    return flutterwaveRefusal(this.name, res, retry, operation);
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
    switch (request.kind) {
      case 'transfer':
        return this.decideTransfer(request.providerReference);
      case 'refund':
        return this.decideRefund(request.providerReference);
      case 'payment': {
        if (!request.providerReference || !NUMERIC_ID.test(request.providerReference)) return { outcome: 'pending' };
        return chargeDecision(await this.verify(request.providerReference), request);
      }
      case 'collection':
        return chargeDecision(await this.byReference(request.idempotencyKey), request);
    }
  }

  private async decideTransfer(providerReference: string | null): Promise<SettlementDecision> {
    if (!providerReference || !NUMERIC_ID.test(providerReference)) return { outcome: 'pending' };
    const res = await this.send('GET', `/v3/transfers/${providerReference}`, 'transfer status');
    if (res.status !== 200) throw new ProviderUnreachable(this.name, 'transfer status', `HTTP ${res.status}`);
    return transferDecision(res.json);
  }

  /** `GET /v3/refunds/{id}`: completed is done; failed gives the payment's amount back to refund again (refundDecision). */
  private async decideRefund(providerReference: string | null): Promise<SettlementDecision> {
    if (!providerReference || !NUMERIC_ID.test(providerReference)) return { outcome: 'pending' };
    const res = await this.send('GET', `/v3/refunds/${providerReference}`, 'refund status');
    if (res.status !== 200) throw new ProviderUnreachable(this.name, 'refund status', `HTTP ${res.status}`);
    return refundDecision(field(res.json, 'data', 'status'));
  }

  /** `GET /v3/transactions/{id}/verify`; null when Flutterwave has no such transaction. */
  private async verify(id: string): Promise<FlutterwaveTransaction | null> {
    return transactionOf(this.name, await this.send('GET', `/v3/transactions/${id}/verify`, 'verify'));
  }

  /** `GET /v3/transactions/verify_by_reference?tx_ref=`; null when Flutterwave has none with our id. */
  private async byReference(txRef: string): Promise<FlutterwaveTransaction | null> {
    return transactionOf(this.name, await this.send('GET', `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(txRef)}`, 'verify'));
  }

  parseNotification(notification: InboundNotification): ParsedNotification {
    return parseFlutterwaveNotification(notification);
  }

  /** The card a charge's webhook echoes is not kept. */
  storableBody(body: string): string {
    return redactedBody(body);
  }

  /** Flutterwave's webhook carries `verif-hash`: the static secret set on its dashboard, compared in constant time. */
  authenticateWebhook(headers: Record<string, string | string[] | undefined>): boolean {
    const hash = headers['verif-hash'];
    return typeof hash === 'string' && safeEqual(hash, this.config.webhookHash);
  }

  /** The transaction a webhook is about: our id, sent as the transfer's `reference` (or a charge's `tx_ref`). */
  webhookTransaction(notification: InboundNotification): string | null {
    return webhookTransactionOf(notification);
  }

  /** Reconciliation: the window's charges and transfers (records.ts). */
  listTransactions(window: RecordWindow): AsyncIterable<ProviderRecord> {
    return flutterwaveRecords((path, operation) => this.send('GET', path, operation), window);
  }

  /** Reconciliation's clearing check: the wallet's available balance in the currency. */
  balance(currency: string): Promise<Decimal> {
    return flutterwaveBalance((path, operation) => this.send('GET', path, operation), currency);
  }

  /** The chargebacks opened or changed since `since` (records.ts). */
  async listDisputes(since: Date): Promise<ProviderDispute[]> {
    return (await flutterwaveDisputes((path, operation) => this.send('GET', path, operation), since)).disputes;
  }

  /**
   * `PUT /v3/chargebacks/{id} {action, comment, prooflink?}` → the chargeback as it now stands ("Chargeback accepted").
   * Refused (already answered, unknown): a ProviderRefusal naming Flutterwave's message (statuses.ts).
   */
  async answerDispute(providerDisputeId: string, action: 'accept' | 'decline', comment: string, proofUrl: string | null = null): Promise<ProviderDispute> {
    if (!NUMERIC_ID.test(providerDisputeId))
      throw new ProviderRefusal('NOT_FOUND', `Flutterwave has no chargeback ${providerDisputeId}; nothing was sent`, 'provider_refused');
    const body: Record<string, string> = { action, comment };
    if (proofUrl) body.prooflink = proofUrl;
    const res = await this.send('PUT', `/v3/chargebacks/${providerDisputeId}`, 'chargeback answer', body);
    if (res.status === 200 && field(res.json, 'status') === 'success') {
      const dispute = chargebackOf((res.json as { data?: unknown }).data);
      if (dispute) return dispute;
      throw new ProviderUnreachable(this.name, 'chargeback answer', 'answered without a chargeback we can read');
    }
    throw chargebackRefusal(this.name, res, providerDisputeId, action);
  }

  /**
   * A `chargeback.*` webhook (`{event, data}`, data the chargeback as the list gives it; the body parsed, or its text)
   * → its dispute; null for any other event. The event names are not in the v3 reference pages read (see docs in test/fakes/flutterwave-chargebacks.ts).
   */
  webhookDispute(body: unknown): ProviderDispute | null {
    if (typeof body === 'string') body = lenientJson(body);
    const event = field(body, 'event');
    if (!event || !event.toLowerCase().startsWith('chargeback')) return null;
    return chargebackOf((body as { data?: unknown }).data);
  }

  async checkCredentials(): Promise<string[]> {
    const res = await this.send('GET', '/v3/balances', 'balances');
    if (res.status !== 200)
      throw new ProviderRefusal('PROVIDER_UNAVAILABLE', `Flutterwave refused our secret key (HTTP ${res.status})`, 'provider_refused', true);
    return ['secret key accepted (balances read)'];
  }
}
