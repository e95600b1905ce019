import { SettlementPump, type InstanceLiveness } from './settlement-pump';
import type { ListenerPresence } from '../../events/listener-presence';
import { deriveKey } from '../../shared/crypto';
import { Decimal } from '../../shared/money';
import type { CustomerService } from '../customers/customer.service';
import type { FeeSchedule } from '../ledger/fee-schedule';
import type { MerchantService } from '../merchants/merchant.service';
import type { PayeesService } from '../payees/payees.service';
import { defineModule, type ModuleInfra } from '../module';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import type { Rails } from '../rails/rails';
import type { RatesService } from '../rates/rates.service';
import type { ReferenceService } from '../reference/reference.service';
import type { PublicAddress } from '../../shared/public-address';
import { CollectionKind } from './kinds/collection/collection.kind';
import { CollectionService } from './kinds/collection/collection.service';
import { CardOtpChallenges } from './kinds/payment/card-otp';
import { PaymentKind } from './kinds/payment/payment.kind';
import { PaymentService, type PaymentServiceDeps } from './kinds/payment/payment.service';
import { RefundKind } from './kinds/refund/refund.kind';
import type { AuditLog } from '../audit/audit-log';
import { RefundService } from './kinds/refund/refund.service';
import { TransferKind } from './kinds/transfer/transfer.kind';
import { PayoutKind } from './kinds/payout/payout.kind';
import { FundingKind } from './kinds/funding/funding.kind';
import { FundingService } from './kinds/funding/funding.service';
import { TransferService } from './kinds/transfer/transfer.service';
import { TransactionJobHandlers } from './job-handlers.service';
import { TransactionLifecycle } from './lifecycle.service';
import { ProviderSignals, type DisputeReport } from './provider-signals.service';
import { DomainEvent, type Subscribable } from '../../events/domain-event';
import { TransactionQueries } from './queries.service';
import { TRANSACTION_JOBS, type TransactionJobQueue } from './transaction.jobs';
import type { TransactionKinds } from './transaction.kinds';
import { TransactionStore } from './transaction.store';
import { TransactionTopic } from './transaction.topics';

type TransactionsInfra = Pick<ModuleInfra, 'config' | 'clock' | 'sql' | 'pubsub' | 'keys' | 'secretBox' | 'faults' | 'logger'> & {
  jobs: TransactionJobQueue;
  /** Which instance this is and whether another is alive (the job runner): SettlementPump takes over a dead one's claims. */
  instances?: InstanceLiveness;
};

/** The services of the modules the engine uses. */
interface TransactionsDeps {
  reference: ReferenceService;
  rates: RatesService;
  fees: FeeSchedule;
  customers: CustomerService;
  merchants: MerchantService;
  outbox: Outbox;
  eventChoices: EventChoices;
  listeners: ListenerPresence;
  rails: Rails;
  /** Account holders' names: a transfer's beneficiary name check. */
  payees: PayeesService;
  /** Sandbox only: the 3-D Secure page's handles (the rails module's sandbox card charges). */
  cardCharges: PaymentServiceDeps['handles'];
  /** The audit log's writer (refunds). */
  audit: AuditLog;
  /** Where browsers reach the service (the one-time code page's address). */
  publicAddress: PublicAddress;
}

/**
 * The transaction engine: one store, the four kinds' plug-ins (provider call, settlement, expiry,
 * postings: transaction.kinds.ts), the generic services split by responsibility (lifecycle,
 * queries, provider signals, job handlers) and each kind's commands. Built in this order so a
 * reader can follow each call; every piece takes one dependencies object.
 */
/** How much longer than the provider timeout a settlement's claim lasts (its statements, a slow database). */
const SETTLEMENT_LEASE_MARGIN_MS = 30_000;

export const transactionsModule = defineModule({
  name: 'transactions',
  jobs: TRANSACTION_JOBS,
  topics: Object.values(TransactionTopic),
  create: (infra: TransactionsInfra, deps: TransactionsDeps) => {
    const { config, clock, sql, pubsub, keys, secretBox, faults, logger, jobs } = infra;
    const { reference, rates, fees, customers, merchants, outbox, eventChoices, listeners, rails, payees, cardCharges, audit, publicAddress } = deps;
    const releaseDelayMs = config.settlementDelayS * 1000;
    // Settlements: rows of `settlement_due`, claimed in batches (issue 40). What each runs is the job handlers' settle,
    // built below (called only once the pump is started); the store tells the pump of each new row after its commit.
    const settlementPump = new SettlementPump({
      sql,
      logger,
      settle: (transactionId, poll) => handlers.settle(transactionId, poll),
      // A killed instance's claims are taken over once it stops heartbeating, not only when their lease lapses.
      instances: infra.instances,
      settings: {
        concurrency: config.jobConcurrency,
        // A settlement is a status query (at most the provider timeout) and a few statements: its claim outlasts both.
        leaseMs: config.connectors.timeoutMs + SETTLEMENT_LEASE_MARGIN_MS,
        pollMs: config.jobPollIntervalMs,
        drainMs: Math.min(config.connectors.timeoutMs + 1000, config.shutdownTimeoutMs),
      },
    });
    const store = new TransactionStore({
      sql,
      jobs,
      outbox,
      secretBox,
      onSettlementDue: (ms) => settlementPump.dueIn(ms),
      minorUnitOf: (currency) => reference.currencyMinorUnit(currency),
    });
    const otp = new CardOtpChallenges({ key: deriveKey(keys.encryptionKey, 'card-otp'), sql, publicAddress });
    const paymentKind = new PaymentKind({
      reference,
      rails,
      clock,
      actionTtlS: config.paymentActionTtlS,
      releaseDelayMs,
      collectionTtlS: config.collectionTtlS,
      otp,
    });
    const kinds: TransactionKinds = {
      collection: new CollectionKind({ reference, rails, collectionTtlS: config.collectionTtlS, releaseDelayMs }),
      transfer: new TransferKind({ reference, rails }),
      payment: paymentKind,
      refund: new RefundKind({ reference, rails, payments: store }),
      payout: new PayoutKind({ reference, rails }),
      funding: new FundingKind({ reference, rails, collectionTtlS: config.collectionTtlS }),
    };
    const queries = new TransactionQueries({ store });
    const lifecycle = new TransactionLifecycle({
      store,
      kinds,
      rails,
      queries,
      clock,
      outbox,
      eventChoices,
      listeners,
      pubsub,
      faults,
      logger,
    });
    const { reconcileAfterMs } = config;
    const disputeReported = new DomainEvent<DisputeReport>('provider.dispute_reported');
    const signals = new ProviderSignals({ store, kinds, rails, lifecycle, queries, clock, jobs, reconcileAfterMs, logger, disputeReported });
    const handlers = new TransactionJobHandlers({ store, kinds, rails, lifecycle, queries, signals, clock, jobs, reconcileAfterMs });
    // Settlements in the job queue's metrics, under the task name they had as jobs.
    jobs.addQueueStats('settle-transaction', SettlementPump.QUEUE_STATS_SQL);
    const collections = new CollectionService({ customers, reference, lifecycle, fees, collectionTtlS: config.collectionTtlS, clock });
    const transfers = new TransferService({ customers, reference, rates, lifecycle, clock, rails, payees, merchants });
    const payments = new PaymentService({
      lifecycle,
      queries,
      expiry: handlers,
      customers,
      merchants,
      reference,
      fees,
      clock,
      fingerprintKey: deriveKey(keys.encryptionKey, 'card-fingerprint'),
      handles: cardCharges,
      rails,
      otp,
      cardOtp: paymentKind,
      collectionTtlS: config.collectionTtlS,
      predictNetwork: (country, number) => reference.predictNetwork(country, number),
    });
    const refunds = new RefundService({
      lifecycle,
      queries,
      reference,
      audit,
      // The payment's chargebacks (issue 39): an open one holds its refunds; what they hold or took is not refunded.
      chargebacks: async (paymentId) => {
        const [row] = await sql.query<{ open: boolean; disputed: string }>(
          `select dispute_open as open, disputed_amount::text as disputed from "transaction" where id = $1`,
          [paymentId],
          'transaction_chargebacks',
        );
        return { open: row?.open ?? false, disputed: new Decimal(row?.disputed ?? 0) };
      },
    });
    const fundings = new FundingService({ lifecycle, queries, merchants, reference, rails, clock, collectionTtlS: config.collectionTtlS, audit });
    return {
      services: {
        transactions: lifecycle,
        transactionQueries: queries,
        providerSignals: signals,
        transactionJobs: handlers,
        settlementPump,
        disputeReported: disputeReported as Subscribable<DisputeReport>,
        collections,
        transfers,
        payments,
        refunds,
        fundings,
      },
    };
  },
});
