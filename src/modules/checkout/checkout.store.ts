import { Params, type Sql } from '../../db/sql';
import type { JobQueue, JobsSql } from '../../jobs/job-queue';
import { runSelects } from '../../jobs/job-queue';
import { Decimal } from '../../shared/money';
import type { Outbox, StampedEvent } from '../outbox/outbox';
import type { CheckoutCustomer, CheckoutSession } from './checkout.records';
import type { CheckoutMethod, CheckoutSessionStatus } from './checkout.views';

/** A session as `INSERT` writes it (no payment yet). */
export interface NewSession {
  id: string;
  merchantId: string;
  amount: Decimal;
  currency: string;
  reference: string;
  customer: CheckoutCustomer;
  paymentMethods: CheckoutMethod[] | null;
  redirectUrl: string;
  cancelUrl: string | null;
  metadata: Record<string, string> | null;
  description: string | null;
  paymentLinkId: string | null;
  expiresAt: Date;
  createdAt: Date;
}

/** A row as read; `url` is added by the service. */
export type StoredSession = Omit<CheckoutSession, 'url'>;

interface Row {
  id: string;
  merchant_id: string;
  status: CheckoutSessionStatus;
  amount: string;
  currency: string;
  reference: string;
  customer: CheckoutCustomer;
  payment_methods: CheckoutMethod[] | null;
  redirect_url: string;
  cancel_url: string | null;
  metadata: Record<string, string> | null;
  description: string | null;
  payment_link_id: string | null;
  attempts: number;
  transaction_id: string | null;
  payment_reference: string | null;
  expires_at: Date;
  created_at: Date;
  completed_at: Date | null;
  expired_at: Date | null;
}

const SELECT = `s.id, s.merchant_id, s.status, s.amount::text as amount, s.currency, s.reference, s.customer, s.payment_methods, s.redirect_url,
  s.cancel_url, s.metadata, s.description, s.payment_link_id, s.attempts, s.transaction_id, t.reference as payment_reference, s.expires_at,
  s.created_at, s.completed_at, s.expired_at`;
const FROM = `checkout_session s left join "transaction" t on t.id = s.transaction_id`;

function sessionOfRow(r: Row): StoredSession {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    status: r.status,
    amount: new Decimal(r.amount),
    currency: r.currency,
    reference: r.reference,
    customer: { email: r.customer.email, phone: r.customer.phone ?? null, name: r.customer.name ?? null },
    paymentMethods: r.payment_methods,
    redirectUrl: r.redirect_url,
    cancelUrl: r.cancel_url,
    metadata: r.metadata,
    description: r.description,
    paymentLinkId: r.payment_link_id,
    attempts: r.attempts,
    transactionId: r.transaction_id,
    paymentReference: r.payment_reference,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    expiredAt: r.expired_at,
  };
}

/** The columns of a session the statements below return (for its event's payload). */
const RETURNING = `id, merchant_id, status, amount::text as amount, currency, reference, customer, payment_methods, redirect_url, cancel_url,
  metadata, description, payment_link_id, attempts, transaction_id, null::text as payment_reference, expires_at, created_at, completed_at, expired_at`;

/** Direct statements on checkout_session: creation is one INSERT; each status change one statement with its event. */
export class CheckoutStore {
  constructor(private readonly deps: { sql: Sql; outbox: Outbox; jobs: Pick<JobQueue<never>, 'wakeIfDue'> }) {}

  /** One statement, no job: the issue's speed point. Throws the unique violation of a reused reference. */
  async insert(s: NewSession): Promise<StoredSession> {
    const [row] = await this.deps.sql.query<Row>(
      `insert into checkout_session (id, merchant_id, status, amount, currency, reference, customer, payment_methods, redirect_url, cancel_url,
         metadata, description, payment_link_id, attempts, expires_at, created_at)
       values ($1, $2, 'open', $3, $4, $5, $6::jsonb, $7::text[], $8, $9, $10::jsonb, $11, $12, 0, $13, $14)
       returning ${RETURNING}`,
      [
        s.id,
        s.merchantId,
        s.amount.toString(),
        s.currency,
        s.reference,
        JSON.stringify(s.customer),
        s.paymentMethods,
        s.redirectUrl,
        s.cancelUrl,
        s.metadata === null ? null : JSON.stringify(s.metadata),
        s.description,
        s.paymentLinkId,
        s.expiresAt,
        s.createdAt,
      ],
      'checkout_session_insert',
    );
    return sessionOfRow(row!);
  }

  async find(id: string): Promise<StoredSession | null> {
    const [row] = await this.deps.sql.query<Row>(`select ${SELECT} from ${FROM} where s.id = $1`, [id], 'checkout_session_find');
    return row ? sessionOfRow(row) : null;
  }

  /** An attempt's number, counted only while the session is open and not past its deadline; null otherwise. */
  async startAttempt(id: string, now: Date): Promise<number | null> {
    const [row] = await this.deps.sql.query<{ attempts: number }>(
      `update checkout_session set attempts = attempts + 1 where id = $1 and status = 'open' and expires_at > $2 returning attempts`,
      [id, now],
      'checkout_session_attempt',
    );
    return row?.attempts ?? null;
  }

  /**
   * The session's latest attempt (its payments, newest first): the transaction's id, or null. Read by
   * `checkout_session_id` (main's column).
   */
  async latestAttemptId(sessionId: string): Promise<string | null> {
    const [row] = await this.deps.sql.query<{ id: string }>(
      `select id from "transaction" where checkout_session_id = $1 order by created_at desc, id desc limit 1`,
      [sessionId],
      'checkout_session_latest_attempt',
    );
    return row?.id ?? null;
  }

  /**
   * The session's payment that holds its claim (in flight or successful: at most one, by the unique index on
   * `checkout_claim`), or null when none does.
   */
  async claimingAttemptId(sessionId: string): Promise<string | null> {
    const [row] = await this.deps.sql.query<{ id: string }>(
      `select id from "transaction" where checkout_claim = $1`,
      [sessionId],
      'checkout_session_claiming_attempt',
    );
    return row?.id ?? null;
  }

  /**
   * Open (or expired: the payment wins, money was taken) → complete with its payment, and the
   * `checkout.session.completed` event, in one statement. False when it was complete already.
   * Only for a payment of this session that is successful.
   */
  async complete(sessionId: string, transactionReference: string, now: Date, event: (s: StoredSession) => StampedEvent, tries = 3): Promise<boolean> {
    // The event's payload is the record after the change: built from the row as it will be.
    const current = await this.find(sessionId);
    if (!current || current.status === 'complete') return false;
    const [txn] = await this.deps.sql.query<{ id: string }>(
      `select id from "transaction" where reference = $1 and checkout_session_id = $2 and status = 'successful'`,
      [transactionReference, sessionId],
    );
    if (!txn) return false;
    const transactionId = txn.id;
    const after: StoredSession = { ...current, status: 'complete', transactionId, paymentReference: transactionReference, completedAt: now };
    const params = new Params();
    const ctes = [
      `changed as (update checkout_session set status = 'complete', completed_at = ${params.p(now)}::timestamptz, transaction_id = ${params.p(transactionId)}::uuid
        where id = ${params.p(sessionId)} and status = ${params.p(current.status)} returning id, payment_link_id)`,
      // A link's payments count its completed sessions (its max_payments).
      `link_paid as (update payment_link set payments_count = payments_count + 1 where id = (select payment_link_id from changed))`,
    ];
    if (await this.run(params, ctes, this.deps.outbox.eventSql(params, event(after), 'changed'))) return true;
    // Expired (or completed) between the read and the update: read it again.
    return tries > 1 ? this.complete(sessionId, transactionReference, now, event, tries - 1) : false;
  }

  /** Open and due → expired, with its event, in one statement; false when it was no longer open, or has an attempt in flight. */
  async expire(session: StoredSession, now: Date, event: (s: StoredSession) => StampedEvent): Promise<boolean> {
    const after: StoredSession = { ...session, status: 'expired', expiredAt: now };
    const params = new Params();
    const ctes = [
      `changed as (update checkout_session s set status = 'expired', expired_at = ${params.p(now)}::timestamptz
        where s.id = ${params.p(session.id)} and s.status = 'open' and s.expires_at <= ${params.p(now)}::timestamptz and ${NO_ATTEMPT_IN_FLIGHT}
        returning id)`,
    ];
    return this.run(params, ctes, this.deps.outbox.eventSql(params, event(after), 'changed'));
  }

  /** Up to `limit` open sessions past their deadline whose latest attempt is not in flight, oldest deadline first. */
  async due(now: Date, limit: number): Promise<StoredSession[]> {
    const rows = await this.deps.sql.query<Row>(
      `select ${SELECT} from ${FROM} where s.status = 'open' and s.expires_at <= $1 and ${NO_ATTEMPT_IN_FLIGHT}
       order by s.expires_at limit $2`,
      [now, limit],
      'checkout_session_due',
    );
    return rows.map(sessionOfRow);
  }

  private async run(params: Params, ctes: string[], event: JobsSql): Promise<boolean> {
    const all = [...ctes, ...event.ctes];
    const [row] = await this.deps.sql.queryShaped<{ changed: string }>(
      `with ${all.join(',\n')} select (select count(*) from changed) as changed${event.selects.length ? `, ${runSelects(event.selects)}` : ''}`,
      params.values,
    );
    this.deps.jobs.wakeIfDue(row, event.selects);
    return Number(row?.changed) === 1;
  }
}

/**
 * No payment of the session is still being decided, nor successful (its completion job is on its way: a
 * session with a successful payment completes, never expires). `s` is the session.
 */
const NO_ATTEMPT_IN_FLIGHT = `not exists (select 1 from "transaction" t2 where t2.checkout_session_id = s.id
  and t2.status in ('initiating', 'processing', 'requires_action', 'successful'))`;
