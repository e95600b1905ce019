import { timeOrderedBytes, timeOrderedUuid } from '../../shared/crypto';
import { z } from 'zod';
import { publishAfterCommit } from '../../events/merchant-events';
import type { PubSub } from '../../events/pubsub';
import { TransactionTopic } from './transaction.topics';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Faults } from '../../shared/faults';
import { KeyedSemaphore } from '../../shared/keyed-semaphore';
import type { Logger } from '../../shared/logger';
import { parseInput, type Command } from '../../shared/validation';
import { publishBalanceChanges } from '../ledger/ledger.service';
import type { EventType } from '../outbox/event-types';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import { CircuitOpened } from '../../providers/breaker';
import type { Rails } from '../rails/rails';
import { BLANK, toWire, type KindColumns, type Transaction, type TransactionOf } from './transaction.record';
import { NO_LEDGER_EFFECT, SETTLE, handlerOf, type AnyKindHandler, type LedgerEffect, type ProviderAnswer, type TransactionKinds } from './transaction.kinds';
import type { TransactionJobSpec } from './transaction.jobs';
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
import { commitsAsynchronously, type StatusChange, type TransactionStore } from './transaction.store';
import type { TransactionQueries } from './queries.service';

/**
 * A service-assigned reference, e.g. `col_01a21de034b1…`: the kind's prefix (its handler's `referencePrefix`),
 * then 24 hex (the time in ms, then 6 random bytes; crypto.ts).
 */
/** 13 digits in a row: the shortest card number. */
const CARD_LENGTH_DIGITS = /\d{13}/;

/**
 * A service reference, `col_` and 24 hex characters (time-ordered). Never with 13 digits in a row: hex has them now
 * and then (about 1 reference in 200), and a Luhn-valid one reads as a card number, to the input rules when a merchant
 * quotes our reference as its own (refused, 400) and to the logs' redaction. Drawn again then (the time part keeps its
 * order; what follows it is random).
 */
export function newTransactionReference(prefix: string): string {
  for (;;) {
    const hex = timeOrderedBytes(12).toString('hex');
    if (!CARD_LENGTH_DIGITS.test(hex)) return `${prefix}_${hex}`;
  }
}

/** The columns a kind's checks produce (its own columns among them); the creation path adds identity, status and times. */
export type NewTransaction = {
  [K in TransactionKind]: Partial<TransactionOf<K>> & Pick<TransactionOf<K>, 'merchantId' | 'kind' | 'externalReference' | KindColumns<K>>;
}[TransactionKind];

/** How a sandbox simulation may decide a transaction. */
export const SIMULATION_OUTCOMES = ['successful', 'failed'] as const;
export type SimulationOutcome = (typeof SIMULATION_OUTCOMES)[number];
export const simulateSchema = z.object({ outcome: z.enum(SIMULATION_OUTCOMES, { error: 'must be successful or failed' }) });
export type SimulateCommand = Command<typeof simulateSchema>;

/** Statements reserving from one merchant's balance that one instance sends at once (they serialise on its row anyway). */
const HOT_ACCOUNT_CONCURRENCY = 2;
/** A new transaction is routed again at most this often when its connector's breaker opens under it. */
const MAX_REROUTES = 2;

/** What TransactionLifecycle is built with (the composition root passes it). */
export interface TransactionLifecycleDeps {
  store: TransactionStore;
  /** Every kind's plug-in, built at the composition root. */
  kinds: TransactionKinds;
  /** Routing (a new transaction's connector). */
  rails: Rails;
  queries: TransactionQueries;
  clock: Clock;
  outbox: Outbox;
  /** Which progress events each merchant chose (the others are recorded whatever they chose). */
  eventChoices: EventChoices;
  /** Whether anyone subscribes to a merchant's transactions (a creation is published only then). */
  listeners: { mayHaveListeners(merchantId: string): boolean };
  pubsub: PubSub;
  faults: Faults;
  logger: Logger;
}

/**
 * The one transaction model for every kind, from birth to its final status: the creation path
 * (row first, then the provider, then the outcome), the provider's first answer applied (at
 * creation or by reconciliation), and every later status change with its history, outbox event
 * and ledger postings. What is kind-specific comes from the kind's handler (transaction.kinds.ts).
 */
export class TransactionLifecycle {
  private readonly hotAccounts = new KeyedSemaphore(HOT_ACCOUNT_CONCURRENCY);

  constructor(private readonly deps: TransactionLifecycleDeps) {}

  /**
   * The one creation path (CONTRACT §6; docs/architecture.md, "The creation path"):
   * 1. insert the row as `initiating` (statement 1; a reused merchant reference → 409 from the constraint);
   * 2. call the provider with the transaction's id as idempotency key;
   * 3. write its answer with the history entry, the outbox event (if it is final) and
   *    the follow-up jobs (statement 2, atomic on its own).
   * A crash between 1 and 3 leaves an `initiating` row that reconciliation finishes.
   * `transient` goes to the provider call only (see TransactionKindHandler).
   */
  async initiate<F extends NewTransaction, T>(fields: F, transient?: T, rerouted = 0): Promise<TransactionOf<F['kind']>> {
    const handler = this.handlerOf(fields.kind);
    const now = this.deps.clock.now();
    const txn: Transaction = {
      ...BLANK,
      ...fields,
      id: timeOrderedUuid(),
      reference: newTransactionReference(handler.referencePrefix),
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
        const reroute = err instanceof CircuitOpened && !fields.connector && rerouted < MAX_REROUTES;
        // A kind that keeps its refusals (a payout) fails instead: its money returns through the books, and the merchant is told.
        if (handler.keepsRefusals && !reroute) {
          const failed = await this.recordAnswer(txn, { status: 'failed', failureReason: err.code.toLowerCase() }, 'initiated');
          return (failed ?? (await this.deps.queries.reload(txn.id))) as TransactionOf<F['kind']>;
        }
        // A definite refusal: nothing was started, so nothing is kept, the reference stays free, and what was held goes back.
        await this.deps.store.deleteInitiating(txn.id, handler.ledger({ ...txn, status: 'failed' }), txn.quoteId);
        // The picked connector's breaker opened meanwhile: routing now passes over it, to the route's next connector
        // (or PROVIDER_UNAVAILABLE when none is left). Bounded, as each pass opens no breaker itself.
        if (reroute) return this.initiate(fields, transient, rerouted + 1);
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
    return ((await this.recordAnswer(txn, answer, 'initiated')) ?? (await this.deps.queries.reload(txn.id))) as TransactionOf<F['kind']>;
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

  /**
   * Step 3 of creation (and of reconciliation, ProviderSignals.reconcile): the provider's answer,
   * applied once. A final answer (a decline, or a card charged at once) carries its outbox event.
   * Null when it was applied already.
   */
  async recordAnswer(txn: Transaction, answer: ProviderAnswer, reason: string): Promise<Transaction | null> {
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
    next.availableAt = this.availableAt(next);
    const followUps = 'followUps' in answer ? answer.followUps : [];
    const jobs: TransactionJobSpec[] = followUps.flatMap((f) =>
      f.name === SETTLE ? [] : [{ name: f.name, payload: { transactionId: txn.id }, delayMs: f.delayMs, key: `${f.name}:${txn.id}` }],
    );
    const settleAfterMs = followUps.find((f) => f.name === SETTLE)?.delayMs;
    // Every answer is an event: a final one, or the transaction's progress (`*.processing`, `payment.requires_action`),
    // which goes into the statement only for a merchant who chose it (the statement checks the choice again).
    const type = this.eventTypeOf(next);
    const event = type && (final || (await this.deps.eventChoices.mayRecord(txn.merchantId, type))) ? this.eventFor(next, type) : undefined;
    const ledger = this.handlerOf(txn.kind).ledger(next);
    const change: StatusChange = { next, from: 'initiating', history: { from: null, reason }, event, jobs, settleAfterMs, ledger };
    // Durability test only: the asynchronous commit lost to a PostgreSQL crash after the answer went out.
    if (this.deps.faults.loses('lose-asynchronous-commit') && commitsAsynchronously(change)) return next;
    const changed = await this.deps.store.applyChange(change);
    if (!changed) return null;
    this.afterChange(next, ledger);
    return next;
  }

  /** Sandbox: decide a processing transaction now. A final one is INVALID_STATE. */
  async simulate(merchantId: string, referenceOrExternal: string, command: SimulateCommand): Promise<Transaction> {
    const { outcome } = parseInput(simulateSchema, command);
    const txn = await this.deps.queries.getTransaction(merchantId, referenceOrExternal);
    const refusal = this.handlerOf(txn.kind).simulationRefusal?.(txn);
    if (refusal) throw new AppError('INVALID_STATE', refusal);
    const changed = await this.transition(txn, outcome, outcome === 'failed' ? 'simulated_failure' : null, 'simulation');
    if (!changed) {
      const now = await this.deps.queries.reload(txn.id);
      throw new AppError('INVALID_STATE', `The transaction is already ${now.status}; a final status never changes`);
    }
    return changed;
  }

  /**
   * The one place a processing transaction reaches a final status: checked by the
   * state machine, then one conditional statement with its history entry, outbox
   * event, webhook delivery and job. Returns null when the transaction had moved
   * on meanwhile (a second settlement, on this instance or another, changes nothing).
   * Every decider comes here: the provider's verdict, expiry, simulation, a kind's own step
   * (a payment's 3-D Secure verdict).
   */
  async transition<T extends Transaction>(txn: T, to: FinalStatus, failureReason: string | null, source: string): Promise<T | null> {
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
    next.availableAt = this.availableAt(next);
    const type = this.eventTypeOf(next);
    const event = type ? this.eventFor(next, type) : undefined;
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

  /** The event of the status a transaction has reached (`collection.processing`, `payment.successful`, `payout.paid`…), or null for none. */
  private eventTypeOf(t: Transaction): EventType | null {
    const handler = this.handlerOf(t.kind);
    return handler.eventType ? handler.eventType(t.status) : (`${t.kind}.${t.status}` as EventType);
  }

  /** When a transaction that has just reached its status makes its money available: its kind's to say, once successful. */
  private availableAt(next: Transaction): Date | null {
    if (next.status !== 'successful') return null;
    return this.handlerOf(next.kind).availableAt?.(next) ?? null;
  }

  /**
   * The event of the status `next` has reached. A transaction reaches each status once, so the
   * event's id is derived from it and its status: recorded again after a lost asynchronous commit
   * (reconciliation), it is the same event.
   */
  private eventFor(next: Transaction, type: EventType) {
    const handler = this.handlerOf(next.kind);
    return this.deps.outbox.stamp(
      { merchantId: next.merchantId, type, subjectId: next.reference, payload: handler.eventPayload?.(next) ?? serializeTransaction(next) },
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

  /**
   * A posting made after its transaction's status change (the release at the end of the settlement
   * delay): written once by its key; after its commit, balanceChanged subscribers hear of it.
   */
  async post(txn: Transaction, ledger: LedgerEffect): Promise<void> {
    if (await this.deps.store.post(ledger)) this.ledgerChanged(txn, ledger);
  }

  private handlerOf(kind: TransactionKind): AnyKindHandler {
    return handlerOf(this.deps.kinds, kind);
  }
}

/** The sooner of two deadlines (null: none). */
function earlier(a: Date | null, b: Date | null | undefined): Date | null {
  if (!a || !b) return a ?? b ?? null;
  return a.getTime() <= b.getTime() ? a : b;
}
