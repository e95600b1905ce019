import type { MpesaConfig } from '../../config';
import { AppError } from '../../shared/errors';
import {
  checkWalletNumber,
  msisdn,
  type RouteLeg,
  refusedTheRequest,
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
  type StoredNotification,
} from '../connector';
import { ProviderHttp, TokenCache, bodyDigest, field, lenientJson, type ProviderResponse } from '../provider-http';

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
 *   sent (its ConversationID is one Daraja gave us for it, kept with the transaction).
 */

/** M-Pesa's STK ResultCode → our failure_reason (docs/providers.md). */
const STK_REASONS: Record<string, string> = {
  '1': 'sender_insufficient_funds',
  '1032': 'payment_declined_by_sender',
  '1037': 'sender_unreachable',
  '2001': 'sender_authentication_failed',
  '1019': 'sender_did_not_respond',
  '1001': 'sender_busy',
  '1025': 'provider_error',
  '9999': 'provider_error',
  // Daraja's result-code table: limit rules, a rule-limited customer, a request not permitted, our credential locked.
  '2': 'sender_limit_reached',
  '3': 'sender_limit_reached',
  '4': 'sender_limit_reached',
  '8': 'sender_limit_reached',
  '17': 'provider_declined',
  '2028': 'provider_refused',
  '8006': 'provider_refused',
  SFC_IC0003: 'provider_refused',
};

/** B2C and Transaction Status ResultCodes → our failure_reason. */
const B2C_REASONS: Record<string, string> = {
  '1': 'provider_float_insufficient',
  '2001': 'provider_refused',
  '8006': 'provider_refused',
  '2040': 'beneficiary_account_unavailable',
  '2028': 'provider_refused',
  '17': 'provider_error',
  // Daraja's B2C result codes: amounts outside the limits, the receiver's limits, refused requests, no such operator.
  '2': 'beneficiary_limit_reached',
  '3': 'beneficiary_limit_reached',
  '4': 'beneficiary_limit_reached',
  '8': 'beneficiary_limit_reached',
  '11': 'provider_refused',
  '21': 'provider_refused',
  '2006': 'provider_refused',
  SFC_IC0003: 'beneficiary_account_unavailable',
};

export const stkFailureReason = (code: string) => STK_REASONS[code] ?? 'provider_declined';
export const b2cFailureReason = (code: string) => B2C_REASONS[code] ?? 'provider_declined';

/** How long an STK prompt can still be answered: after it, a prompt we never learned the id of is over. */
const STK_WINDOW_MS = 3 * 60_000;

/** Daraja's timestamp, YYYYMMDDHHmmss in Kenya's time (UTC+3, no daylight saving). */
export function darajaTimestamp(at: Date): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString('base64');
}

/** 2547XXXXXXXX. */
const phone = msisdn;

/** Daraja's items (`[{Name|Key, Value}]`) as a map. */
function items(list: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of Array.isArray(list) ? list : list ? [list] : []) {
    const key = field(item, 'Name') ?? field(item, 'Key');
    const value = field(item, 'Value');
    if (key && value !== null) map.set(key, value);
  }
  return map;
}

export class MpesaConnector implements Connector {
  readonly name = 'mpesa';
  /** What Daraja's samples answer a callback with. */
  readonly acknowledgement = { ResultCode: 0, ResultDesc: 'Accepted' };
  readonly readsNotifications = true;
  private readonly http: ProviderHttp;
  private readonly tokens: TokenCache;

  constructor(
    private readonly config: MpesaConfig,
    timeoutMs: number,
    private readonly now: () => Date,
    /** Keeps a status query we sent with its transaction, so that its answer can be matched. */
    private readonly recordQuery: (transactionId: string, queryId: string) => Promise<void>,
  ) {
    this.http = new ProviderHttp(this.name, config.baseUrl.replace(/\/+$/, ''), timeoutMs);
    this.tokens = new TokenCache(() => this.fetchToken());
  }

  serves(route: Route): boolean {
    if (route.channelType !== 'momo' || route.countryCode !== 'KE' || route.networkCode !== 'MPESA') return false;
    return route.direction === 'collection' ? this.config.stk !== null : this.config.b2c !== null;
  }

  payoutDecimals(): number {
    return 0;
  }

  /** M-Pesa moves whole shillings only, to and from phone numbers. */
  check(leg: RouteLeg): void {
    checkWalletNumber(leg.accountNumber);
    if (!/^\d+(\.0+)?$/.test(leg.amount)) throw AppError.invalidField('amount', 'must be a whole number of KES for M-Pesa');
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

  /** A 5xx other than the ones a call reads, or a 429: the outcome is unknown. */
  private unknown(res: ProviderResponse, operation: string): ProviderUnreachable {
    return new ProviderUnreachable(
      this.name,
      operation,
      `HTTP ${res.status} ${field(res.json, 'errorCode') ?? ''} ${field(res.json, 'errorMessage') ?? ''}`.trim(),
    );
  }

  /**
   * What Daraja's error means. `400.002.02 Bad Request - Invalid <Field>` refuses the request itself
   * (a bad phone, an amount out of bounds): the client's error. Its 500.001.1001 carries definite
   * refusals too, told apart by their text: our credentials ("Wrong credentials", "Merchant does not
   * exist": the provider's side, counted by the breaker) or a prompt already pending on the phone
   * ("Unable to lock subscriber": the request's). Any other 5xx, or a 429, is unknown; any other 4xx
   * is about our account or configuration. Daraja's own words go to the log, not to the merchant,
   * except the field a bad request names.
   */
  private refusal(res: ProviderResponse, operation: string): Error {
    const code = field(res.json, 'errorCode') ?? '';
    const message = field(res.json, 'errorMessage') ?? field(res.json, 'ResponseDescription') ?? '';
    if (res.status >= 500 && code === '500.001.1001') {
      if (/wrong credentials|merchant does not exist/i.test(message)) return this.ourSide();
      if (/unable to lock subscriber/i.test(message)) {
        return new ProviderRefusal(
          'INVALID_REQUEST',
          'M-Pesa: a payment prompt is already pending on this phone; try again once it is answered',
          'sender_busy',
        );
      }
    }
    if (res.status >= 500 || res.status === 429) return this.unknown(res, operation);
    if (res.status === 400 && code.startsWith('400.002')) {
      const invalid = /Invalid ([A-Za-z]+)/.exec(message)?.[1];
      return new ProviderRefusal(
        'INVALID_REQUEST',
        `M-Pesa refused the request${invalid ? `: invalid ${invalid}` : ''}`,
        /phone|party/i.test(invalid ?? '') ? 'sender_account_not_found' : 'provider_declined',
      );
    }
    return this.ourSide();
  }

  /** Our credentials or configuration refused: nothing was sent, and the breaker counts it. */
  private ourSide(): ProviderRefusal {
    return new ProviderRefusal('PROVIDER_UNAVAILABLE', 'M-Pesa refused our account’s request; nothing was sent. Try again shortly', 'provider_refused', true);
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
    const number = phone(request.dialCode, request.accountNumber);
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
        PartyB: phone(request.dialCode, request.accountNumber),
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

  /** Transaction Status: answered later, to `callbackUrl`; the query's id is kept so the answer can be matched. */
  private async statusQuery(transactionId: string, callbackUrl: string, subject: Record<string, string>): Promise<void> {
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
    await this.recordQuery(transactionId, queryId);
  }

  async decide(request: DecideRequest): Promise<SettlementDecision> {
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
      await this.statusQuery(request.idempotencyKey, request.callbackUrl, { OriginalConversationID: request.idempotencyKey });
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
    if (code === '0') return { outcome: 'successful' };
    // Only the result codes Daraja documents as final decide; anything else is asked again.
    return code in STK_REASONS ? { outcome: 'failed', reason: stkFailureReason(code) } : { outcome: 'pending' };
  }

  /**
   * An STK callback (`Body.stkCallback`), a B2C result or a Transaction Status result (`Result`),
   * or anything else: kept and read, never believed by itself.
   */
  parseNotification(notification: InboundNotification): ParsedNotification {
    const json = lenientJson(notification.body);
    const parsed: ParsedNotification = {
      dedupeKey: bodyDigest(notification.body),
      providerReference: null,
      claimed: null,
    };
    const stk = (json as { Body?: { stkCallback?: unknown } } | undefined)?.Body?.stkCallback;
    if (stk) {
      parsed.providerReference = field(stk, 'CheckoutRequestID');
      parsed.claimed = field(stk, 'ResultCode');
      return parsed;
    }
    const result = (json as { Result?: unknown } | undefined)?.Result;
    if (!result) return parsed;
    const code = field(result, 'ResultCode');
    const conversation = field(result, 'ConversationID');
    const params = items((result as { ResultParameters?: { ResultParameter?: unknown } }).ResultParameters?.ResultParameter);
    parsed.claimed = code;
    parsed.providerReference = conversation;
    // Read as a Transaction Status answer too: it counts as one only if `conversation` is the id of a query we sent
    // (a B2C's own result carries the payment's ConversationID, which is no query's).
    if (conversation) parsed.answersQuery = { queryId: conversation, decision: statusVerdict(code, params) };
    return parsed;
  }

  async checkCredentials(): Promise<string[]> {
    await this.tokens.get();
    const products = [this.config.stk && 'STK Push', this.config.b2c && 'B2C'].filter(Boolean).join(' and ');
    return [`oauth: token issued (${products} configured)`];
  }
}

/**
 * A Transaction Status answer's verdict. Only a query that succeeded (ResultCode 0) says anything about
 * the payment: `TransactionStatus` Completed, or a documented final failure. A non-zero code is about the
 * query itself (the initiator's rights, a queue timeout, an id not found yet): pending, asked again.
 */
function statusVerdict(code: string | null, params: Map<string, string>): SettlementDecision {
  if (code !== '0') return { outcome: 'pending' };
  const status = (params.get('TransactionStatus') ?? '').toLowerCase();
  if (status === 'completed') return { outcome: 'successful' };
  if (status === 'failed' || status === 'cancelled' || status === 'declined' || status === 'expired') return { outcome: 'failed', reason: 'provider_declined' };
  return { outcome: 'pending' };
}

/** How long a status question is taken to be out (unanswered) before another may be asked. */
const QUESTION_OUT_MS = 60_000;

/** Whether a notification answers a status query we sent. */
function isAnswer(n: StoredNotification, notifications: StoredNotification[]): boolean {
  const id = n.parsed.answersQuery?.queryId;
  return id !== undefined && notifications.some((m) => m.parsed.sentQuery === id);
}

/** Whether the newest query we sent is still unanswered and recent. */
function questionOut(notifications: StoredNotification[], now: Date): boolean {
  const sent = [...notifications].reverse().find((n) => n.parsed.sentQuery);
  if (!sent) return false;
  const answered = notifications.some((n) => n.parsed.answersQuery?.queryId === sent.parsed.sentQuery);
  return !answered && now.getTime() - new Date(sent.receivedAt).getTime() < QUESTION_OUT_MS;
}

/** The wall clock, as the database's `received_at` is (not the service's injected clock, which tests stop). */
function wallClock(): Date {
  return new Date();
}

/** The newest status answer that answers a query we sent (a forged one answers none). */
function validAnswer(notifications: StoredNotification[]): ParsedNotification['answersQuery'] | null {
  const sent = new Set(notifications.map((n) => n.parsed.sentQuery).filter(Boolean));
  for (const n of [...notifications].reverse()) {
    if (n.parsed.answersQuery && sent.has(n.parsed.answersQuery.queryId)) return n.parsed.answersQuery;
  }
  return null;
}

/** The provider references notifications named, newest first. */
function references(notifications: StoredNotification[]): string[] {
  return [...new Set([...notifications].reverse().flatMap((n) => (n.parsed.providerReference ? [n.parsed.providerReference] : [])))];
}
