import type { Sql } from '../../db/sql';
import { ProviderUnreachable } from '../../providers/connector';
import { handlesDisputes, type ProviderDispute } from '../../providers/capabilities';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { Decimal } from '../../shared/money';
import type { Clock } from '../../shared/clock';
import { UUID_ID } from '../../shared/pagination';
import type { Rails } from '../rails/rails';
import type { TransactionQueries } from '../transactions/queries.service';
import type { PaymentTransaction } from '../transactions/transaction.record';
import type { DisputeAnswers, DisputeService } from './dispute.service';

/** How far back the first poll of an instance reads (later polls read from the last one, less an overlap). */
const FIRST_POLL_LOOKBACK_MS = 24 * 3600_000;
const POLL_OVERLAP_MS = 10 * 60_000;

/**
 * The providers' side of disputes (docs/disputes.md): the merchant's answers sent on through the connector that charged
 * the card, a provider's chargebacks read by polling (the dispute sweep) and by webhook (a hint, read again from the
 * provider's list before anything moves), each found to its payment and reported to the dispute service.
 */
export class DisputeProviders implements DisputeAnswers {
  private readonly polledUpTo = new Map<string, Date>();
  private service: Pick<DisputeService, 'report'> | null = null;

  constructor(
    private readonly deps: {
      rails: Pick<Rails, 'router'>;
      sql: Sql;
      queries: Pick<TransactionQueries, 'getTransaction'>;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** The service the reports go to (made after this: the service answers through it). */
  reportTo(service: Pick<DisputeService, 'report'>): void {
    this.service = service;
  }

  async answer(provider: string, providerDisputeId: string, action: 'accept' | 'decline', comment: string): Promise<void> {
    if (provider === 'sandbox') return;
    const connector = this.deps.rails.router.has(provider) ? this.deps.rails.router.connector(provider) : null;
    if (!connector || !handlesDisputes(connector)) throw new AppError('PROVIDER_UNAVAILABLE', `${provider} is not configured to answer disputes here`);
    try {
      await connector.answerDispute(providerDisputeId, action, comment);
    } catch (err) {
      if (err instanceof ProviderUnreachable) {
        throw new AppError('PROVIDER_UNAVAILABLE', `${provider} did not answer; whether it took the answer is unknown: try again shortly`);
      }
      throw err;
    }
  }

  /** Every configured provider that reports chargebacks, asked for those created or changed since its last poll. */
  async poll(): Promise<void> {
    for (const connector of this.deps.rails.router.all()) {
      if (!handlesDisputes(connector)) continue;
      const now = this.deps.clock.now();
      const since = new Date((this.polledUpTo.get(connector.name)?.getTime() ?? now.getTime() - FIRST_POLL_LOOKBACK_MS + POLL_OVERLAP_MS) - POLL_OVERLAP_MS);
      const disputes = await connector.listDisputes(since);
      for (const d of disputes) await this.report(connector.name, d);
      this.polledUpTo.set(connector.name, now);
    }
  }

  /** A webhook's chargeback: read again from the provider's list (the webhook is a hint), then reported. */
  async reported(connectorName: string, hint: ProviderDispute): Promise<void> {
    const connector = this.deps.rails.router.connector(connectorName);
    if (!handlesDisputes(connector)) return;
    const listed = (await connector.listDisputes(new Date(hint.createdAt.getTime() - 60_000))).find((d) => d.providerDisputeId === hint.providerDisputeId);
    if (!listed) {
      this.deps.logger.warn(
        { connector: connectorName, dispute: hint.providerDisputeId },
        'a chargeback webhook the provider’s list does not confirm: ignored',
      );
      return;
    }
    await this.report(connectorName, listed);
  }

  private async report(connector: string, d: ProviderDispute): Promise<void> {
    const payment = await this.paymentOf(connector, d);
    if (!payment) {
      this.deps.logger.warn({ connector, dispute: d.providerDisputeId }, 'a chargeback of no card payment of ours: ignored');
      return;
    }
    if (d.currency && d.currency !== payment.currency) {
      this.deps.logger.warn({ connector, dispute: d.providerDisputeId }, 'a chargeback in another currency than its payment: ignored');
      return;
    }
    if (!this.service) throw new Error('DisputeProviders: no dispute service to report to');
    await this.service
      .report({
        provider: connector,
        providerDisputeId: d.providerDisputeId,
        payment,
        amount: new Decimal(d.amount),
        status: d.status,
        providerStatus: d.providerStatus,
        reason: d.reasonCategory,
        dueBy: d.dueBy,
      })
      .catch((err: unknown) => {
        // A dispute the payment cannot take (refunded in full): logged, the next poll sees it again.
        if (err instanceof AppError && err.code === 'INVALID_STATE')
          this.deps.logger.warn({ connector, dispute: d.providerDisputeId, err: err.message }, 'chargeback not opened');
        else throw err;
      });
  }

  /** Our transaction's id when the provider gives it back, else the provider's charge id; a successful card payment of this connector. */
  private async paymentOf(connector: string, d: ProviderDispute): Promise<PaymentTransaction | null> {
    // By our id (its primary key) when the provider gives it back; else by the provider's charge id (no index: a rare path).
    const byId = d.transactionReference !== null && UUID_ID.test(d.transactionReference);
    const [row] = await this.deps.sql.query<{ merchant_id: string; reference: string }>(
      `select merchant_id, reference from "transaction"
       where kind = 'payment' and connector = $1 and ${byId ? 'id = $2::uuid' : 'provider_reference = $2'} limit 1`,
      [connector, byId ? d.transactionReference : (d.providerTransactionId ?? '')],
    );
    if (!row) return null;
    const txn = await this.deps.queries.getTransaction(row.merchant_id, row.reference);
    return txn.kind === 'payment' && txn.status === 'successful' ? txn : null;
  }
}
