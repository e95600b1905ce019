/**
 * A local fake of Safaricom's M-Pesa Daraja API: OAuth, M-Pesa Express (STK Push) and its Query,
 * B2C v3 and Transaction Status. In memory, on 127.0.0.1, port 0; it sends callbacks to
 * http://127.0.0.1 only and throws for any other host.
 *
 * SOURCES (read for this file)
 *  [P] Safaricom's Daraja 3.0 portal pages, read as the scrape in github JacksCodeVault/mpesa-daraja-mcp,
 *      daraja_docs_v3/docs/{Authorization,MpesaExpressSimulate,MpesaExpressQuery,BusinessToCustomer,TransactionStatus}.md
 *      (each is https://developer.safaricom.co.ke/apis/<name>).
 *  [I] GitHub issues quoting live responses: safaricom/LNMOnlineAndroidSample#13 (the Query's
 *      `500.001.1001 The transaction is being processed`, requestId = the ws_CO_ id), #8
 *      (`[MerchantValidate] - Wrong credentials`), #11 and martinmogusu/django-daraja#11/#12
 *      (`{requestId, errorCode: "404.001.03", errorMessage: "Invalid Access Token"}`, also after expiry),
 *      bdhobare/mpesa-android-sdk#4 (HTTP 404 for it), osenco/osen-wc-mpesa#65 (`Bad Request - Invalid PhoneNumber`)
 *      and #6 (a decimal Amount → invalid amount), scedar/m-pesa_going_live#1 (over the limit → `Bad Request - Invalid Amount`),
 *      dkiptugen/mpesa-php-full-integration#1 (a Transaction Status result with ResultCode 2001), SmoDav/mpesa#50.
 *  [S] SDK / emulator source: c12i/mpesa-rust (src/auth.rs reads expires_in from a string; src/services/b2c.rs,
 *      transaction_status.rs, express_request.rs), silaselisha/go-daraja pkg/auth/auth_test.go (run against the live
 *      sandbox: `400.008.01 Invalid Authentication passed`, `400.008.02 Invalid grant type passed`, "Basic   x" with
 *      extra spaces accepted), knnedy/daraja-local (a Go emulator), ronnyabuto/daraja-error-codes errors.json.
 *
 * WHERE THEY DISAGREE, AND WHAT THIS FAKE DOES
 *  - expires_in: [P] shows the number 3599; live answers quoted in [I]/[S] (and mpesa-rust's parser) show the string
 *    "3599". → the string.
 *  - Invalid/expired token: [P] M-Pesa Express lists `404.001.03 Invalid Access Token` with HTTP 404; [P] Transaction
 *    Status lists `400.003.01 Invalid Access Token`; live answers in [I] are 404.001.03. → HTTP 404, 404.001.03, on
 *    every API. A missing/non-Bearer Authorization header → HTTP 404 `404.001.04 Invalid Authentication Header` ([P] TS).
 *    NOTE: HTTP 404, not 401 — that is what the documentation says.
 *  - Token reuse: [P] Authorization FAQ: "each request invalidates the previous token". → a new token revokes the older
 *    ones (option `invalidatePreviousTokens: false` turns that off). Expired after tokenTtlS (default 3599) seconds.
 *  - OAuth errors: [P] documents 400.008.01 (authorization type not Basic) and 400.008.02 (grant type); the live
 *    errorMessage texts are from [S]. Wrong key/secret is not documented → HTTP 400 `400.008.01 Invalid Authentication
 *    passed`, as daraja-local and others report.
 *  - B2C field: [P] v3 spells it `Occassion`; mpesa-rust (v1) sends `Occasion`. It is optional, so both are accepted.
 *  - Transaction Status sample request writes "Command ID"/"Transaction ID" (with spaces); its parameter table says
 *    CommandID/TransactionID. → the table's names only.
 *  - STK limits: [P] AccountReference ≤ 12 chars (required), TransactionDesc ≤ 13 chars (the only optional field);
 *    ronnyabuto/daraja-local speak of a 182-char prompt limit (1025) instead. → [P]'s 12/13, rejected as 400.002.02.
 *  - STK Query unknown CheckoutRequestID: undocumented; third parties report either 400 `400.002.02 Bad Request -
 *    Invalid CheckoutRequestID` or 500.001.1001 "does not exist". → the 400.
 *  - STK Query ResponseDescription: [P] "The service request has been accepted successfully" (used).
 *  - B2C repeated OriginatorConversationID: DOCUMENTED in [P] B2C: `{requestId, errorCode: "500.002.1001",
 *    errorMessage: "Duplicate OriginatorConversationID."}` → that, with HTTP 500 (the code's prefix), nothing paid twice.
 *  - B2C ReferenceItem Value: [P] shows Safaricom's internal QueueTimeoutURL, not the caller's → that constant (never
 *    requested).
 *  - Transaction Status result sample lists "DebitPartyName" twice (the second is the customer) → the second is named
 *    CreditPartyName.
 *
 * CHOSEN WHERE THE DOCS ARE SILENT (each marked "chosen" below)
 *  - Timestamp freshness: Daraja documents only the format (YYYYMMDDHHmmss) and that Password is built from the very
 *    Timestamp sent. The fake rejects (400.002.02 Invalid Timestamp) a malformed one, and one that is more than 1 h
 *    from now both when read as UTC and when read as Nairobi time (EAT, UTC+3) — so EAT stamps 2–4 h old also pass.
 *  - A request whose Content-Type is not JSON, or whose body is not a JSON object, is read as `{}`: [P]'s FAQ says a
 *    wrong Content-Type gives "Bad Request - Invalid BusinessShortCode" (STK) / "Invalid InitiatorName" (B2C), which
 *    is what the first field check then answers.
 *  - CallBackURL/ResultURL must be http://127.0.0.1:<port>/… Daraja wants a publicly reachable URL ([P] FAQ) and its
 *    older text says "a valid secure URL" (https); this fake sends nowhere but 127.0.0.1 and has no TLS, so http is
 *    allowed for 127.0.0.1 only. Any other URL → 400.002.02 "Bad Request - Invalid CallBackURL"/"Invalid ResultURL",
 *    listed in `refusedUrls`; and the one function that sends (`LoopbackCallbacks.send`, fake-http.ts) throws for any
 *    other host. QueueTimeOutURL need only be an http(s) URL: the fake never calls it.
 *  - Amount: whole numbers only ([P] old portal text "Only whole numbers are supported", [I] osen#6): a JSON integer
 *    or a digit string; "10.00", 10.5, 0 → 400.002.02 Invalid Amount. STK over KES 250,000 ([P] FAQ) → the same 400
 *    ([I] scedar#1). B2C below KES 10 ([P] FAQ) → accepted, result 2; over 250,000 → result 3 ([P] result codes).
 *  - Wrong B2C/Transaction Status InitiatorName or SecurityCredential → accepted, result 2001 ([P], [I]); B2C PartyA
 *    not the B2C shortcode → result 2028; STK PayBill with PartyB ≠ BusinessShortCode → result 2028 ([P]).
 *  - A second STK push to a phone with one pending → 500 `500.001.1001 Unable to lock subscriber, a transaction is
 *    already in process for the current subscriber` ([P] lists it; its HTTP status is blank there).
 *  - Transaction Status takes a TransactionID (the M-Pesa receipt) or an OriginalConversationID (the B2C's
 *    OriginatorConversationID), or both ([P] TS overview, B2C FAQ 23); neither → 400.002.02 Invalid TransactionID.
 *  - Transaction Status of a B2C: ResultCode 0 and TransactionStatus "Completed" (documented), "Failed" (chosen) or
 *    "Pending" (chosen, no ReceiptNo) ; of an unknown id → ResultCode "R000002" "The transaction cannot be found."
 *    (chosen, NOT a documented Daraja code); PartyA not the transaction's shortcode → "SFC_IC0003" (documented text).
 *    It also finds STK receipts (Completed).
 *  - A failed B2C result carries a TransactionID ([P]'s failure sample does); `B2cRequest.transactionId` holds it.
 *  - 5xx faults: '500' and 'accept-then-500' answer `500.003.1001 Internal Server Error` ([P]); '503' and `down`
 *    answer a plain-text 503 (a gateway error; shape chosen). Unknown path → 404 `404.001.01 Resource not found`,
 *    wrong method → 405 `405.001 Method Not Allowed` ([P]). B2C v1 is not served (v3 only).
 *  - Callbacks are POSTed once, unsigned, JSON, never retried; any HTTP answer counts as delivered.
 *
 * OUTCOMES (after decisionDelayMs, default 30 ms). STK by PhoneNumber's last four digits: 0001 → 1, 0032 → 1032,
 * 0037 → 1037, 2001 → 2001, 0009 → pending until decideStk, else 0 with a receipt. B2C by PartyB's: 0001 → 1,
 * 0011 → 11, 0021 → 21, 2001 → 2001, 2040 → 2040, 8006 → 8006, 0009 → pending until decideB2c, else 0. ResultDesc
 * texts are [P]'s result-code tables (1032/1037 without the final period, as in [P]'s callback sample and [I]).
 *
 * EXTRAS beyond the required API: `expireTokens()`, `deliveries`, `statusQueries`, `refusedUrls`, `internalErrors`,
 * the option `invalidatePreviousTokens`, the credential fields (consumerKey, passkey, …) and `assertLoopbackUrl`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type http from 'node:http';
import { assertLoopbackUrl as assertLoopbackUrlOf, closeFake, FakeTimers, FaultRules, LoopbackCallbacks, serveFakeRequest, startFakeServer } from './fake-http';
import type { CallbackDelivery, FakeFault, FakeIntake, RecordedRequest } from './fake-http';

export type MpesaRecordedRequest = RecordedRequest;

export interface StkRequest {
  checkoutRequestId: string;
  merchantRequestId: string;
  body: any;
  /** null = pending */
  resultCode: number | null;
  resultDesc: string | null;
  receipt: string | null;
  createdAt: Date;
}

export interface B2cRequest {
  conversationId: string;
  originatorConversationId: string;
  body: any;
  resultCode: number | null;
  resultDesc: string | null;
  transactionId: string | null;
  createdAt: Date;
}

export type MpesaFault = FakeFault;

/** One callback POST made by the fake (STK callback, B2C result, Transaction Status result); url, body, status, error, at: see CallbackDelivery. */
export interface MpesaCallbackDelivery extends CallbackDelivery {
  kind: 'stk' | 'b2c' | 'status';
  /** CheckoutRequestID, or the ConversationID of the B2C / Transaction Status request. */
  id: string;
}

/** A Transaction Status request the fake accepted (by its ConversationID). */
export interface MpesaStatusQuery {
  conversationId: string;
  originatorConversationId: string;
  body: any;
  result: any;
  createdAt: Date;
}

export interface MpesaFakeOptions {
  /** Token lifetime in seconds; expires_in is its string. Default 3599. */
  tokenTtlS?: number;
  /** Delay before a request is decided by its phone's suffix. Default 30 ms. */
  decisionDelayMs?: number;
  /** Daraja's documented "each request invalidates the previous token". Default true. */
  invalidatePreviousTokens?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Documented texts
// ---------------------------------------------------------------------------------------------

const ACCEPTED_STK = 'Success. Request accepted for processing';
const ACCEPTED_ASYNC = 'Accept the service request successfully.';
const SUCCESS_DESC = 'The service request is processed successfully.';
/** [P] B2C sample: Safaricom's own queue-timeout URL, not the caller's. Data only, never requested. */
const DARAJA_QUEUE_TIMEOUT_URL = 'https://internalsandbox.safaricom.co.ke/mpesa/b2cresults/v1/submit';

/** [P] M-Pesa Express result codes (1032's text as in [P]'s callback sample; 1037 as commonly returned). */
const STK_RESULT_DESC: Record<number, string> = {
  0: SUCCESS_DESC,
  1: 'The balance is insufficient for the transaction.',
  2: 'Declined due to limit rule.',
  3: 'Declined due to limit rule: greater than the maximum transaction amount.',
  4: 'Declined due to limit rule: would exceed daily transfer limit.',
  8: 'Declined due to limit rule: would exceed the maximum balance.',
  17: 'Rule limited.',
  1019: 'Transaction has expired.',
  1025: 'An error occurred while sending a push request.',
  1032: 'Request cancelled by user',
  1037: 'DS timeout user cannot be reached',
  2001: 'The initiator information is invalid.',
  2028: 'The request is not permitted according to product assignment.',
  8006: 'The security credential is locked.',
};

/** [P] B2C result codes. */
const B2C_RESULT_DESC: Record<number, string> = {
  0: SUCCESS_DESC,
  1: 'The balance is insufficient for the transaction.',
  2: 'Declined due to limit rule',
  3: 'Declined due to limit rule: greater than the maximum transaction amount.',
  4: 'Declined due to limit rule: would exceed daily transfer limit',
  8: 'Declined due to limit rule: would exceed the maximum balance.',
  11: 'The DebitParty is in an invalid state.',
  21: 'The initiator is not allowed to initiate this request',
  2001: 'The initiator information is invalid.',
  2006: 'Declined due to account rule: The account status does not allow this transaction.',
  2028: 'The request is not permitted according to product assignment.',
  2040: "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the service.",
  8006: 'The security credential is locked',
};

/** Phone suffix → STK outcome (null = stays pending until decideStk). */
const STK_BY_SUFFIX: Record<string, number | null> = { '0001': 1, '0032': 1032, '0037': 1037, '2001': 2001, '0009': null };
/** PartyB suffix → B2C outcome (null = stays pending until decideB2c). */
const B2C_BY_SUFFIX: Record<string, number | null> = { '0001': 1, '0011': 11, '0021': 21, '2001': 2001, '2040': 2040, '8006': 8006, '0009': null };

const STK_MAX_AMOUNT = 250_000;
const B2C_MIN_AMOUNT = 10;
const B2C_MAX_AMOUNT = 250_000;
const MSISDN = /^254[17]\d{8}$/;
const HOUR_MS = 3_600_000;
const EAT_OFFSET_MS = 3 * HOUR_MS;

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: unknown;
}

class DarajaReject extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly errorMessage: string,
    readonly requestId?: string,
  ) {
    super(`${status} ${errorCode} ${errorMessage}`);
  }
}

const bad = (field: string) => new DarajaReject(400, '400.002.02', `Bad Request - Invalid ${field}`);

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const UPPER_DIGITS = `${UPPER}0123456789`;
const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const digits = (length: number) => pick('0123456789', length);

/** Daraja's requestId shape, e.g. "1c5b-4ba8-815c-ac45c57a3db01495926". */
const requestId = () => `${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}${digits(7)}`;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Nairobi wall-clock parts (EAT, UTC+3, no DST). */
function eat(at: Date) {
  const d = new Date(at.getTime() + EAT_OFFSET_MS);
  return {
    Y: d.getUTCFullYear(),
    M: pad(d.getUTCMonth() + 1),
    D: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    m: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}
/** YYYYMMDDHHmmss, Nairobi time. */
function ts14(at: Date): string {
  const t = eat(at);
  return `${t.Y}${t.M}${t.D}${t.h}${t.m}${t.s}`;
}
/** DD.MM.YYYY HH:mm:ss, Nairobi time ([P] B2C TransactionCompletedDateTime). */
function dotted(at: Date): string {
  const t = eat(at);
  return `${t.D}.${t.M}.${t.Y} ${t.h}:${t.m}:${t.s}`;
}

function header(headers: http.IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** A numeric field Daraja takes as a JSON number or a digit string. */
function numericText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  return null;
}

/** A whole, positive amount (a JSON integer or a digit string); null if not. */
function wholeAmount(value: unknown): number | null {
  const text = numericText(value);
  if (text === null) return null;
  const n = Number(text);
  return n >= 1 && Number.isSafeInteger(n) ? n : null;
}

function text(value: unknown, min: number, max: number): string | null {
  return typeof value === 'string' && value.length >= min && value.length <= max ? value : null;
}

/** YYYYMMDDHHmmss as a UTC instant (its wall clock read as UTC); null if malformed. */
function parseTimestamp(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{14}$/.test(value)) return null;
  const [Y, M, D, h, m, s] = [value.slice(0, 4), value.slice(4, 6), value.slice(6, 8), value.slice(8, 10), value.slice(10, 12), value.slice(12, 14)].map(
    Number,
  );
  const t = Date.UTC(Y, M - 1, D, h, m, s);
  const back = new Date(t);
  if (back.getUTCFullYear() !== Y || back.getUTCMonth() !== M - 1 || back.getUTCDate() !== D || back.getUTCHours() !== h || back.getUTCMinutes() !== m)
    return null;
  if (s > 59) return null;
  return t;
}

/** Chosen: within 1 h of now, written either in UTC or in Nairobi time. */
function freshTimestamp(value: unknown): boolean {
  const t = parseTimestamp(value);
  if (t === null) return false;
  const now = Date.now();
  return Math.abs(t - now) <= HOUR_MS || Math.abs(t - (now + EAT_OFFSET_MS)) <= HOUR_MS;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The one guard on everything the fake sends: http://127.0.0.1 only. Throws otherwise. */
export function assertLoopbackUrl(raw: string): URL {
  return assertLoopbackUrlOf(raw, 'MpesaFake');
}

function isLoopbackUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  try {
    assertLoopbackUrl(raw);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The fake
// ---------------------------------------------------------------------------------------------

interface StkMeta {
  shortcode: string;
  phone: string;
  amount: number;
  callbackUrl: string;
  forcedResult: number | null | undefined;
  callbackBody: string | null;
  decidedAt: Date | null;
}

interface B2cMeta {
  partyA: string;
  partyB: string;
  amount: number;
  commandId: string;
  resultUrl: string;
  forcedResult: number | undefined;
  resultBody: string | null;
  decidedAt: Date | null;
}

export class MpesaFake {
  readonly url: string;
  readonly requests: MpesaRecordedRequest[] = [];
  /** By CheckoutRequestID. */
  readonly stk = new Map<string, StkRequest>();
  /** By ConversationID. */
  readonly b2c = new Map<string, B2cRequest>();
  /** Transaction Status requests, by their ConversationID. */
  readonly statusQueries = new Map<string, MpesaStatusQuery>();
  /** Every callback POST the fake made, in order. */
  readonly deliveries: MpesaCallbackDelivery[] = [];
  /** Callback URLs the fake refused (not http://127.0.0.1). */
  readonly refusedUrls: string[] = [];
  /** Errors thrown inside the fake's own handlers (a bug in the fake; should stay empty). */
  readonly internalErrors: Error[] = [];
  tokensIssued = 0;
  /** Every request answers 503. */
  down = false;
  /** Decided requests send no callback (sendStkCallback / sendB2cResult still can). */
  dropCallbacks = false;

  readonly consumerKey = hex(16);
  readonly consumerSecret = hex(8);
  readonly shortcode = '174379';
  readonly passkey = hex(32);
  readonly b2cShortcode = '600997';
  readonly b2cInitiatorName = 'testapi';
  readonly b2cSecurityCredential = randomBytes(256).toString('base64');

  private readonly tokenTtlMs: number;
  private readonly tokenTtlS: number;
  private readonly decisionDelayMs: number;
  private readonly invalidatePreviousTokens: boolean;
  private readonly tokens = new Map<string, number>();
  /** A string path matches a request path that starts with it (see failNext). */
  private readonly faults = new FaultRules('prefix');
  private readonly stkMeta = new Map<string, StkMeta>();
  private readonly b2cMeta = new Map<string, B2cMeta>();
  private readonly b2cByOriginator = new Map<string, string>();
  private readonly receipts = new Set<string>();
  private readonly timers = new FakeTimers(this.internalErrors);
  /** Callbacks are POSTed, JSON (see the header). */
  private readonly outbox = new LoopbackCallbacks<MpesaCallbackDelivery>({
    owner: 'MpesaFake',
    method: 'POST',
    contentType: 'application/json',
    deliveries: this.deliveries,
    idOf: (d) => d.id,
  });
  private readonly intake: FakeIntake<Answer> = {
    requests: this.requests,
    internalErrors: this.internalErrors,
    faults: this.faults,
    isDown: () => this.down,
    route: (method, path, headers, body) => this.route(method, path, headers, body),
    send: (res, answer) => this.send(res, answer),
    internalError: () => ({ status: 500, body: this.internalError() }),
    // Chosen (see the header): '503' and `down` answer a plain-text 503, a gateway error.
    unavailable: (res) => void res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'),
  };
  private utilityFunds = 10_000_000;
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    url: string,
    options: MpesaFakeOptions,
  ) {
    this.url = url;
    this.tokenTtlS = options.tokenTtlS ?? 3599;
    this.tokenTtlMs = this.tokenTtlS * 1000;
    this.decisionDelayMs = options.decisionDelayMs ?? 30;
    this.invalidatePreviousTokens = options.invalidatePreviousTokens ?? true;
  }

  static async start(options: MpesaFakeOptions = {}): Promise<MpesaFake> {
    return startFakeServer(
      (server, url) => new MpesaFake(server, url, options),
      (fake, req, res) => serveFakeRequest(req, res, fake.intake),
    );
  }

  /** Environment pointing a gateway at this fake. */
  env(): Record<string, string> {
    return {
      MPESA_BASE_URL: this.url,
      MPESA_CONSUMER_KEY: this.consumerKey,
      MPESA_CONSUMER_SECRET: this.consumerSecret,
      MPESA_SHORTCODE: this.shortcode,
      MPESA_PASSKEY: this.passkey,
      MPESA_B2C_SHORTCODE: this.b2cShortcode,
      MPESA_B2C_INITIATOR_NAME: this.b2cInitiatorName,
      MPESA_B2C_SECURITY_CREDENTIAL: this.b2cSecurityCredential,
    };
  }

  /**
   * The next `count` (default 1) requests whose path matches get `fault`. A string matches a path (with its query)
   * that starts with it; a RegExp is tested against it. Rules apply in the order given.
   */
  failNext(fault: MpesaFault, options: { count?: number; path?: string | RegExp } = {}): void {
    this.faults.add(fault, options);
  }

  /** Expires every token issued so far (the next call answers 404.001.03). */
  expireTokens(): void {
    this.tokens.clear();
  }

  async decideStk(checkoutRequestId: string, resultCode: number, resultDesc?: string): Promise<void> {
    const stk = this.stk.get(checkoutRequestId);
    if (!stk) throw new Error(`MpesaFake: no STK request ${checkoutRequestId}`);
    if (stk.resultCode !== null) throw new Error(`MpesaFake: STK request ${checkoutRequestId} is already decided (${stk.resultCode})`);
    await this.settleStk(checkoutRequestId, resultCode, resultDesc);
  }

  async decideB2c(conversationId: string, resultCode: number, resultDesc?: string): Promise<void> {
    const b2c = this.b2c.get(conversationId);
    if (!b2c) throw new Error(`MpesaFake: no B2C request ${conversationId}`);
    if (b2c.resultCode !== null) throw new Error(`MpesaFake: B2C request ${conversationId} is already decided (${b2c.resultCode})`);
    await this.settleB2c(conversationId, resultCode, resultDesc);
  }

  /** Re-sends a decided STK request's callback, byte for byte. Resolves with the receiver's status. */
  async sendStkCallback(checkoutRequestId: string): Promise<number> {
    const meta = this.stkMeta.get(checkoutRequestId);
    if (!meta?.callbackBody) throw new Error(`MpesaFake: STK request ${checkoutRequestId} is unknown or not decided`);
    return this.outbox.sendOrThrow(this.delivery('stk', checkoutRequestId, meta.callbackUrl, meta.callbackBody));
  }

  /** Re-sends a decided B2C request's result, byte for byte. Resolves with the receiver's status. */
  async sendB2cResult(conversationId: string): Promise<number> {
    const meta = this.b2cMeta.get(conversationId);
    if (!meta?.resultBody) throw new Error(`MpesaFake: B2C request ${conversationId} is unknown or not decided`);
    return this.outbox.sendOrThrow(this.delivery('b2c', conversationId, meta.resultUrl, meta.resultBody));
  }

  /** Resolves once a callback for `id` (CheckoutRequestID or ConversationID) got an HTTP answer; rejects after timeoutMs. */
  callbackDelivered(id: string, timeoutMs = 5000): Promise<void> {
    return this.outbox.delivered(id, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await closeFake({ timers: this.timers, outbox: this.outbox, server: this.server });
  }

  // -------------------------------------------------------------------------------------------
  // HTTP intake
  // -------------------------------------------------------------------------------------------

  private send(res: http.ServerResponse, answer: Answer): void {
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  }

  private internalError() {
    return { requestId: requestId(), errorCode: '500.003.1001', errorMessage: 'Internal Server Error' };
  }

  private route(method: string, rawPath: string, headers: http.IncomingHttpHeaders, rawBody: string): Answer {
    const url = new URL(rawPath, 'http://127.0.0.1');
    const routes: Record<string, { method: string; handle: (body: any) => Answer }> = {
      '/oauth/v1/generate': { method: 'GET', handle: () => this.oauth(headers, url) },
      '/mpesa/stkpush/v1/processrequest': { method: 'POST', handle: (b) => this.stkPush(b) },
      '/mpesa/stkpushquery/v1/query': { method: 'POST', handle: (b) => this.stkQuery(b) },
      '/mpesa/b2c/v3/paymentrequest': { method: 'POST', handle: (b) => this.b2cPayment(b) },
      '/mpesa/transactionstatus/v1/query': { method: 'POST', handle: (b) => this.transactionStatus(b) },
    };
    const route = routes[url.pathname];
    try {
      if (!route) throw new DarajaReject(404, '404.001.01', 'Resource not found');
      if (method !== route.method) throw new DarajaReject(405, '405.001', `${method} Method Not Allowed`);
      if (route.method === 'POST') this.checkBearer(headers);
      return route.handle(this.jsonBody(headers, rawBody));
    } catch (error) {
      if (!(error instanceof DarajaReject)) throw error;
      return { status: error.status, body: { requestId: error.requestId ?? requestId(), errorCode: error.errorCode, errorMessage: error.errorMessage } };
    }
  }

  /** Chosen (per [P]'s FAQ): a non-JSON Content-Type or body reads as {}, so the first field check answers. */
  private jsonBody(headers: http.IncomingHttpHeaders, raw: string): Record<string, unknown> {
    if (!/^application\/json\b/i.test(header(headers, 'content-type'))) return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  // -------------------------------------------------------------------------------------------
  // OAuth
  // -------------------------------------------------------------------------------------------

  private oauth(headers: http.IncomingHttpHeaders, url: URL): Answer {
    const auth = /^Basic\s+(\S+)\s*$/i.exec(header(headers, 'authorization'));
    if (!auth) throw new DarajaReject(400, '400.008.01', 'Invalid Authentication passed');
    if (url.searchParams.get('grant_type') !== 'client_credentials') throw new DarajaReject(400, '400.008.02', 'Invalid grant type passed');
    const decoded = Buffer.from(auth[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0 || decoded.slice(0, colon) !== this.consumerKey || decoded.slice(colon + 1) !== this.consumerSecret) {
      throw new DarajaReject(400, '400.008.01', 'Invalid Authentication passed');
    }
    if (this.invalidatePreviousTokens) this.tokens.clear();
    const token = pick(`${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`, 28);
    this.tokens.set(token, Date.now() + this.tokenTtlMs);
    this.tokensIssued += 1;
    return { status: 200, body: { access_token: token, expires_in: String(this.tokenTtlS) } };
  }

  private checkBearer(headers: http.IncomingHttpHeaders): void {
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization'));
    if (!auth) throw new DarajaReject(404, '404.001.04', 'Invalid Authentication Header');
    const expiresAt = this.tokens.get(auth[1]);
    if (expiresAt === undefined || Date.now() >= expiresAt) {
      this.tokens.delete(auth[1]);
      throw new DarajaReject(404, '404.001.03', 'Invalid Access Token');
    }
  }

  // -------------------------------------------------------------------------------------------
  // M-Pesa Express
  // -------------------------------------------------------------------------------------------

  /** BusinessShortCode + Password + Timestamp, as STK Push and its Query check them. */
  private checkMerchant(b: Record<string, unknown>, shortcode: string): void {
    // Merchant validation comes after the field checks: 500.001.1001 ([P]).
    if (shortcode !== this.shortcode) throw new DarajaReject(500, '500.001.1001', 'Merchant does not exist');
    const expected = Buffer.from(`${shortcode}${this.passkey}${String(b.Timestamp)}`).toString('base64');
    if (b.Password !== expected) throw new DarajaReject(500, '500.001.1001', '[MerchantValidate] - Wrong credentials');
  }

  private stkPush(b: Record<string, unknown>): Answer {
    const shortcode = numericText(b.BusinessShortCode);
    if (shortcode === null || !/^\d{5,7}$/.test(shortcode)) throw bad('BusinessShortCode');
    if (!freshTimestamp(b.Timestamp)) throw bad('Timestamp');
    if (b.TransactionType !== 'CustomerPayBillOnline' && b.TransactionType !== 'CustomerBuyGoodsOnline') throw bad('TransactionType');
    const amount = wholeAmount(b.Amount);
    if (amount === null || amount > STK_MAX_AMOUNT) throw bad('Amount');
    const partyA = numericText(b.PartyA);
    if (partyA === null || !MSISDN.test(partyA)) throw bad('PartyA');
    const partyB = numericText(b.PartyB);
    if (partyB === null || !/^\d{5,7}$/.test(partyB)) throw bad('PartyB');
    const phone = numericText(b.PhoneNumber);
    if (phone === null || !MSISDN.test(phone)) throw bad('PhoneNumber');
    if (!isHttpUrl(b.CallBackURL)) throw bad('CallBackURL');
    if (!isLoopbackUrl(b.CallBackURL)) {
      this.refusedUrls.push(b.CallBackURL);
      throw bad('CallBackURL');
    }
    if (text(b.AccountReference, 1, 12) === null) throw bad('AccountReference');
    if (b.TransactionDesc !== undefined && b.TransactionDesc !== null && text(b.TransactionDesc, 0, 13) === null) throw bad('TransactionDesc');
    this.checkMerchant(b, shortcode);

    for (const [id, meta] of this.stkMeta) {
      if (meta.phone === phone && this.stk.get(id)?.resultCode === null) {
        throw new DarajaReject(500, '500.001.1001', 'Unable to lock subscriber, a transaction is already in process for the current subscriber');
      }
    }

    const now = new Date();
    const t = eat(now);
    let checkoutRequestId = `ws_CO_${t.D}${t.M}${t.Y}${t.h}${t.m}${t.s}${pad(now.getUTCMilliseconds(), 3)}${phone.slice(3)}`;
    while (this.stk.has(checkoutRequestId)) checkoutRequestId += digits(1);
    const merchantRequestId = `${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}${digits(7)}`;

    // Chosen: PayBill's PartyB must be the shortcode ([P] 2028: TransactionType/PartyB incorrect).
    const forcedResult = b.TransactionType === 'CustomerPayBillOnline' && partyB !== shortcode ? 2028 : undefined;
    this.stk.set(checkoutRequestId, { checkoutRequestId, merchantRequestId, body: b, resultCode: null, resultDesc: null, receipt: null, createdAt: now });
    this.stkMeta.set(checkoutRequestId, { shortcode, phone, amount, callbackUrl: b.CallBackURL, forcedResult, callbackBody: null, decidedAt: null });

    const outcome = forcedResult ?? (phone.slice(-4) in STK_BY_SUFFIX ? STK_BY_SUFFIX[phone.slice(-4)] : 0);
    if (outcome !== null) this.later(() => this.settleStk(checkoutRequestId, outcome));

    return {
      status: 200,
      body: {
        MerchantRequestID: merchantRequestId,
        CheckoutRequestID: checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: ACCEPTED_STK,
        CustomerMessage: ACCEPTED_STK,
      },
    };
  }

  private stkQuery(b: Record<string, unknown>): Answer {
    const shortcode = numericText(b.BusinessShortCode);
    if (shortcode === null || !/^\d{5,7}$/.test(shortcode)) throw bad('BusinessShortCode');
    if (!freshTimestamp(b.Timestamp)) throw bad('Timestamp');
    if (text(b.CheckoutRequestID, 1, 100) === null) throw bad('CheckoutRequestID');
    this.checkMerchant(b, shortcode);
    const id = b.CheckoutRequestID as string;
    const stk = this.stk.get(id);
    if (!stk || this.stkMeta.get(id)?.shortcode !== shortcode) throw bad('CheckoutRequestID');
    if (stk.resultCode === null) throw new DarajaReject(500, '500.001.1001', 'The transaction is being processed', id);
    return {
      status: 200,
      body: {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successfully',
        MerchantRequestID: stk.merchantRequestId,
        CheckoutRequestID: stk.checkoutRequestId,
        ResultCode: String(stk.resultCode),
        ResultDesc: stk.resultDesc,
      },
    };
  }

  private async settleStk(id: string, resultCode: number, resultDesc?: string): Promise<void> {
    const stk = this.stk.get(id);
    const meta = this.stkMeta.get(id);
    if (!stk || !meta || stk.resultCode !== null || this.closed) return;
    const now = new Date();
    stk.resultCode = resultCode;
    stk.resultDesc = resultDesc ?? STK_RESULT_DESC[resultCode] ?? 'The service request has failed.';
    meta.decidedAt = now;
    const callback: { MerchantRequestID: string; CheckoutRequestID: string; ResultCode: number; ResultDesc: string; CallbackMetadata?: unknown } = {
      MerchantRequestID: stk.merchantRequestId,
      CheckoutRequestID: stk.checkoutRequestId,
      ResultCode: resultCode,
      ResultDesc: stk.resultDesc,
    };
    if (resultCode === 0) {
      stk.receipt = this.newReceipt();
      callback.CallbackMetadata = {
        Item: [
          { Name: 'Amount', Value: meta.amount },
          { Name: 'MpesaReceiptNumber', Value: stk.receipt },
          { Name: 'TransactionDate', Value: Number(ts14(now)) },
          { Name: 'PhoneNumber', Value: Number(meta.phone) },
        ],
      };
    }
    meta.callbackBody = JSON.stringify({ Body: { stkCallback: callback } });
    if (!this.dropCallbacks) await this.outbox.send(this.delivery('stk', id, meta.callbackUrl, meta.callbackBody));
  }

  // -------------------------------------------------------------------------------------------
  // B2C v3
  // -------------------------------------------------------------------------------------------

  private b2cPayment(b: Record<string, unknown>): Answer {
    // [P] FAQ: a wrong Content-Type answers "Invalid InitiatorName", so InitiatorName is checked first.
    if (text(b.InitiatorName, 1, 100) === null) throw bad('InitiatorName');
    if (text(b.OriginatorConversationID, 1, 100) === null) throw bad('OriginatorConversationID');
    if (text(b.SecurityCredential, 1, 4096) === null) throw bad('SecurityCredential');
    if (b.CommandID !== 'BusinessPayment' && b.CommandID !== 'SalaryPayment' && b.CommandID !== 'PromotionPayment') throw bad('CommandID');
    const amount = wholeAmount(b.Amount);
    if (amount === null) throw bad('Amount');
    const partyA = numericText(b.PartyA);
    if (partyA === null || !/^\d{5,9}$/.test(partyA)) throw bad('PartyA');
    const partyB = numericText(b.PartyB);
    if (partyB === null || !MSISDN.test(partyB)) throw bad('PartyB');
    if (text(b.Remarks, 2, 100) === null) throw bad('Remarks');
    if (!isHttpUrl(b.QueueTimeOutURL)) throw bad('QueueTimeOutURL');
    if (!isHttpUrl(b.ResultURL)) throw bad('ResultURL');
    if (!isLoopbackUrl(b.ResultURL)) {
      this.refusedUrls.push(b.ResultURL);
      throw bad('ResultURL');
    }
    for (const field of ['Occassion', 'Occasion']) {
      if (b[field] !== undefined && b[field] !== null && text(b[field], 0, 100) === null) throw bad(field);
    }

    const originatorConversationId = b.OriginatorConversationID as string;
    if (this.b2cByOriginator.has(originatorConversationId)) {
      throw new DarajaReject(500, '500.002.1001', 'Duplicate OriginatorConversationID.');
    }

    const now = new Date();
    const t = eat(now);
    const conversationId = `AG_${t.Y}${t.M}${t.D}_${hex(10)}`;
    let forcedResult: number | undefined;
    if (b.InitiatorName !== this.b2cInitiatorName || b.SecurityCredential !== this.b2cSecurityCredential) forcedResult = 2001;
    else if (partyA !== this.b2cShortcode) forcedResult = 2028;
    else if (amount < B2C_MIN_AMOUNT) forcedResult = 2;
    else if (amount > B2C_MAX_AMOUNT) forcedResult = 3;

    this.b2cByOriginator.set(originatorConversationId, conversationId);
    this.b2c.set(conversationId, {
      conversationId,
      originatorConversationId,
      body: b,
      resultCode: null,
      resultDesc: null,
      transactionId: null,
      createdAt: now,
    });
    this.b2cMeta.set(conversationId, {
      partyA,
      partyB,
      amount,
      commandId: b.CommandID,
      resultUrl: b.ResultURL,
      forcedResult,
      resultBody: null,
      decidedAt: null,
    });

    const outcome = forcedResult ?? (partyB.slice(-4) in B2C_BY_SUFFIX ? B2C_BY_SUFFIX[partyB.slice(-4)] : 0);
    if (outcome !== null) this.later(() => this.settleB2c(conversationId, outcome));

    return {
      status: 200,
      body: { ConversationID: conversationId, OriginatorConversationID: originatorConversationId, ResponseCode: '0', ResponseDescription: ACCEPTED_ASYNC },
    };
  }

  private async settleB2c(conversationId: string, resultCode: number, resultDesc?: string): Promise<void> {
    const b2c = this.b2c.get(conversationId);
    const meta = this.b2cMeta.get(conversationId);
    if (!b2c || !meta || b2c.resultCode !== null || this.closed) return;
    const now = new Date();
    b2c.resultCode = resultCode;
    b2c.resultDesc = resultDesc ?? B2C_RESULT_DESC[resultCode] ?? 'The service request has failed.';
    b2c.transactionId = this.newReceipt();
    meta.decidedAt = now;
    const result: Record<string, unknown> = {
      ResultType: 0,
      ResultCode: resultCode,
      ResultDesc: b2c.resultDesc,
      OriginatorConversationID: b2c.originatorConversationId,
      ConversationID: b2c.conversationId,
      TransactionID: b2c.transactionId,
    };
    if (resultCode === 0) {
      this.utilityFunds -= meta.amount;
      result.ResultParameters = {
        ResultParameter: [
          { Key: 'TransactionAmount', Value: meta.amount },
          { Key: 'TransactionReceipt', Value: b2c.transactionId },
          { Key: 'ReceiverPartyPublicName', Value: `${meta.partyB} - Test Customer` },
          { Key: 'TransactionCompletedDateTime', Value: dotted(now) },
          { Key: 'B2CUtilityAccountAvailableFunds', Value: this.utilityFunds },
          { Key: 'B2CWorkingAccountAvailableFunds', Value: 1_000_000 },
          { Key: 'B2CRecipientIsRegisteredCustomer', Value: 'Y' },
          { Key: 'B2CChargesPaidAccountAvailableFunds', Value: 0 },
        ],
      };
    }
    result.ReferenceData = { ReferenceItem: { Key: 'QueueTimeoutURL', Value: DARAJA_QUEUE_TIMEOUT_URL } };
    meta.resultBody = JSON.stringify({ Result: result });
    if (!this.dropCallbacks) await this.outbox.send(this.delivery('b2c', conversationId, meta.resultUrl, meta.resultBody));
  }

  // -------------------------------------------------------------------------------------------
  // Transaction Status
  // -------------------------------------------------------------------------------------------

  private transactionStatus(b: Record<string, unknown>): Answer {
    if (text(b.Initiator, 1, 100) === null) throw bad('Initiator');
    if (text(b.SecurityCredential, 1, 4096) === null) throw bad('SecurityCredential');
    if (b.CommandID !== 'TransactionStatusQuery') throw bad('CommandID');
    const transactionId = b.TransactionID === undefined || b.TransactionID === '' ? null : text(b.TransactionID, 1, 100);
    const original = b.OriginalConversationID === undefined || b.OriginalConversationID === '' ? null : text(b.OriginalConversationID, 1, 100);
    if (b.TransactionID !== undefined && b.TransactionID !== '' && transactionId === null) throw bad('TransactionID');
    if (transactionId === null && original === null) throw bad('TransactionID');
    const partyA = numericText(b.PartyA);
    if (partyA === null || !/^\d{5,12}$/.test(partyA)) throw bad('PartyA');
    const identifierType = numericText(b.IdentifierType);
    if (identifierType !== '1' && identifierType !== '2' && identifierType !== '4') throw bad('IdentifierType');
    if (!isHttpUrl(b.ResultURL)) throw bad('ResultURL');
    if (!isLoopbackUrl(b.ResultURL)) {
      this.refusedUrls.push(b.ResultURL);
      throw bad('ResultURL');
    }
    if (!isHttpUrl(b.QueueTimeOutURL)) throw bad('QueueTimeOutURL');
    if (text(b.Remarks, 1, 100) === null) throw bad('Remarks');
    if (b.Occasion !== undefined && b.Occasion !== null && text(b.Occasion, 0, 100) === null) throw bad('Occasion');

    const now = new Date();
    const t = eat(now);
    const conversationId = `AG_${t.Y}${t.M}${t.D}_${hex(10)}`;
    const originatorConversationId = `${digits(4)}-${digits(8)}-1`;
    const query: MpesaStatusQuery = { conversationId, originatorConversationId, body: b, result: null, createdAt: now };
    this.statusQueries.set(conversationId, query);
    const resultUrl = b.ResultURL;
    this.later(async () => {
      if (this.closed) return;
      query.result = { Result: this.statusResult(b, transactionId, original, partyA, conversationId, originatorConversationId) };
      if (!this.dropCallbacks) await this.outbox.send(this.delivery('status', conversationId, resultUrl, JSON.stringify(query.result)));
    });
    return {
      status: 200,
      body: { OriginatorConversationID: originatorConversationId, ConversationID: conversationId, ResponseCode: '0', ResponseDescription: ACCEPTED_ASYNC },
    };
  }

  private statusResult(
    b: Record<string, unknown>,
    transactionId: string | null,
    original: string | null,
    partyA: string,
    conversationId: string,
    originatorConversationId: string,
  ): Record<string, unknown> {
    const reference = { ReferenceItem: b.Occasion === undefined ? { Key: 'Occasion' } : { Key: 'Occasion', Value: b.Occasion } };
    const head = { ConversationID: conversationId, OriginatorConversationID: originatorConversationId, ReferenceData: reference, ResultType: 0 };
    const placeholderId = `${pick(UPPER, 3)}0000000`;
    const fail = (code: number | string, desc: string) => ({ ...head, ResultCode: code, ResultDesc: desc, TransactionID: placeholderId });

    if (b.Initiator !== this.b2cInitiatorName || b.SecurityCredential !== this.b2cSecurityCredential)
      return fail(2001, 'The initiator information is invalid.');

    // A B2C, by its TransactionID (receipt) or its OriginatorConversationID.
    let b2c: B2cRequest | undefined;
    if (transactionId !== null) b2c = [...this.b2c.values()].find((x) => x.transactionId === transactionId);
    if (!b2c && original !== null) {
      const id = this.b2cByOriginator.get(original);
      b2c = id === undefined ? undefined : this.b2c.get(id);
    }
    if (b2c) {
      const meta = this.b2cMeta.get(b2c.conversationId) as B2cMeta;
      if (partyA !== meta.partyA) return fail('SFC_IC0003', 'The operator does not exist.');
      const status = b2c.resultCode === null ? 'Pending' : b2c.resultCode === 0 ? 'Completed' : 'Failed';
      const params: { Key: string; Value?: unknown }[] = [
        { Key: 'DebitPartyName', Value: `${meta.partyA} - Fake B2C Org` },
        { Key: 'CreditPartyName', Value: `${meta.partyB} - Test Customer` },
        { Key: 'OriginatorConversationID', Value: b2c.originatorConversationId },
        { Key: 'InitiatedTime', Value: ts14(b2c.createdAt) },
        { Key: 'DebitAccountType', Value: 'Utility Account' },
        { Key: 'DebitPartyCharges', Value: '' },
        { Key: 'TransactionReason' },
        {
          Key: 'ReasonType',
          Value: `${meta.commandId === 'SalaryPayment' ? 'Salary Payment' : meta.commandId === 'PromotionPayment' ? 'Promotion Payment' : 'Business Payment'} to Customer via API`,
        },
        { Key: 'TransactionStatus', Value: status },
        { Key: 'FinalisedTime', Value: meta.decidedAt ? ts14(meta.decidedAt) : '' },
        { Key: 'Amount', Value: String(meta.amount) },
        { Key: 'ConversationID', Value: b2c.conversationId },
      ];
      if (b2c.transactionId !== null) params.push({ Key: 'ReceiptNo', Value: b2c.transactionId });
      return {
        ...head,
        ResultCode: 0,
        ResultDesc: SUCCESS_DESC,
        ResultParameters: { ResultParameter: params },
        TransactionID: b2c.transactionId ?? placeholderId,
      };
    }

    // An STK payment, by its receipt.
    const stk = transactionId === null ? undefined : [...this.stk.values()].find((x) => x.receipt === transactionId);
    if (stk) {
      const meta = this.stkMeta.get(stk.checkoutRequestId) as StkMeta;
      if (partyA !== meta.shortcode) return fail('SFC_IC0003', 'The operator does not exist.');
      const params = [
        { Key: 'DebitPartyName', Value: `${meta.phone} - Test Customer` },
        { Key: 'CreditPartyName', Value: `${meta.shortcode} - Fake Merchant` },
        { Key: 'OriginatorConversationID', Value: stk.merchantRequestId },
        { Key: 'InitiatedTime', Value: ts14(stk.createdAt) },
        { Key: 'DebitAccountType', Value: 'MMF Account For Customer' },
        { Key: 'DebitPartyCharges', Value: '' },
        { Key: 'TransactionReason' },
        { Key: 'ReasonType', Value: 'Pay Bill Online' },
        { Key: 'TransactionStatus', Value: 'Completed' },
        { Key: 'FinalisedTime', Value: ts14(meta.decidedAt ?? stk.createdAt) },
        { Key: 'Amount', Value: String(meta.amount) },
        { Key: 'ConversationID', Value: stk.checkoutRequestId },
        { Key: 'ReceiptNo', Value: stk.receipt },
      ];
      return { ...head, ResultCode: 0, ResultDesc: SUCCESS_DESC, ResultParameters: { ResultParameter: params }, TransactionID: stk.receipt };
    }

    return fail('R000002', 'The transaction cannot be found.');
  }

  // -------------------------------------------------------------------------------------------
  // Callbacks
  // -------------------------------------------------------------------------------------------

  private later(fn: () => Promise<void>): void {
    this.timers.later(this.decisionDelayMs, fn);
  }

  private newReceipt(): string {
    let receipt: string;
    do {
      receipt = `${pick(UPPER, 3)}${pick(UPPER_DIGITS, 7)}`;
    } while (this.receipts.has(receipt));
    this.receipts.add(receipt);
    return receipt;
  }

  /** A callback POST (127.0.0.1 only: LoopbackCallbacks.send) of `body` to `url`, for the request `id`. */
  private delivery(kind: MpesaCallbackDelivery['kind'], id: string, url: string, body: string): MpesaCallbackDelivery {
    return { kind, id, url, body, status: null, error: null, at: new Date() };
  }
}
