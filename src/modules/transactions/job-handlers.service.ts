import type { SettlementRun } from './settlement-pump';
import type { Clock } from '../../shared/clock';
import type { Rails } from '../rails/rails';
import type { TransactionLifecycle } from './lifecycle.service';
import type { ProviderSignals } from './provider-signals.service';
import type { TransactionQueries } from './queries.service';
import { pastDeadline, type Transaction } from './transaction.record';
import { handlerOf, type AnyKindHandler, type TransactionKinds } from './transaction.kinds';
import { TransactionJob, type TransactionJobQueue } from './transaction.jobs';
import type { TransactionKind } from './transaction.state';
import { RECONCILE_KEY_PREFIX, type TransactionStore } from './transaction.store';

/**
 * How long past its deadline a real provider's collection or 3-D Secure payment is still asked about before it
 * expires: a bank transfer sent just before the account closed, or a cardholder finishing the processor's page,
 * may reach the provider's records a little later.
 */
const EXPIRY_GRACE_MS = 5 * 60_000;

/** How many stuck initiations one sweep hands to reconciliation at most. */
const SWEEP_BATCH = 100;

/** What TransactionJobHandlers is built with (the composition root passes it). */
export interface TransactionJobHandlersDeps {
  store: TransactionStore;
  /** Every kind's plug-in, built at the composition root. */
  kinds: TransactionKinds;
  /** Whether a transaction's connector is in process (the sandbox decides by itself; a real provider is asked). */
  rails: Rails;
  lifecycle: TransactionLifecycle;
  queries: TransactionQueries;
  signals: ProviderSignals;
  clock: Clock;
  jobs: TransactionJobQueue;
  reconcileAfterMs: number;
}

/**
 * What each transaction job runs (transaction.jobs.ts; wired in src/workers.ts), and the sweep that
 * hands stuck initiations to reconciliation. The provider's part (status queries, notifications,
 * reconciliation) is ProviderSignals'; expiry and the settlement delay's release are here.
 */
export class TransactionJobHandlers {
  constructor(private readonly deps: TransactionJobHandlersDeps) {}

  /** A settlement (SettlementPump): the status query; when to ask again if the provider has not decided (ProviderSignals.settle). */
  settle(transactionId: string, poll: number): Promise<SettlementRun> {
    return this.deps.signals.settle(transactionId, poll);
  }

  /** CheckTransaction: a notification arrived (ProviderSignals.checkTransaction). */
  checkTransaction(transactionId: string): Promise<void> {
    return this.deps.signals.checkTransaction(transactionId);
  }

  /** ReconcileInitiation: a creation a crash cut short (ProviderSignals.reconcile). */
  reconcile(transactionId: string): Promise<void> {
    return this.deps.signals.reconcile(transactionId);
  }

  /** Hands every transaction stuck `initiating` for longer than the reconciliation delay to a reconciliation job. */
  async sweepInitiating(): Promise<number> {
    const stale = await this.deps.store.staleInitiating(this.deps.reconcileAfterMs, SWEEP_BATCH);
    await this.deps.jobs.add(
      stale.map((id) => ({ name: TransactionJob.ReconcileInitiation, payload: { transactionId: id }, key: `${RECONCILE_KEY_PREFIX}${id}` })),
    );
    return stale.length;
  }

  /** ReleaseFunds job: what a settled transaction's kind releases once its delay is over (money in: its net, pending → available; idempotent by its key). */
  async release(transactionId: string): Promise<void> {
    const txn = await this.deps.store.findById(transactionId);
    if (!txn || txn.status !== 'successful') return;
    const kind = this.handlerOf(txn.kind);
    if (kind.release) await this.deps.lifecycle.post(txn, kind.release(txn));
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
    const expiry = this.handlerOf(txn.kind).expiry?.(txn);
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
        return (
          (await this.deps.lifecycle.transition(txn, decision.outcome, decision.outcome === 'failed' ? decision.reason : null, 'provider')) ??
          this.deps.queries.reload(txn.id)
        );
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
    return (await this.deps.lifecycle.transition(txn, expiry.to, expiry.reason, 'expiry')) ?? this.deps.queries.reload(txn.id);
  }

  private handlerOf(kind: TransactionKind): AnyKindHandler {
    return handlerOf(this.deps.kinds, kind);
  }
}
