/**
 * A local fake of Flutterwave's v3 API (https://api.flutterwave.com/v3/...): virtual account numbers, transfers,
 * direct charges (card with the 3DES `client` payload, mobile money, M-Pesa), charge validation, transaction verify,
 * refunds, balances, and the account-wide webhook with `verif-hash`. In memory, on 127.0.0.1, port 0; webhooks go to
 * `webhookUrl` (http://127.0.0.1 only: LoopbackCallbacks.send throws for any other host).
 *
 * SOURCES (read for this file)
 *  [SDK] Flutterwave's official Node SDK, github Flutterwave/Node-v3 (the renamed Flutterwave/Flutterwave-node-v3; both
 *        fetched, HEAD 537f9f4): lib/rave.base.js (`Authorization: Bearer <secret key>` on every call, JSON bodies,
 *        base URL https://api.flutterwave.com/ + `v3/...` paths), lib/security.js and services/charge/encryp.js (the
 *        card payload: node-forge `3DES-ECB`, key = the encryption key as given, empty IV, forge's default PKCS#7
 *        padding, output base64), services/charge/rave.card.charge.js (POST v3/charges?type=card with `{public_key,
 *        client}`, the whole payload JSON-encrypted), services/mobile-money/*.js (types mobile_money_uganda|_ghana|
 *        _rwanda|_zambia|_franco|_tanzania, mpesa), services/charge/rave.validate.js (POST v3/validate-charge {otp,
 *        flw_ref, type?}), services/transfers/rave.initiate.js + rave.fetch.js (POST v3/transfers, GET /v3/transfers/:id),
 *        services/transactions/rave.verify.js, rave.verify-by-txref.js (GET v3/transactions/verify_by_reference?tx_ref=),
 *        rave.refund.js (POST v3/transactions/:id/refund), services/virtual-account/rave.create.js (POST
 *        v3/virtual-account-numbers), services/misc/rave.balances.js (GET /v3/balances); services/schema/create.js and
 *        base.js (the SDK's joi rules: which fields are required, lengths, networks per currency, country for XAF/XOF,
 *        order_id for RWF, otp 5-7 characters, is_permanent + bvn); documentation/*.md (sample answers: "Transfer Queued
 *        Successfully" with status NEW, the transfer list with complete_message values, "Virtual account created",
 *        "Charge initiated" per mobile money type, "Transaction fetched successfully", "Transaction refund initiated",
 *        "Wallet balances fetched").
 *  [D]   Flutterwave's docs (stored copies of developer.flutterwave.com, and its flutterwaveinc.mintlify.app mirror):
 *        /docs/integration-guides/errors and /v3.0/docs/common-errors (every error is `{status: "error", message, data}`;
 *        400 for validation, 401 `Authorization required` without or with a wrong secret key, 500 `{error_id, message:
 *        "Application error. Please contact support", code: "app_error"}`), /docs/handling-error-timeouts (503
 *        `{status: "error", message: "An error occurred. Please contact support", data: null}`), /docs/flutterwave-errors
 *        (Flutterwave errors come "with the 400 HTTP status code"), /docs/integration-guides/webhooks and /docs/webhooks
 *        (POST with a JSON body `{event, data}`, the static secret hash echoed in the `verif-hash` header, the
 *        charge.completed and transfer.completed samples), /docs/ngn-virtual-accounts (dynamic: amount > 0 and email;
 *        the answer sample; "Your Customer's BVN or NIN is required to create a Static Virtual Account"),
 *        /docs/virtual-account ("A temporary account number expires an hour after creation"; NGN and GHS),
 *        /docs/integration-guides/testing-helpers and /v2.0/docs/test-cards (test cards, PIN 3310, OTP 12345),
 *        /docs/collecting-payments/refunds (partial refunds by `amount`, `comments`), /v2.0/reference/refund ("only
 *        successful transactions can be refunded"), /docs/direct-charge/uganda-mobile-money, /docs/m-pesa.
 *  [C]   Copies of the official samples in public code, read to get whole bodies the excerpts cut: kingflamez/laravelrave
 *        docs (webhook samples, with "event.type": "Transfer"), wave_pay (card PIN → OTP → "Charge validated" samples,
 *        `meta.authorization {mode: "otp", endpoint: "/v3/validate-charge"}`), bajoski34/mcp-flutterwave (a Flutterwave
 *        engineer's v3 OpenAPI files: transfer body fields, virtual account fields; src/utils/encrypt.ts: des-ede3-ecb,
 *        PKCS padding, base64), integrations quoting live answers: "No transaction was found for this id", the
 *        BANK_TRANSFER_TRANSACTION webhook with `meta_data`, the M-Pesa MPESA_TRANSACTION webhook, a transfer webhook with
 *        "DISBURSE FAILED: Insufficient funds in customer wallet".
 *  [I]   Issues quoting live answers: Flutterwave/Node-v3#22 ("Invalid authorization key" with a wrong key),
 *        Olamyy/pyrave#18, wilburx9/rave_flutter#50, Flutterwave/Python-v2#98 (HTTP 400 `{status: "error", message: "An
 *        error occured while attempting to decrypt some parameters", data: null}` for a badly encrypted card payload).
 *
 * ENFORCED, AS DOCUMENTED
 *  - Every /v3 call: `Authorization: Bearer <secret key>` → else 401 `{status: "error", message, data: null}` ([D]).
 *  - Answers `{status: "success", message, data}` / `{status: "error", message, data: null}`; validation errors 400.
 *  - POST /v3/virtual-account-numbers: email required; dynamic (is_permanent false/absent) needs amount > 0 and answers
 *    expiry_date = created_at + 1 hour ([D]); static (is_permanent true) in NGN needs `bvn` (11 digits) or `nin` ([D]
 *    "BVN or NIN is required"; [SDK] joi: bvn required when is_permanent); GHS needs neither; currency NGN (default) or
 *    GHS. Answer: response_code "02", response_message "Transaction in progress", flw_ref, order_ref, account_number,
 *    frequency "N/A", bank_name, created_at/expiry_date as "YYYY-MM-DD HH:mm:ss", note, amount (a string with two
 *    decimals; null and expiry "N/A" for static). A dynamic account takes one payment and none after expiry_date.
 *  - Paying one (payVirtualAccount) creates a bank_transfer transaction with the account's tx_ref and sends
 *    `{event: "charge.completed", data, meta_data, "event.type": "BANK_TRANSFER_TRANSACTION"}` ([C]).
 *  - POST /v3/transfers: account_bank, account_number (string, ≤ 20), amount (> 0), currency required ([C] OpenAPI,
 *    [SDK]); narration ≤ 100, reference ≤ 100, beneficiary_name ≤ 100, debit_currency, callback_url, meta optional.
 *    Answer "Transfer Queued Successfully", data {id, account_number, bank_code, full_name, created_at, currency,
 *    debit_currency, amount, fee, status: "NEW", reference, meta, narration, complete_message: "", requires_approval: 0,
 *    is_approved: 1, bank_name} ([SDK] sample). GET /v3/transfers/:id → "Transfer fetched" with the status (NEW,
 *    PENDING, SUCCESSFUL, FAILED). An M-Pesa payout (KES, account_bank MPS) without meta.sender, meta.sender_country and
 *    meta.mobile_number → 400 "meta.<key> is required for M-Pesa transfers" ([D] mobile money transfers: "requires";
 *    the message is chosen). A mobile money payout (account_bank MPS, MPX, MTN, VODAFONE, TELECEL, TIGO, AIRTELTIGO,
 *    AIRTEL; [D]'s 2026 list adds TELECEL and AIRTELTIGO) without
 *    beneficiary_name FAILS with complete_message "beneficiary_name is required" ([SDK] sample list, UGX/MPS).
 *  - transfer.completed webhook: `{event: "transfer.completed", "event.type": "Transfer", data: {id, account_number,
 *    bank_name, bank_code, fullname, created_at, currency, debit_currency, amount, fee, status, reference, meta,
 *    narration, approver, complete_message, requires_approval, is_approved}}` (note `fullname` here, `full_name` in the
 *    API) ([D] sample). Sent once, to webhookUrl, with `verif-hash: <hash>` and Content-Type application/json.
 *  - POST /v3/charges?type=mobile_money_uganda|ghana|rwanda|zambia: "Charge initiated" with only `meta.authorization
 *    {redirect, mode: "redirect"}` (no data) ([SDK] samples); mobile_money_franco: data + `meta.authorization {mode:
 *    "callback", redirect_url: null}`; mpesa and mobile_money_tanzania: data only (status "pending"). Body per [SDK]
 *    joi: amount, email, tx_ref, currency, phone_number (digits, optional "+") required; network checked per currency
 *    (GHS MTN|AIRTELTIGO|VODAFONE, UGX MTN|AIRTEL, KES SAFARICOM|AIRTEL, RWF MTN|AIRTEL, TZS HALOPESA|AIRTEL|TIGO|VODACOM,
 *    ZMW MTN|AIRTEL|ZAMTEL, XOF WAVE|MTN|ORANGEMONEY, XAF MTN|ORANGEMONEY); country required for XAF/XOF; order_id
 *    required for RWF. The currency must be the type's (UGX, GHS, RWF, ZMW, XAF|XOF, KES, TZS).
 *  - POST /v3/charges?type=card: body `{client}` (public_key, as the SDK adds it, is ignored): base64 of
 *    3DES-EDE3-ECB(JSON payload) with the 24-character encryption key, PKCS#7 padding ([SDK], [C]); anything that does
 *    not decrypt to a JSON object → 400 "An error occured while attempting to decrypt some parameters" ([I], their
 *    spelling). Payload per [SDK] joi: card_number (Luhn), cvv (3-4 digits), expiry_month (01-12), expiry_year (2
 *    digits), amount, email, tx_ref required; currency (default NGN), redirect_url, authorization optional.
 *    Test cards ([D] testing helpers): 5531886652142950 and 5061460410120223210 → "Charge authorization data required",
 *    meta.authorization {mode: "pin", fields: ["pin"]}; resubmitted with authorization {mode: "pin", pin: "3310"} →
 *    "Charge initiated", data.status "pending", meta.authorization {mode: "otp", endpoint: "/v3/validate-charge"}; then
 *    POST /v3/validate-charge {otp: "12345", flw_ref} → "Charge validated", status "successful" ([C] samples).
 *    4187427415564246 and 5438898014560229 (3DS) → "Charge initiated", data.status "pending", processor_response
 *    "Pending Validation", auth_url = meta.authorization.redirect (this fake's page), mode "redirect". 4556052704172643
 *    (AVS) → mode "avs_noauth", fields [city, address, state, country, zipcode], then the 3DS redirect.
 *    5061460166976054667 (Verve NoAuth) → successful at once. 5258585922666506 ("Insufficient funds", [D] v2 test cards
 *    and later mirrors) → declined.
 *  - The redirect page (GET /mockvbvpage?ref=<flw_ref>, the path of Flutterwave's sandbox mock 3DS page): GET shows it;
 *    GET/POST with outcome=success|fail completes the charge and redirects (302) to the charge's redirect_url with
 *    `?status=successful|failed&tx_ref=…&transaction_id=…`, the query Flutterwave appends on its redirects.
 *  - charge.completed webhook: `{event: "charge.completed", data: {id, tx_ref, flw_ref, device_fingerprint, amount,
 *    currency, charged_amount, app_fee, merchant_fee, processor_response, auth_model, ip, narration, status,
 *    payment_type, created_at, account_id, customer, card?}, "event.type": …}` ([D], [C]); sent for successful and
 *    failed charges, once.
 *  - GET /v3/transactions/:id/verify and GET /v3/transactions/verify_by_reference?tx_ref= → "Transaction fetched
 *    successfully" with the verify shape ([SDK] samples: …, amount_settled, customer, card); unknown → 400 "No
 *    transaction was found for this id" ([C]).
 *  - POST /v3/transactions/:id/refund {amount?, comments?}: amount optional (whole remainder when absent) ([D]);
 *    answer "Transaction refund initiated", data {id, account_id, tx_id, flw_ref, wallet_id, amount_refunded, status:
 *    "completed", destination: "payment_source", meta: {source: "availablebalance"}, created_at} ([D], [SDK]); only
 *    successful transactions can be refunded ([D] v2) → 400 otherwise. GET /v3/refunds/:id ([D] v3 reference "get refund
 *    details", cited by Egahi/flutterwave-dotnet#41) → "Refund fetched" with the same shape and the status now.
 *  - POST /v3/accounts/resolve {account_number, account_bank}: "Account details fetched" with the holder's name, as
 *    flutterwave-accounts.ts says (its own sources); `accounts.add(bank, number, name)` seeds a holder.
 *  - Faults: '500' answers the documented 500 body, '503' and `down` the documented 503 body.
 *
 * WHERE THE SOURCES DISAGREE, AND WHAT THIS FAKE DOES
 *  - 401 text: [D] shows "Authorization required"; [I] #22 quotes "Invalid authorization key" for a wrong key. → No
 *    Bearer secret: "Authorization required"; a wrong one: "Invalid authorization key". Both 401.
 *  - Virtual account BVN: [SDK] joi and its README ask a BVN for static accounts only ("in the Live Environment"); [D]
 *    (2024+) asks "BVN or NIN" for static NGN accounts and nothing for dynamic ones. → static NGN: bvn or nin; dynamic:
 *    neither; GHS: neither.
 *  - Virtual account amount: [D]'s samples answer the amount plus a fee ("100" → "101.40", 1.4%) as a string. → the
 *    amount asked, as a string with two decimals (this fake's merchant bears fees, as with charged_amount = amount).
 *  - Francophone type: [SDK] `mobile_money_franco`; bajoski34's OpenAPI `mobile_money_francophone`. → the SDK's only.
 *  - payment_type of franco: the [SDK] sample answers "mobilemoneysn" for an XAF/CM charge. → "mobilemoneysn".
 *  - Card decline flow: [D] lists the insufficient-funds card with PIN and OTP (so it may fail only after them). → it
 *    is declined at the first call (data.status "failed", processor_response "Insufficient Funds"), which is the
 *    outcome that matters to the caller.
 *  - Webhook retries: the pages read give no retry schedule (only "make your handler idempotent", as the same event
 *    may come more than once); Flutterwave's dashboard has a retry option I could not read the terms of. → sent once,
 *    never retried (retries off, as on a new account); sendWebhook() re-sends on demand for duplicate tests.
 *  - The transfer's callback_url: [C] OpenAPI lists it, without saying what is sent there; [D] sends webhooks to the
 *    dashboard URL. → recorded only; every webhook goes to `webhookUrl` (the "dashboard" URL the tests set).
 *
 * CHOSEN WHERE THE DOCS ARE SILENT
 *  - Duplicate transfer `reference`: no document found states the answer. → 400 (Flutterwave errors are 400 [D])
 *    `{status: "error", message: "Transfer with reference <ref> already exists", data: null}`; no second transfer and
 *    no webhook. Duplicate charge tx_ref → 400 "Transaction Reference already exist. Try again in 2 minutes time to use
 *    the same ref for a new transaction" (quoted as a live answer in [C]); a card charge's own authorization resubmit
 *    (PIN/AVS, same tx_ref) is not a duplicate.
 *  - Validation messages: "<field> is required", "<field> must be …" (Flutterwave's own texts differ per field and
 *    are not listed). Non-JSON Content-Type = empty body; unparseable JSON → 400 "Invalid JSON body".
 *  - Unknown path → 404 `{status: "error", message: "Route not found", data: null}`; unknown transfer → 404 "Transfer
 *    not found"; unknown virtual account → 404 "Virtual account not found"; wrong PIN → 400 "Incorrect PIN"; wrong OTP
 *    → 400 "Invalid OTP" (the charge stays pending); validate-charge on an unknown flw_ref → 400 "No transaction was
 *    found for this flw_ref"; an expired card → 400 "Card has expired"; over-refund → 400 "Refund amount exceeds the
 *    refundable amount".
 *  - Decisions (this project's convention, as in the other fakes): account number / phone number ending 0001 → FAILED
 *    (transfer complete_message "DISBURSE FAILED: Insufficient funds in customer wallet", [C]'s live text; charge
 *    processor_response "Insufficient Funds"), 0009 → stays pending (transfer status PENDING) until
 *    completeTransfer/completeCharge, else SUCCESSFUL (complete_message "Successful", [D] webhook sample) after
 *    decisionDelayMs (default 30 ms). Any other Luhn-valid card behaves as the NoAuth card.
 *  - Fees: transfers NGN 10.75 (≤ 5 000), 26.875 (≤ 50 000), 53.75 (above) (as in [SDK] samples), UGX 500, KES 45 ([SDK]
 *    samples), else 0; app_fee 1.4% for card and bank transfer, 2.9% for mobile money (as in [SDK]/[D] samples).
 *  - full_name: the name [SDK]/[D] samples give the Access Bank test accounts (0690000031 Forrest Green, …), else
 *    beneficiary_name, else "N/A". Times are UTC.
 *  - The redirect page answers HTML; it needs no Bearer (a cardholder's browser opens it). Other /v3 paths all do.
 *  - Also served, with chosen messages: GET /v3/virtual-account-numbers/:order_ref ("Virtual account fetched"), GET
 *    /v3/balances/:currency ("Wallet balance fetched"; [SDK] misc.md's sample: data {currency, available_balance,
 *    ledger_balance}; 100 000 000 unless setBalance set another).
 *  - The lists reconciliation reads (flutterwave-lists.ts): GET /v3/transactions?from=&to=&page= ("Transactions
 *    fetched") and GET /v3/transfers?page=&status= ("Transfers fetched"), ten a page, newest first. Test hooks:
 *    seedTransaction / seedTransfer (a record we do not have), and the `transactions` / `transfers` maps to alter or
 *    delete one. Refunds are taken for any successful collection (card, mobile
 *    money, bank transfer), not only cards; the transaction keeps status "successful" after a refund.
 *  - Chargebacks (flutterwave-chargebacks.ts, with their own sources): GET /v3/chargebacks (page, status, from, to,
 *    currency, flw_ref, id; 20 a page) and PUT /v3/chargebacks/:id {action, comment, prooflink?}, answered once. Test
 *    controls: openChargeback (on a successful charge, by its id or tx_ref) and decideChargeback (won or lost); each
 *    change of status sends `{event: "chargeback.<status>", data}` with verif-hash.
 */
import { FlutterwaveAccounts } from './flutterwave-accounts';
import {
  FlutterwaveChargebacks,
  type ChargebackAnswer,
  type FlwChargeback,
  type FlwChargebackStage,
  type OpenChargebackOptions,
} from './flutterwave-chargebacks';
import { listPage, listQuery } from './flutterwave-lists';
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import type http from 'node:http';
import { assertLoopbackUrl, closeFake, FakeTimers, FaultRules, LoopbackCallbacks, serveFakeRequest, startFakeServer } from './fake-http';
import type { CallbackDelivery, FakeFault, FakeIntake, RecordedRequest } from './fake-http';

export type FlwFault = FakeFault;
export type FlwRecordedRequest = RecordedRequest;

/** One webhook the fake sent: its event, the JSON body as sent, and the receiver's HTTP status (null: no answer). */
export interface FlwWebhook {
  event: string;
  body: any;
  status: number | null;
}

/** A webhook that was not sent: dropWebhooks was on, or no webhookUrl was set. */
export interface FlwDroppedWebhook {
  event: string;
  body: any;
  reason: 'dropWebhooks' | 'no webhookUrl';
}

/** The raw delivery record (LoopbackCallbacks): url, body text, status, error, and the `verif-hash` sent. */
export interface FlwWebhookDelivery extends CallbackDelivery {
  key: string;
  event: string;
  verifHash: string;
}

export interface FlutterwaveFakeOptions {
  /** Delay before a new transfer or mobile money charge is decided. Default 30 ms. */
  decisionDelayMs?: number;
  /** Lifetime of a dynamic virtual account. Default one hour, as documented. */
  virtualAccountTtlMs?: number;
  /**
   * The keys it hands out: `live` (default; `FLWSECK-…-X`, as the gateway's production mode requires) or `test`
   * (`FLWSECK_TEST-…-X`, a test-mode account's, which production refuses).
   */
  keys?: 'live' | 'test';
}

type FlwTransferStatus = 'NEW' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';
type FlwChargeStatus = 'pending' | 'successful' | 'failed';

type MomoType =
  'mobile_money_uganda' | 'mobile_money_ghana' | 'mobile_money_rwanda' | 'mobile_money_zambia' | 'mobile_money_franco' | 'mobile_money_tanzania' | 'mpesa';

/** A transfer as posted (its request fields) and as Flutterwave keeps it. */
export interface FlwTransfer {
  id: number;
  reference: string;
  account_bank: string;
  account_number: string;
  amount: number;
  currency: string;
  debit_currency: string | null;
  narration: string | null;
  callback_url: string | null;
  beneficiary_name: string | null;
  meta: unknown;
  status: FlwTransferStatus;
  complete_message: string;
  fee: number;
  full_name: string;
  bank_name: string;
  created_at: string;
  /** The JSON body as posted. */
  body: unknown;
}

export interface FlwRefund {
  id: number;
  amount_refunded: number;
  comments: string | null;
  created_at: string;
  tx_id: number;
  flw_ref: string;
  status: 'completed' | 'pending' | 'failed';
}

/** A collection (card, mobile money, bank transfer into a virtual account). */
export interface FlwTransaction {
  id: number;
  tx_ref: string;
  flw_ref: string;
  /** The charge type (query `type`), or 'bank_transfer' for a virtual account payment. */
  type: 'card' | 'bank_transfer' | MomoType;
  payment_type: string;
  event_type: string;
  auth_model: string;
  amount: number;
  currency: string;
  app_fee: number;
  status: FlwChargeStatus;
  processor_response: string;
  narration: string;
  ip: string;
  device_fingerprint: string;
  created_at: string;
  email: string;
  customer: { id: number; name: string; phone_number: string | null; email: string; created_at: string };
  card: { first_6digits: string; last_4digits: string; issuer: string; country: string; type: string; token: string; expiry: string } | null;
  phone_number: string | null;
  redirect_url: string | null;
  /** What the charge waits for while pending: an OTP (validate-charge), the redirect page, or the customer (mobile money). */
  awaiting: 'otp' | 'redirect' | 'customer' | null;
  refunds: FlwRefund[];
  /** Virtual account payments: the sender's details (webhook meta_data). */
  originator: { name: string; bank: string; account: string } | null;
  /** The body as posted (for cards: the decrypted payload, card number masked). */
  body: unknown;
}

export interface FlwVirtualAccount {
  account_number: string;
  order_ref: string;
  flw_ref: string;
  tx_ref: string;
  email: string;
  is_permanent: boolean;
  /** Dynamic: the amount to pay; static: null. */
  amount: number | null;
  currency: string;
  narration: string | null;
  bank_name: string;
  created_at: Date;
  /** Dynamic: created_at + ttl; static: null. */
  expires_at: Date | null;
  /** Ids of the transactions paid into it. */
  payments: number[];
  body: unknown;
}

// ---------------------------------------------------------------------------------------------
// Documented values
// ---------------------------------------------------------------------------------------------

const MSG = {
  authRequired: 'Authorization required',
  authInvalid: 'Invalid authorization key',
  decrypt: 'An error occured while attempting to decrypt some parameters',
  noTransaction: 'No transaction was found for this id',
  duplicateTxRef: 'Transaction Reference already exist. Try again in 2 minutes time to use the same ref for a new transaction',
  unavailable: 'An error occurred. Please contact support',
};

/** [D] testing helpers. */
const TEST_PIN = '3310';
const TEST_OTP = '12345';

type CardFlow = 'pin' | '3ds' | 'avs' | 'noauth' | 'decline';

const TEST_CARDS: Record<string, { flow: CardFlow; type: string; issuer: string; reason?: string }> = {
  '5531886652142950': { flow: 'pin', type: 'MASTERCARD', issuer: 'MASTERCARD  CREDIT' },
  '5061460410120223210': { flow: 'pin', type: 'VERVE', issuer: 'VERVE FIRST CITY MONUMENT BANK PLC' },
  '5438898014560229': { flow: '3ds', type: 'MASTERCARD', issuer: 'MASTERCARD  CREDIT' },
  '4187427415564246': { flow: '3ds', type: 'VISA', issuer: 'ACCESS BANK PLC DEBIT CLASSIC' },
  '4556052704172643': { flow: 'avs', type: 'VISA', issuer: 'VISA  CREDIT' },
  '5061460166976054667': { flow: 'noauth', type: 'VERVE', issuer: 'VERVE FIRST CITY MONUMENT BANK PLC' },
  '5258585922666506': { flow: 'decline', type: 'MASTERCARD', issuer: 'MASTERCARD  CREDIT', reason: 'Insufficient Funds' },
};

const AVS_FIELDS = ['city', 'address', 'state', 'country', 'zipcode'];

const MOMO: Record<MomoType, { currencies: string[]; answer: 'redirect' | 'callback' | 'data'; paymentType: string; authModel: string; eventType: string }> = {
  mobile_money_uganda: {
    currencies: ['UGX'],
    answer: 'redirect',
    paymentType: 'mobilemoneyug',
    authModel: 'MOBILEMONEY',
    eventType: 'MOBILEMONEYUG_TRANSACTION',
  },
  mobile_money_ghana: {
    currencies: ['GHS'],
    answer: 'redirect',
    paymentType: 'mobilemoneygh',
    authModel: 'MOBILEMONEY',
    eventType: 'MOBILEMONEYGH_TRANSACTION',
  },
  mobile_money_rwanda: {
    currencies: ['RWF'],
    answer: 'redirect',
    paymentType: 'mobilemoneyrw',
    authModel: 'MOBILEMONEY',
    eventType: 'MOBILEMONEYRW_TRANSACTION',
  },
  mobile_money_zambia: {
    currencies: ['ZMW'],
    answer: 'redirect',
    paymentType: 'mobilemoneyzm',
    authModel: 'MOBILEMONEY',
    eventType: 'MOBILEMONEYZM_TRANSACTION',
  },
  mobile_money_franco: {
    currencies: ['XAF', 'XOF'],
    answer: 'callback',
    paymentType: 'mobilemoneysn',
    authModel: 'AUTH',
    eventType: 'MOBILEMONEYSN_TRANSACTION',
  },
  mobile_money_tanzania: {
    currencies: ['TZS'],
    answer: 'data',
    paymentType: 'mobilemoneytz',
    authModel: 'MOBILEMONEY',
    eventType: 'MOBILEMONEYTZ_TRANSACTION',
  },
  mpesa: { currencies: ['KES'], answer: 'data', paymentType: 'mpesa', authModel: 'LIPA_MPESA', eventType: 'MPESA_TRANSACTION' },
};

/** [SDK] momoSchema: the networks each currency takes. */
const NETWORKS: Record<string, string[]> = {
  GHS: ['MTN', 'AIRTELTIGO', 'VODAFONE'],
  UGX: ['MTN', 'AIRTEL'],
  KES: ['SAFARICOM', 'AIRTEL'],
  RWF: ['MTN', 'AIRTEL'],
  TZS: ['HALOPESA', 'AIRTEL', 'TIGO', 'VODACOM'],
  ZMW: ['MTN', 'AIRTEL', 'ZAMTEL'],
  XOF: ['WAVE', 'MTN', 'ORANGEMONEY'],
  XAF: ['MTN', 'ORANGEMONEY'],
};

/** account_bank values of mobile money payouts ([SDK] samples, the connector's data). */
const MOMO_BANK_CODES = new Set(['MPS', 'MPX', 'MTN', 'VODAFONE', 'TELECEL', 'TIGO', 'AIRTELTIGO', 'AIRTEL']);

const BANK_NAMES: Record<string, string> = {
  '044': 'ACCESS BANK NIGERIA',
  '058': 'GTBANK PLC',
  '057': 'ZENITH BANK PLC',
  '011': 'FIRST BANK OF NIGERIA',
  '033': 'UNITED BANK FOR AFRICA',
  '070': 'FIDELITY BANK',
  '050': 'ECOBANK NIGERIA PLC',
  '035': 'WEMA BANK',
  '232': 'STERLING BANK',
};

/** The names [SDK]/[D] samples give Flutterwave's Access Bank (044) test accounts. */
const TEST_ACCOUNT_NAMES: Record<string, string> = {
  '0690000031': 'Forrest Green',
  '0690000032': 'Pastor Bright',
  '0690000033': 'Bale Gary',
  '0690000034': 'Ade Bond',
  '0690000038': 'John Sunday',
  '0690000039': 'Dotun Ajib',
  '0690000040': 'Alexis Sanchez',
  '0690000041': 'Alexis Rogers',
  '0690000044': 'Mercedes Daniel',
};

const BALANCE_CURRENCIES = ['NGN', 'GHS', 'KES', 'UGX', 'RWF', 'ZMW', 'TZS', 'XAF', 'XOF', 'ZAR', 'USD', 'EUR', 'GBP'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CURRENCY = /^[A-Z]{3}$/;
const PHONE = /^\+?\d+$/;
const NUMERIC = /^\d+(\.\d+)?$/;

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  /** JSON body. */
  body?: unknown;
  /** Or an HTML page. */
  html?: string;
  headers?: Record<string, string>;
}

/** A refusal: `{status: "error", message, data: null}` with an HTTP status. */
class Reject extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string) => new Reject(400, message);
const ok = (message: string, data: unknown, extra: Record<string, unknown> = {}): Answer => ({
  status: 200,
  body: { status: 'success', message, data, ...extra },
});
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const round2 = (n: number) => Math.round(n * 100) / 100;

function header(headers: http.IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** Flutterwave's timestamps: ISO 8601 with the milliseconds zeroed ("2020-07-15T14:31:16.000Z"). */
function flwTime(d: Date = new Date()): string {
  return `${d.toISOString().slice(0, 19)}.000Z`;
}

/** Virtual account times: "2024-09-17 18:44:38" (UTC here, chosen). */
function vaTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

type Body = Record<string, unknown>;

function requireString(b: Body, field: string, max?: number): string {
  const v = b[field];
  if (v === undefined || v === null || v === '') throw bad(`${field} is required`);
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  if (v.trim() === '') throw bad(`${field} is required`);
  if (max !== undefined && v.trim().length > max) throw bad(`${field} must be at most ${max} characters`);
  return v.trim();
}

function optionalString(b: Body, field: string, max?: number): string | null {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  if (max !== undefined && v.trim().length > max) throw bad(`${field} must be at most ${max} characters`);
  return v.trim() === '' ? null : v.trim();
}

/** joi.number(): a number, or a string of one (the docs' examples send both). */
function amountOf(v: unknown, field: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n) || n <= 0) throw bad(`${field} must be a positive number`);
  return n;
}

function requireAmount(b: Body, field = 'amount'): number {
  if (b[field] === undefined || b[field] === null || b[field] === '') throw bad(`${field} is required`);
  return amountOf(b[field], field);
}

function requireCurrency(b: Body, field = 'currency'): string {
  const v = requireString(b, field);
  if (!CURRENCY.test(v)) throw bad(`${field} must be a 3-letter ISO 4217 code in capitals`);
  return v;
}

function optionalCurrency(b: Body, field: string): string | null {
  const v = optionalString(b, field);
  if (v !== null && !CURRENCY.test(v)) throw bad(`${field} must be a 3-letter ISO 4217 code in capitals`);
  return v;
}

function requireEmail(b: Body): string {
  const v = requireString(b, 'email', 100);
  if (!EMAIL.test(v)) throw bad('email must be a valid email');
  return v;
}

function optionalPhone(b: Body, field: string): string | null {
  const v = optionalString(b, field, 50);
  if (v !== null && !PHONE.test(v)) throw bad(`${field} should be digits`);
  return v;
}

function optionalUrl(b: Body, field: string): string | null {
  const v = optionalString(b, field);
  if (v === null) return null;
  try {
    new URL(v);
  } catch {
    throw bad(`${field} must be a valid uri`);
  }
  return v;
}

function optionalObject(b: Body, field: string): Record<string, unknown> | null {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(`${field} must be an object`);
  return v as Record<string, unknown>;
}

function optionalBoolean(b: Body, field: string): boolean | null {
  const v = b[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw bad(`${field} must be a boolean`);
  return v;
}

/** Decision by the last four digits of an account or phone number (chosen, as in the other fakes). */
function outcomeOf(number: string): 'failed' | 'pending' | 'successful' {
  const suffix = number.replace(/\D/g, '').slice(-4);
  if (suffix === '0001') return 'failed';
  if (suffix === '0009') return 'pending';
  return 'successful';
}

function transferFee(currency: string, amount: number): number {
  if (currency === 'NGN') return amount <= 5000 ? 10.75 : amount <= 50_000 ? 26.875 : 53.75;
  if (currency === 'UGX') return 500;
  if (currency === 'KES') return 45;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The fake
// ---------------------------------------------------------------------------------------------

export class FlutterwaveFake {
  /** http://127.0.0.1:<port> (FLUTTERWAVE_BASE_URL; paths are /v3/...). */
  readonly url: string;
  readonly secretKey: string;
  /**
   * The dashboard's encryption key, 24 characters (a 3DES key), as getKey() in [SDK] derives it: test mode "FLWSECK_TEST"
   * + the last 12 hex of the secret key's MD5; live mode the secret key's first 12 characters after "FLWSECK-" + the same.
   */
  readonly encryptionKey: string;
  /** The secret hash set on the dashboard, sent back in `verif-hash`. */
  readonly webhookHash = hex(16);
  /** Where webhooks go (the dashboard's webhook URL); http://127.0.0.1 only. Null: webhooks are dropped. */
  webhookUrl: string | null = null;
  /** Every request received, in order (body as raw text). */
  readonly requests: FlwRecordedRequest[] = [];
  /** Every webhook sent, in order: event, body, receiver's status. */
  readonly webhooks: FlwWebhook[] = [];
  /** The raw webhook deliveries (url, body text, verif-hash, status, error). */
  readonly webhookDeliveries: FlwWebhookDelivery[] = [];
  /** Webhooks not sent (dropWebhooks on, or no webhookUrl). */
  readonly droppedWebhooks: FlwDroppedWebhook[] = [];
  /** Errors thrown inside the fake's own handlers (a bug in the fake, or a non-loopback webhookUrl). */
  readonly internalErrors: Error[] = [];
  /** While true every request answers 503. */
  down = false;
  /** While true no webhook is sent (Flutterwave sends each once; this simulates it lost). */
  dropWebhooks = false;
  /** The status a new refund is answered with (Flutterwave's samples: `completed`); `pending` waits for completeRefund. */
  refundOutcome: 'completed' | 'pending' | 'failed' = 'completed';
  /** By refund id. */
  private readonly refundMap = new Map<number, FlwRefund>();

  private readonly transactionMap = new Map<number, FlwTransaction>();
  private readonly transferMap = new Map<number, FlwTransfer>();
  private readonly accountMap = new Map<string, FlwVirtualAccount>();
  private readonly balances = new Map<string, number>();
  /** Chargebacks (flutterwave-chargebacks.ts): `chargebacks.byId` to read or alter one. */
  readonly chargebacks = new FlutterwaveChargebacks(randomInt(1_000, 9_000));
  /** Account holders POST /v3/accounts/resolve names (flutterwave-accounts.ts). */
  readonly accounts = new FlutterwaveAccounts();
  /** By Flutterwave id. */
  readonly transactions: Map<number, any> = this.transactionMap;
  readonly transfers: Map<number, any> = this.transferMap;
  /** By account number. */
  readonly virtualAccounts: Map<string, any> = this.accountMap;

  /** Card charges asked for PIN or AVS data, not yet a transaction: tx_ref → step. */
  private readonly cardPrompts = new Map<string, 'pin' | 'avs'>();
  private readonly decisionDelayMs: number;
  private readonly virtualAccountTtlMs: number;
  private readonly faults = new FaultRules('contains');
  private readonly timers = new FakeTimers(this.internalErrors);
  private readonly outbox: LoopbackCallbacks<FlwWebhookDelivery>;
  private readonly accountId = randomInt(10_000, 99_999);
  private nextTransactionId = randomInt(1_000_000, 5_000_000);
  private nextTransferId = randomInt(100_000, 500_000);
  private nextOtherId = randomInt(10_000, 90_000);
  private closed = false;
  private readonly intake: FakeIntake<Answer> = {
    requests: this.requests,
    internalErrors: this.internalErrors,
    faults: this.faults,
    isDown: () => this.down,
    route: (method, path, headers, body) => this.route(method, path, headers, body),
    send: (res, answer) => this.send(res, answer),
    // [D]: the documented 500 body.
    internalError: () => ({
      status: 500,
      body: { error_id: `ERRNO${randomInt(100_000_000, 999_999_999)}T${Date.now()}`, message: 'Application error. Please contact support', code: 'app_error' },
    }),
    // [D]: the documented 503 body.
    unavailable: (res) => this.send(res, { status: 503, body: { status: 'error', message: MSG.unavailable, data: null } }),
  };

  private constructor(
    private readonly server: http.Server,
    url: string,
    options: FlutterwaveFakeOptions,
  ) {
    this.url = url;
    this.decisionDelayMs = options.decisionDelayMs ?? 30;
    this.virtualAccountTtlMs = options.virtualAccountTtlMs ?? 60 * 60 * 1000;
    const test = options.keys === 'test';
    this.secretKey = test ? `FLWSECK_TEST-${hex(16)}-X` : `FLWSECK-${hex(16)}-X`;
    const md5Tail = createHash('md5').update(this.secretKey).digest('hex').slice(-12);
    this.encryptionKey = test ? `FLWSECK_TEST${md5Tail}` : `${this.secretKey.slice('FLWSECK-'.length, 'FLWSECK-'.length + 12)}${md5Tail}`;
    this.outbox = new LoopbackCallbacks<FlwWebhookDelivery>({
      owner: 'FlutterwaveFake',
      method: 'POST',
      contentType: 'application/json',
      deliveries: this.webhookDeliveries,
      idOf: (d) => d.key,
      headersOf: (d) => ({ 'verif-hash': d.verifHash }),
    });
  }

  static async start(options: FlutterwaveFakeOptions = {}): Promise<FlutterwaveFake> {
    return startFakeServer(
      (server, url) => new FlutterwaveFake(server, url, options),
      (fake, req, res) => serveFakeRequest(req, res, fake.intake),
    );
  }

  /** FLUTTERWAVE_BASE_URL (this.url), FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_ENCRYPTION_KEY, FLUTTERWAVE_WEBHOOK_HASH. */
  env(): Record<string, string> {
    return {
      FLUTTERWAVE_BASE_URL: this.url,
      FLUTTERWAVE_SECRET_KEY: this.secretKey,
      FLUTTERWAVE_ENCRYPTION_KEY: this.encryptionKey,
      FLUTTERWAVE_WEBHOOK_HASH: this.webhookHash,
    };
  }

  /**
   * The next `count` (default 1) requests whose path (with its query) contains `path` (a string) or matches it (a
   * RegExp) get `fault`; no path = any request. Rules apply in the order given.
   */
  failNext(fault: FlwFault, options: { count?: number; path?: string | RegExp } = {}): void {
    this.faults.add(fault, options);
  }

  /** The 3DES `client` a caller would send for `payload` (what the SDK's encrypt() does), for tests. */
  encryptPayload(payload: unknown, key: string = this.encryptionKey): string {
    return encrypt3des(key, JSON.stringify(payload));
  }

  /** The redirect page of a charge waiting for it (meta.authorization.redirect). */
  authorizationUrl(flwRef: string): string {
    return `${this.url}/mockvbvpage?ref=${encodeURIComponent(flwRef)}`;
  }

  /**
   * A sender pays into a virtual account (by its account number): creates the bank_transfer transaction (tx_ref = the
   * account's) and sends charge.completed. Resolves once the webhook attempt is over. A dynamic account takes one
   * payment of its amount (default) and none after its expiry_date; a static one needs `amount`.
   */
  async payVirtualAccount(accountNumber: string, amount?: string): Promise<void> {
    const va = this.accountMap.get(accountNumber);
    if (!va) throw new Error(`FlutterwaveFake: no virtual account ${accountNumber}`);
    if (va.expires_at && va.expires_at.getTime() <= Date.now())
      throw new Error(`FlutterwaveFake: virtual account ${accountNumber} expired at ${va.expires_at.toISOString()}`);
    if (!va.is_permanent && va.payments.length > 0) throw new Error(`FlutterwaveFake: dynamic virtual account ${accountNumber} was already paid`);
    const paid = amount !== undefined ? amountOfPaid(amount) : va.amount;
    if (paid === null) throw new Error(`FlutterwaveFake: a static virtual account needs an amount`);
    const now = new Date();
    const tx: FlwTransaction = {
      id: this.transactionId(),
      tx_ref: va.tx_ref,
      flw_ref: String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000_000, 999_999_999)),
      type: 'bank_transfer',
      payment_type: 'bank_transfer',
      event_type: 'BANK_TRANSFER_TRANSACTION',
      auth_model: 'AUTH',
      amount: paid,
      currency: va.currency,
      app_fee: round2(paid * 0.014),
      status: 'successful',
      processor_response: 'success',
      narration: va.narration ?? 'FLW',
      ip: '54.75.161.64',
      device_fingerprint: 'N/A',
      created_at: flwTime(now),
      email: va.email,
      customer: this.customer(va.email, null, va.narration ?? 'Anonymous customer', now),
      card: null,
      phone_number: null,
      redirect_url: null,
      awaiting: null,
      refunds: [],
      originator: { name: 'JOHN DOE', bank: 'Access Bank', account: '069*******31' },
      body: null,
    };
    this.transactionMap.set(tx.id, tx);
    va.payments.push(tx.id);
    await this.emitCharge(tx);
  }

  /** The wallet's balance in a currency, as GET /v3/balances/:currency answers it from now on. */
  setBalance(currency: string, available: number): void {
    this.balances.set(currency, available);
  }

  /**
   * A collection Flutterwave has and the gateway may not (reconciliation's missing_here): no webhook is sent. Returns
   * its id. `created_at` defaults to now.
   */
  seedTransaction(fields: { tx_ref: string; amount: number; currency: string; status: 'pending' | 'successful' | 'failed'; created_at?: Date }): number {
    const at = fields.created_at ?? new Date();
    const tx: FlwTransaction = {
      id: this.transactionId(),
      tx_ref: fields.tx_ref,
      flw_ref: String(randomInt(1_000_000_000, 9_999_999_999)),
      type: 'bank_transfer',
      payment_type: 'bank_transfer',
      event_type: 'BANK_TRANSFER_TRANSACTION',
      auth_model: 'AUTH',
      amount: fields.amount,
      currency: fields.currency,
      app_fee: round2(fields.amount * 0.014),
      status: fields.status,
      processor_response: fields.status === 'successful' ? 'success' : 'Transaction in progress',
      narration: 'FLW',
      ip: '54.75.161.64',
      device_fingerprint: 'N/A',
      created_at: flwTime(at),
      email: 'seeded@example.com',
      customer: this.customer('seeded@example.com', null, 'Anonymous customer', at),
      card: null,
      phone_number: null,
      redirect_url: null,
      awaiting: null,
      refunds: [],
      originator: null,
      body: null,
    };
    this.transactionMap.set(tx.id, tx);
    return tx.id;
  }

  /** A payout Flutterwave has and the gateway may not: decided as given, no webhook. Returns its id. */
  seedTransfer(fields: {
    reference: string;
    amount: number;
    currency: string;
    status: 'NEW' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';
    created_at?: Date;
  }): number {
    const t: FlwTransfer = {
      id: (this.nextTransferId += randomInt(1, 20)),
      reference: fields.reference,
      account_bank: '044',
      account_number: '0690000031',
      amount: fields.amount,
      currency: fields.currency,
      debit_currency: null,
      narration: null,
      callback_url: null,
      beneficiary_name: null,
      meta: null,
      status: fields.status,
      complete_message: fields.status === 'SUCCESSFUL' ? 'Successful' : '',
      fee: transferFee(fields.currency, fields.amount),
      full_name: 'Forrest Green',
      bank_name: 'ACCESS BANK NIGERIA',
      created_at: flwTime(fields.created_at ?? new Date()),
      body: null,
    };
    this.transferMap.set(t.id, t);
    return t.id;
  }

  /** Decide a pending transfer now (sends its webhook unless dropped). Resolves once the webhook attempt is over. */
  async completeTransfer(id: number, status: 'SUCCESSFUL' | 'FAILED', completeMessage?: string): Promise<void> {
    const t = this.transferMap.get(id);
    if (!t) throw new Error(`FlutterwaveFake: no transfer ${id}`);
    if (t.status !== 'NEW' && t.status !== 'PENDING') throw new Error(`FlutterwaveFake: transfer ${id} is already ${t.status}`);
    const message = completeMessage ?? (status === 'SUCCESSFUL' ? 'Successful' : 'DISBURSE FAILED: Insufficient funds in customer wallet');
    await this.settleTransfer(t, status, message);
  }

  /** Decide a pending charge now (sends its webhook unless dropped). Resolves once the webhook attempt is over. */
  async completeCharge(id: number, status: 'successful' | 'failed'): Promise<void> {
    const tx = this.transactionMap.get(id);
    if (!tx) throw new Error(`FlutterwaveFake: no transaction ${id}`);
    if (tx.status !== 'pending') throw new Error(`FlutterwaveFake: transaction ${id} is already ${tx.status}`);
    await this.settleCharge(tx, status);
  }

  /**
   * Sends a webhook (again, or made up) as Flutterwave would: `{event, data}` (+ "event.type" for the two documented
   * events) to webhookUrl with `verif-hash`. Resolves with the receiver's HTTP status; throws when no webhookUrl is set
   * or the request failed.
   */
  async sendWebhook(event: string, data: any): Promise<number> {
    if (!this.webhookUrl) throw new Error('FlutterwaveFake: no webhookUrl set');
    const body: Record<string, unknown> = { event, data };
    if (event === 'transfer.completed') body['event.type'] = 'Transfer';
    if (event === 'charge.completed' && data && typeof data.payment_type === 'string') body['event.type'] = eventTypeOf(data.payment_type);
    const delivery = await this.deliver(event, body, `${event}:${data?.id ?? ''}`);
    if (delivery.status === null) throw new Error(`FlutterwaveFake: webhook ${event} to ${delivery.url} failed: ${delivery.error}`);
    return delivery.status;
  }

  /**
   * A cardholder's bank charges back a successful charge (by its Flutterwave id or our tx_ref): the chargeback opens
   * (status initiated, stage new unless given) and `chargeback.initiated` is sent. Resolves with the chargeback as the
   * list shows it, once the webhook attempt is over.
   */
  async openChargeback(charge: number | string, options: OpenChargebackOptions = {}): Promise<Record<string, unknown>> {
    const tx =
      typeof charge === 'number'
        ? this.transactionMap.get(charge)
        : [...this.transactionMap.values()].filter((t) => t.tx_ref === charge && t.status === 'successful').pop();
    if (!tx) throw new Error(`FlutterwaveFake: no successful transaction ${String(charge)}`);
    const cb = this.chargebacks.open(tx, options);
    await this.emitChargeback(cb);
    return this.chargebacks.render(cb);
  }

  /** The bank decides a chargeback (won, or lost: unanswered or argued in vain), optionally at a later stage; its webhook is sent. */
  async decideChargeback(id: number, outcome: 'won' | 'lost', stage?: FlwChargebackStage): Promise<void> {
    await this.emitChargeback(this.chargebacks.decide(id, outcome, stage));
  }

  /** Resolves when a webhook for `event` about Flutterwave id `id` has been delivered (any HTTP answer). */
  webhookDelivered(event: 'charge.completed' | 'transfer.completed' | `chargeback.${FlwChargeback['status']}`, id: number, timeoutMs = 5000): Promise<void> {
    const key = `${event}:${id}`;
    if (this.closed) return Promise.reject(new Error('FlutterwaveFake closed'));
    return this.outbox.delivered(key, timeoutMs, () => {
      const dropped = this.droppedWebhooks.find((d) => d.event === event && d.body?.data?.id === id);
      return dropped ? `it was dropped (${dropped.reason})` : 'no webhook was sent';
    });
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
    if (answer.html !== undefined) {
      res
        .writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(answer.html)), ...answer.headers })
        .end(answer.html);
      return;
    }
    if (answer.body === undefined) {
      res.writeHead(answer.status, { 'content-length': '0', ...answer.headers }).end();
      return;
    }
    const text = JSON.stringify(answer.body);
    res
      .writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...answer.headers })
      .end(text);
  }

  /** The answer to one request; a Reject becomes `{status: "error", message, data: null}`, anything else is a bug. */
  private route(method: string, path: string, headers: http.IncomingHttpHeaders, raw: string): Answer {
    try {
      return this.dispatch(method, path, headers, raw);
    } catch (error) {
      if (!(error instanceof Reject)) throw error;
      return { status: error.status, body: { status: 'error', message: error.message, data: null } };
    }
  }

  private dispatch(method: string, path: string, headers: http.IncomingHttpHeaders, raw: string): Answer {
    const url = new URL(path, 'http://127.0.0.1');
    const p = url.pathname.replace(/\/+$/, '') || '/';
    if (p === '/mockvbvpage' && (method === 'GET' || method === 'POST')) return this.authorizationPage(method, url, headers, raw);

    const routes: [string, RegExp, (m: RegExpExecArray) => Answer][] = [
      ['POST', /^\/v3\/virtual-account-numbers$/, () => this.createVirtualAccount(this.json(headers, raw))],
      ['GET', /^\/v3\/virtual-account-numbers\/([^/]+)$/, (m) => this.getVirtualAccount(decodeURIComponent(m[1]))],
      ['POST', /^\/v3\/transfers$/, () => this.createTransfer(this.json(headers, raw))],
      ['GET', /^\/v3\/transfers\/([^/]+)$/, (m) => this.getTransfer(m[1])],
      ['POST', /^\/v3\/charges$/, () => this.charge(url.searchParams.get('type'), this.json(headers, raw))],
      ['POST', /^\/v3\/validate-charge$/, () => this.validateCharge(this.json(headers, raw))],
      ['GET', /^\/v3\/transactions\/verify_by_reference$/, () => this.verifyByReference(url.searchParams.get('tx_ref'))],
      ['GET', /^\/v3\/transactions\/([^/]+)\/verify$/, (m) => this.verify(m[1])],
      ['POST', /^\/v3\/transactions\/([^/]+)\/refund$/, (m) => this.refund(m[1], this.json(headers, raw))],
      ['GET', /^\/v3\/refunds\/([^/]+)$/, (m) => this.getRefund(m[1])],
      ['POST', /^\/v3\/accounts\/resolve$/, () => this.resolveAccount(this.json(headers, raw))],
      [
        'GET',
        /^\/v3\/balances$/,
        () =>
          ok(
            'Wallet balances fetched',
            BALANCE_CURRENCIES.map((c) => this.balanceOf(c)),
          ),
      ],
      ['GET', /^\/v3\/balances\/([A-Za-z]{3})$/, (m) => ok('Wallet balance fetched', this.balanceOf(m[1].toUpperCase()))],
      ['GET', /^\/v3\/transactions$/, () => this.list('Transactions fetched', [...this.transactionMap.values()], url, (tx) => this.renderTransaction(tx))],
      ['GET', /^\/v3\/transfers$/, () => this.list('Transfers fetched', [...this.transferMap.values()], url, (t) => this.renderTransfer(t))],
      ['GET', /^\/v3\/chargebacks$/, () => answerOf(this.chargebacks.list(url.searchParams))],
      ['PUT', /^\/v3\/chargebacks\/([^/]+)$/, (m) => this.answerChargeback(m[1], this.json(headers, raw))],
    ];
    for (const [routeMethod, pattern, handle] of routes) {
      const m = pattern.exec(p);
      if (!m || routeMethod !== method) continue;
      this.checkBearer(headers);
      return handle(m);
    }
    // Chosen: Flutterwave's text for an unknown route is not documented.
    throw new Reject(404, 'Route not found');
  }

  /** A list's page (flutterwave-lists.ts). */
  private list<T extends { created_at: string; status: string }>(message: string, records: T[], url: URL, render: (r: T) => Record<string, unknown>): Answer {
    const query = listQuery(url.searchParams);
    if (typeof query === 'string') throw bad(query);
    const { data, meta } = listPage(records, query, render);
    return ok(message, data, { meta });
  }

  private balanceOf(currency: string): Record<string, unknown> {
    const available = this.balances.get(currency) ?? 100_000_000;
    return { currency, available_balance: available, ledger_balance: available };
  }

  /** POST /v3/accounts/resolve (flutterwave-accounts.ts). */
  private resolveAccount(body: Body): Answer {
    const answer = this.accounts.resolve(body);
    if (answer.status !== 200) throw new Reject(answer.status, answer.message);
    return ok(answer.message, answer.data);
  }

  /** [D]: the secret key as a Bearer token, else 401. */
  private checkBearer(headers: http.IncomingHttpHeaders): void {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization'));
    if (!m) throw new Reject(401, MSG.authRequired);
    if (m[1] !== this.secretKey) throw new Reject(401, MSG.authInvalid);
  }

  /** The JSON object body; a non-JSON Content-Type reads as an empty body (chosen), bad JSON is a 400. */
  private json(headers: http.IncomingHttpHeaders, raw: string): Body {
    if (!/^application\/json\b/i.test(header(headers, 'content-type'))) return {};
    if (raw.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw bad('Invalid JSON body');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('The body must be a JSON object');
    return parsed as Body;
  }

  // -------------------------------------------------------------------------------------------
  // Virtual accounts
  // -------------------------------------------------------------------------------------------

  private createVirtualAccount(b: Body): Answer {
    const email = requireEmail(b);
    const isPermanent = optionalBoolean(b, 'is_permanent') ?? false;
    const currency = optionalCurrency(b, 'currency') ?? 'NGN';
    if (currency !== 'NGN' && currency !== 'GHS') throw bad('currency must be NGN or GHS');
    const txRef = optionalString(b, 'tx_ref', 100) ?? `FLW-VA-${hex(8)}`;
    const narration = optionalString(b, 'narration', 100);
    optionalPhone(b, 'phonenumber');
    optionalString(b, 'firstname');
    optionalString(b, 'lastname');
    let amount: number | null = null;
    if (isPermanent) {
      if (b.amount !== undefined && b.amount !== null && b.amount !== 0) amountOf(b.amount, 'amount');
      if (currency === 'NGN') {
        const bvn = optionalString(b, 'bvn');
        const nin = optionalString(b, 'nin');
        if (bvn === null && nin === null) throw bad('bvn is required for a static NGN virtual account (or nin)');
        if (bvn !== null && !/^\d{11}$/.test(bvn)) throw bad('bvn must be 11 digits');
        if (nin !== null && !/^\d{11}$/.test(nin)) throw bad('nin must be 11 digits');
      }
    } else {
      amount = requireAmount(b);
    }

    const now = new Date();
    let accountNumber: string;
    do accountNumber = `${randomInt(7, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
    while (this.accountMap.has(accountNumber));
    const va: FlwVirtualAccount = {
      account_number: accountNumber,
      order_ref: `URF_${now.getTime()}_${randomInt(1_000_000, 9_999_999)}`,
      flw_ref: `FLW-${hex(16)}`,
      tx_ref: txRef,
      email,
      is_permanent: isPermanent,
      amount,
      currency,
      narration,
      bank_name: 'WEMA BANK',
      created_at: now,
      expires_at: isPermanent ? null : new Date(now.getTime() + this.virtualAccountTtlMs),
      payments: [],
      body: b,
    };
    this.accountMap.set(accountNumber, va);
    return ok('Virtual account created', this.renderAccount(va));
  }

  private getVirtualAccount(orderRef: string): Answer {
    const va = [...this.accountMap.values()].find((a) => a.order_ref === orderRef);
    if (!va) throw new Reject(404, 'Virtual account not found');
    return ok('Virtual account fetched', this.renderAccount(va));
  }

  private renderAccount(va: FlwVirtualAccount): Record<string, unknown> {
    return {
      response_code: '02',
      response_message: 'Transaction in progress',
      flw_ref: va.flw_ref,
      order_ref: va.order_ref,
      account_number: va.account_number,
      frequency: 'N/A',
      bank_name: va.bank_name,
      created_at: vaTime(va.created_at),
      expiry_date: va.expires_at ? vaTime(va.expires_at) : 'N/A',
      note: `Please make a bank transfer to ${va.narration ?? 'FLW'}`,
      amount: va.amount === null ? null : va.amount.toFixed(2),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Transfers
  // -------------------------------------------------------------------------------------------

  private createTransfer(b: Body): Answer {
    const accountBank = requireString(b, 'account_bank');
    const accountNumber = requireString(b, 'account_number', 20);
    const amount = requireAmount(b);
    const currency = requireCurrency(b);
    const debitCurrency = optionalCurrency(b, 'debit_currency');
    const narration = optionalString(b, 'narration', 100);
    const reference = optionalString(b, 'reference', 100) ?? `${hex(8)}_PMCKDU_1`;
    const callbackUrl = optionalString(b, 'callback_url');
    const beneficiaryName = optionalString(b, 'beneficiary_name', 100);
    const meta = b.meta;
    if (meta !== undefined && meta !== null && typeof meta !== 'object') throw bad('meta must be an object or an array');
    // [D] mobile money transfers: "Mobile Money Kenya (M-Pesa) requires you to include the sender's full name as sender,
    // the sender's country as sender_country and the sender's mobile number as mobile_number in the meta object."
    // [SDK] transferSchema wants meta as an array of one object for KES (its samples store meta as an array); [D]'s
    // mobile money page prints a bare object. Both are taken.
    if (currency === 'KES' && accountBank.toUpperCase() === 'MPS') {
      const m = ((Array.isArray(meta) ? meta[0] : meta) ?? {}) as Record<string, unknown>;
      for (const key of ['sender', 'sender_country', 'mobile_number']) {
        if (typeof m[key] !== 'string' || (m[key] as string).trim() === '') throw bad(`meta.${key} is required for M-Pesa transfers`);
      }
    }

    // Chosen (see the header): a reused reference makes no second transfer.
    if ([...this.transferMap.values()].some((t) => t.reference === reference)) throw bad(`Transfer with reference ${reference} already exists`);

    const t: FlwTransfer = {
      id: (this.nextTransferId += randomInt(1, 20)),
      reference,
      account_bank: accountBank,
      account_number: accountNumber,
      amount,
      currency,
      debit_currency: debitCurrency,
      narration,
      callback_url: callbackUrl,
      beneficiary_name: beneficiaryName,
      meta: meta ?? null,
      status: 'NEW',
      complete_message: '',
      fee: transferFee(currency, amount),
      full_name: TEST_ACCOUNT_NAMES[accountNumber] ?? beneficiaryName ?? 'N/A',
      bank_name: BANK_NAMES[accountBank] ?? (MOMO_BANK_CODES.has(accountBank.toUpperCase()) ? 'FA-BANK' : 'N/A'),
      created_at: flwTime(),
      body: b,
    };
    this.transferMap.set(t.id, t);
    this.timers.later(this.decisionDelayMs, () => this.decideTransfer(t.id), `transfer:${t.id}`);
    return ok('Transfer Queued Successfully', this.renderTransfer(t));
  }

  private getTransfer(rawId: string): Answer {
    const t = /^\d+$/.test(rawId) ? this.transferMap.get(Number(rawId)) : undefined;
    if (!t) throw new Reject(404, 'Transfer not found');
    return ok('Transfer fetched', { ...this.renderTransfer(t), approver: null });
  }

  private renderTransfer(t: FlwTransfer): Record<string, unknown> {
    return {
      id: t.id,
      account_number: t.account_number,
      bank_code: t.account_bank,
      full_name: t.full_name,
      created_at: t.created_at,
      currency: t.currency,
      debit_currency: t.debit_currency,
      amount: t.amount,
      fee: t.fee,
      status: t.status,
      reference: t.reference,
      meta: t.meta,
      narration: t.narration,
      complete_message: t.complete_message,
      requires_approval: 0,
      is_approved: 1,
      bank_name: t.bank_name,
    };
  }

  private async decideTransfer(id: number): Promise<void> {
    const t = this.transferMap.get(id);
    if (!t || t.status !== 'NEW' || this.closed) return;
    if (MOMO_BANK_CODES.has(t.account_bank.toUpperCase()) && !t.beneficiary_name) {
      await this.settleTransfer(t, 'FAILED', 'beneficiary_name is required');
      return;
    }
    const outcome = outcomeOf(t.account_number);
    if (outcome === 'pending') {
      t.status = 'PENDING';
      return;
    }
    if (outcome === 'failed') await this.settleTransfer(t, 'FAILED', 'DISBURSE FAILED: Insufficient funds in customer wallet');
    else await this.settleTransfer(t, 'SUCCESSFUL', 'Successful');
  }

  private async settleTransfer(t: FlwTransfer, status: 'SUCCESSFUL' | 'FAILED', completeMessage: string): Promise<void> {
    this.timers.cancel(`transfer:${t.id}`);
    t.status = status;
    t.complete_message = completeMessage;
    // [D] sample: the webhook's data names the holder `fullname` (the API's `full_name`) and adds `approver`.
    const data = {
      id: t.id,
      account_number: t.account_number,
      bank_name: t.bank_name,
      bank_code: t.account_bank,
      fullname: t.full_name,
      created_at: t.created_at,
      currency: t.currency,
      debit_currency: t.debit_currency,
      amount: t.amount,
      fee: t.fee,
      status: t.status,
      reference: t.reference,
      meta: t.meta,
      narration: t.narration,
      approver: null,
      complete_message: t.complete_message,
      requires_approval: 0,
      is_approved: 1,
    };
    await this.emit('transfer.completed', { event: 'transfer.completed', 'event.type': 'Transfer', data }, `transfer.completed:${t.id}`);
  }

  // -------------------------------------------------------------------------------------------
  // Charges
  // -------------------------------------------------------------------------------------------

  private charge(type: string | null, b: Body): Answer {
    if (type === 'card') return this.cardCharge(b);
    if (type !== null && type in MOMO) return this.momoCharge(type as MomoType, b);
    throw bad(type ? `Invalid charge type: ${type}` : 'type is required');
  }

  private momoCharge(type: MomoType, b: Body): Answer {
    const spec = MOMO[type];
    const amount = requireAmount(b);
    const email = requireEmail(b);
    const txRef = requireString(b, 'tx_ref', 100);
    const currency = requireCurrency(b);
    const phone = optionalPhone(b, 'phone_number');
    if (phone === null) throw bad('phone_number is required');
    if (!spec.currencies.includes(currency)) throw bad(`currency must be ${spec.currencies.join(' or ')} for type ${type}`);
    const network = optionalString(b, 'network');
    if (network !== null && NETWORKS[currency] && !NETWORKS[currency].includes(network.toUpperCase())) {
      throw bad(`Only ${NETWORKS[currency].join(', ')} are valid for ${currency}.`);
    }
    if ((currency === 'XAF' || currency === 'XOF') && optionalString(b, 'country') === null) throw bad('country is required');
    if (currency === 'RWF') requireString(b, 'order_id', 100);
    const fullname = optionalString(b, 'fullname', 100);
    const redirectUrl = optionalUrl(b, 'redirect_url');
    optionalObject(b, 'meta');
    this.checkNewTxRef(txRef);

    const now = new Date();
    const tx: FlwTransaction = {
      id: this.transactionId(),
      tx_ref: txRef,
      flw_ref: String(randomInt(1_000_000_000, 9_999_999_999)),
      type,
      payment_type: spec.paymentType,
      event_type: spec.eventType,
      auth_model: spec.authModel,
      amount,
      currency,
      app_fee: round2(amount * 0.029),
      status: 'pending',
      processor_response: 'Transaction in progress',
      narration: type === 'mpesa' ? 'FLW-PBF MPESA Transaction ' : (fullname ?? 'Flutterwave Developers'),
      ip: '::127.0.0.1',
      device_fingerprint: optionalString(b, 'device_fingerprint', 200) ?? 'N/A',
      created_at: flwTime(now),
      email,
      customer: this.customer(email, phone, fullname ?? 'Anonymous customer', now),
      card: null,
      phone_number: phone,
      redirect_url: redirectUrl,
      awaiting: spec.answer === 'redirect' ? 'redirect' : 'customer',
      refunds: [],
      originator: null,
      body: b,
    };
    this.transactionMap.set(tx.id, tx);
    if (outcomeOf(phone) !== 'pending') {
      this.timers.later(this.decisionDelayMs, () => this.settleCharge(tx, outcomeOf(phone) === 'failed' ? 'failed' : 'successful'), `charge:${tx.id}`);
    }
    if (spec.answer === 'redirect')
      return ok('Charge initiated', undefined, { meta: { authorization: { redirect: this.authorizationUrl(tx.flw_ref), mode: 'redirect' } } });
    if (spec.answer === 'callback') return ok('Charge initiated', this.renderCharge(tx), { meta: { authorization: { mode: 'callback', redirect_url: null } } });
    return ok('Charge initiated', this.renderCharge(tx));
  }

  /** POST /v3/charges?type=card: `{client}` = base64(3DES-EDE3-ECB(JSON)). */
  private cardCharge(outer: Body): Answer {
    const client = outer.client;
    if (client === undefined || client === null || client === '') throw bad('client is required');
    if (typeof client !== 'string') throw bad(MSG.decrypt);
    const b = decrypt3des(this.encryptionKey, client);
    if (b === null) throw bad(MSG.decrypt);

    const cardNumber = requireString(b, 'card_number').replace(/\s+/g, '');
    if (!/^\d{12,19}$/.test(cardNumber) || !luhn(cardNumber)) throw bad('card_number must be a valid card number');
    const cvv = requireString(b, 'cvv');
    if (!/^\d{3,4}$/.test(cvv)) throw bad('cvv must be 3 or 4 digits');
    const month = requireString(b, 'expiry_month');
    if (!/^\d{2}$/.test(month) || Number(month) < 1 || Number(month) > 12) throw bad('Invalid expiry month');
    const year = requireString(b, 'expiry_year');
    if (!/^\d{2}$/.test(year)) throw bad('expiry_year must be 2 digits');
    if (Date.UTC(2000 + Number(year), Number(month), 1) <= Date.now()) throw bad('Card has expired');
    const amount = requireAmount(b);
    const email = requireEmail(b);
    const txRef = requireString(b, 'tx_ref', 100);
    const currency = optionalCurrency(b, 'currency') ?? 'NGN';
    const redirectUrl = optionalUrl(b, 'redirect_url');
    const fullname = optionalString(b, 'fullname', 100);
    const phone = optionalPhone(b, 'phone_number');
    const authorization = optionalObject(b, 'authorization');
    optionalObject(b, 'meta');

    if ([...this.transactionMap.values()].some((t) => t.tx_ref === txRef)) throw bad(MSG.duplicateTxRef);
    const profile = TEST_CARDS[cardNumber] ?? { flow: 'noauth' as CardFlow, type: cardNumber.startsWith('4') ? 'VISA' : 'MASTERCARD', issuer: 'CARD ISSUER' };

    // The PIN and AVS cards first answer what authorization they need; the caller resubmits with it (same tx_ref).
    let authModel: string;
    let next: 'otp' | 'redirect' | 'done' | 'declined';
    if (profile.flow === 'pin') {
      if (!authorization) {
        this.cardPrompts.set(txRef, 'pin');
        return ok('Charge authorization data required', undefined, { meta: { authorization: { mode: 'pin', fields: ['pin'] } } });
      }
      if (authorization.mode !== 'pin') throw bad('authorization.mode must be pin for this card');
      if (String(authorization.pin ?? '') !== TEST_PIN) throw bad('Incorrect PIN');
      authModel = 'PIN';
      next = 'otp';
    } else if (profile.flow === 'avs') {
      if (!authorization) {
        this.cardPrompts.set(txRef, 'avs');
        return ok('Charge authorization data required', undefined, { meta: { authorization: { mode: 'avs_noauth', fields: AVS_FIELDS } } });
      }
      if (authorization.mode !== 'avs_noauth') throw bad('authorization.mode must be avs_noauth for this card');
      for (const field of AVS_FIELDS) {
        const value = authorization[field];
        if (typeof value !== 'string' || value.trim() === '') throw bad(`authorization.${field} is required`);
      }
      authModel = 'AVS_VBVSECURECODE';
      next = 'redirect';
    } else if (profile.flow === '3ds') {
      authModel = 'VBVSECURECODE';
      next = 'redirect';
    } else if (profile.flow === 'decline') {
      authModel = 'NOAUTH';
      next = 'declined';
    } else {
      authModel = 'NOAUTH';
      next = 'done';
    }
    this.cardPrompts.delete(txRef);

    const now = new Date();
    const tx: FlwTransaction = {
      id: this.transactionId(),
      tx_ref: txRef,
      flw_ref: `FLW-MOCK-${hex(16)}`,
      type: 'card',
      payment_type: 'card',
      event_type: 'CARD_TRANSACTION',
      auth_model: authModel,
      amount,
      currency,
      app_fee: round2(amount * 0.014),
      status: next === 'done' ? 'successful' : next === 'declined' ? 'failed' : 'pending',
      processor_response:
        next === 'otp'
          ? 'Kindly enter the OTP sent to *******0328'
          : next === 'redirect'
            ? 'Pending Validation'
            : next === 'declined'
              ? (profile.reason ?? 'Declined')
              : 'Approved',
      narration: 'CARD Transaction ',
      ip: '::ffff:10.7.214.204',
      device_fingerprint: optionalString(b, 'device_fingerprint', 200) ?? 'N/A',
      created_at: flwTime(now),
      email,
      customer: this.customer(email, phone, fullname ?? 'Anonymous customer', now),
      card: {
        first_6digits: cardNumber.slice(0, 6),
        last_4digits: cardNumber.slice(-4),
        issuer: profile.issuer,
        country: 'NIGERIA NG',
        type: profile.type,
        token: `flw-t1nf-${hex(16)}-m03k`,
        expiry: `${month}/${year}`,
      },
      phone_number: phone,
      redirect_url: redirectUrl,
      awaiting: next === 'otp' ? 'otp' : next === 'redirect' ? 'redirect' : null,
      refunds: [],
      originator: null,
      body: { ...b, card_number: `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`, cvv: '***' },
    };
    this.transactionMap.set(tx.id, tx);
    if (tx.status !== 'pending') this.fire(this.emitCharge(tx));

    const data = this.renderCharge(tx);
    if (next === 'otp') return ok('Charge initiated', data, { meta: { authorization: { mode: 'otp', endpoint: '/v3/validate-charge' } } });
    if (next === 'redirect')
      return ok('Charge initiated', data, { meta: { authorization: { mode: 'redirect', redirect: this.authorizationUrl(tx.flw_ref) } } });
    return ok('Charge initiated', data);
  }

  /** POST /v3/validate-charge {otp, flw_ref, type?}. */
  private validateCharge(b: Body): Answer {
    const otpRaw = b.otp;
    if (otpRaw === undefined || otpRaw === null || otpRaw === '') throw bad('otp is required');
    if (typeof otpRaw !== 'string' && typeof otpRaw !== 'number') throw bad('otp must be a string');
    const otp = String(otpRaw);
    if (otp.length < 5 || otp.length > 7) throw bad('otp must be 5 to 7 characters');
    const flwRef = requireString(b, 'flw_ref');
    const type = optionalString(b, 'type');
    if (type !== null && type !== 'card' && type !== 'account') throw bad('type must be card or account');
    const tx = [...this.transactionMap.values()].find((t) => t.flw_ref === flwRef);
    if (!tx) throw bad('No transaction was found for this flw_ref');
    if (tx.status !== 'pending' || tx.awaiting !== 'otp') throw bad(`Transaction is not awaiting an OTP (status ${tx.status})`);
    if (otp !== TEST_OTP) throw bad('Invalid OTP');
    this.finish(tx, 'successful');
    this.fire(this.emitCharge(tx));
    return ok('Charge validated', this.renderCharge(tx));
  }

  private checkNewTxRef(txRef: string): void {
    if ([...this.transactionMap.values()].some((t) => t.tx_ref === txRef) || this.cardPrompts.has(txRef)) throw bad(MSG.duplicateTxRef);
  }

  /** Sets a pending charge's outcome (no webhook). */
  private finish(tx: FlwTransaction, status: 'successful' | 'failed'): void {
    this.timers.cancel(`charge:${tx.id}`);
    tx.status = status;
    tx.awaiting = null;
    tx.processor_response =
      status === 'successful'
        ? tx.type === 'card'
          ? 'Approved by Financial Institution'
          : 'Successful'
        : tx.type === 'card'
          ? 'Declined'
          : 'Insufficient Funds';
  }

  private async settleCharge(tx: FlwTransaction, status: 'successful' | 'failed'): Promise<void> {
    if (tx.status !== 'pending' || this.closed) return;
    this.finish(tx, status);
    await this.emitCharge(tx);
  }

  /** The initiation / validation answer's data ([SDK] and [C] samples). */
  private renderCharge(tx: FlwTransaction): Record<string, unknown> {
    const out: Record<string, unknown> = {
      id: tx.id,
      tx_ref: tx.tx_ref,
      flw_ref: tx.flw_ref,
      device_fingerprint: tx.device_fingerprint,
      amount: tx.amount,
      charged_amount: tx.amount,
      app_fee: tx.app_fee,
      merchant_fee: 0,
      processor_response: tx.processor_response,
      auth_model: tx.auth_model,
      currency: tx.currency,
      ip: tx.ip,
      narration: tx.narration,
      status: tx.status,
      auth_url: tx.awaiting === 'redirect' ? this.authorizationUrl(tx.flw_ref) : 'N/A',
      payment_type: tx.payment_type,
      fraud_status: 'ok',
      charge_type: 'normal',
      created_at: tx.created_at,
      account_id: this.accountId,
      customer: tx.customer,
    };
    if (tx.card) out.card = tx.card;
    return out;
  }

  /** The verify shape ([SDK] samples); `webhook`: the webhook's data ([D] sample: without meta and amount_settled). */
  private renderTransaction(tx: FlwTransaction, webhook = false): Record<string, unknown> {
    const out: Record<string, unknown> = {
      id: tx.id,
      tx_ref: tx.tx_ref,
      flw_ref: tx.flw_ref,
      device_fingerprint: tx.device_fingerprint,
      amount: tx.amount,
      currency: tx.currency,
      charged_amount: tx.amount,
      app_fee: tx.app_fee,
      merchant_fee: 0,
      processor_response: tx.processor_response,
      auth_model: tx.auth_model,
      ip: tx.ip,
      narration: tx.narration,
      status: tx.status,
      payment_type: tx.payment_type,
      created_at: tx.created_at,
      account_id: this.accountId,
    };
    if (!webhook) {
      out.meta = null;
      out.amount_settled = tx.status === 'successful' ? round2(tx.amount - tx.app_fee) : null;
    }
    out.customer = tx.customer;
    if (tx.card) out.card = tx.card;
    return out;
  }

  private emitCharge(tx: FlwTransaction): Promise<void> {
    const body: Record<string, unknown> = { event: 'charge.completed', data: this.renderTransaction(tx, true) };
    if (tx.originator) {
      body.meta_data = {
        originatorname: tx.originator.name,
        bankname: tx.originator.bank,
        originatoramount: 'N/A',
        originatoraccountnumber: tx.originator.account,
      };
    }
    body['event.type'] = tx.event_type;
    return this.emit('charge.completed', body, `charge.completed:${tx.id}`);
  }

  // -------------------------------------------------------------------------------------------
  // The redirect page (a cardholder's browser, no Bearer)
  // -------------------------------------------------------------------------------------------

  private authorizationPage(method: string, url: URL, headers: http.IncomingHttpHeaders, raw: string): Answer {
    const flwRef = url.searchParams.get('ref') ?? '';
    const tx = [...this.transactionMap.values()].find((t) => t.flw_ref === flwRef);
    const page = (status: number, title: string, body: string): Answer => ({
      status,
      html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    });
    if (!tx) return page(404, 'Transaction not found', '<p>No transaction has this reference.</p>');

    let outcome = url.searchParams.get('outcome');
    if (method === 'POST' && outcome === null && /^application\/x-www-form-urlencoded\b/i.test(header(headers, 'content-type'))) {
      outcome = new URLSearchParams(raw).get('outcome');
    }
    if (outcome === null) {
      if (tx.status !== 'pending') return this.afterPage(tx, page);
      const action = escapeHtml(this.authorizationUrl(tx.flw_ref));
      return page(
        200,
        'Flutterwave test authorization',
        `<p>Authorize ${escapeHtml(tx.currency)} ${tx.amount} (${escapeHtml(tx.tx_ref)}).</p>` +
          `<form method="post" action="${action}"><input type="hidden" name="outcome" value="success"><button type="submit">Authorize</button></form>` +
          `<form method="post" action="${action}"><input type="hidden" name="outcome" value="fail"><button type="submit">Decline</button></form>`,
      );
    }
    if (outcome !== 'success' && outcome !== 'fail') return page(400, 'Bad outcome', '<p>outcome must be success or fail.</p>');
    if (tx.status === 'pending') {
      this.finish(tx, outcome === 'success' ? 'successful' : 'failed');
      this.fire(this.emitCharge(tx));
    }
    return this.afterPage(tx, page);
  }

  /** Back to the merchant: redirect_url?status=…&tx_ref=…&transaction_id=… (302), or a page when there is none. */
  private afterPage(tx: FlwTransaction, page: (status: number, title: string, body: string) => Answer): Answer {
    if (!tx.redirect_url) return page(200, `Payment ${tx.status}`, `<p>${escapeHtml(tx.tx_ref)}: ${escapeHtml(tx.status)}</p>`);
    const query = new URLSearchParams({ status: tx.status, tx_ref: tx.tx_ref, transaction_id: String(tx.id) }).toString();
    const location = `${tx.redirect_url}${tx.redirect_url.includes('?') ? '&' : '?'}${query}`;
    return { status: 302, headers: { location }, html: `<!doctype html><p><a href="${escapeHtml(location)}">Continue</a></p>` };
  }

  // -------------------------------------------------------------------------------------------
  // Transactions: verify, refund
  // -------------------------------------------------------------------------------------------

  private verify(rawId: string): Answer {
    const tx = /^\d+$/.test(rawId) ? this.transactionMap.get(Number(rawId)) : undefined;
    if (!tx) throw bad(MSG.noTransaction);
    return ok('Transaction fetched successfully', this.renderTransaction(tx));
  }

  private verifyByReference(txRef: string | null): Answer {
    if (!txRef) throw bad('tx_ref is required');
    const matches = [...this.transactionMap.values()].filter((t) => t.tx_ref === txRef);
    const tx = matches[matches.length - 1];
    if (!tx) throw bad(MSG.noTransaction);
    return ok('Transaction fetched successfully', this.renderTransaction(tx));
  }

  private refund(rawId: string, b: Body): Answer {
    const tx = /^\d+$/.test(rawId) ? this.transactionMap.get(Number(rawId)) : undefined;
    if (!tx) throw bad(MSG.noTransaction);
    const comments = optionalString(b, 'comments');
    const amount = b.amount === undefined || b.amount === null ? null : amountOf(b.amount, 'amount');
    if (tx.status !== 'successful') throw bad('Only successful transactions can be refunded');
    const refunded = tx.refunds.reduce((sum, r) => sum + r.amount_refunded, 0);
    const remaining = round2(tx.amount - refunded);
    if (remaining <= 0) throw bad('Transaction has been fully refunded');
    const value = amount ?? remaining;
    if (value > remaining) throw bad('Refund amount exceeds the refundable amount');
    const refund: FlwRefund = {
      id: (this.nextOtherId += 1),
      amount_refunded: value,
      comments,
      created_at: new Date().toISOString(),
      tx_id: tx.id,
      flw_ref: `URF_${Date.now()}_${randomInt(1_000_000, 9_999_999)}`,
      status: this.refundOutcome,
    };
    tx.refunds.push(refund);
    this.refundMap.set(refund.id, refund);
    return ok('Transaction refund initiated', this.renderRefund(refund));
  }

  /** GET /v3/refunds/:id ("get refund details" in Flutterwave's v3 reference): the refund as it was answered, with its status now. */
  private getRefund(rawId: string): Answer {
    const refund = /^\d+$/.test(rawId) ? this.refundMap.get(Number(rawId)) : undefined;
    if (!refund) throw new Reject(404, 'Refund not found');
    return ok('Refund fetched', this.renderRefund(refund));
  }

  private renderRefund(refund: FlwRefund) {
    return {
      id: refund.id,
      account_id: this.accountId,
      tx_id: refund.tx_id,
      flw_ref: refund.flw_ref,
      wallet_id: this.accountId + 1,
      amount_refunded: refund.amount_refunded,
      status: refund.status,
      destination: 'payment_source',
      meta: { source: 'availablebalance' },
      created_at: refund.created_at,
    };
  }

  /** Decide a refund that was left `pending` (refundOutcome). */
  completeRefund(id: number, status: 'completed' | 'failed'): void {
    const refund = this.refundMap.get(id);
    if (!refund) throw new Error(`FlutterwaveFake: no refund ${id}`);
    refund.status = status;
  }

  // -------------------------------------------------------------------------------------------
  // Chargebacks (flutterwave-chargebacks.ts)
  // -------------------------------------------------------------------------------------------

  /** PUT /v3/chargebacks/:id: the answer, and the webhook of the new status. */
  private answerChargeback(rawId: string, b: Body): Answer {
    const { answer, changed } = this.chargebacks.answer(rawId, b);
    if (changed) this.fire(this.emitChargeback(changed));
    return answerOf(answer);
  }

  private emitChargeback(cb: FlwChargeback): Promise<void> {
    const event = `chargeback.${cb.status}`;
    return this.emit(event, { event, data: this.chargebacks.render(cb) }, `${event}:${cb.id}`);
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks
  // -------------------------------------------------------------------------------------------

  /** A webhook as Flutterwave sends it: once, to webhookUrl, unless dropped. */
  private async emit(event: string, body: Record<string, unknown>, key: string): Promise<void> {
    if (this.closed) return;
    if (this.dropWebhooks) {
      this.droppedWebhooks.push({ event, body, reason: 'dropWebhooks' });
      return;
    }
    if (!this.webhookUrl) {
      this.droppedWebhooks.push({ event, body, reason: 'no webhookUrl' });
      return;
    }
    await this.deliver(event, body, key);
  }

  /** POSTs `body` to webhookUrl (http://127.0.0.1 only) with `verif-hash`; records it in `webhooks`. */
  private async deliver(event: string, body: Record<string, unknown>, key: string): Promise<FlwWebhookDelivery> {
    const url = this.webhookUrl ?? '';
    assertLoopbackUrl(url, 'FlutterwaveFake');
    const delivery: FlwWebhookDelivery = {
      key,
      event,
      url,
      body: JSON.stringify(body),
      verifHash: this.webhookHash,
      status: null,
      error: null,
      at: new Date(),
    };
    // The receiver's status, as soon as LoopbackCallbacks records it (before any waiter wakes).
    this.webhooks.push({
      event,
      body,
      get status() {
        return delivery.status;
      },
    });
    await this.outbox.send(delivery);
    return delivery;
  }

  /** Runs a webhook send in the background; a failure (a bug, a non-loopback URL) lands in internalErrors. */
  private fire(promise: Promise<void>): void {
    promise.catch((error: Error) => this.internalErrors.push(error));
  }

  // -------------------------------------------------------------------------------------------
  // Ids and parties
  // -------------------------------------------------------------------------------------------

  private transactionId(): number {
    this.nextTransactionId += randomInt(1, 50);
    return this.nextTransactionId;
  }

  private customer(email: string, phone: string | null, name: string, at: Date): FlwTransaction['customer'] {
    return { id: (this.nextOtherId += 1), name, phone_number: phone, email, created_at: flwTime(at) };
  }
}

// ---------------------------------------------------------------------------------------------
// 3DES, as the SDK does it
// ---------------------------------------------------------------------------------------------

/** [SDK] encrypt(): 3DES-ECB, the key's characters as bytes, PKCS#7 padding, base64. */
export function encrypt3des(key: string, text: string): string {
  const cipher = createCipheriv('des-ede3', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/** The decrypted JSON object, or null when `client` is not base64 of a 3DES-ECB/PKCS#7 JSON object under `key`. */
function decrypt3des(key: string, client: string): Body | null {
  const compact = client.replace(/\s+/g, '');
  if (compact === '' || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0 || bytes.length % 8 !== 0) return null;
  const keyBytes = Buffer.from(key, 'utf8');
  if (keyBytes.length !== 24) return null;
  try {
    const decipher = createDecipheriv('des-ede3', keyBytes, null);
    const text = Buffer.concat([decipher.update(bytes), decipher.final()]).toString('utf8');
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Body;
  } catch {
    return null;
  }
}

/** A chargeback helper's answer as the fake sends it. */
function answerOf(answer: ChargebackAnswer): Answer {
  if (!answer.ok) throw new Reject(answer.status, answer.message);
  return ok(answer.message, answer.data, answer.meta === undefined ? {} : { meta: answer.meta });
}

function amountOfPaid(amount: string): number {
  const n = Number(amount);
  if (!NUMERIC.test(amount) || !(n > 0)) throw new Error(`FlutterwaveFake: amount must be a positive number, not ${JSON.stringify(amount)}`);
  return n;
}

function eventTypeOf(paymentType: string): string {
  if (paymentType === 'card') return 'CARD_TRANSACTION';
  if (paymentType === 'bank_transfer') return 'BANK_TRANSFER_TRANSACTION';
  return `${paymentType.toUpperCase()}_TRANSACTION`;
}
