import type { Config } from './config';
import type { Orm } from './db/orm';
import type { Sql } from './db/sql';
import type { PubSub } from './events/pubsub';
import type { JobPayloads } from './job-catalogue';
import type { JobRunner } from './jobs/job-runner';
import type { Metrics } from './observability/metrics';
import { AccessTokens } from './modules/auth/access-tokens';
import { OAuthService } from './modules/auth/oauth.service';
import { TokenRevocations } from './modules/auth/token-revocations';
import { MerchantAccess } from './modules/auth/merchant-access';
import { CustomerService } from './modules/customers/customer.service';
import { SubscriptionService } from './modules/subscriptions/subscription.service';
import { KycService } from './modules/kyc/kyc.service';
import { EventChoices } from './modules/outbox/event-choices';
import { ListenerPresence } from './events/listener-presence';
import { Outbox } from './modules/outbox/outbox';
import { parseRetrySchedule } from './modules/webhooks/retry-schedule';
import { WebhookDispatcher } from './modules/webhooks/webhook-dispatcher';
import { WebhookService } from './modules/webhooks/webhook.service';
import { webhookDeliverySql } from './modules/webhooks/webhook-delivery.sql';
import { MerchantService } from './modules/merchants/merchant.service';
import { CollectionKind } from './modules/transactions/kinds/collection/collection.kind';
import { CollectionService } from './modules/transactions/kinds/collection/collection.service';
import type { TransactionKinds } from './modules/transactions/transaction.kinds';
import { RefundKind } from './modules/transactions/kinds/refund/refund.kind';
import { RefundService } from './modules/transactions/kinds/refund/refund.service';
import { LedgerService } from './modules/ledger/ledger.service';
import { FeeSchedule, parseFeeDefaults } from './modules/ledger/fee-schedule';
import { Decimal } from './shared/money';
import { TransactionJobHandlers } from './modules/transactions/job-handlers.service';
import { TransactionLifecycle } from './modules/transactions/lifecycle.service';
import { ProviderSignals } from './modules/transactions/provider-signals.service';
import { TransactionQueries } from './modules/transactions/queries.service';
import { TransactionStore } from './modules/transactions/transaction.store';
import { TransferKind } from './modules/transactions/kinds/transfer/transfer.kind';
import { TransferService } from './modules/transactions/kinds/transfer/transfer.service';
import { CARD_ROUTE, PaymentKind } from './modules/transactions/kinds/payment/payment.kind';
import { PaymentService } from './modules/transactions/kinds/payment/payment.service';
import { SandboxCardCharges } from './providers/sandbox/sandbox-card-charges';
import { FormTokens } from './shared/form-tokens';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from './modules/idempotency/idempotency.store';
import { PublicAddress } from './shared/public-address';
import type { Connector } from './providers/connector';
import { GuardedConnector } from './providers/breaker';
import { realConnectors } from './providers/real-connectors';
import { Rails } from './modules/rails/rails';
import { CallbackUrls, ConnectorRouter } from './providers/routing';
import { ManualKycReviewer } from './providers/manual-kyc-reviewer';
import { SandboxKycReviewer } from './providers/sandbox/sandbox-kyc-reviewer';
import { SandboxPaymentProvider } from './providers/sandbox/sandbox-payment-provider';
import { sandboxVirtualAccounts } from './providers/sandbox/sandbox-virtual-accounts';
import { readRateTable } from './modules/rates/rate-table';
import { RatesService } from './modules/rates/rates.service';
import { ReferenceService } from './modules/reference/reference.service';
import type { Clock } from './shared/clock';
import type { Faults } from './shared/faults';
import { SecretBox, deriveKey } from './shared/crypto';
import type { KeyMaterial } from './shared/keys';
import type { Logger } from './shared/logger';

/** What the service layer needs from the outside world; tests pass their own clock. */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  clock: Clock;
  orm: Orm;
  pubsub: PubSub;
  keys: KeyMaterial;
  /** Direct statements for the hot paths (the ORM's unit of work serves the rest). */
  sql: Sql;
  /** The job runner of every job in the catalogue (job-catalogue.ts); each service sees it as a queue of its own jobs. */
  jobs: JobRunner<JobPayloads>;
  faults: Faults;
  /** This instance's Prometheus registry and the observers that feed it (the service's; CLIs have none). */
  metrics?: Metrics;
}

/** The service layer: the only code that changes state. Every door calls these. */
export interface Services {
  merchants: MerchantService;
  oauth: OAuthService;
  revocations: TokenRevocations;
  /** Whether a token's merchant exists and is enabled: in memory, forgotten on change. */
  merchantAccess: MerchantAccess;
  /** Countries, currencies, channels, networks: in memory after load(), which runs at start. */
  reference: ReferenceService;
  rates: RatesService;
  customers: CustomerService;
  kyc: KycService;
  /** Creation and status changes of every kind. */
  transactions: TransactionLifecycle;
  /** Reads, lists and exports of transactions. */
  transactionQueries: TransactionQueries;
  /** What providers send (callbacks, webhooks, the 3-D Secure return) and answer (status queries, reconciliation). */
  providerSignals: ProviderSignals;
  /** What each transaction job runs, and the sweep of stuck initiations. */
  transactionJobs: TransactionJobHandlers;
  collections: CollectionService;
  transfers: TransferService;
  payments: PaymentService;
  refunds: RefundService;
  /** Balances, balance transactions, statements, funding; the books' verification. */
  ledger: LedgerService;
  fees: FeeSchedule;
  eventChoices: EventChoices;
  listeners: ListenerPresence;
  /** Where browsers reach the service; learned at listen unless PUBLIC_BASE_URL is set. */
  publicAddress: PublicAddress;
  /** CSRF tokens for the service's own HTML forms. */
  formTokens: FormTokens;
  webhooks: WebhookService;
  webhookDispatcher: WebhookDispatcher;
  subscriptions: SubscriptionService;
  /** Idempotency-Key's claims and stored answers (REST POSTs that create something). */
  idempotency: IdempotencyStore;
  /** Provider connectors, the routing table, callbacks (docs/providers.md). */
  rails: Rails;
}

/**
 * What this instance cannot take, for readiness (`degraded`): card payments or channels that no
 * configured connector serves (a production instance with no provider serves nothing). Fixed by
 * the configuration, so worked out once.
 */
export function unservedRoutes(services: Services): () => string[] {
  let reasons: string[] | undefined;
  return () => {
    if (reasons) return reasons;
    reasons = [];
    if (!services.rails.router.serves(CARD_ROUTE)) reasons.push('no connector serves card payments');
    const channels = services.reference.unservedChannels().map((c) => c.id);
    if (channels.length > 0) {
      const named = channels.length > 6 ? `${channels.slice(0, 6).join(', ')} and ${channels.length - 6} more` : channels.join(', ');
      reasons.push(`no connector serves ${channels.length} channel${channels.length === 1 ? '' : 's'} (${named})`);
    }
    return reasons;
  };
}

export function createServices(infra: Infrastructure): Services {
  const { config, logger, clock, orm, sql, pubsub, keys, jobs, faults } = infra;
  const secretBox = new SecretBox(keys.encryptionKey);
  // `ledger` is made below; a merchant is only created once the services exist.
  const merchants = new MerchantService({ orm, clock, secretBox, logger, opened: (merchantId) => ledger.openMerchant(merchantId) });
  const revocations = new TokenRevocations(orm, pubsub, config.tokenRevocationPollMs, logger);
  const accessTokens = new AccessTokens(keys.tokenSigningKey, clock);
  const merchantAccess = new MerchantAccess(sql, pubsub, logger);
  const oauth = new OAuthService({ orm, sql, clock, merchants, accessTokens, revocations, access: merchantAccess, logger });
  const reference = new ReferenceService(orm);
  const eventChoices = new EventChoices({ sql, pubsub, logger });
  const listeners = new ListenerPresence(pubsub);
  const fees = new FeeSchedule({ sql, pubsub, defaults: parseFeeDefaults(config.feeDefaults), minorUnitOf: (c) => reference.currencyMinorUnit(c), logger });
  const rates = new RatesService({ orm, clock, reference, table: readRateTable(), fees });
  const ledger = new LedgerService({
    sql,
    clock,
    pubsub,
    minorUnitOf: (c) => reference.currencyMinorUnit(c),
    supportedCurrencies: () =>
      reference
        .listCurrencies()
        .map((c) => c.code)
        .filter((c) => rates.isSupportedCurrency(c)),
    openingBalance: config.env === 'sandbox' ? new Decimal(config.sandboxOpeningBalance) : new Decimal(0),
    logger,
    verified: infra.metrics?.ledgerVerified,
  });
  const customers = new CustomerService(orm, sql, clock, reference);
  // An event's statement also writes its webhook delivery and the job that attempts it (the webhooks module's SQL).
  const outbox = new Outbox(clock, webhookDeliverySql(jobs));
  // Sandbox: the id_number rule decides after SANDBOX_KYC_DELAY_MS. Production: operators decide (docs/kyc-review.md).
  const kycReviewer = config.env === 'sandbox' ? new SandboxKycReviewer() : new ManualKycReviewer();
  const kyc = new KycService({
    orm,
    clock,
    customers,
    reviewer: kycReviewer,
    jobs,
    outbox,
    pubsub,
    secretBox,
    reviewDelayMs: config.env === 'sandbox' ? config.sandboxKycDelayMs : 0,
    logger,
  });
  const publicAddress = new PublicAddress(config.publicBaseUrl);
  const cardCharges = config.env === 'sandbox' ? new SandboxCardCharges(sql) : null;
  const connectors = createConnectors(infra, reference, cardCharges, publicAddress, (connector, transactionId, queryId) =>
    rails.recordQuery(connector, transactionId, queryId),
  );
  const rails = new Rails(
    new ConnectorRouter(connectors, config.connectors.routes, config.env),
    new CallbackUrls(deriveKey(keys.encryptionKey, 'provider-callback'), publicAddress),
    sql,
    jobs,
    { sandboxSettleMs: config.sandboxSettleMs, pollScheduleMs: parseRetrySchedule(config.connectors.pollSchedule, 'PROVIDER_POLL_SCHEDULE', 100) },
  );
  // The channels lookup shows a channel no provider serves here as unavailable.
  reference.useRouting((channel, network) =>
    rails.router.serves({
      channelType: channel.channelType,
      countryCode: channel.countryCode,
      networkCode: network.code,
      direction: channel.rampType === 'deposit' ? 'collection' : 'transfer',
    }),
  );
  // The kinds map: every kind's plug-in (provider call, settlement, expiry, postings), built here so a reader can follow each call.
  const releaseDelayMs = config.settlementDelayS * 1000;
  const transactionStore = new TransactionStore(sql, jobs, outbox, secretBox);
  const kinds: TransactionKinds = {
    collection: new CollectionKind({ reference, rails, collectionTtlS: config.collectionTtlS, releaseDelayMs }),
    transfer: new TransferKind({ reference, rails }),
    payment: new PaymentKind({ reference, rails, clock, actionTtlS: config.paymentActionTtlS, releaseDelayMs }),
    refund: new RefundKind({ reference, rails, payments: transactionStore }),
  };
  const transactionQueries = new TransactionQueries({ store: transactionStore });
  const transactions = new TransactionLifecycle({
    store: transactionStore,
    kinds,
    rails,
    queries: transactionQueries,
    clock,
    outbox,
    eventChoices,
    listeners,
    pubsub,
    faults,
    logger,
  });
  const providerSignals = new ProviderSignals({
    store: transactionStore,
    kinds,
    rails,
    lifecycle: transactions,
    queries: transactionQueries,
    clock,
    jobs,
    reconcileAfterMs: config.reconcileAfterMs,
    logger,
  });
  const transactionJobs = new TransactionJobHandlers({
    store: transactionStore,
    kinds,
    rails,
    lifecycle: transactions,
    queries: transactionQueries,
    signals: providerSignals,
    clock,
    jobs,
    reconcileAfterMs: config.reconcileAfterMs,
  });
  const collections = new CollectionService({ customers, reference, lifecycle: transactions, fees, collectionTtlS: config.collectionTtlS, clock });
  const transfers = new TransferService({ customers, reference, rates, lifecycle: transactions, clock, rails });
  const payments = new PaymentService({
    lifecycle: transactions,
    queries: transactionQueries,
    expiry: transactionJobs,
    customers,
    merchants,
    reference,
    fees,
    clock,
    fingerprintKey: deriveKey(keys.encryptionKey, 'card-fingerprint'),
    handles: cardCharges,
  });
  const refunds = new RefundService({ lifecycle: transactions, queries: transactionQueries, reference });
  const formTokens = new FormTokens(deriveKey(keys.encryptionKey, 'form-csrf'));
  const webhooks = new WebhookService({
    orm,
    clock,
    jobs,
    outbox,
    eventChoices,
    secretBox,
    env: config.env,
    testEventsPerMinute: config.webhookCapacity.testEventsPerMinute,
    deliver: (eventId, attempt) => webhookDispatcher.deliver(eventId, attempt),
  });
  const webhookDispatcher = new WebhookDispatcher({
    sql,
    clock,
    jobs,
    secretBox,
    settings: {
      env: config.env,
      timeoutMs: config.webhookTimeoutMs,
      schedule: parseRetrySchedule(config.webhookRetrySchedule),
      capacity: config.webhookCapacity,
    },
    logger,
    observeAttempt: infra.metrics?.webhookAttempt,
  });
  const subscriptions = new SubscriptionService(pubsub, kyc, ledger, listeners);
  // A claim still in flight this long after it was made is taken to belong to a process that died. A live
  // request holds one while its handler runs (milliseconds; provider calls are the slow part), and nothing
  // else bounds a handler, so the margin is wide: REQUEST_TIMEOUT_MS + 30 s (60 s by default).
  const idempotency = new IdempotencyStore({
    sql,
    clock,
    box: secretBox,
    fingerprintKey: deriveKey(keys.encryptionKey, 'idempotency-fingerprint'),
    limits: {
      retentionMs: IDEMPOTENCY_RETENTION_MS,
      lockTimeoutMs: config.timeouts.requestMs + 30_000,
    },
    logger,
    // A claim held by an instance that stopped heartbeating (kill -9) is free at once, not after the lock timeout.
    instances: jobs,
  });
  return {
    merchants,
    oauth,
    revocations,
    merchantAccess,
    reference,
    rates,
    customers,
    kyc,
    transactions,
    transactionQueries,
    providerSignals,
    transactionJobs,
    collections,
    transfers,
    payments,
    refunds,
    ledger,
    fees,
    eventChoices,
    listeners,
    publicAddress,
    formTokens,
    webhooks,
    webhookDispatcher,
    subscriptions,
    idempotency,
    rails,
  };
}

/**
 * Every configured connector, each behind its circuit breaker: the sandbox's (sandbox only) and
 * each real provider whose variables are set (config.ts refuses a half-configured one at start).
 */
function createConnectors(
  { config, sql, logger, clock, metrics }: Infrastructure,
  reference: ReferenceService,
  cardCharges: SandboxCardCharges | null,
  publicAddress: PublicAddress,
  recordQuery: (connector: string, transactionId: string, queryId: string) => Promise<void>,
): Map<string, GuardedConnector> {
  const { connectors: settings } = config;
  const list: Connector[] = realConnectors(settings, () => clock.now(), recordQuery);
  if (config.env === 'sandbox' && cardCharges) list.unshift(createSandboxConnector(sql, reference, cardCharges, publicAddress));
  return new Map(list.map((c) => [c.name, new GuardedConnector(c, settings.breaker, metrics?.connectors, logger)]));
}

/** The in-process sandbox: decides by its tables (CONTRACT §6), with a virtual account per collection kept in the database. */
function createSandboxConnector(sql: Sql, reference: ReferenceService, cardCharges: SandboxCardCharges, publicAddress: PublicAddress): Connector {
  return new SandboxPaymentProvider(
    sandboxVirtualAccounts(sql),
    // The virtual account is at the bank the collection's network_id names (checked to be a bank of the country).
    (countryCode, networkCode) => {
      const banks = reference.networks(countryCode, 'bank');
      const bank = banks.find((b) => b.code === networkCode) ?? banks[0];
      return { bankName: bank?.name ?? 'Sandbox Bank', bankCode: bank?.code ?? 'SANDBOX' };
    },
    cardCharges,
    () => publicAddress.url,
  );
}
