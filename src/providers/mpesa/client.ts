import { AppError } from '../../shared/errors';
import {
  msisdn,
  refusedTheRequest,
  unknownOutcome,
  ProviderRefusal,
  ProviderUnreachable,
  type ChecksRequests,
  type Connector,
  type DecideRequest,
  type Decided,
  type InboundNotification,
  type InitiateRequest,
  type ParsedNotification,
  type ReadsNotifications,
  type RoundsPayouts,
  type Route,
  type RouteLeg,
  type SettlementDecision,
} from '../connector';
import { applyRules } from '../rules';
import { mpesaRules } from './rules';
import { ProviderHttp, TokenCache, field, type ProviderResponse } from '../provider-http';
import type { MpesaConfig } from './index';
import { darajaTimestamp, isAnswer, parseDarajaNotification, questionOut, references, stkPassword, validAnswer } from './mapping';
import { b2cFailureReason, darajaRefusal, stkDecision } from './statuses';
import { systemClock } from '../../shared/clock';

/** How long an STK prompt can still be answered: after it, a prompt we never learned the id of is over. */
const STK_WINDOW_MS = 3 * 60_000;

/**
 * Safaricom M-Pesa Daraja (docs/providers.md): collections by STK Push (Lipa na M-Pesa
 * Online), payouts by B2C.
 *
 * - OAuth: `GET /oauth/v1/generate?grant_type=client_credentials` (Basic key:secret).
 * - STK Push: `POST /mpesa/stkpush/v1/processrequest`, Password = base64(shortcode + passkey +
 *   timestamp); it answers a CheckoutRequestID, the result comes once to CallBackURL, unsigned,
 *   and `POST /mpesa/stkpushquery/v1/query` is the truth.
 * - B2C: `POST /mpesa/b2c/v3/paymentrequest` with our OriginatorConversationID (the transaction's
 *   id); the result comes to ResultURL, unsigned. Daraja's status question (Transaction Status)
 *   is answered asynchronously too, so a status answer counts only when it answers a query we
 *   sent (its ConversationID is one Daraja gave us for it, which `decide` returns as `sentQuery`
 *   and Rails keeps with the transaction).
 */
export class MpesaConnector implements Connector, ChecksRequests, RoundsPayouts, ReadsNotifications {
  readonly name = 'mpesa';
  /** What Daraja's samples answer a callback with. */
  readonly acknowledgement = { ResultCode: 0, ResultDesc: 'Accepted' };
  readonly readsNotifications = true as const;
  private readonly http: ProviderHttp;
  private readonly tokens: TokenCache;

  private readonly config: MpesaConfig;
  private readonly now: () => Date;

  /** `timeoutMs`: each call's (PROVIDER_TIMEOUT_MS); `now`: the clock's (Daraja's timestamps and passwords). */
  constructor({ config, timeoutMs, now }: { config: MpesaConfig; timeoutMs: number; now: () => Date }) {
    this.config = config;
    this.now = now;
    this.http = new ProviderHttp({ connector: this.name, baseUrl: config.baseUrl.replace(/\/+$/, ''), timeoutMs });
    this.tokens = new TokenCache({ fetchToken: () => this.fetchToken() });
  }

  serves(route: Route): boolean {
    if (!mpesaRules.covers(route)) return false;
    return route.direction === 'collection' ? this.config.stk !== null : this.config.b2c !== null;
  }

  payoutDecimals(route: Route): number | undefined {
    return mpesaRules.payoutDecimals!(route);
  }

  /** M-Pesa moves whole shillings only, to and from phone numbers (rules.ts; the sandbox applies the same). */
  check(leg: RouteLeg): void {
    applyRules(mpesaRules.rules, leg);
  }

  private async fetchToken(): Promise<{ value: string; expiresInS: number }> {
    const res = await this.http.send({
      method: 'GET',
      path: '/oauth/v1/generate?grant_type=client_credentials',
      operation: 'oauth',
      headers: { authorization: `Basic ${Buffer.from(`${this.config.consumerKey}:${this.config.consumerSecret}`).toString('base64')}` },
    });
    const token = field(res.json, 'access_token');
    if (res.status !== 200 || !token) {
      throw new ProviderRefusal('PROVIDER_UNAVAILABLE', `M-Pesa refused our consumer key (HTTP ${res.status})`, 'provider_refused', true);
    }
    return { value: token, expiresInS: Number(field(res.json, 'expires_in') ?? 3599) || 3599 };
  }

  /** A call with the bearer token. Daraja says a token is invalid (or was replaced by a newer one) with 404.001.03/.04. */
  private post(path: string, operation: string, body: unknown): Promise<ProviderResponse> {
    return this.tokens.withToken(
      (token) => this.http.send({ method: 'POST', path, operation, body, headers: { authorization: `Bearer ${token}` } }, { unknownOn5xx: false }),
      // 404.001.03/.04 (M-Pesa Express's documentation), 400.003.01 (Transaction Status's).
      (res) => res.status === 401 || /^(404\.001\.0[34]|400\.003\.01)$/.test(field(res.json, 'errorCode') ?? ''),
    );
  }

  private refusal(res: ProviderResponse, operation: string): Error {
    return darajaRefusal(this.name, res, operation);
  }

  async initiate(request: InitiateRequest): Promise<{ providerReference: string }> {
    return request.kind === 'collection' ? this.stkPush(request) : this.b2c(request);
  }

  private async stkPush(request: InitiateRequest): Promise<{ providerReference: string }> {
    const stk = this.config.stk!;
    if (request.retry) {
      // The first push may have reached the customer: Daraja has no key to look it up by, and a second
      // push could be paid twice. Its callback names it (the callback address is this transaction's).
      // A callback may be forged: its CheckoutRequestID is taken only if Daraja's query knows it.
      for (const named of references(request.retry.notifications)) {
        if (await this.knows(named)) return { providerReference: named };
      }
      if (this.now().getTime() - request.retry.createdAt.getTime() < STK_WINDOW_MS) {
        throw new ProviderUnreachable(this.name, 'stkpush', 'outcome unknown; waiting for its callback before the prompt window ends');
      }
      throw new ProviderRefusal('SERVER_ERROR', 'M-Pesa never confirmed the payment prompt', 'provider_no_answer');
    }
    const timestamp = darajaTimestamp(this.now());
    const number = msisdn(request.dialCode, request.accountNumber);
    const res = await this.post('/mpesa/stkpush/v1/processrequest', 'stkpush', {
      BusinessShortCode: stk.shortcode,
      Password: stkPassword(stk.shortcode, stk.passkey, timestamp),
      Timestamp: timestamp,
      TransactionType: 'CustomerPayBillOnline',
      Amount: Number(request.amount),
      PartyA: number,
      PartyB: stk.shortcode,
      PhoneNumber: number,
      CallBackURL: request.callbackUrl,
      // Shown to the customer: at most 12 and 13 characters.
      AccountReference: request.reference
        .replace(/^[a-z]+_/, '')
        .slice(0, 12)
        .toUpperCase(),
      TransactionDesc: (request.description ?? 'Payment').slice(0, 13),
    });
    const checkout = field(res.json, 'CheckoutRequestID');
    if (res.status === 200 && field(res.json, 'ResponseCode') === '0') {
      if (checkout) return { providerReference: checkout };
      // Accepted, but without its id: the prompt may be out. Reconciliation waits for its callback.
      throw new ProviderUnreachable(this.name, 'stkpush', 'accepted without a CheckoutRequestID');
    }
    throw this.refusal(res, 'stkpush');
  }

  /**
   * B2C with our transaction id as OriginatorConversationID. A retry sends it again: Daraja refuses a
   * repeated OriginatorConversationID (500.002.1001 "Duplicate OriginatorConversationID", its B2C
   * documentation), so a payment it holds is never made twice, and that refusal says it has it.
   */
  private async b2c(request: InitiateRequest): Promise<{ providerReference: string }> {
    const b2c = this.config.b2c!;
    let res: ProviderResponse;
    try {
      res = await this.post('/mpesa/b2c/v3/paymentrequest', 'b2c', {
        OriginatorConversationID: request.idempotencyKey,
        InitiatorName: b2c.initiatorName,
        SecurityCredential: b2c.securityCredential,
        CommandID: 'BusinessPayment',
        Amount: Number(request.amount),
        PartyA: b2c.shortcode,
        PartyB: msisdn(request.dialCode, request.accountNumber),
        Remarks: (request.description ?? request.reference).slice(0, 100).padEnd(2, '.'),
        QueueTimeOutURL: request.callbackUrl,
        ResultURL: request.callbackUrl,
        Occassion: request.reference,
      });
    } catch (err) {
      throw request.retry ? unknownOutcome(this.name, 'b2c', err) : err;
    }
    if (field(res.json, 'errorCode') === '500.002.1001' && /duplicate/i.test(field(res.json, 'errorMessage') ?? ''))
      return { providerReference: request.idempotencyKey };
    const conversation = field(res.json, 'ConversationID');
    if (res.status === 200 && field(res.json, 'ResponseCode') === '0') {
      // Accepted without an id to keep: it is Daraja's, by our OriginatorConversationID (status queries use that).
      return { providerReference: conversation ?? request.idempotencyKey };
    }
    const refused = this.refusal(res, 'b2c');
    throw request.retry && !refusedTheRequest(refused) ? unknownOutcome(this.name, 'b2c', refused) : refused;
  }

  /** Transaction Status: answered later, to `callbackUrl`. Its id is returned, for the caller to keep so the answer can be matched. */
  private async statusQuery(callbackUrl: string, subject: Record<string, string>): Promise<string> {
    const b2c = this.config.b2c!;
    const res = await this.post('/mpesa/transactionstatus/v1/query', 'transactionstatus', {
      Initiator: b2c.initiatorName,
      SecurityCredential: b2c.securityCredential,
      CommandID: 'TransactionStatusQuery',
      ...subject,
      PartyA: b2c.shortcode,
      IdentifierType: '4',
      ResultURL: callbackUrl,
      QueueTimeOutURL: callbackUrl,
      Remarks: 'status',
      Occasion: 'status',
    });
    const queryId = field(res.json, 'ConversationID');
    if (res.status !== 200 || !queryId) throw this.refusal(res, 'transactionstatus');
    return queryId;
  }

  /** A B2C payout's status question goes out here and is answered later: its id comes back as `sentQuery`, for the caller to keep. */
  async decide(request: DecideRequest): Promise<Decided> {
    if (request.kind === 'refund' || request.kind === 'payment') throw new AppError('ROUTE_UNAVAILABLE', 'M-Pesa does not carry card payments');
    if (request.kind === 'collection') return this.stkQuery(request.providerReference!);
    const { notifications } = request;
    const answer = validAnswer(notifications);
    if (answer?.decision.outcome === 'successful') return answer.decision;
    if (answer?.decision.outcome === 'failed') {
      // Failed, says Daraja's answer to our question; why, says the payment's own result (a hint, only used for the reason).
      const result = [...notifications].reverse().find((n) => !isAnswer(n, notifications) && n.parsed.claimed !== null && n.parsed.claimed !== '0');
      return { outcome: 'failed', reason: result ? b2cFailureReason(result.parsed.claimed!) : answer.decision.reason };
    }
    // Ask (Transaction Status, answered to the callback address) unless a question is out already, or the
    // notification that triggered this is itself an answer: answers never prompt questions, so they cannot loop.
    const newest = notifications[notifications.length - 1];
    const triggeredByAnswer = request.trigger === 'notification' && newest !== undefined && isAnswer(newest, notifications);
    if (!triggeredByAnswer && !questionOut(notifications, wallClock())) {
      // By our own OriginatorConversationID: nothing a callback says is used to ask.
      return { outcome: 'pending', sentQuery: await this.statusQuery(request.callbackUrl, { OriginalConversationID: request.idempotencyKey }) };
    }
    return { outcome: 'pending' };
  }

  /** Whether Daraja has an STK request with this id (its query answers, or says it is still being processed). */
  private async knows(checkoutRequestId: string): Promise<boolean> {
    try {
      await this.stkQuery(checkoutRequestId);
      return true;
    } catch (err) {
      if (err instanceof AppError) return false;
      throw err;
    }
  }

  private async stkQuery(checkoutRequestId: string): Promise<SettlementDecision> {
    const stk = this.config.stk!;
    const timestamp = darajaTimestamp(this.now());
    const res = await this.post('/mpesa/stkpushquery/v1/query', 'stkpushquery', {
      BusinessShortCode: stk.shortcode,
      Password: stkPassword(stk.shortcode, stk.passkey, timestamp),
      Timestamp: timestamp,
      CheckoutRequestID: checkoutRequestId,
    });
    // Still with the customer.
    if (res.status === 500 && /being processed/i.test(field(res.json, 'errorMessage') ?? '')) return { outcome: 'pending' };
    const code = field(res.json, 'ResultCode');
    if (res.status !== 200 || code === null) throw this.refusal(res, 'stkpushquery');
    return stkDecision(code);
  }

  parseNotification(notification: InboundNotification): ParsedNotification {
    return parseDarajaNotification(notification);
  }

  async checkCredentials(): Promise<string[]> {
    await this.tokens.get();
    const products = [this.config.stk && 'STK Push', this.config.b2c && 'B2C'].filter(Boolean).join(' and ');
    return [`oauth: token issued (${products} configured)`];
  }
}

/** The wall clock, as the database's `received_at` is (not the service's injected clock, which tests stop). */
function wallClock(): Date {
  return systemClock.now();
}
