import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { JobName, JobRunner } from '../../jobs/job-runner';
import type { PaymentProvider } from '../../providers/payment-provider';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { afterCursor, pageRequestSchema, toPage, type Page } from '../../shared/pagination';
import { parseInput } from '../../shared/validation';
import type { EventType } from '../outbox/event-types';
import { publishAfterCommit } from '../../events/merchant-events';
import { Topic, type PubSub } from '../../events/pubsub';
import type { Outbox } from '../outbox/outbox';
import { TransactionEvent } from './transaction-event.entity';
import { Transaction } from './transaction.entity';
import { serializeTransaction } from './transaction.serializer';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES, nextTransactionStatus, type FinalStatus, type TransactionKind } from './transaction.state';

const REFERENCE_PREFIX: Record<TransactionKind, string> = { collection: 'col', transfer: 'trf', payment: 'pay' };

/** A service-assigned reference, e.g. `col_5c0f…` (24 hex). */
export const newTransactionReference = (kind: TransactionKind) => `${REFERENCE_PREFIX[kind]}_${randomBytes(12).toString('hex')}`;

/** Work that decides a new transaction: the job receives the transaction's id. */
export interface ScheduledJob {
  name: JobName.SettleTransaction | JobName.ExpireCollection;
  delayMs: number;
}

const listSchema = pageRequestSchema.extend({
  status: z.enum(TRANSACTION_STATUSES).optional(),
  type: z.enum(TRANSACTION_KINDS).optional(),
  customer_uuid: z.string().uuid('must be a customer uuid').optional(),
});

const simulateSchema = z.object({ outcome: z.enum(['successful', 'failed'], { error: 'must be successful or failed' }) });

/**
 * The one transaction model: creation with a per-merchant unique reference,
 * status, history, and every state change (with its outbox event) for every kind.
 */
export class TransactionService {
  constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    private readonly provider: PaymentProvider,
    private readonly outbox: Outbox,
    private readonly pubsub: PubSub,
    private readonly logger: Logger,
  ) {}

  /** The cheap check before any provider is called; the constraint in `create` is what guarantees it. */
  async assertReferenceUnused(merchantId: string, externalReference: string): Promise<void> {
    const existing = await this.orm.em.fork().findOne(Transaction, { merchantId, externalReference });
    if (existing) throw duplicate(externalReference, existing.reference);
  }

  /**
   * Saves a new processing transaction, its first history entry and the jobs that
   * will decide it, in one transaction. Of concurrent requests with one reference
   * the first commit wins and every other gets DUPLICATE_REQUEST naming it.
   */
  async create(fields: Partial<Transaction> & Pick<Transaction, 'merchantId' | 'kind' | 'reference' | 'externalReference'>, jobs: ScheduledJob[]): Promise<Transaction> {
    const now = this.clock.now();
    try {
      return await this.orm.em.fork().transactional(async (em) => {
        const txn = em.create(Transaction, { ...fields, status: 'processing', createdAt: now, updatedAt: now });
        em.create(TransactionEvent, { transactionId: txn.id, fromStatus: null, toStatus: 'processing', reason: 'initiated', occurredAt: now });
        await em.flush();
        for (const job of jobs) {
          await this.jobs.enqueue(em, job.name, { transactionId: txn.id }, { delayMs: job.delayMs, singletonKey: `${job.name}:${txn.id}` });
        }
        return txn;
      });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException && err.message.includes('transaction_merchant_external_reference_unique')) {
        const existing = await this.orm.em.fork().findOne(Transaction, { merchantId: fields.merchantId, externalReference: fields.externalReference });
        throw duplicate(fields.externalReference, existing?.reference);
      }
      throw err;
    }
  }

  /** By the service's reference or the merchant's; another merchant's transaction is NOT_FOUND. */
  async getTransaction(merchantId: string, referenceOrExternal: string): Promise<Transaction> {
    // The service's own reference wins over a merchant reference that happens to look like one.
    const txn =
      (await this.orm.em.findOne(Transaction, { merchantId, reference: referenceOrExternal })) ??
      (await this.orm.em.findOne(Transaction, { merchantId, externalReference: referenceOrExternal }));
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }

  async history(transactionId: string): Promise<TransactionEvent[]> {
    return this.orm.em.find(TransactionEvent, { transactionId }, { orderBy: { id: 'asc' } });
  }

  async listTransactions(merchantId: string, input: unknown): Promise<Page<Transaction>> {
    const { limit, after, status, type, customer_uuid } = parseInput(listSchema, input, 'query');
    const where: Record<string, unknown> = { merchantId };
    if (status) where.status = status;
    if (type) where.kind = type;
    if (customer_uuid) where.customerId = customer_uuid;
    Object.assign(where, afterCursor(after));
    const rows = await this.orm.em.find(Transaction, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 });
    return toPage(rows, limit);
  }

  /** Settlement job: asks the provider and applies its decision, if any. */
  async settle(transactionId: string): Promise<void> {
    const txn = await this.orm.em.fork().findOne(Transaction, { id: transactionId });
    if (!txn || txn.status !== 'processing' || txn.kind === 'payment' || !txn.accountType || !txn.accountNumber) return;
    const decision = await this.provider.decide({
      kind: txn.kind,
      accountType: txn.accountType,
      accountNumber: txn.accountNumber,
      providerReference: txn.providerReference,
    });
    if (decision.outcome === 'pending') return;
    await this.transition(transactionId, decision.outcome, decision.outcome === 'failed' ? decision.reason : null, 'provider');
  }

  /** Expiry job: a bank collection nobody paid into. */
  async expire(transactionId: string): Promise<void> {
    await this.transition(transactionId, 'expired', 'not_paid_before_expiry', 'expiry');
  }

  /** Sandbox: decide a processing transaction now. A final one is INVALID_STATE. */
  async simulate(merchantId: string, referenceOrExternal: string, input: unknown): Promise<Transaction> {
    const { outcome } = parseInput(simulateSchema, input);
    const txn = await this.getTransaction(merchantId, referenceOrExternal);
    nextTransactionStatus(txn.kind, txn.status, outcome);
    const changed = await this.transition(txn.id, outcome, outcome === 'failed' ? 'simulated_failure' : null, 'simulation');
    if (!changed) {
      const now = await this.orm.em.fork().findOneOrFail(Transaction, { id: txn.id });
      throw new AppError('INVALID_STATE', `The transaction is already ${now.status}; a final status never changes`);
    }
    return changed;
  }

  /**
   * The one place a transaction's status changes: under a row lock, checked by the
   * state machine, with its history entry and outbox event in the same database
   * transaction. Returns null when the transaction was already final (a second
   * settlement, on this instance or another, changes nothing).
   */
  private async transition(transactionId: string, to: FinalStatus, failureReason: string | null, source: string): Promise<Transaction | null> {
    const changed = await this.orm.em.fork().transactional(async (em: EntityManager) => {
      const txn = await em.findOne(Transaction, { id: transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!txn || txn.status !== 'processing') return null;
      const now = this.clock.now();
      const from = txn.status;
      txn.status = nextTransactionStatus(txn.kind, from, to);
      txn.failureReason = to === 'successful' ? null : failureReason;
      txn.updatedAt = now;
      txn.completedAt = now;
      em.create(TransactionEvent, { transactionId: txn.id, fromStatus: from, toStatus: to, reason: failureReason ?? source, occurredAt: now });
      await this.outbox.record(em, {
        merchantId: txn.merchantId,
        type: `${txn.kind}.${to}` as EventType,
        subjectId: txn.reference,
        payload: serializeTransaction(txn),
      });
      this.logger.info({ merchantId: txn.merchantId, reference: txn.reference, from, to, source }, 'transaction status changed');
      return txn;
    });
    if (changed) {
      publishAfterCommit(this.pubsub, this.logger, Topic.TransactionStatusChanged, {
        merchantId: changed.merchantId,
        reference: changed.reference,
        externalReference: changed.externalReference,
      });
    }
    return changed;
  }

  /** A transaction by reference on its own EntityManager (for subscriptions, outside any request). */
  async getTransactionDetached(merchantId: string, reference: string): Promise<Transaction> {
    const txn = await this.orm.em.fork().findOne(Transaction, { merchantId, reference });
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }
}

function duplicate(externalReference: string, existingReference: string | undefined): AppError {
  return new AppError('DUPLICATE_REQUEST', `A transaction with reference ${externalReference} already exists`, [
    { field: 'reference', issue: existingReference ? `already used by transaction ${existingReference}` : 'is already used' },
  ]);
}
