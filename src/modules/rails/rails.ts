import { Params, type Sql } from '../../db/sql';
import { runSelects } from '../../jobs/job-queue';
import { TransactionJob, type TransactionJobQueue } from '../transactions/transaction.jobs';
import type { Transaction } from '../transactions/transaction.record';
import type { GuardedConnector } from '../../providers/breaker';
import {
  msisdn,
  type DecideRequest,
  type DecideTrigger,
  type InboundNotification,
  type ParsedNotification,
  type PayerLookup,
  type Route,
  type RouteLeg,
  type SettlementDecision,
  type StoredNotification,
} from '../../providers/connector';
import { SANDBOX_CONNECTOR, type CallbackUrls, type ConnectorRouter } from '../../providers/routing';

/** Notifications kept per transaction at most (a provider sends one or two): past that, a sender holding a leaked token could only add rows. */
const MAX_NOTIFICATIONS = 100;

/** A notification as the callback route received it, with what its connector read from it. */
export interface ReceivedNotification extends InboundNotification {
  connector: string;
  transactionId: string;
  parsed: ParsedNotification;
}

/**
 * What the kinds need of the rails: the routing table, each transaction's connector, its callback
 * address, and what providers have sent about it (provider_notification).
 */
/** What the rails are built from (the composition root). */
export interface RailsDependencies {
  router: ConnectorRouter;
  callbacks: CallbackUrls;
  sql: Sql;
  jobs: TransactionJobQueue;
  timing: {
    /** The sandbox decides this long after initiation (SANDBOX_SETTLE_MS). */
    sandboxSettleMs: number;
    /** Delays between status queries of an undecided transaction (PROVIDER_POLL_SCHEDULE); the last repeats. */
    pollScheduleMs: number[];
  };
}

export class Rails {
  readonly router: ConnectorRouter;
  private readonly callbacks: CallbackUrls;
  private readonly sql: Sql;
  private readonly jobs: TransactionJobQueue;
  private readonly timing: RailsDependencies['timing'];

  constructor({ router, callbacks, sql, jobs, timing }: RailsDependencies) {
    this.router = router;
    this.callbacks = callbacks;
    this.sql = sql;
    this.jobs = jobs;
    this.timing = timing;
  }

  /** When a processing transaction is first asked about: the sandbox's settle delay, or the poll schedule's first step. */
  firstPollMs(txn: Pick<Transaction, 'connector'>): number {
    return txn.connector === SANDBOX_CONNECTOR ? this.timing.sandboxSettleMs : this.timing.pollScheduleMs[0]!;
  }

  /** The delay before status query number `poll` + 1 (0-based `poll`: the one just made); the schedule's last step repeats. */
  nextPollMs(poll: number): number {
    const schedule = this.timing.pollScheduleMs;
    return schedule[Math.min(poll + 1, schedule.length - 1)]!;
  }

  /** The connector for a new transaction on its route (see ConnectorRouter.pick). */
  pick(leg: RouteLeg): GuardedConnector {
    return this.router.pick(leg);
  }

  /** The fewest decimals any connector of the route can pay out (a converted payout is rounded down to them); undefined: the currency's. */
  payoutDecimals(route: Route): number | undefined {
    return this.router.payoutDecimals(route);
  }

  /** A started transaction's connector: the one it was created with, for life. */
  of(txn: Pick<Transaction, 'connector'>): GuardedConnector {
    return this.router.connector(txn.connector);
  }

  /**
   * The status query, asked of the transaction's connector. A query the provider answers later (M-Pesa's
   * Transaction Status) comes back as `sentQuery`, and is kept here with the transaction so that its
   * answer can be matched: the connector itself writes nothing.
   */
  async decide(txn: Pick<Transaction, 'id' | 'connector'>, request: DecideRequest): Promise<SettlementDecision> {
    const decided = await this.of(txn).decide(request);
    if (decided.sentQuery === undefined) return decided;
    const { sentQuery, ...decision } = decided;
    await this.recordQuery(txn.connector, txn.id, sentQuery);
    return decision;
  }

  /** The connector's callback address for the transaction ('' for an in-process connector, which sends none). */
  callbackUrl(txn: Pick<Transaction, 'id' | 'connector'>): string {
    return this.of(txn).inProcess ? '' : this.callbacks.url(txn.connector, txn.id);
  }

  /** Where the provider's authentication page returns the cardholder ('' for an in-process connector, which has its own page). */
  returnUrl(txn: Pick<Transaction, 'id' | 'connector'>): string {
    return this.of(txn).inProcess ? '' : this.callbacks.returnUrl(txn.connector, txn.id);
  }

  /**
   * The payer's email and name, read only when a connector asks (Flutterwave requires an email): the customer's, or
   * for a payment that names none, a placeholder address at our host that receives nothing.
   */
  payer(txn: Pick<Transaction, 'customerId' | 'reference'>): PayerLookup {
    return async () => {
      const [row] = txn.customerId
        ? await this.sql.query<{ email: string; name: string; country_code: string; dial_code: string; phone_number: string }>(
            `select email, first_name || ' ' || last_name as name, country_code, dial_code, phone_number from customer where id = $1`,
            [txn.customerId],
            'payer_of_transaction',
          )
        : [];
      if (!row) return { email: `${txn.reference}@${this.callbacks.host}`, name: null, countryCode: null, phone: null };
      return { email: row.email, name: row.name, countryCode: row.country_code, phone: msisdn(row.dial_code, row.phone_number) };
    };
  }

  /** The transaction a callback token names for a connector, or null (a wrong or forged token). */
  transactionOfToken(connector: string, token: string, purpose: 'callback' | 'return' = 'callback'): string | null {
    return this.router.has(connector) ? this.callbacks.transactionOf(connector, token, purpose) : null;
  }

  /** What a retry after a crash must know: when it started, and what has arrived since. */
  async retryContext(txn: Transaction): Promise<{ createdAt: Date; notifications: StoredNotification[] }> {
    return { createdAt: txn.createdAt, notifications: await this.notificationsFor(txn) };
  }

  /** What a status query is given: where asynchronous answers go, and what has arrived so far. */
  async decideContext(txn: Transaction, trigger: DecideTrigger): Promise<{ callbackUrl: string; notifications: StoredNotification[]; trigger: DecideTrigger }> {
    return { callbackUrl: this.callbackUrl(txn), notifications: await this.notificationsFor(txn), trigger };
  }

  /** Read only for a connector that reads them. */
  private async notificationsFor(txn: Transaction): Promise<StoredNotification[]> {
    return this.of(txn).readsNotifications ? this.notifications(txn.id) : [];
  }

  /** Everything kept for a transaction, oldest first (notifications and the status queries sent). */
  async notifications(transactionId: string): Promise<StoredNotification[]> {
    const rows = await this.sql.query<{ parsed: ParsedNotification; received_at: Date }>(
      'select parsed, received_at from provider_notification where transaction_id = $1 order by id',
      [transactionId],
      'provider_notifications',
    );
    return rows.map((r) => ({ parsed: r.parsed, receivedAt: r.received_at }));
  }

  /**
   * Keeps a notification raw, once: a duplicate (same transaction, connector and dedupe key)
   * changes nothing and answers false. A new one adds, in the same statement, the job that asks
   * the provider (only its answer changes the transaction). At most MAX_NOTIFICATIONS are kept per
   * transaction, and the cap holds under concurrency: the statement first takes a slot in the
   * transaction's tally, an upsert whose `kept < cap` is re-checked on the row's latest version under
   * its lock, so concurrent statements take slots one after another (a count each insert read for
   * itself let 150 at once keep 103). A known duplicate takes no slot; two copies of one body arriving
   * together may both take one, and one of them is kept.
   */
  async receive(n: ReceivedNotification): Promise<boolean> {
    const params = new Params();
    const jobs = this.jobs.jobsSql(params, [{ name: TransactionJob.CheckTransaction, payload: { transactionId: n.transactionId } }], 'kept', 'check');
    const transactionId = params.p(n.transactionId);
    const connector = params.p(n.connector);
    const dedupeKey = params.p(n.parsed.dedupeKey);
    const [row] = await this.sql.query<{ kept: string; check_wake: string }>(
      `with slot as (
         insert into provider_notification_tally as tally (transaction_id, kept)
         select ${transactionId}::uuid, 1
          where not exists (select 1 from provider_notification
                             where transaction_id = ${transactionId}::uuid and connector = ${connector} and dedupe_key = ${dedupeKey})
         on conflict (transaction_id) do update set kept = tally.kept + 1 where tally.kept < ${MAX_NOTIFICATIONS}
         returning transaction_id),
       kept as (
         insert into provider_notification (connector, transaction_id, dedupe_key, method, content_type, body, parsed)
         select ${connector}, slot.transaction_id, ${dedupeKey}, ${params.p(n.method)},
                ${params.p(n.contentType)}, ${params.p(n.body)}, ${params.p(JSON.stringify(n.parsed))}::jsonb
           from slot
         on conflict (transaction_id, connector, dedupe_key) do nothing
         returning id),
       ${jobs.ctes.join(',\n')}
       select (select count(*) from kept) as kept, ${runSelects(jobs.selects)}`,
      params.values,
    );
    this.jobs.wakeIfDue(row, jobs.selects);
    return Number(row?.kept) === 1;
  }

  /** A status query a connector sent, kept so that its asynchronous answer can be matched. */
  private async recordQuery(connector: string, transactionId: string, queryId: string): Promise<void> {
    const parsed: ParsedNotification = { dedupeKey: `query:${queryId}`, providerReference: null, claimed: null, sentQuery: queryId };
    await this.sql.query(
      `insert into provider_notification (connector, transaction_id, dedupe_key, method, body, parsed)
       values ($1, $2, $3, 'QUERY', '', $4::jsonb) on conflict (transaction_id, connector, dedupe_key) do nothing`,
      [connector, transactionId, parsed.dedupeKey, JSON.stringify(parsed)],
    );
  }

  /** The notifications of a transaction have been acted on (its status query ran). */
  async processed(transactionId: string): Promise<void> {
    await this.sql.query(
      `update provider_notification set processed_at = clock_timestamp() where transaction_id = $1 and processed_at is null and method <> 'QUERY'`,
      [transactionId],
    );
  }
}
