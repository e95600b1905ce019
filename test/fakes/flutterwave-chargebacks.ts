/**
 * The Flutterwave fake's chargebacks: the list, accept/decline, and the controls a test opens and decides one with.
 *
 * SOURCES (read for this file)
 *  [R]  developer.flutterwave.com/reference/endpoints/charge-backs (v3 reference): "Get all Chargebacks" GET
 *       https://api.flutterwave.com/v3/chargebacks, query `page`, `status` ("can be lost, won, initiated, accepted,
 *       declined"), `from`/`to` ("Date format is YYYY-MM-DD"), `currency` ("This currency of the transaction"),
 *       `flw_ref` ("the unique reference for the transaction"), `id` ("The id of the transaction"); "Accept/Decline
 *       Chargeback" PUT https://api.flutterwave.com/v3/chargebacks/{id}, body `action` ("accept or decline"), a comment
 *       and a link to the proof; "Upload proof" POST /v3/upload_image (multipart `image` → `data` a URL; not served).
 *  [O]  Flutterwave's v3 OpenAPI as mirrored at flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks
 *       and /acceptdecline-chargebacks, and /other-features/chargebacks: "Chargebacks fetched", `meta.page_info {total,
 *       current_page, total_pages, page_size: 20}`, each chargeback `{id, amount, flw_ref, status, stage, comment, meta:
 *       {uploaded_proof, history}, due_date, settlement_id: "N/A", created_at, transaction_id, tx_ref}` (no currency);
 *       history entries `{action: "initiated", stage: "new", date, description: "Debit and hold chargeback amount",
 *       source: "availablebalance"}`, `{action: "notification", date, description: "Email Notification Sent"}`,
 *       `{action: "accept", stage, date, description: "Merchant accepts claim"}`, `{action: "lost", stage, date,
 *       description: "No merchant response"}`, `{action: "decline", stage: "second", url: <proof>, …}`, and
 *       `{action: "hooknotifier", status, url, date, description: "Hook Notification Successful"}` (a webhook sent on
 *       each status, here initiated and lost); the PUT's body `{action, comment}` required, its curl sample adds
 *       `prooflink`; its answer "Chargeback accepted" with the chargeback now `status: "accepted"`. Stages in the
 *       samples: new, second, pre-arbitration; due dates at 15:59:59Z the next day.
 *  [D]  developer.flutterwave.com/docs/payment-operations/chargebacks and /docs/chargebacks-1: a lien on the amount when
 *       it opens; the merchant answers within 10 working hours (local) or 30 (international); no answer → debited; an
 *       answer → Flutterwave argues with the bank; won → the lien is lifted. /docs/webhooks: every webhook is a POST of
 *       `{event, data}` with the `verif-hash` header.
 *  [V4] developer.flutterwave.com/reference/chargebacks_post (v4 "Create a chargeback"): stage new | second |
 *       pre-arbitration | arbitration; status pending | initiated; type local | international.
 *  [C]  Public integrations quoting the v3 chargeback webhooks (a TypeScript event map citing the v3.0 chargebacks
 *       page's sample `"event": "chargeback.initiated"`, and naming chargeback.accepted, .declined, .lost; another
 *       project's notes: "chargeback.initiated|accepted|declined|lost", enabled on request to Flutterwave, and only the
 *       `flw_ref` to find the transaction by). The official Node SDK (Flutterwave/Node-v3) has no chargeback module.
 *
 * CHOSEN WHERE THE SOURCES ARE SILENT
 *  - The webhook: `{event: "chargeback.<status>", data: <the chargeback as the list renders it>}`, sent on each change
 *    of status ([O]'s hooknotifier entries carry the status), answers included; once, as every webhook of this fake.
 *    A `chargeback.won` is sent too ([C] names none; [O] has a won status).
 *  - A second answer (the status no longer initiated/pending) → 400 "Chargeback has already been <status>"; an unknown
 *    id → 404 "Chargeback not found"; `action` other than accept/decline → 400; `comment` missing → 400 ([O]: required).
 *    A decline's answer: "Chargeback declined", the proof link kept as `meta.uploaded_proof`.
 *  - `from`/`to` filter on `created_at` (whole UTC days); `id` on the chargeback's `transaction_id` ([R]: "The id of the
 *    transaction"); `currency` on the disputed transaction's; newest first; 20 a page ([O]'s page_size).
 *  - due_date: the next day at 15:59:59Z for a local chargeback, the third day for an international one (the samples;
 *    [D]'s 10 and 30 working hours).
 *  - Opened only on a successful charge, for at most its amount (default: all of it), with comment "Product/service not
 *    received" unless given ([O]'s first sample).
 */
import { listQuery } from './flutterwave-lists';

type FlwChargebackStatus = 'pending' | 'initiated' | 'accepted' | 'declined' | 'won' | 'lost';
export type FlwChargebackStage = 'new' | 'second' | 'pre-arbitration' | 'arbitration';

export interface FlwChargeback {
  id: number;
  amount: number;
  flw_ref: string;
  status: FlwChargebackStatus;
  stage: FlwChargebackStage;
  comment: string;
  uploaded_proof: string | null;
  history: Record<string, unknown>[];
  due_date: string;
  created_at: string;
  transaction_id: number;
  tx_ref: string;
  /** The transaction's currency (not rendered: a chargeback carries none; the list's `currency` filter reads it). */
  currency: string;
  type: 'local' | 'international';
}

/** What a chargeback is opened on: a charge of the fake's. */
export interface ChargedTransaction {
  id: number;
  flw_ref: string;
  tx_ref: string;
  amount: number;
  currency: string;
  status: string;
}

export interface OpenChargebackOptions {
  /** Default: the charge's whole amount. */
  amount?: number;
  /** Default: new. */
  stage?: FlwChargebackStage;
  /** Default: initiated. */
  status?: 'initiated' | 'pending';
  comment?: string;
  /** Default: local (due the next day). */
  type?: 'local' | 'international';
  /** Default: now. */
  createdAt?: Date;
}

/** An answer the fake sends as `{status: "success", message, data, meta?}` or, for a refusal, `{status: "error", message, data: null}`. */
export type ChargebackAnswer = { ok: true; message: string; data: unknown; meta?: unknown } | { ok: false; status: number; message: string };

const PAGE_SIZE = 20;
const time = (d: Date) => `${d.toISOString().slice(0, 19)}.000Z`;

export class FlutterwaveChargebacks {
  readonly byId = new Map<number, FlwChargeback>();
  /** Every answer taken (a test reads what the merchant's comment said). */
  readonly answers: Array<{ id: number; action: string; comment: string }> = [];
  private nextId: number;

  constructor(firstId: number) {
    this.nextId = firstId;
  }

  /** Opens one on a successful charge (throws otherwise: a test's mistake). */
  open(tx: ChargedTransaction, options: OpenChargebackOptions = {}): FlwChargeback {
    if (tx.status !== 'successful') throw new Error(`FlutterwaveFake: transaction ${tx.id} is ${tx.status}; only a successful charge is charged back`);
    const amount = options.amount ?? tx.amount;
    if (!(amount > 0) || amount > tx.amount) throw new Error(`FlutterwaveFake: a chargeback of ${amount} on a charge of ${tx.amount}`);
    const created = options.createdAt ?? new Date();
    const type = options.type ?? 'local';
    const due = new Date(Date.UTC(created.getUTCFullYear(), created.getUTCMonth(), created.getUTCDate() + (type === 'local' ? 1 : 3), 15, 59, 59));
    const stage = options.stage ?? 'new';
    const cb: FlwChargeback = {
      id: (this.nextId += 1),
      amount,
      flw_ref: tx.flw_ref,
      status: options.status ?? 'initiated',
      stage,
      comment: options.comment ?? 'Product/service not received',
      uploaded_proof: null,
      history: [
        { action: 'initiated', stage, date: time(created), description: 'Debit and hold chargeback amount', source: 'availablebalance' },
        { action: 'notification', date: time(created), description: 'Email Notification Sent' },
      ],
      due_date: due.toISOString(),
      created_at: time(created),
      transaction_id: tx.id,
      tx_ref: tx.tx_ref,
      currency: tx.currency,
      type,
    };
    this.byId.set(cb.id, cb);
    return cb;
  }

  /** GET /v3/chargebacks with [R]'s filters, newest first, 20 a page. */
  list(params: URLSearchParams): ChargebackAnswer {
    const query = listQuery(params);
    if (typeof query === 'string') return { ok: false, status: 400, message: query };
    const currency = params.get('currency');
    const flwRef = params.get('flw_ref');
    const id = params.get('id');
    const kept = [...this.byId.values()]
      .filter((cb) => {
        const t = Date.parse(cb.created_at);
        if (query.from !== null && t < query.from) return false;
        if (query.to !== null && t >= query.to) return false;
        if (query.status !== null && cb.status !== query.status.toLowerCase()) return false;
        if (currency && cb.currency !== currency.toUpperCase()) return false;
        if (flwRef && cb.flw_ref !== flwRef) return false;
        return !id || String(cb.transaction_id) === id;
      })
      .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
    const totalPages = Math.max(1, Math.ceil(kept.length / PAGE_SIZE));
    const data = kept.slice((query.page - 1) * PAGE_SIZE, query.page * PAGE_SIZE).map((cb) => this.render(cb));
    return {
      ok: true,
      message: 'Chargebacks fetched',
      data,
      meta: { page_info: { total: kept.length, current_page: query.page, total_pages: totalPages, page_size: PAGE_SIZE } },
    };
  }

  /** PUT /v3/chargebacks/:id {action, comment, prooflink?}: once, while it waits for the merchant. */
  answer(rawId: string, body: Record<string, unknown>): { answer: ChargebackAnswer; changed: FlwChargeback | null } {
    const refuse = (status: number, message: string) => ({ answer: { ok: false as const, status, message }, changed: null });
    const cb = /^\d+$/.test(rawId) ? this.byId.get(Number(rawId)) : undefined;
    if (!cb) return refuse(404, 'Chargeback not found');
    const { action, comment, prooflink } = body;
    if (action === undefined || action === null || action === '') return refuse(400, 'action is required');
    if (action !== 'accept' && action !== 'decline') return refuse(400, 'action must be one of accept, decline');
    if (typeof comment !== 'string' || comment.trim() === '') return refuse(400, 'comment is required');
    if (prooflink !== undefined && prooflink !== null && typeof prooflink !== 'string') return refuse(400, 'prooflink must be a string');
    if (cb.status !== 'initiated' && cb.status !== 'pending') return refuse(400, `Chargeback has already been ${cb.status}`);
    const now = time(new Date());
    this.answers.push({ id: cb.id, action, comment });
    if (action === 'accept') {
      cb.status = 'accepted';
      cb.history.push({ action: 'accept', stage: cb.stage, date: now, description: 'Merchant accepts claim' });
    } else {
      cb.status = 'declined';
      cb.uploaded_proof = typeof prooflink === 'string' && prooflink !== '' ? prooflink : cb.uploaded_proof;
      cb.history.push({ action: 'decline', stage: cb.stage, url: cb.uploaded_proof, date: now, description: 'Merchant declines claim' });
    }
    return { answer: { ok: true, message: action === 'accept' ? 'Chargeback accepted' : 'Chargeback declined', data: this.render(cb) }, changed: cb };
  }

  /** The bank's decision (or the deadline passing unanswered: lost, "No merchant response"). */
  decide(id: number, outcome: 'won' | 'lost', stage?: FlwChargebackStage): FlwChargeback {
    const cb = this.byId.get(id);
    if (!cb) throw new Error(`FlutterwaveFake: no chargeback ${id}`);
    if (cb.status === 'won' || cb.status === 'lost' || cb.status === 'accepted') throw new Error(`FlutterwaveFake: chargeback ${id} is already ${cb.status}`);
    const unanswered = cb.status !== 'declined';
    cb.status = outcome;
    if (stage) cb.stage = stage;
    cb.history.push({
      action: outcome,
      stage: cb.stage,
      date: time(new Date()),
      description: unanswered && outcome === 'lost' ? 'No merchant response' : outcome === 'won' ? 'Merchant wins claim' : 'Merchant loses claim',
      source: 'availablebalance',
    });
    return cb;
  }

  /** As the list, the answer and the webhook show it ([O]). */
  render(cb: FlwChargeback): Record<string, unknown> {
    return {
      id: cb.id,
      amount: cb.amount,
      flw_ref: cb.flw_ref,
      status: cb.status,
      stage: cb.stage,
      comment: cb.comment,
      meta: { uploaded_proof: cb.uploaded_proof, history: cb.history.map((h) => ({ ...h })) },
      due_date: cb.due_date,
      settlement_id: 'N/A',
      created_at: cb.created_at,
      transaction_id: cb.transaction_id,
      tx_ref: cb.tx_ref,
    };
  }
}
