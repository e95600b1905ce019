/**
 * A local fake of MTN's MoMo Open API, the Collection (request-to-pay) and Disbursement (transfer) products, v1_0:
 * the access token, the asynchronous POST, its GET status and the callback. In memory, on 127.0.0.1, port 0; it sends
 * callbacks to http://127.0.0.1 only and throws for any other host.
 *
 * SOURCES (read for this file)
 *  [D] MTN's own API pages (read as stored copies):
 *      - momodeveloper.mtn.com/docs/services/collection/operations/requesttopay-POST (and its momoapi.mtn.com twin),
 *        .../requesttopay-referenceId-GET, momoapi.mtn.co.rw/docs/services/disbursement (CreateAccessToken),
 *        .../disbursement/operations/Transfer, .../transfer-referenceId-GET: headers (Authorization, X-Callback-Url,
 *        X-Reference-Id "UUID version 4", X-Target-Environment, Ocp-Apim-Subscription-Key), the bodies, the token
 *        answer `{access_token, token_type, expires_in}` and its 401 `{"error": "string"}`, "a failed request to pay
 *        will be returned with this status [200] too", status PENDING until decided.
 *      - momodeveloper.mtn.com/api-documentation/callback: "responds with 202 Accepted", "Allow PUT & POST on your
 *        callback listener host", "Use http and not https on sandbox", "The Wallet Platform will only send the callback
 *        once. There is no retry".
 *      - Common errors: momoapi.mtn.com/content/html_widgets/yhwUz.html, momodevelopercommunity.mtn.com/errors-46/
 *        momo-api-common-errors-82, ericssondeveloperapi.portal.azure-api.net/api-documentation/common-error/ (409
 *        RESOURCE_ALREADY_EXIST, 401 invalid subscription key, 404 RESOURCE NOT FOUND, 400 for a wrong header value,
 *        a non-v4 X-Reference-Id, an apostrophe in the body or a note/message over 160 characters, 500
 *        NOT_ALLOWED_TARGET_ENVIRONMENT / INVALID_CALLBACK_URL_HOST / INVALID_CURRENCY, 503 SERVICE_UNAVAILABLE
 *        "Service temporary unavailable, try again later").
 *      - momodevelopercommunity.mtn.com/product-updates/reason-for-some-failed-api-responses-updated-192: a FAILED
 *        status body with `"reason": "NOT_ENOUGH_FUNDS"` (a string); PAYER_NOT_FOUND (collections) / PAYEE_NOT_FOUND
 *        (disbursements).
 *  [M] MTN's own repositories: github MTN-Group/MoMoAPIs_Java_sdk (README: the callback URL is where "MoMo API [will]
 *      push data as a PUT request"; models/TransactionStatus.java: `String reason`, the `Reason {code,message}` object
 *      commented out), MTN-Group/MoMoAPIs_Javascript_sdk (docs/collections/requestToPay*.md, docs/disbursements/
 *      transfer*.md: a live sandbox status answer; amount "5.0" posted comes back "5"), MoMoOpenAPI/MoMoOpenAPI_SandBox
 *      home.md (sandbox test numbers, currency EUR, 500 "...Currency not supported.", token failure "login_failed").
 *  [G] sparkplug/mtn-momo-api-documentation (a copy of the 2018 portal docs): docs/testing/README.md (target
 *      environment "sandbox", currency EUR, test numbers 46733123450-54), docs/api-description/README.md ("The PUT method
 *      is used by the Open API when sending callbacks ... only once ... no retry"; POST → 202, status PENDING),
 *      docs/common-error-codes/README.md.
 *  [S] SDKs: sparkplug/momoapi-node (src/auth.ts POST /{product}/token/ with Basic userId:apiKey and no body;
 *      src/collections.ts, src/disbursements.ts, src/errors.ts: error bodies `{code, message}`, src/common.ts
 *      FailureReason; test/mock.ts token_type "access_token"), mtvbrianking/laravel-mtn-momo (tests: 409 text
 *      "Duplicated reference id. Creation of resource failed."; a FAILED body with reason `{code, message}`),
 *      NdoleStudio/mtnmomo-go (collection.go: `Reason *string`; stubs token_type "access_token"),
 *      re-kast/android-mtn-momo-api-sdk (RequestToPayStatus.reason: ErrorResponse {code, message}), the Rust crate
 *      `mtnmomo` (live sandbox tests: 46733123450 → INTERNAL_PROCESSING_ERROR, ...51 → APPROVAL_REJECTED,
 *      ...52 → EXPIRED; request-to-pay callbacks carry reason as a string, transfer callbacks as `{code, message}`).
 *  [I] Issues quoting live answers: mtvbrianking/laravel-mtn-momo#46 (wrong API key → HTTP 500 `{"error":"login_failed"}`),
 *      #77 (401 `{"statusCode":401,"message":"Access denied due to invalid subscription key. Make sure to provide a
 *      valid key for an active subscription."}`), sparkplug/momoapi-node#76 (sandbox: use EUR).
 *
 * ENFORCED, AS DOCUMENTED
 *  - POST /{collection|disbursement}/token/ (the trailing slash, as every doc and SDK writes it): the product's
 *    Ocp-Apim-Subscription-Key and `Authorization: Basic base64(userId:apiKey)` → 200 `{access_token, token_type:
 *    "access_token", expires_in}` ([D], [S]). Keys, users and tokens are per product ("Collection, Disbursement and
 *    Remittance have different subscription keys" [D]). A token stays valid until it expires; a new one does not revoke
 *    the old ([G] "The same token can be used for transactions until it expires").
 *  - POST /collection/v1_0/requesttopay, /disbursement/v1_0/transfer: Bearer token of that product, X-Reference-Id a
 *    UUID v4 (400 otherwise), X-Target-Environment required (400 if missing) and equal to "sandbox" (500
 *    NOT_ALLOWED_TARGET_ENVIRONMENT otherwise), optional X-Callback-Url. Answer 202, empty body. A reused
 *    X-Reference-Id → 409 `{code: "RESOURCE_ALREADY_EXIST", message: "Duplicated reference id. Creation of resource
 *    failed."}` (code [D], text [S]).
 *  - Body: amount a string of a positive number, currency ISO 4217 (three capitals), payer|payee `{partyIdType:
 *    MSISDN|EMAIL|PARTY_CODE, partyId}` ([S]: MSISDN "validated according to ITU-T E.164", EMAIL an e-mail,
 *    PARTY_CODE a UUID); externalId, payerMessage, payeeNote optional strings (the pages read list no required fields;
 *    sparkplug types them optional); payerMessage/payeeNote at most 160 characters and without an apostrophe ([D]). → 400.
 *  - Sandbox currency: only EUR ([G] "The currency used in Sandbox is EUR", [M]). Another well-formed code → 500
 *    `{code: "INVALID_CURRENCY", message: "Currency not supported."}` ([D] table, [M] notebook text).
 *  - X-Callback-Url must be on the API user's callback host ([D] INVALID_CALLBACK_URL_HOST, 500). This fake's API users
 *    have the host 127.0.0.1; any other → 500 INVALID_CALLBACK_URL_HOST and nothing is ever sent there.
 *  - GET .../requesttopay/{referenceId}, .../transfer/{referenceId}: 200 `{amount, currency, financialTransactionId,
 *    externalId, payer|payee, payerMessage, payeeNote, status}` (+ reason when FAILED; no financialTransactionId while
 *    PENDING or FAILED, as in [D]'s FAILED sample). The amount comes back without trailing decimal zeros ([M]: "5.0" →
 *    "5"). Unknown (for that product) → 404 `{code: "RESOURCE_NOT_FOUND", ...}`.
 *  - Sandbox test numbers ([G], [M]): 46733123450 FAILED (INTERNAL_PROCESSING_ERROR, [S] Rust), 46733123451 FAILED
 *    (APPROVAL_REJECTED), 46733123452 FAILED (EXPIRED), 46733123453 "Ongoing: will answer pending first and if requested
 *    again after 30 seconds it will respond success" (option ongoingSuccessAfterMs, default 30000), 46733123454 stays
 *    PENDING; any other number succeeds. Same table for payees.
 *  - Callback: sent once, never retried ([D], [G]), unsigned, body = the GET body, method PUT ([G] "The PUT method is
 *    used by the Open API when sending callbacks", [M] Java SDK README); option callbackMethod.
 *
 * WHERE THE SOURCES DISAGREE, AND WHAT THIS FAKE DOES
 *  - reason: [D] community update, [M] Java SDK (String, object commented out) and mtnmomo-go give a string
 *    ("NOT_ENOUGH_FUNDS"); laravel-mtn-momo's mocks and re-kast (after the swagger's ErrorReason) give `{code,
 *    message}`; the Rust crate saw a string for request-to-pay and an object for transfer callbacks. → a string by
 *    default; option `reasonFormat: 'object'` answers `{code, message}` (GET and callback alike).
 *  - Wrong API user/key at /token/: [D] swagger: 401 `{"error": "..."}`; [I] #46 and [M] notebook: the live sandbox
 *    answers HTTP 500 `{"error":"login_failed"}`. → 401 `{"error":"login_failed"}` (documented status, observed text).
 *  - A body on /token/: [D] common errors list "Inputting a Body in an API that is not supported e.g. /Token API" as a
 *    400, yet MTN's own JS SDK posts `grant_type=client_credentials` and laravel-mtn-momo a JSON body. → any body is
 *    accepted and ignored.
 *  - Non-EUR currency: [D] lists it both under 400 ("Invalid currency – needs to match the target environment
 *    currency") and as 500 INVALID_CURRENCY; [M] notebook sees 500 "Currency not supported.". → 500; a currency that
 *    is not three capitals at all → 400.
 *  - Callback retries: one version of [D]'s callback page says 20 retries at 1 s then backoff; the other version, [G]
 *    and the use-case pages say once, no retry. → once.
 *  - Callback method: [G]/[M] say PUT; [D] says "Allow PUT & POST" (Deposit callbacks are POST). → PUT (configurable).
 *  - 46733123453: [G] "ongoing, then success after 30 s"; [M]'s newer table lists 56733123453 as "Success" (any other
 *    number succeeds anyway). → [G].
 *  - Special characters: [D] names the apostrophe; [M]'s notebook also warns of "&" in the message and note. → both
 *    are refused (400) in payerMessage/payeeNote.
 *
 * CHOSEN WHERE THE DOCS ARE SILENT (each marked "chosen" below too)
 *  - Error bodies: a missing/invalid subscription key answers Azure API Management's `{statusCode: 401, message}` ([I]
 *    #77, and APIM's standard "missing" text); an unknown path or method APIM's `{statusCode: 404, message: "Resource not
 *    found"}`. A missing/invalid/expired/other-product Bearer token → 401 `{"error":"invalid_token"}` with
 *    `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750, which [G] says the token follows; MTN's own text is
 *    not documented). 400 → `{code: "BAD_REQUEST", message: <what is wrong>}` ([D] gives no code for 400).
 *    404 message "Requested resource was not found." 500 fault → `{code: "INTERNAL_PROCESSING_ERROR", ...}`; 503 (fault
 *    or `down`) → `{code: "SERVICE_UNAVAILABLE", message: "Service temporary unavailable, try again later."}` ([D] text).
 *  - Check order: path, subscription key, Bearer, X-Target-Environment, X-Reference-Id, X-Callback-Url, body (400),
 *    currency (500), then the duplicate check (409). X-Reference-Ids are unique across both products (one map).
 *  - MSISDN: digits only, 4 to 15 of them (E.164 has at most 15; no "+"; [M]'s own example "0248888736" has a leading
 *    0, so that is allowed). The suffix rules below apply to MSISDNs only; EMAIL and PARTY_CODE parties succeed.
 *  - Extra outcomes by MSISDN suffix (this project's convention): 0001 NOT_ENOUGH_FUNDS, 0002 APPROVAL_REJECTED, 0003
 *    EXPIRED, 0004 PAYER_NOT_FOUND (PAYEE_NOT_FOUND for transfers), 0009 stays PENDING until decide().
 *  - financialTransactionId: 9-10 digits, as in [D]/[M] samples. access_token: a JWT-shaped, HMAC-signed string
 *    (the docs say "A JWT token").
 *  - An X-Callback-Url that is not an absolute http URL → 400 (the sandbox takes http only, [D]); https → 400.
 *  - A callback counts as delivered once the receiver answers with any HTTP status (MTN does not look at it); it times
 *    out after 10 s (one version of [D] says MTN waits 2 s).
 *  - GET /{product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo: the holder's name (mtn-momo-accounts.ts, with its
 *    sources); `accountHolders.add(msisdn, given, family)` seeds one.
 *  - GET /{product}/v1_0/account/balance ([D] collection/disbursement "GetAccountBalance": Bearer, X-Target-Environment,
 *    the subscription key; 200 `{availableBalance, currency}`, the amount a string): each product's account holds
 *    1 000 000 in the environment's currency unless `setBalance(product, amount)` sets another.
 *  - Faults ('500', '503', 'reset', 'timeout', accept-then-*) and `down` apply to any path, the token endpoint included;
 *    every request is recorded first, faulted or not.
 */
import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { MtnAccountHolders } from './mtn-momo-accounts';
import type http from 'node:http';
import { closeFake, FakeTimers, FaultRules, LoopbackCallbacks, serveFakeRequest, startFakeServer } from './fake-http';
import type { CallbackDelivery, FakeFault, FakeIntake, RecordedRequest } from './fake-http';

export type MomoProduct = 'collection' | 'disbursement';
type MomoStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

export type MomoRecordedRequest = RecordedRequest;

export interface MomoResource {
  product: MomoProduct;
  referenceId: string;
  /** The JSON body as posted. */
  body: any;
  status: MomoStatus;
  /** The failure code (e.g. NOT_ENOUGH_FUNDS) when FAILED, else null. */
  reason: string | null;
  financialTransactionId: string | null;
  callbackUrl: string | null;
  createdAt: Date;
}

export type MomoFault = FakeFault;

/** One callback request made by the fake (url, body, status, error, at: see CallbackDelivery). */
export interface MomoCallbackDelivery extends CallbackDelivery {
  referenceId: string;
  method: 'PUT' | 'POST';
}

export interface MtnMomoFakeOptions {
  /** Token lifetime in seconds (expires_in). Default 3600. */
  tokenTtlS?: number;
  /** Delay before a new resource is decided by its party. Default 30 ms. */
  decisionDelayMs?: number;
  /** The callback's HTTP method. Default PUT (see the header). */
  callbackMethod?: 'PUT' | 'POST';
  /** When the documented "ongoing" number 46733123453 turns SUCCESSFUL. Default 30 000 ms, as documented. */
  ongoingSuccessAfterMs?: number;
  /** `reason` of a FAILED resource: 'string' (default) or 'object' `{code, message}` (see the header). */
  reasonFormat?: 'string' | 'object';
  /**
   * The target environment this fake stands for: `sandbox` (default; currency EUR only, as MTN's sandbox) or a
   * country's production environment such as `mtnghana`, which takes `currency` (its country's) only.
   */
  targetEnvironment?: string;
  currency?: string;
}

export interface MomoCredentials {
  primaryKey: string;
  userId: string;
  apiKey: string;
}

// ---------------------------------------------------------------------------------------------
// Documented values
// ---------------------------------------------------------------------------------------------

const TARGET_ENVIRONMENT = 'sandbox';
/** [G] "The currency used in Sandbox is EUR". */
const SANDBOX_CURRENCY = 'EUR';
/** The API users' providerCallbackHost (chosen: loopback, so nothing leaves the machine). */
const CALLBACK_HOST = '127.0.0.1';
/** [D] "More than 160 characters in the note and message" → 400. */
const MAX_NOTE = 160;

const PRODUCT_SHAPE: Record<MomoProduct, { resource: 'requesttopay' | 'transfer'; party: 'payer' | 'payee' }> = {
  collection: { resource: 'requesttopay', party: 'payer' },
  disbursement: { resource: 'transfer', party: 'payee' },
};

const APIM_MISSING_KEY = 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
const APIM_INVALID_KEY = 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.';
const DUPLICATE = { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id. Creation of resource failed.' };
const NOT_FOUND = { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' };
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: 'Service temporary unavailable, try again later.' };
const INTERNAL = { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' };

/** Messages for `reasonFormat: 'object'`: [D]'s wording where it has one (…_NOT_FOUND, NOT_ENOUGH_FUNDS), else chosen. */
const REASON_MESSAGES: Record<string, string> = {
  INTERNAL_PROCESSING_ERROR: 'An internal error occurred while processing.',
  APPROVAL_REJECTED: 'The payer rejected the request.',
  EXPIRED: 'The request expired before it was approved.',
  NOT_ENOUGH_FUNDS: 'The payer does not have enough funds.',
  PAYER_NOT_FOUND: 'Payer does not exist',
  PAYEE_NOT_FOUND: 'Payee does not exist',
  COULD_NOT_PERFORM_TRANSACTION: 'The transaction could not be performed.',
};

type Outcome = { kind: 'decide'; status: 'SUCCESSFUL' | 'FAILED'; reason: string | null } | { kind: 'pending' } | { kind: 'ongoing' };

const SUCCESS: Outcome = { kind: 'decide', status: 'SUCCESSFUL', reason: null };
const failed = (reason: string): Outcome => ({ kind: 'decide', status: 'FAILED', reason });

/** [G] docs/testing: the predefined sandbox numbers (reasons as the live sandbox gives them, [S] Rust crate). */
const SANDBOX_NUMBERS: Record<string, Outcome> = {
  '46733123450': failed('INTERNAL_PROCESSING_ERROR'),
  '46733123451': failed('APPROVAL_REJECTED'),
  '46733123452': failed('EXPIRED'),
  '46733123453': { kind: 'ongoing' },
  '46733123454': { kind: 'pending' },
};

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MSISDN = /^\d{4,15}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const AMOUNT = /^\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  /** undefined = empty body. */
  body?: unknown;
  headers?: Record<string, string>;
}

class Reject extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${JSON.stringify(body)}`);
  }
}

const badRequest = (message: string) => new Reject(400, { code: 'BAD_REQUEST', message });
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

function header(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** [M]: "5.0" posted comes back "5"; trailing decimal zeros go. */
function normalizeAmount(amount: string): string {
  if (!amount.includes('.')) return amount;
  return amount.replace(/0+$/, '').replace(/\.$/, '');
}

function optionalText(body: Record<string, unknown>, field: string, checkNote: boolean): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (!checkNote) return;
  if (value.length > MAX_NOTE) throw badRequest(`${field} is longer than ${MAX_NOTE} characters`);
  if (/['&]/.test(value)) throw badRequest(`${field} contains an unsupported character`);
}

// ---------------------------------------------------------------------------------------------
// The fake
// ---------------------------------------------------------------------------------------------

interface TokenRecord {
  product: MomoProduct;
  expiresAt: number;
}

export class MtnMomoFake {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Every request received, in order (body as raw text). */
  readonly requests: MomoRecordedRequest[] = [];
  /** By X-Reference-Id. */
  readonly resources = new Map<string, MomoResource>();
  /** Every callback request the fake made, in order. */
  readonly callbacks: MomoCallbackDelivery[] = [];
  /** Reference ids whose callback was not sent because dropCallbacks was on when they were decided. */
  readonly droppedCallbacks: string[] = [];
  /** Errors thrown inside the fake's own handlers (a bug in the fake; should stay empty). */
  readonly internalErrors: Error[] = [];
  tokensIssued: Record<MomoProduct, number> = { collection: 0, disbursement: 0 };
  /** While true every request answers 503. */
  down = false;
  /** While true decided resources send no callback (MTN sends it once and never retries; this simulates it lost). */
  dropCallbacks = false;

  /** Each product's subscription key and API user (userId, apiKey). */
  readonly credentials: Record<MomoProduct, MomoCredentials> = {
    collection: { primaryKey: hex(16), userId: randomUUID(), apiKey: hex(16) },
    disbursement: { primaryKey: hex(16), userId: randomUUID(), apiKey: hex(16) },
  };

  private readonly tokenTtlS: number;
  private readonly targetEnvironment: string;
  /** Wallet holders basicuserinfo names (mtn-momo-accounts.ts). */
  readonly accountHolders = new MtnAccountHolders();
  private readonly currency: string;
  private readonly balances = new Map<MomoProduct, string>();
  private readonly decisionDelayMs: number;
  private readonly callbackMethod: 'PUT' | 'POST';
  private readonly ongoingSuccessAfterMs: number;
  private readonly reasonFormat: 'string' | 'object';
  private readonly jwtSecret = randomBytes(32);
  private readonly tokens = new Map<string, TokenRecord>();
  /** A string path matches a request path that contains it (see failNext). */
  private readonly faults = new FaultRules('contains');
  /** Decision timers, by reference id. */
  private readonly decisionTimers = new FakeTimers(this.internalErrors);
  private readonly outbox: LoopbackCallbacks<MomoCallbackDelivery>;
  private readonly intake: FakeIntake<Answer> = {
    requests: this.requests,
    internalErrors: this.internalErrors,
    faults: this.faults,
    isDown: () => this.down,
    route: (method, path, headers, body) => this.route(method, path, headers, body),
    send: (res, answer) => this.send(res, answer),
    internalError: () => ({ status: 500, body: INTERNAL }),
    unavailable: (res) => this.send(res, { status: 503, body: UNAVAILABLE }),
  };
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    url: string,
    options: MtnMomoFakeOptions,
  ) {
    this.url = url;
    this.tokenTtlS = options.tokenTtlS ?? 3600;
    this.targetEnvironment = options.targetEnvironment ?? TARGET_ENVIRONMENT;
    this.currency = options.currency ?? SANDBOX_CURRENCY;
    this.decisionDelayMs = options.decisionDelayMs ?? 30;
    this.callbackMethod = options.callbackMethod ?? 'PUT';
    this.ongoingSuccessAfterMs = options.ongoingSuccessAfterMs ?? 30_000;
    this.reasonFormat = options.reasonFormat ?? 'string';
    this.outbox = new LoopbackCallbacks({
      owner: 'MtnMomoFake',
      method: this.callbackMethod,
      // As on the fake's own JSON answers.
      contentType: 'application/json;charset=utf-8',
      deliveries: this.callbacks,
      idOf: (d) => d.referenceId,
    });
  }

  static async start(options: MtnMomoFakeOptions = {}): Promise<MtnMomoFake> {
    return startFakeServer(
      (server, url) => new MtnMomoFake(server, url, options),
      (fake, req, res) => serveFakeRequest(req, res, fake.intake),
    );
  }

  /** The MTN_MOMO_* variables that point a gateway at this fake. */
  env(): Record<string, string> {
    const c = this.credentials.collection;
    const d = this.credentials.disbursement;
    return {
      MTN_MOMO_BASE_URL: this.url,
      MTN_MOMO_TARGET_ENVIRONMENT: this.targetEnvironment,
      MTN_MOMO_COLLECTION_PRIMARY_KEY: c.primaryKey,
      MTN_MOMO_COLLECTION_USER_ID: c.userId,
      MTN_MOMO_COLLECTION_API_KEY: c.apiKey,
      MTN_MOMO_DISBURSEMENT_PRIMARY_KEY: d.primaryKey,
      MTN_MOMO_DISBURSEMENT_USER_ID: d.userId,
      MTN_MOMO_DISBURSEMENT_API_KEY: d.apiKey,
    };
  }

  /**
   * The next `count` (default 1) requests whose path (with its query) contains `path` (a string) or matches it (a
   * RegExp) get `fault`; no path = any request. Rules apply in the order given.
   */
  failNext(fault: MomoFault, options: { count?: number; path?: string | RegExp } = {}): void {
    this.faults.add(fault, options);
  }

  /** Expires every token issued so far (the next API call answers 401). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** Decide a pending resource now (sends the callback unless dropped). Resolves once the callback attempt is over. */
  async decide(referenceId: string, status: 'SUCCESSFUL' | 'FAILED', reason?: string): Promise<void> {
    const resource = this.resources.get(referenceId);
    if (!resource) throw new Error(`MtnMomoFake: no resource ${referenceId}`);
    if (resource.status !== 'PENDING') throw new Error(`MtnMomoFake: resource ${referenceId} is already ${resource.status}`);
    await this.settle(referenceId, status, status === 'FAILED' ? (reason ?? 'INTERNAL_PROCESSING_ERROR') : null);
  }

  /** Sends the resource's callback (again) as MTN would: used by tests for duplicates. Resolves with the receiver's HTTP status. */
  async sendCallback(referenceId: string): Promise<number> {
    const resource = this.resources.get(referenceId);
    if (!resource) throw new Error(`MtnMomoFake: no resource ${referenceId}`);
    if (!resource.callbackUrl) throw new Error(`MtnMomoFake: resource ${referenceId} was created without X-Callback-Url`);
    if (resource.status === 'PENDING') throw new Error(`MtnMomoFake: resource ${referenceId} is still PENDING (MTN calls back on a final state only)`);
    return this.outbox.sendOrThrow(this.delivery(resource));
  }

  /** Resolves when the resource has a callback delivered (any HTTP answer); rejects once timeoutMs passes. */
  callbackDelivered(referenceId: string, timeoutMs = 5000): Promise<void> {
    if (this.callbacks.some((d) => d.referenceId === referenceId && d.status !== null)) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('MtnMomoFake closed'));
    return this.outbox.delivered(referenceId, timeoutMs, () => (this.droppedCallbacks.includes(referenceId) ? 'it was dropped' : 'no callback was sent'));
  }

  /** The status body MTN would answer for this resource now (GET and callback). */
  statusBody(referenceId: string): Record<string, unknown> {
    const resource = this.resources.get(referenceId);
    if (!resource) throw new Error(`MtnMomoFake: no resource ${referenceId}`);
    return this.render(resource);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await closeFake({ timers: this.decisionTimers, outbox: this.outbox, server: this.server });
  }

  // -------------------------------------------------------------------------------------------
  // HTTP intake
  // -------------------------------------------------------------------------------------------

  private send(res: http.ServerResponse, answer: Answer): void {
    if (answer.body === undefined) {
      res.writeHead(answer.status, { 'content-length': '0', ...answer.headers }).end();
      return;
    }
    const text = JSON.stringify(answer.body);
    res
      .writeHead(answer.status, { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...answer.headers })
      .end(text);
  }

  /** The answer to one request; a Reject becomes its answer, anything else thrown is a bug (see serveFakeRequest). */
  private route(method: string, path: string, headers: http.IncomingHttpHeaders, body: string): Answer {
    try {
      return this.dispatch(method, path, headers, body);
    } catch (error) {
      if (!(error instanceof Reject)) throw error;
      return { status: error.status, body: error.body, headers: error.headers };
    }
  }

  private dispatch(method: string, path: string, headers: http.IncomingHttpHeaders, body: string): Answer {
    const pathname = path.split('?')[0];
    const m = /^\/(collection|disbursement)(\/.*)$/.exec(pathname);
    // Chosen: Azure API Management's answer for an operation it does not know.
    const unknown: Answer = { status: 404, body: { statusCode: 404, message: 'Resource not found' } };
    if (!m) return unknown;
    const product = m[1] as MomoProduct;
    const rest = m[2];
    const shape = PRODUCT_SHAPE[product];

    if (method === 'POST' && rest === '/token/') return this.token(product, headers);
    if (method === 'POST' && rest === `/v1_0/${shape.resource}`) return this.create(product, headers, body);
    const get = new RegExp(`^/v1_0/${shape.resource}/([^/]+)$`).exec(rest);
    if (method === 'GET' && get) return this.status(product, headers, decodeURIComponent(get[1]));
    if (method === 'GET' && rest === '/v1_0/account/balance') return this.balance(product, headers);
    const holder = /^\/v1_0\/accountholder\/msisdn\/([^/]+)\/basicuserinfo$/.exec(rest);
    if (method === 'GET' && holder) return this.basicUserInfo(product, headers, decodeURIComponent(holder[1]));
    return unknown;
  }

  // -------------------------------------------------------------------------------------------
  // Checks
  // -------------------------------------------------------------------------------------------

  /** APIM's gate: the product's own subscription key. */
  private checkSubscriptionKey(product: MomoProduct, headers: http.IncomingHttpHeaders): void {
    const key = header(headers, 'ocp-apim-subscription-key');
    if (!key) throw new Reject(401, { statusCode: 401, message: APIM_MISSING_KEY });
    if (key !== this.credentials[product].primaryKey) throw new Reject(401, { statusCode: 401, message: APIM_INVALID_KEY });
  }

  /** A live Bearer token issued for this product (chosen error shape, see the header). */
  private checkBearer(product: MomoProduct, headers: http.IncomingHttpHeaders): void {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '')?.[1];
    const record = token ? this.tokens.get(token) : undefined;
    if (token && record && record.expiresAt <= Date.now()) this.tokens.delete(token);
    if (!record || record.expiresAt <= Date.now() || record.product !== product) {
      throw new Reject(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
  }

  /** [D]: missing → 400 (a wrong header value); present but not ours → 500 NOT_ALLOWED_TARGET_ENVIRONMENT. */
  private checkTargetEnvironment(headers: http.IncomingHttpHeaders): void {
    const target = header(headers, 'x-target-environment');
    if (!target) throw badRequest('X-Target-Environment is required');
    if (target !== this.targetEnvironment)
      throw new Reject(500, { code: 'NOT_ALLOWED_TARGET_ENVIRONMENT', message: 'Access to target environment is forbidden.' });
  }

  private checkParty(party: unknown, name: string): { partyIdType: string; partyId: string } {
    if (typeof party !== 'object' || party === null || Array.isArray(party)) throw badRequest(`${name} is required`);
    const { partyIdType, partyId } = party as Record<string, unknown>;
    if (partyIdType !== 'MSISDN' && partyIdType !== 'EMAIL' && partyIdType !== 'PARTY_CODE')
      throw badRequest(`${name}.partyIdType must be MSISDN, EMAIL or PARTY_CODE`);
    if (typeof partyId !== 'string' || partyId === '') throw badRequest(`${name}.partyId is required`);
    const valid = partyIdType === 'MSISDN' ? MSISDN.test(partyId) : partyIdType === 'EMAIL' ? EMAIL.test(partyId) : UUID.test(partyId);
    if (!valid) throw badRequest(`${name}.partyId is not a valid ${partyIdType}`);
    return { partyIdType, partyId };
  }

  // -------------------------------------------------------------------------------------------
  // Operations
  // -------------------------------------------------------------------------------------------

  /** POST /{product}/token/ */
  private token(product: MomoProduct, headers: http.IncomingHttpHeaders): Answer {
    this.checkSubscriptionKey(product, headers);
    const m = /^Basic\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '');
    const expected = `${this.credentials[product].userId}:${this.credentials[product].apiKey}`;
    const given = m ? Buffer.from(m[1], 'base64').toString('utf8') : null;
    if (given !== expected) throw new Reject(401, { error: 'login_failed' });

    const now = Date.now();
    const expiresAt = now + this.tokenTtlS * 1000;
    const jwtHeader = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
    const payload = b64url(JSON.stringify({ clientId: this.credentials[product].userId, expires: new Date(expiresAt).toISOString(), sessionId: randomUUID() }));
    const signature = createHmac('sha256', this.jwtSecret).update(`${jwtHeader}.${payload}`).digest('base64url');
    const accessToken = `${jwtHeader}.${payload}.${signature}`;
    this.tokens.set(accessToken, { product, expiresAt });
    this.tokensIssued[product] += 1;
    return { status: 200, body: { access_token: accessToken, token_type: 'access_token', expires_in: this.tokenTtlS } };
  }

  /** POST /collection/v1_0/requesttopay, /disbursement/v1_0/transfer */
  private create(product: MomoProduct, headers: http.IncomingHttpHeaders, raw: string): Answer {
    this.checkSubscriptionKey(product, headers);
    this.checkBearer(product, headers);
    this.checkTargetEnvironment(headers);

    const referenceId = header(headers, 'x-reference-id');
    if (!referenceId) throw badRequest('X-Reference-Id is required');
    if (!UUID_V4.test(referenceId)) throw badRequest('X-Reference-Id must be a UUID version 4');

    const callbackUrl = header(headers, 'x-callback-url') ?? null;
    if (callbackUrl !== null) {
      let u: URL;
      try {
        u = new URL(callbackUrl);
      } catch {
        throw badRequest('X-Callback-Url is not a valid URL');
      }
      if (u.protocol !== 'http:') throw badRequest('X-Callback-Url must be http (the sandbox does not call https)');
      if (u.hostname !== CALLBACK_HOST) {
        throw new Reject(500, { code: 'INVALID_CALLBACK_URL_HOST', message: 'Callback URL with different host name then configured for API User.' });
      }
    }

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw badRequest('The body is not valid JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object');
    const b = body as Record<string, unknown>;
    if (typeof b.amount !== 'string' || !AMOUNT.test(b.amount) || !(Number(b.amount) > 0)) throw badRequest('amount must be a string of a positive number');
    if (typeof b.currency !== 'string' || !CURRENCY.test(b.currency)) throw badRequest('currency must be an ISO 4217 code');
    const partyName = PRODUCT_SHAPE[product].party;
    this.checkParty(b[partyName], partyName);
    optionalText(b, 'externalId', false);
    optionalText(b, 'payerMessage', true);
    optionalText(b, 'payeeNote', true);
    if (b.currency !== this.currency) throw new Reject(500, { code: 'INVALID_CURRENCY', message: 'Currency not supported.' });

    if (this.resources.has(referenceId)) throw new Reject(409, DUPLICATE);

    const resource: MomoResource = {
      product,
      referenceId,
      body,
      status: 'PENDING',
      reason: null,
      financialTransactionId: null,
      callbackUrl,
      createdAt: new Date(),
    };
    this.resources.set(referenceId, resource);
    this.schedule(resource);
    return { status: 202 };
  }

  /** What a product's account holds, as GET /{product}/v1_0/account/balance answers it from now on. */
  setBalance(product: MomoProduct, available: string): void {
    this.balances.set(product, available);
  }

  /** GET /{product}/v1_0/account/balance */
  private balance(product: MomoProduct, headers: http.IncomingHttpHeaders): Answer {
    this.checkSubscriptionKey(product, headers);
    this.checkBearer(product, headers);
    this.checkTargetEnvironment(headers);
    return { status: 200, body: { availableBalance: this.balances.get(product) ?? '1000000', currency: this.currency } };
  }

  /** GET /collection/v1_0/requesttopay/{id}, /disbursement/v1_0/transfer/{id} */
  /** GET /{product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo (mtn-momo-accounts.ts). */
  private basicUserInfo(product: MomoProduct, headers: http.IncomingHttpHeaders, msisdn: string): Answer {
    this.checkSubscriptionKey(product, headers);
    this.checkBearer(product, headers);
    this.checkTargetEnvironment(headers);
    if (!MSISDN.test(msisdn)) throw badRequest('accountHolderMSISDN is not a valid MSISDN');
    const info = this.accountHolders.basicUserInfo(msisdn);
    if (!info) throw new Reject(404, NOT_FOUND);
    return { status: 200, body: info };
  }

  private status(product: MomoProduct, headers: http.IncomingHttpHeaders, referenceId: string): Answer {
    this.checkSubscriptionKey(product, headers);
    this.checkBearer(product, headers);
    this.checkTargetEnvironment(headers);
    const resource = this.resources.get(referenceId);
    if (!resource || resource.product !== product) throw new Reject(404, NOT_FOUND);
    return { status: 200, body: this.render(resource) };
  }

  private render(resource: MomoResource): Record<string, unknown> {
    const b = resource.body as Record<string, any>;
    const partyName = PRODUCT_SHAPE[resource.product].party;
    const out: Record<string, unknown> = { amount: normalizeAmount(b.amount), currency: b.currency };
    if (resource.financialTransactionId !== null) out.financialTransactionId = resource.financialTransactionId;
    if (typeof b.externalId === 'string') out.externalId = b.externalId;
    out[partyName] = { partyIdType: b[partyName].partyIdType, partyId: b[partyName].partyId };
    if (typeof b.payerMessage === 'string') out.payerMessage = b.payerMessage;
    if (typeof b.payeeNote === 'string') out.payeeNote = b.payeeNote;
    out.status = resource.status;
    if (resource.status === 'FAILED' && resource.reason !== null) {
      out.reason = this.reasonFormat === 'object' ? { code: resource.reason, message: REASON_MESSAGES[resource.reason] ?? resource.reason } : resource.reason;
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Decisions and callbacks
  // -------------------------------------------------------------------------------------------

  private outcomeFor(resource: MomoResource): Outcome {
    const party = (resource.body as Record<string, any>)[PRODUCT_SHAPE[resource.product].party] as { partyIdType: string; partyId: string };
    if (party.partyIdType !== 'MSISDN') return SUCCESS;
    const documented = SANDBOX_NUMBERS[party.partyId];
    if (documented) return documented;
    const suffix = party.partyId.slice(-4);
    if (suffix === '0001') return failed('NOT_ENOUGH_FUNDS');
    if (suffix === '0002') return failed('APPROVAL_REJECTED');
    if (suffix === '0003') return failed('EXPIRED');
    if (suffix === '0004') return failed(resource.product === 'collection' ? 'PAYER_NOT_FOUND' : 'PAYEE_NOT_FOUND');
    if (suffix === '0009') return { kind: 'pending' };
    return SUCCESS;
  }

  private schedule(resource: MomoResource): void {
    const outcome = this.outcomeFor(resource);
    if (outcome.kind === 'pending') return;
    const delay = outcome.kind === 'ongoing' ? this.ongoingSuccessAfterMs : this.decisionDelayMs;
    const status = outcome.kind === 'ongoing' ? 'SUCCESSFUL' : outcome.status;
    const reason = outcome.kind === 'ongoing' ? null : outcome.reason;
    this.decisionTimers.later(delay, () => this.settle(resource.referenceId, status, reason), resource.referenceId);
  }

  private async settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED', reason: string | null): Promise<void> {
    const resource = this.resources.get(referenceId);
    if (!resource || resource.status !== 'PENDING' || this.closed) return;
    this.decisionTimers.cancel(referenceId);

    resource.status = status;
    resource.reason = status === 'FAILED' ? reason : null;
    resource.financialTransactionId = status === 'SUCCESSFUL' ? String(randomInt(100_000_000, 2_000_000_000)) : null;
    if (!resource.callbackUrl) return;
    if (this.dropCallbacks) {
      this.droppedCallbacks.push(referenceId);
      return;
    }
    await this.outbox.send(this.delivery(resource));
  }

  /** The resource's callback: the GET body, sent with callbackMethod to its X-Callback-Url (127.0.0.1 only: LoopbackCallbacks.send). */
  private delivery(resource: MomoResource): MomoCallbackDelivery {
    return {
      referenceId: resource.referenceId,
      method: this.callbackMethod,
      url: resource.callbackUrl ?? '',
      body: JSON.stringify(this.render(resource)),
      status: null,
      error: null,
      at: new Date(),
    };
  }
}
