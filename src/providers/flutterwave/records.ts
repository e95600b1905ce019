import { Decimal } from '../../shared/money';
import type { ProviderDispute, ProviderRecord, RecordWindow } from '../capabilities';
import { ProviderUnreachable } from '../connector';
import { field, type ProviderResponse } from '../provider-http';
import { flutterwaveTime } from './mapping';
import { chargebackReason, chargebackStage, chargebackStatus } from './statuses';

/*
 * Flutterwave's lists, as reconciliation reads them (docs/reconciliation.md). Sources: the official Node SDK
 * (Flutterwave/Node-v3: services/transactions/rave.retrieve.js → GET /v3/transactions?, services/transfers/
 * rave.retrieve.transfers.js → GET /v3/transfers?, services/misc/rave.balances-currency.js → GET /v3/balances/{currency};
 * services/schema/base.js listSchema: `page`, `from`, `to` as ISO dates, `status`), and its documentation's samples:
 * `{status: "success", meta: {page_info: {total, current_page, total_pages}}, data: [...]}`; a transaction's `id`,
 * `tx_ref`, `amount`, `currency`, `status` (successful | failed | pending), `created_at`; a transfer's `id`,
 * `reference`, `amount`, `currency`, `status` (NEW | PENDING | SUCCESSFUL | FAILED), `created_at`; a balance's
 * `data.available_balance`.
 */

/** One GET through the connector (its Bearer key, its timeouts). */
type Get = (path: string, operation: string) => Promise<ProviderResponse>;

/** Flutterwave's dates are days (`from`, `to` inclusive): the window's first and last day, the rest filtered here. */
function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const inWindow = (createdAt: string | null, window: RecordWindow) => {
  const t = createdAt ? Date.parse(createdAt) : NaN;
  return !Number.isNaN(t) && t >= window.from.getTime() && t < window.to.getTime();
};

/** One page's items, and whether another follows (page_info). A non-200 is no answer: the run fails and is tried again. */
function pageOf(res: ProviderResponse, operation: string): { items: unknown[]; last: boolean } {
  const data = (res.json as { data?: unknown } | undefined)?.data;
  if (res.status !== 200 || field(res.json, 'status') !== 'success' || !Array.isArray(data)) {
    throw new ProviderUnreachable('flutterwave', operation, `HTTP ${res.status}`);
  }
  const current = Number(field(res.json, 'meta', 'page_info', 'current_page') ?? 1);
  const total = Number(field(res.json, 'meta', 'page_info', 'total_pages') ?? 1);
  return { items: data, last: !(current < total) || data.length === 0 };
}

/** A charge's status in three words (anything else, e.g. `cancelled`, is a failure: nothing was collected). */
function chargeStatus(status: string | null): ProviderRecord['status'] {
  if (status === 'successful') return 'successful';
  if (status === 'pending') return 'pending';
  return 'failed';
}

function transferStatus(status: string | null): ProviderRecord['status'] {
  if (status === 'SUCCESSFUL') return 'successful';
  if (status === 'FAILED') return 'failed';
  return 'pending';
}

function recordOf(item: unknown, reference: 'tx_ref' | 'reference', kind: ProviderRecord['kind']): ProviderRecord | null {
  const id = field(item, 'id');
  const amount = field(item, 'amount');
  const currency = field(item, 'currency');
  if (!id || !amount || !currency) return null;
  const status = field(item, 'status');
  return {
    providerReference: id,
    ourReference: field(item, reference),
    amount: new Decimal(amount),
    currency,
    status: kind === 'in' ? chargeStatus(status) : transferStatus(status),
    kind,
  };
}

/** Collections and card payments: `GET /v3/transactions?from=&to=&page=`, every page. */
async function* charges(get: Get, window: RecordWindow): AsyncIterable<ProviderRecord> {
  for (let page = 1; ; page++) {
    const res = await get(`/v3/transactions?from=${day(window.from)}&to=${day(new Date(window.to.getTime() - 1))}&page=${page}`, 'transactions list');
    const { items, last } = pageOf(res, 'transactions list');
    for (const item of items) {
      const record = inWindow(field(item, 'created_at'), window) ? recordOf(item, 'tx_ref', 'in') : null;
      if (record) yield record;
    }
    if (last) return;
  }
}

/**
 * Payouts: `GET /v3/transfers?page=`, newest first (the SDK's samples). The list takes no dates in the documentation,
 * so it is read until a page ends before the window begins.
 */
async function* transfers(get: Get, window: RecordWindow): AsyncIterable<ProviderRecord> {
  for (let page = 1; ; page++) {
    const { items, last } = pageOf(await get(`/v3/transfers?page=${page}`, 'transfers list'), 'transfers list');
    let older = items.length > 0;
    for (const item of items) {
      const createdAt = field(item, 'created_at');
      if (!createdAt || Date.parse(createdAt) >= window.from.getTime()) older = false;
      const record = inWindow(createdAt, window) ? recordOf(item, 'reference', 'out') : null;
      if (record) yield record;
    }
    if (last || older) return;
  }
}

/** Every record of the window: the charges, then the transfers. */
export async function* flutterwaveRecords(get: Get, window: RecordWindow): AsyncIterable<ProviderRecord> {
  yield* charges(get, window);
  yield* transfers(get, window);
}

/** `GET /v3/balances/{currency}` → `data.available_balance`. */
export async function flutterwaveBalance(get: Get, currency: string): Promise<Decimal> {
  const res = await get(`/v3/balances/${encodeURIComponent(currency)}`, 'balance');
  const available = field(res.json, 'data', 'available_balance');
  if (res.status !== 200 || !available) throw new ProviderUnreachable('flutterwave', 'balance', `HTTP ${res.status}`);
  return new Decimal(available);
}

/*
 * Chargebacks (HandlesDisputes). Sources: developer.flutterwave.com/reference/endpoints/charge-backs ("Get all
 * Chargebacks": GET https://api.flutterwave.com/v3/chargebacks, query `page`, `status` (lost, won, initiated,
 * accepted, declined), `from` and `to` ("YYYY-MM-DD"), `currency`, `flw_ref`, `id`; "Accept/Decline Chargeback": PUT
 * /v3/chargebacks/{id}, body `action` (accept | decline) and `comment`, required, and a link to the proof), its v3 OpenAPI
 * as mirrored at flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks and /acceptdecline-
 * chargebacks (the list's sample: "Chargebacks fetched", `meta.page_info {total, current_page, total_pages,
 * page_size: 20}`, each `{id, amount, flw_ref, status, stage, comment, meta: {uploaded_proof, history: [{action,
 * stage, date, description}]}, due_date, settlement_id, created_at, transaction_id, tx_ref}`; the answer's sample:
 * "Chargeback accepted" with the chargeback, now `status: "accepted"`, its curl body `{action, comment, prooflink}`).
 * The official Node SDK (Flutterwave/Node-v3, every branch) has no chargeback module: its README names chargebacks,
 * its code does not. A chargeback carries no currency: it is its transaction's.
 */

/** How long after it opens a chargeback may still change (a second chargeback, pre-arbitration, arbitration): chosen. */
const DISPUTE_CHANGE_WINDOW_DAYS = 120;
/** At most this many pages (20 chargebacks each) in one listing; more is an error, never a silent cut (chosen). */
const DISPUTE_MAX_PAGES = 50;

/** The dates a chargeback's history gives (its changes), and its opening. */
function changeTimes(item: unknown, createdAt: Date): number[] {
  const history = (item as { meta?: { history?: unknown } } | null)?.meta?.history;
  const dates = Array.isArray(history) ? history.map((h) => flutterwaveTime(field(h, 'date'))?.getTime()).filter((t): t is number => t !== undefined) : [];
  return [createdAt.getTime(), ...dates];
}

/**
 * One chargeback (an item of the list, the answer's `data`, or a webhook's `data`) → ours; null when it is not one we
 * can read: no id, amount or creation time, or a status Flutterwave does not document (left for a person).
 */
export function chargebackOf(item: unknown): ProviderDispute | null {
  const id = field(item, 'id');
  const amount = field(item, 'amount');
  const createdAt = flutterwaveTime(field(item, 'created_at'));
  const providerStatus = field(item, 'status');
  const status = chargebackStatus(providerStatus);
  if (!id || !amount || !createdAt || !providerStatus || !status || !/^\d+(\.\d+)?$/.test(amount)) return null;
  const providerStage = field(item, 'stage');
  return {
    providerDisputeId: id,
    providerTransactionId: field(item, 'transaction_id'),
    transactionReference: field(item, 'tx_ref'),
    amount: new Decimal(amount).toFixed(),
    currency: field(item, 'currency'),
    stage: chargebackStage(providerStage),
    providerStage,
    providerStatus,
    status,
    reason: field(item, 'comment'),
    reasonCategory: chargebackReason(field(item, 'comment')),
    dueBy: flutterwaveTime(field(item, 'due_date')),
    createdAt,
  };
}

/**
 * `GET /v3/chargebacks?from=&page=`, every page: the chargebacks opened in the change window before `since`, kept when
 * opened or changed (their history's dates) at or after `since`. A chargeback whose history gives no date is kept (its
 * last change cannot be told). Chargebacks it cannot read are skipped and counted in `unread`.
 */
export async function flutterwaveDisputes(get: Get, since: Date): Promise<{ disputes: ProviderDispute[]; unread: number }> {
  const from = day(new Date(since.getTime() - DISPUTE_CHANGE_WINDOW_DAYS * 24 * 60 * 60 * 1000));
  const disputes: ProviderDispute[] = [];
  let unread = 0;
  for (let page = 1; ; page++) {
    if (page > DISPUTE_MAX_PAGES) {
      throw new ProviderUnreachable('flutterwave', 'chargebacks list', `more than ${DISPUTE_MAX_PAGES} pages of chargebacks since ${from}`);
    }
    const { items, last } = pageOf(await get(`/v3/chargebacks?from=${from}&page=${page}`, 'chargebacks list'), 'chargebacks list');
    for (const item of items) {
      const dispute = chargebackOf(item);
      if (!dispute) {
        unread++;
        continue;
      }
      const times = changeTimes(item, dispute.createdAt);
      const undated = times.length === 1 && dispute.createdAt.getTime() < since.getTime();
      if (undated || Math.max(...times) >= since.getTime()) disputes.push(dispute);
    }
    if (last) return { disputes, unread };
  }
}
