import { refusedTheRequest, type InboundNotification, type SettlementDecision } from '../../providers/connector';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { DomainEvent } from '../../events/domain-event';
import { handlesDisputes, type ProviderDispute } from '../../providers/capabilities';
import type { Logger } from '../../shared/logger';
import { UUID_ID } from '../../shared/pagination';
import type { Rails } from '../rails/rails';
import type { TransactionLifecycle } from './lifecycle.service';
import type { TransactionQueries } from './queries.service';
import type { Transaction } from './transaction.record';
import { handlerOf, type AnyKindHandler, type ProviderAnswer, type TransactionKinds } from './transaction.kinds';
import { TransactionJob, type TransactionJobQueue } from './transaction.jobs';
import type { TransactionKind } from './transaction.state';
import type { TransactionStore } from './transaction.store';
import type { SettlementRun } from './settlement-pump';

/** A notification for a transaction still being created is looked at again after this. */
const CHECK_AGAIN_MS = 1000;

/** What ProviderSignals is built with (the composition root passes it). */
export interface ProviderSignalsDeps {
  store: TransactionStore;
  /** Every kind's plug-in, built at the composition root. */
  kinds: TransactionKinds;
  /** Connectors, callback tokens and the notifications kept. */
  rails: Rails;
  lifecycle: TransactionLifecycle;
  queries: TransactionQueries;
  clock: Clock;
  jobs: TransactionJobQueue;
  reconcileAfterMs: number;
  logger: Logger;
  /** A provider's webhook about a chargeback (issue 39): the disputes module hears it, not a transaction. */
  disputeReported: DomainEvent<DisputeReport>;
}

/** A chargeback a provider told us of, by its connector. */
export interface DisputeReport {
  connector: string;
  dispute: ProviderDispute;
}

/**
 * The provider's word on a transaction: what it sends (callbacks, account-wide webhooks, the
 * cardholder back from its authentication page) and what it answers when asked (the status
 * query, and reconciliation of a creation a crash cut short). A notification is only a hint:
 * the status query is the truth, and every verdict goes through TransactionLifecycle.transition.
 */
export class ProviderSignals {
  constructor(private readonly deps: ProviderSignalsDeps) {}

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
    if (await this.deps.lifecycle.recordAnswer(txn, answer, 'reconciled')) {
      this.deps.logger.warn(
        { merchantId: txn.merchantId, reference: txn.reference, status: answer.status },
        'transaction reconciled after an interrupted initiation',
      );
    }
  }

  /**
   * A settlement (SettlementPump): asks the provider (through the kind) and applies its decision, if any. A
   * transaction the provider has not decided is asked again later, with backoff
   * (PROVIDER_POLL_SCHEDULE), until it is final: a callback that never comes (MTN sends it once)
   * changes nothing. `poll`: which query of the chain this is; null: a one-off (a notification's).
   * Says when to ask again (`nextPollMs`), or null when the chain is over (decided, or nothing to ask).
   */
  async settle(transactionId: string, poll: number | null = 0): Promise<SettlementRun> {
    const over = { nextPollMs: null };
    const txn = await this.deps.store.findById(transactionId);
    const kind = txn && this.handlerOf(txn.kind);
    // Processing, or a card payment awaiting the cardholder on a real processor's page (its webhook or return).
    if (!txn || !kind?.settle || (txn.status !== 'processing' && txn.status !== 'requires_action')) return over;
    let decision: SettlementDecision;
    try {
      decision = await kind.settle(txn, poll === null ? 'notification' : 'poll');
    } catch (err) {
      // The provider did not answer (or its breaker is open, or it is not configured now): the chain goes on at its
      // next step rather than failing (a backoff of its own would stretch polls to hours).
      if (poll === null) throw err;
      this.deps.logger.warn({ reference: txn.reference, connector: txn.connector, err }, 'status query failed; asking again at the next poll');
      decision = { outcome: 'pending' };
    }
    if (decision.outcome === 'pending') {
      // The pump schedules the next query, fenced by its place in the chain: a settlement run twice (a crash before
      // its result was written) schedules it once.
      return poll === null ? over : { nextPollMs: this.deps.rails.nextPollMs(poll) };
    }
    await this.deps.lifecycle.transition(txn, decision.outcome, decision.outcome === 'failed' ? decision.reason : null, 'provider');
    return over;
  }

  /**
   * Reconciliation's question (docs/reconciliation.md): the provider's verdict on a transaction, as the settlement job
   * would ask it (the kind's status query), applied to nothing. Null: its kind asks no provider. Any error is no answer.
   */
  async ask(transactionId: string): Promise<SettlementDecision | null> {
    const txn = await this.deps.store.findById(transactionId);
    const kind = txn && this.handlerOf(txn.kind);
    if (!txn || !kind?.settle) return null;
    return kind.settle(txn, 'poll');
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
    // A chargeback's webhook is about a dispute, not about the payment's status.
    const dispute = handlesDisputes(rail) ? rail.webhookDispute(notification.body) : null;
    if (dispute) {
      await this.deps.disputeReported.emit({ connector, dispute });
      return rail.acknowledgement;
    }
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

  /**
   * The cardholder is back from a real processor's authentication page (3-D Secure) at
   * `/v1/providers/{connector}/return/{token}`: the processor is asked at once, so the merchant's
   * page already shows the verdict. Its webhook would tell the same, later. Asking changes
   * nothing the processor has not decided; a failed question leaves the payment as it was.
   */
  async returnFromAuthentication(connector: string, token: string): Promise<Transaction> {
    const transactionId = this.deps.rails.transactionOfToken(connector, token, 'return');
    const txn = transactionId ? await this.deps.store.findById(transactionId) : null;
    const step = txn && this.handlerOf(txn.kind).authentication;
    if (!txn || txn.connector !== connector || !step) throw AppError.notFound('Payment');
    if (txn.status === step.awaiting) {
      await this.settle(txn.id, null).catch((err: unknown) =>
        this.deps.logger.warn({ reference: txn.reference, connector, err }, 'status query on the cardholder’s return failed; the webhook or expiry decides'),
      );
      return this.deps.queries.reload(txn.id);
    }
    return txn;
  }

  private handlerOf(kind: TransactionKind): AnyKindHandler {
    return handlerOf(this.deps.kinds, kind);
  }
}
