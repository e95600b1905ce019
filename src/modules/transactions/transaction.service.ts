import { timeOrderedBytes, timeOrderedUuid } from '../../shared/crypto';
import { z } from 'zod';
import { publishAfterCommit } from '../../events/merchant-events';
import type { PubSub } from '../../events/pubsub';
import { TransactionTopic } from './transaction.topics';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Faults } from '../../shared/faults';
import { KeyedSemaphore } from '../../shared/keyed-semaphore';
import { publishBalanceChanges } from '../ledger/ledger.service';
import type { Logger } from '../../shared/logger';
import { UUID_ID, encodeCursor, pageRequestSchema, toPage, type Page } from '../../shared/pagination';
import { keysetBatches } from '../../shared/streaming';
import { REFERENCE_CHARACTERS, searchText, timestampField } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';
import type { EventType } from '../outbox/event-types';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import { BLANK, pastDeadline, toWire, type KindColumns, type Transaction, type TransactionEvent, type TransactionOf } from './transaction.record';
import { NO_LEDGER_EFFECT, type AnyKindHandler, type LedgerEffect, type ProviderAnswer, type TransactionKinds } from './transaction.kinds';
import { TransactionJob, type TransactionJobQueue, type TransactionJobSpec } from './transaction.jobs';
import { netOf, releaseEntry } from './transaction.ledger';
import { serializeTransaction } from './transaction.serializer';
import {
  TRANSACTION_KINDS,
  TRANSACTION_STATUSES,
  isFinal,
  nextTransactionStatus,
  type FinalStatus,
  type TransactionKind,
  type TransactionStatus,
} from './transaction.state';
import { RECONCILE_KEY_PREFIX, commitsAsynchronously, type ListFilter, type StatusChange, type TransactionStore } from './transaction.store';
import { refusedTheRequest, type InboundNotification, type SettlementDecision } from '../../providers/connector';
import type { Rails } from '../rails/rails';

const REFERENCE_PREFIX: Record<TransactionKind, string> = { collection: 'col', transfer: 'trf', payment: 'pay', refund: 'rfd' };

/** A service-assigned reference, e.g. `col_01a21de034b1…` (24 hex: the time in ms, then 6 random bytes; crypto.ts). */
export const newTransactionReference = (kind: TransactionKind) => `${REFERENCE_PREFIX[kind]}_${timeOrderedBytes(12).toString('hex')}`;

/** The columns a kind's checks produce (its own columns among them); the creation path adds identity, status and times. */
export type NewTransaction = {
  [K in TransactionKind]: Partial<TransactionOf<K>> & Pick<TransactionOf<K>, 'merchantId' | 'kind' | 'externalReference' | KindColumns<K>>;
}[TransactionKind];

/** A page of a merchant's transactions, by any of status, kind (`type`) and customer. */
export const transactionListSchema = pageRequestSchema.extend({
  status: z.enum(TRANSACTION_STATUSES).nullish(),
  type: z.enum(TRANSACTION_KINDS).nullish(),
  customerUuid: z.string({ error: 'must be a string' }).uuid('must be a customer uuid').nullish(),
  /** Created at or after this time. */
  createdFrom: timestampField.nullish(),
  /** Created before this time. */
  createdTo: timestampField.nullish(),
  /** The service's reference or the merchant's own (exactly), or a customer's email (any case). */
  search: searchText(254),
});
export type TransactionListQuery = Command<typeof transactionListSchema>;

/** The event of the status a transaction has reached (`collection.processing`, `payment.successful`…). */
const eventTypeOf = (t: Transaction) => `${t.kind}.${t.status}` as EventType;

/** The list's filters without its paging: what an export of every matching transaction takes. */
export const transactionExportSchema = transactionListSchema.omit({ limit: true, after: true });
export type TransactionExportQuery = Command<typeof transactionExportSchema>;

/** How many rows an export reads at a time (keyset pages, like the list's). */
const EXPORT_BATCH = 500;

/** The store's filter from a parsed list query (its paging aside). */
function listFilter(q: Omit<z.output<typeof transactionListSchema>, 'limit' | 'after'>): ListFilter {
  return {
    status: q.status ?? undefined,
    kind: q.type ?? undefined,
    customerId: q.customerUuid ?? undefined,
    createdFrom: q.createdFrom ?? undefined,
    createdTo: q.createdTo ?? undefined,
    search: q.search ?? undefined,
  };
}

/** How a sandbox simulation may decide a transaction. */
export const SIMULATION_OUTCOMES = ['successful', 'failed'] as const;
export type SimulationOutcome = (typeof SIMULATION_OUTCOMES)[number];
export const simulateSchema = z.object({ outcome: z.enum(SIMULATION_OUTCOMES, { error: 'must be successful or failed' }) });
export type SimulateCommand = Command<typeof simulateSchema>;

/** Statements reserving from one merchant's balance that one instance sends at once (they serialise on its row anyway). */
const HOT_ACCOUNT_CONCURRENCY = 2;

/** A notification for a transaction still being created is looked at again after this. */
const CHECK_AGAIN_MS = 1000;

/**
 * How long past its deadline a real provider's collection or 3-D Secure payment is still asked about before it
 * expires: a bank transfer sent just before the account closed, or a cardholder finishing the processor's page,
 * may reach the provider's records a little later.
 */
const EXPIRY_GRACE_MS = 5 * 60_000;

/** How many stuck initiations one sweep hands to reconciliation at most. */
const SWEEP_BATCH = 100;

/** What TransactionService is built with (the composition root passes it). */
export interface TransactionServiceDeps {
  store: TransactionStore;
  /** Every kind's plug-in, built at the composition root. */
  kinds: TransactionKinds;
  /** Routing, connectors and what providers send. */
  rails: Rails;
  clock: Clock;
  jobs: TransactionJobQueue;
  outbox: Outbox;
  /** Which progress events each merchant chose (the others are recorded whatever they chose). */
  eventChoices: EventChoices;
  /** Whether anyone subscribes to a merchant's transactions (a creation is published only then). */
  listeners: { mayHaveListeners(merchantId: string): boolean };
  pubsub: PubSub;
  faults: Faults;
  reconcileAfterMs: number;
  logger: Logger;
}

/**
 * The one transaction model for every kind: the creation path (row first, then
 * the provider, then the outcome), reconciliation of a creation a crash cut
 * short, reads, and every status change with its history and outbox event.
 */
export class TransactionService {
  private readonly hotAccounts = new KeyedSemaphore(HOT_ACCOUNT_CONCURRENCY);

  constructor(private readonly deps: TransactionServiceDeps) {}

  /**
   * The one creation path (CONTRACT §6; docs/architecture.md, "The creation path"):
   * 1. insert the row as `initiating` (statement 1; a reused merchant reference → 409 from the constraint);
   * 2. call the provider with the transaction's id as idempotency key;
   * 3. write its answer with the history entry, the outbox event (if it is final) and
   *    the follow-up jobs (statement 2, atomic on its own).
   * A crash between 1 and 3 leaves an `initiating` row that reconciliation finishes.
   * `transient` goes to the provider call only (see TransactionKindHandler).
   */
  async initiate<F extends NewTransaction, T>(fields: F, transient?: T): Promise<TransactionOf<F['kind']>> {
    const handler = this.handlerOf(fields.kind);
    const now = this.deps.clock.now();
    const txn: Transaction = {
      ...BLANK,
      ...fields,
      id: timeOrderedUuid(),
      reference: newTransactionReference(fields.kind),
      status: 'initiating',
      connector: fields.connector ?? '',
      createdAt: now,
      updatedAt: now,
    };
    // Routing picks the connector (and checks its rule on the amount) before anything is written. One given (a refund
    // goes back through its payment's) must still be configured, or nothing could be sent.
    if (fields.connector && !this.deps.rails.router.has(fields.connector)) {
      throw new AppError('ROUTE_UNAVAILABLE', `The provider ${fields.connector} of this ${fields.kind} is not connected here; nothing was written or sent`);
    }
    if (!fields.connector) {
      const leg = handler.route?.(txn);
      if (!leg) throw new Error(`A ${fields.kind} names no route and no connector`);
      txn.connector = this.deps.rails.pick(leg).name;
    }
    // A kind that holds money at initiation (a transfer's reservation) posts it in the insert's statement.
    const ledger = handler.ledger(txn);
    const inserted = await this.onMerchantBalance(txn, ledger, () => this.deps.store.insert(txn, ledger));
    if (inserted === 'parent_claim_refused') throw AppError.invalidField('amount', 'is more than what is left of the payment to refund');
    if (inserted === 'quote_used') throw await this.quoteUsed(txn.quoteId!);
    let answer: ProviderAnswer;
    try {
      answer = await handler.callProvider(txn, txn.id, transient);
    } catch (err) {
      if (err instanceof AppError) {
        // A definite refusal: nothing was started, so nothing is kept, the reference stays free, and what was held goes back.
        await this.deps.store.deleteInitiating(txn.id, handler.ledger({ ...txn, status: 'failed' }), txn.quoteId);
        throw err;
      }
      // The error itself, so the logger's error serializer can cut any card number a provider's message quotes.
      this.deps.logger.error({ reference: txn.reference, err }, 'provider call failed; the transaction will be reconciled');
      throw new AppError(
        'SERVER_ERROR',
        `The provider did not answer; transaction ${txn.reference} is recorded and will be finished automatically. Check its status.`,
      );
    }
    this.deps.faults.hit('crash-after-provider-call');
    // The record of the kind `fields` gave (a row never changes kind).
    return ((await this.recordAnswer(txn, answer, 'initiated')) ?? (await this.reload(txn.id))) as TransactionOf<F['kind']>;
  }

  /** A locked quote serves one transfer (issue 34): 409 INVALID_STATE on the quote, naming the transfer that used it. */
  private async quoteUsed(quoteId: string): Promise<AppError> {
    const user = await this.deps.store.quoteUser(quoteId);
    const details = [
      { field: 'quoteId', issue: `was already used${user ? ` by transfer ${user}` : ''}; a quote locks its rate for one transfer: get a new rate` },
    ];
    return new AppError(
      'INVALID_STATE',
      `This quote was already used${user ? ` by transfer ${user}` : ''}; a quote locks its rate for one transfer: get a new rate`,
      details,
    );
  }

  /** Reconciliation job: finishes a transaction whose creation a crash cut short, asking the provider again with the same key. */
  async reconcile(transactionId: string): Promise<void> {
    const txn = await this.deps.store.findById(transactionId);
    if (!txn || txn.status !== 'initiating') {
      await this.deps.store.forgetInitiation(transactionId); // nothing to finish (e.g. its merchant was deleted)
      return;
    }
    let answer: ProviderAnswer;
    try {
      answer = await this.handlerOf(txn.kind).callProvider(txn, txn.id, undefined, true);
    } catch (err) {
      // Only the provider's refusal of the request itself is the transaction's failure. Anything else (no answer, an open
      // breaker, our credentials refused, a lookup that failed) says nothing about the first request: asked again later.
      if (!refusedTheRequest(err)) throw err;
      answer = { status: 'failed', failureReason: err.failureReason };
    }
    if (await this.recordAnswer(txn, answer, 'reconciled')) {
      this.deps.logger.warn(
        { merchantId: txn.merchantId, reference: txn.reference, status: answer.status },
        'transaction reconciled after an interrupted initiation',
      );
    }
  }

  /** Hands every transaction stuck `initiating` for longer than the reconciliation delay to a reconciliation job. */
  async sweepInitiating(): Promise<number> {
    const stale = await this.deps.store.staleInitiating(this.deps.reconcileAfterMs, SWEEP_BATCH);
    await this.deps.jobs.add(
      stale.map((id) => ({ name: TransactionJob.ReconcileInitiation, payload: { transactionId: id }, key: `${RECONCILE_KEY_PREFIX}${id}` })),
    );
    return stale.length;
  }

  /**
   * Step 3 of creation (and of reconciliation): the provider's answer, applied once.
   * A final answer (a decline, or a card charged at once) carries its outbox event.
   * Null when it was applied already.
   */
  private async recordAnswer(txn: Transaction, answer: ProviderAnswer, reason: string): Promise<Transaction | null> {
    const now = this.deps.clock.now();
    const status = nextTransactionStatus(txn.kind, txn.status, answer.status);
    const final = isFinal(status);
    const next: Transaction = {
      ...txn,
      status,
      providerReference: answer.providerReference ?? null,
      bankInfo: answer.status === 'processing' ? (answer.bankInfo ?? null) : null,
      virtualAccountNumber: answer.status === 'processing' ? (answer.virtualAccountNumber ?? null) : null,
      nextActionUrl: answer.status === 'requires_action' || answer.status === 'processing' ? (answer.nextActionUrl ?? null) : null,
      expiresAt:
        answer.status === 'requires_action' ? answer.expiresAt : answer.status === 'processing' ? earlier(txn.expiresAt, answer.expiresAt) : txn.expiresAt,
      failureReason: answer.status === 'failed' ? answer.failureReason : null,
      updatedAt: now,
      completedAt: final ? now : null,
    };
    const jobs: TransactionJobSpec[] =
      'followUps' in answer
        ? answer.followUps.map((f) => ({ name: f.name, payload: { transactionId: txn.id }, delayMs: f.delayMs, key: `${f.name}:${txn.id}` }))
        : [];
    // Every answer is an event: a final one, or the transaction's progress (`*.processing`, `payment.requires_action`),
    // which goes into the statement only for a merchant who chose it (the statement checks the choice again).
    const type = eventTypeOf(next);
    const event = final || (await this.deps.eventChoices.mayRecord(txn.merchantId, type)) ? this.eventFor(next) : undefined;
    const ledger = this.handlerOf(txn.kind).ledger(next);
    const change: StatusChange = { next, from: 'initiating', history: { from: null, reason }, event, jobs, ledger };
    // Durability test only: the asynchronous commit lost to a PostgreSQL crash after the answer went out.
    if (this.deps.faults.loses('lose-asynchronous-commit') && commitsAsynchronously(change)) return next;
    const changed = await this.deps.store.applyChange(change);
    if (!changed) return null;
    this.afterChange(next, ledger);
    return next;
  }

  /** By the service's reference or the merchant's; another merchant's transaction is NOT_FOUND. */
  async getTransaction(merchantId: string, referenceOrExternal: string): Promise<Transaction> {
    // Neither kind of reference can have another shape (and PostgreSQL refuses some characters, NUL among them).
    if (!REFERENCE_CHARACTERS.test(referenceOrExternal)) throw AppError.notFound('Transaction');
    const txn = await this.deps.store.findByReference(merchantId, referenceOrExternal);
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }

  /** By id, for the services' own use (jobs, the sandbox's 3-D Secure page); null when there is none. */
  async findById(id: string): Promise<Transaction | null> {
    return this.deps.store.findById(id);
  }

  async history(transactionId: string): Promise<TransactionEvent[]> {
    return this.deps.store.history(transactionId);
  }

  /** A merchant's transaction's status history, oldest first, by either reference (404 when it is not theirs). */
  async historyOf(merchantId: string, referenceOrExternal: string): Promise<TransactionEvent[]> {
    const txn = await this.getTransaction(merchantId, referenceOrExternal);
    return this.history(txn.id);
  }

  async listTransactions(merchantId: string, query: TransactionListQuery): Promise<Page<Transaction>> {
    const { limit, after, ...filter } = parseInput(transactionListSchema, query, 'query');
    const rows = await this.deps.store.list(merchantId, listFilter(filter), limit, after ?? undefined);
    return toPage(rows, limit);
  }

  /**
   * Every transaction the filters match, newest first, in batches read as they are consumed (an export
   * streams them; nothing holds them all). The query is checked now: a bad one throws before anything is read.
   */
  /**
   * The list as a file: how many transactions the filters match (what the export costs), and every
   * one of them, newest first, in keyset batches of EXPORT_BATCH read as the file is written.
   */
  async exportTransactions(merchantId: string, query: TransactionExportQuery): Promise<{ count: number; batches: AsyncIterable<Transaction[]> }> {
    const filter = listFilter(parseInput(transactionExportSchema, query, 'query'));
    const store = this.deps.store;
    const count = await store.count(merchantId, filter);
    const read = async (after: Transaction | undefined, size: number) =>
      (await store.list(merchantId, filter, size, after && encodeCursor(after.createdAt, after.id))).slice(0, size);
    return { count, batches: keysetBatches(read, EXPORT_BATCH) };
  }

  /**
   * Settlement job: asks the provider (through the kind) and applies its decision, if any. A
   * transaction the provider has not decided is asked again later, with backoff
   * (PROVIDER_POLL_SCHEDULE), until it is final: a callback that never comes (MTN sends it once)
   * changes nothing. `poll`: which query of the chain this is; null: a one-off (a notification's).
   */
  async settle(transactionId: string, poll: number | null = 0): Promise<void> {
    const txn = await this.deps.store.findById(transactionId);
    const kind = txn && this.handlerOf(txn.kind);
    // Processing, or a card payment awaiting the cardholder on a real processor's page (its webhook or return).
    if (!txn || !kind?.settle || (txn.status !== 'processing' && txn.status !== 'requires_action')) return;
    let decision: SettlementDecision;
    try {
      decision = await kind.settle(txn, poll === null ? 'notification' : 'poll');
    } catch (err) {
      // The provider did not answer (or its breaker is open, or it is not configured now): the chain goes on at its
      // next step rather than failing its job (graphile's backoff would stretch polls to hours, then stop them).
      if (poll === null) throw err;
      this.deps.logger.warn({ reference: txn.reference, connector: txn.connector, err }, 'status query failed; asking again at the next poll');
      decision = { outcome: 'pending' };
    }
    if (decision.outcome === 'pending') {
      if (poll === null) return;
      // Keyed by its place in the chain: a job that runs twice (a crash before it completed) adds it once.
      await this.deps.jobs.add([
        {
          name: TransactionJob.SettleTransaction,
          payload: { transactionId, poll: poll + 1 },
          delayMs: this.deps.rails.nextPollMs(poll),
          key: `poll:${transactionId}:${poll + 1}`,
        },
      ]);
      return;
    }
    await this.transition(txn, decision.outcome, decision.outcome === 'failed' ? decision.reason : null, 'provider');
  }

  /**
   * A provider's notification arrived at /v1/providers/{connector}/callback/{token}. The token
   * must name one of this connector's transactions (else NOT_FOUND, and nothing is kept). The
   * body is kept raw, once (a duplicate changes nothing), with a job that asks the provider: the
   * notification itself never changes the transaction. Answers what the provider expects back.
   */
  async receiveNotification(connector: string, token: string, notification: InboundNotification): Promise<unknown> {
    const transactionId = this.deps.rails.transactionOfToken(connector, token);
    const txn = transactionId ? await this.deps.store.findById(transactionId) : null;
    if (!txn || txn.connector !== connector) throw AppError.notFound('Callback');
    return this.keepNotification(txn, notification);
  }

  /**
   * An account-wide webhook (`/v1/providers/{connector}/webhook`, Flutterwave's): the connector
   * authenticates it (its shared secret; else NOT_FOUND, nothing kept) and names our transaction
   * (its reference). One about no transaction of that connector is answered and ignored.
   */
  async receiveWebhook(connector: string, headers: Record<string, string | string[] | undefined>, notification: InboundNotification): Promise<unknown> {
    const rail = this.deps.rails.router.has(connector) ? this.deps.rails.router.connector(connector) : null;
    if (!rail?.authenticateWebhook(headers)) throw AppError.notFound('Webhook');
    const transactionId = rail.webhookTransaction(notification);
    const txn = transactionId && UUID_ID.test(transactionId) ? await this.deps.store.findById(transactionId) : null;
    if (!txn || txn.connector !== connector) {
      this.deps.logger.warn({ connector }, 'provider webhook about no transaction of this connector; ignored');
      return rail.acknowledgement;
    }
    return this.keepNotification(txn, notification);
  }

  private async keepNotification(txn: Transaction, notification: InboundNotification): Promise<unknown> {
    const connector = txn.connector;
    const rail = this.deps.rails.of(txn);
    const parsed = rail.parseNotification(notification);
    // Kept without the card details a provider may echo (the dedupe key is the received body's digest).
    const kept = await this.deps.rails.receive({ ...notification, body: rail.storableBody(notification.body), connector, transactionId: txn.id, parsed });
    this.deps.logger.info(
      { connector, reference: txn.reference, claimed: parsed.claimed, duplicate: !kept },
      kept ? 'provider notification kept; asking the provider' : 'duplicate provider notification ignored',
    );
    return rail.acknowledgement;
  }

  /**
   * CheckTransaction job (a notification arrived): one status query, applied if final. A transaction
   * still being created is checked again shortly (its creation commits first); a crash's is
   * finished by reconciliation, which reads the notifications too.
   */
  async checkTransaction(transactionId: string): Promise<void> {
    const txn = await this.deps.store.findById(transactionId);
    if (!txn) return;
    if (txn.status === 'initiating') {
      // Its creation has not committed yet (the provider was quick): checked again shortly. After a crash, reconciliation
      // finishes it, reading the notifications too.
      if (this.deps.clock.now().getTime() - txn.createdAt.getTime() < this.deps.reconcileAfterMs) {
        await this.deps.jobs.add([{ name: TransactionJob.CheckTransaction, payload: { transactionId }, delayMs: CHECK_AGAIN_MS }]);
      }
      return;
    }
    if (txn.status === 'failed' || txn.status === 'expired') await this.paidAfterClosing(txn);
    else await this.settle(txn.id, null);
    await this.deps.rails.processed(txn.id);
  }

  /**
   * A notification about a transaction that failed or expired (a bank transfer or a card's 3-D Secure that reached
   * the provider after our deadline and its grace): the provider is asked, and if it says paid, that is logged at
   * error level for an operator, who refunds the payer or credits the merchant. A final status never changes.
   */
  private async paidAfterClosing(txn: Transaction): Promise<void> {
    const kind = this.handlerOf(txn.kind);
    if (!kind.settle || this.deps.rails.of(txn).inProcess) return;
    const decision = await kind.settle(txn, 'notification');
    if (decision.outcome === 'successful') {
      this.deps.logger.error(
        { reference: txn.reference, connector: txn.connector, status: txn.status },
        'the provider reports this closed transaction paid: the money arrived after it failed or expired. Refund the payer or credit the merchant by hand',
      );
    }
  }

  /** ReleaseFunds job: a settled transaction's net, pending → available, once its delay is over (idempotent by its key). */
  async release(transactionId: string): Promise<void> {
    const txn = await this.deps.store.findById(transactionId);
    if (!txn || txn.status !== 'successful' || (txn.kind !== 'collection' && txn.kind !== 'payment')) return;
    const ledger = { postings: [releaseEntry(txn, netOf(txn))] };
    if (await this.deps.store.post(ledger)) this.ledgerChanged(txn, ledger);
  }

  /**
   * Expiry jobs: a bank collection nobody paid into expires; a payment whose
   * cardholder did not authenticate in time fails (authentication_expired).
   * The deadline is the service's clock's, not the job queue's: a job that runs
   * before it (the database's clock ahead of ours, a test's manual clock standing
   * still) changes nothing and comes back when the deadline is due.
   * Returns the transaction as it is afterwards.
   */
  async expire(transactionId: string): Promise<Transaction | null> {
    const txn = await this.deps.store.findById(transactionId);
    if (!txn) return null;
    const expiry = this.handlerOf(txn.kind).expiry;
    if (!expiry || txn.status !== expiry.from) return txn;
    const now = this.deps.clock.now();
    if (txn.expiresAt && !pastDeadline(txn, now)) {
      await this.deps.jobs.add([{ name: expiry.job, payload: { transactionId }, delayMs: txn.expiresAt.getTime() - now.getTime() }]);
      return txn;
    }
    // A real provider is asked first: the sender may have paid (or the cardholder authenticated) just before the
    // deadline, with its webhook still on the way. Its verdict wins; pending expires. No answer: the job runs again.
    const kind = this.handlerOf(txn.kind);
    if (kind.settle && !this.deps.rails.of(txn).inProcess) {
      const decision = await kind.settle(txn, 'poll');
      if (decision.outcome !== 'pending') {
        return (await this.transition(txn, decision.outcome, decision.outcome === 'failed' ? decision.reason : null, 'provider')) ?? this.reload(txn.id);
      }
      // Still nothing at the provider: asked once more at the end of the grace, then expired.
      const graceEnds = (txn.expiresAt?.getTime() ?? now.getTime()) + EXPIRY_GRACE_MS;
      if (now.getTime() < graceEnds) {
        await this.deps.jobs.add([
          { name: expiry.job, payload: { transactionId }, delayMs: graceEnds - now.getTime(), key: `${expiry.job}:grace:${transactionId}` },
        ]);
        return txn;
      }
    }
    return (await this.transition(txn, expiry.to, expiry.reason, 'expiry')) ?? this.reload(txn.id);
  }

  /**
   * The cardholder is back from a real processor's authentication page (3-D Secure) at
   * `/v1/providers/{connector}/return/{token}`: the processor is asked at once, so the merchant's
   * page already shows the verdict. Its webhook would tell the same, later. Asking changes
   * nothing the processor has not decided; a failed question leaves the payment as it was.
   */
  async returnFromAuthentication(connector: string, token: string): Promise<Transaction> {
    const transactionId = this.deps.rails.transactionOfToken(connector, token, 'return');
    const txn = transactionId ? await this.deps.store.findById(transactionId) : null;
    if (!txn || txn.connector !== connector || txn.kind !== 'payment') throw AppError.notFound('Payment');
    if (txn.status === 'requires_action') {
      await this.settle(txn.id, null).catch((err: unknown) =>
        this.deps.logger.warn({ reference: txn.reference, connector, err }, 'status query on the cardholder’s return failed; the webhook or expiry decides'),
      );
      return this.reload(txn.id);
    }
    return txn;
  }

  /** Sandbox: decide a processing transaction now. A final one is INVALID_STATE. */
  async simulate(merchantId: string, referenceOrExternal: string, command: SimulateCommand): Promise<Transaction> {
    const { outcome } = parseInput(simulateSchema, command);
    const txn = await this.getTransaction(merchantId, referenceOrExternal);
    const refusal = this.handlerOf(txn.kind).simulationRefusal?.(txn);
    if (refusal) throw new AppError('INVALID_STATE', refusal);
    const changed = await this.transition(txn, outcome, outcome === 'failed' ? 'simulated_failure' : null, 'simulation');
    if (!changed) {
      const now = await this.reload(txn.id);
      throw new AppError('INVALID_STATE', `The transaction is already ${now.status}; a final status never changes`);
    }
    return changed;
  }

  /**
   * The one place a processing transaction reaches a final status: checked by the
   * state machine, then one conditional statement with its history entry, outbox
   * event, webhook delivery and job. Returns null when the transaction had moved
   * on meanwhile (a second settlement, on this instance or another, changes nothing).
   */
  /** A kind's own step decides (a payment's 3-D Secure verdict): the same one place as every other final status. */
  decide<T extends Transaction>(txn: T, to: FinalStatus, failureReason: string | null, source: string): Promise<T | null> {
    return this.transition(txn, to, failureReason, source);
  }

  private async transition<T extends Transaction>(txn: T, to: FinalStatus, failureReason: string | null, source: string): Promise<T | null> {
    nextTransactionStatus(txn.kind, txn.status, to);
    const now = this.deps.clock.now();
    const next: T = {
      ...txn,
      status: to,
      failureReason: to === 'successful' ? null : failureReason,
      nextActionUrl: null,
      updatedAt: now,
      completedAt: now,
    };
    const event = this.eventFor(next);
    const ledger = this.handlerOf(txn.kind).ledger(next);
    const changed = await this.deps.store.applyChange({
      next,
      from: txn.status,
      history: { from: txn.status, reason: failureReason ?? source },
      event,
      ledger,
    });
    if (!changed) return null;
    this.deps.logger.info({ merchantId: txn.merchantId, reference: txn.reference, from: txn.status, to, source }, 'transaction status changed');
    this.afterChange(next, ledger);
    return next;
  }

  /**
   * The event of the status `next` has reached. A transaction reaches each status once, so the
   * event's id is derived from it and its status: recorded again after a lost asynchronous commit
   * (reconciliation), it is the same event.
   */
  private eventFor(next: Transaction) {
    return this.deps.outbox.stamp(
      { merchantId: next.merchantId, type: eventTypeOf(next), subjectId: next.reference, payload: serializeTransaction(next) },
      { key: `${next.id}:${next.status}`, at: next.createdAt },
    );
  }

  /**
   * After a commit: tell subscribers (with the record, so they need not read it again). A final status
   * always; a creation only when some instance has a subscriber of the merchant's transactions. The
   * store woke the workers.
   */
  private afterChange(next: Transaction, ledger: LedgerEffect = NO_LEDGER_EFFECT): void {
    this.ledgerChanged(next, ledger);
    if (!isFinal(next.status) && !this.deps.listeners.mayHaveListeners(next.merchantId)) return;
    publishAfterCommit(this.deps.pubsub, this.deps.logger, TransactionTopic.StatusChanged, {
      merchantId: next.merchantId,
      reference: next.reference,
      externalReference: next.externalReference,
      transaction: toWire(next),
    });
  }

  /**
   * A reservation locks the merchant's balance row until it commits, so reservations of one
   * merchant and currency go a few at a time (HOT_ACCOUNT_CONCURRENCY per instance); the others
   * wait here, not holding pooled connections. Measured (BENCHMARKS.md, issue 19): +20 % for one
   * merchant's transfers; around status changes (a card charged at once) it measured worse, so
   * those go straight to the database.
   */
  private onMerchantBalance<T>(txn: Transaction, ledger: LedgerEffect, statement: () => Promise<T>): Promise<T> {
    const line = ledger.postings.flatMap((p) => p.lines).find((l) => l.account.startsWith('m:'));
    return line ? this.hotAccounts.run(`${txn.merchantId}:${line.currency}`, statement) : statement();
  }

  /** After a commit that posted to a merchant's accounts: balanceChanged subscribers hear of each currency. */
  private ledgerChanged(txn: Transaction, ledger: LedgerEffect): void {
    publishBalanceChanges(this.deps.pubsub, this.deps.logger, txn.merchantId, ledger.postings);
  }

  /** What ledger:verify expects each kind to have posted in each status. */
  expectedLegs(): Array<{ kind: TransactionKind; status: TransactionStatus; required: string[]; optional: string[] }> {
    return TRANSACTION_KINDS.flatMap((kind) =>
      TRANSACTION_STATUSES.map((status) => {
        const legs = this.deps.kinds[kind].expectedLegs(status);
        return { kind, status, required: legs.required, optional: legs.optional ?? [] };
      }),
    );
  }

  async reload(id: string): Promise<Transaction> {
    const txn = await this.deps.store.findById(id);
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }

  private handlerOf(kind: TransactionKind): AnyKindHandler {
    return this.deps.kinds[kind] as AnyKindHandler;
  }
}

/** The sooner of two deadlines (null: none). */
function earlier(a: Date | null, b: Date | null | undefined): Date | null {
  if (!a || !b) return a ?? b ?? null;
  return a.getTime() <= b.getTime() ? a : b;
}
