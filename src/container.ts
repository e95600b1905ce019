import type { Config } from './config';
import type { Orm } from './db/orm';
import type { Sql } from './db/sql';
import type { PubSub } from './events/pubsub';
import { JOB_CATALOGUE, type JobPayloads } from './job-catalogue';
import type { JobRunner } from './jobs/job-runner';
import type { Metrics } from './observability/metrics';
import { parseRetrySchedule } from './modules/webhooks/retry-schedule';
import type { OAuthService } from './modules/auth/oauth.service';
import type { TokenRevocations } from './modules/auth/token-revocations';
import type { MerchantAccess } from './modules/auth/merchant-access';
import type { CustomerService } from './modules/customers/customer.service';
import type { SubscriptionService } from './modules/subscriptions/subscription.service';
import type { KycService } from './modules/kyc/kyc.service';
import type { EventChoices } from './modules/outbox/event-choices';
import type { ListenerPresence } from './events/listener-presence';
import type { WebhookDispatcher } from './modules/webhooks/webhook-dispatcher';
import type { WebhookService } from './modules/webhooks/webhook.service';
import type { MerchantService } from './modules/merchants/merchant.service';
import type { LedgerService } from './modules/ledger/ledger.service';
import type { FeeSchedule } from './modules/ledger/fee-schedule';
import type { IdempotencyStore } from './modules/idempotency/idempotency.store';
import type { RatesService } from './modules/rates/rates.service';
import type { ReferenceService } from './modules/reference/reference.service';
import type { ModuleParts } from './modules/module';
import { authModule } from './modules/auth/auth.module';
import { customersModule } from './modules/customers/customers.module';
import { idempotencyModule } from './modules/idempotency/idempotency.module';
import { kycModule } from './modules/kyc/kyc.module';
import { feesModule, ledgerModule } from './modules/ledger/ledger.module';
import { merchantsModule } from './modules/merchants/merchants.module';
import { outboxModule } from './modules/outbox/outbox.module';
import { ratesModule } from './modules/rates/rates.module';
import { referenceModule } from './modules/reference/reference.module';
import { subscriptionsModule } from './modules/subscriptions/subscriptions.module';
import { webhooksModule } from './modules/webhooks/webhooks.module';
import type { TransactionKinds } from './modules/transactions/transaction.kinds';
import { CollectionKind } from './modules/transactions/kinds/collection/collection.kind';
import { CollectionService } from './modules/transactions/kinds/collection/collection.service';
import { RefundKind } from './modules/transactions/kinds/refund/refund.kind';
import { RefundService } from './modules/transactions/kinds/refund/refund.service';
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
import { PublicAddress } from './shared/public-address';
import type { Connector } from './providers/connector';
import { GuardedConnector } from './providers/breaker';
import { realConnectors } from './providers/registry';
import { Rails } from './modules/rails/rails';
import { CallbackUrls, ConnectorRouter } from './providers/routing';
import { sandbox } from './providers/sandbox';
import { sandboxVirtualAccounts } from './providers/sandbox/sandbox-virtual-accounts';
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

/**
 * Every module of the service, in the order they are made (each only uses services of modules
 * before it) and started; stopped in the reverse order. Each declares its jobs, topics and outbox
 * follow-ups (modules/module.ts); the transaction engine and the rails are still wired by hand below.
 */
const MODULES = [
  referenceModule,
  merchantsModule,
  authModule,
  outboxModule,
  feesModule,
  ratesModule,
  ledgerModule,
  customersModule,
  kycModule,
  webhooksModule,
  subscriptionsModule,
  idempotencyModule,
] as const;

/** The services, and what starts and stops with them (caches that listen to pub/sub, reference data). */
export interface Composition {
  services: Services;
  /** Before the doors open. */
  start(): Promise<void>;
  /** After the doors closed. */
  stop(): Promise<void>;
}

export function createServices(infra: Infrastructure): Services {
  return compose(infra).services;
}

export function compose(infra: Infrastructure): Composition {
  const { config, logger, clock, sql, pubsub, keys, jobs, faults } = infra;
  assertModulesDeclared();
  const secretBox = new SecretBox(keys.encryptionKey);
  const base = { ...infra, secretBox };
  const parts: Array<{ start?(): Promise<void>; stop?(): Promise<void> }> = [];
  const made = <S>(p: ModuleParts<S>): S => (parts.push(p), p.services);

  const { reference } = made(referenceModule.create(base, {}));
  const { merchants, merchantCreated } = made(merchantsModule.create(base, {}));
  const { oauth, revocations, merchantAccess } = made(authModule.create(base, { merchants }));
  // What every event's statement also writes, from each module that declares it (webhooks: the delivery row and its job).
  const followUps = MODULES.flatMap((m) => (m.outboxFollowUps ? [m.outboxFollowUps(base)] : []));
  const { outbox, eventChoices } = made(outboxModule.create(base, { followUps }));
  const { fees } = made(feesModule.create(base, { reference }));
  const { rates } = made(ratesModule.create(base, { reference, fees }));
  const { ledger } = made(ledgerModule.create(base, { reference, rates, merchantCreated }));
  const { customers } = made(customersModule.create(base, { reference }));
  const { kyc } = made(kycModule.create(base, { customers, outbox }));
  const { webhooks, webhookDispatcher } = made(webhooksModule.create(base, { outbox, eventChoices }));
  const { subscriptions, listeners } = made(subscriptionsModule.create(base, { kyc, ledger }));
  const { idempotency } = made(idempotencyModule.create(base, {}));
  const publicAddress = new PublicAddress(config.publicBaseUrl);
  const cardCharges = config.env === 'sandbox' ? new SandboxCardCharges(sql) : null;
  const connectors = createConnectors(infra, reference, cardCharges, publicAddress);
  const rails = new Rails({
    router: new ConnectorRouter(connectors, config.connectors.routes, config.env),
    callbacks: new CallbackUrls(deriveKey(keys.encryptionKey, 'provider-callback'), publicAddress),
    sql,
    jobs,
    timing: { sandboxSettleMs: config.sandboxSettleMs, pollScheduleMs: parseRetrySchedule(config.connectors.pollSchedule, 'PROVIDER_POLL_SCHEDULE', 100) },
  });
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
  const services: Services = {
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
  return {
    services,
    async start() {
      for (const p of parts) await p.start?.();
    },
    async stop() {
      for (const p of [...parts].reverse()) await p.stop?.();
    },
  };
}

/**
 * The modules' static parts, checked once before anything is made: two modules declaring one topic
 * name would hear each other's messages, and a module's job missing from the catalogue
 * (src/job-catalogue.ts) would be added to the queue with no task to run it.
 */
function assertModulesDeclared(): void {
  const names = MODULES.flatMap((m) => (m.topics ?? []).map((t) => t.name));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`pub/sub topics declared by two modules: ${twice.join(', ')}`);
  const missing = MODULES.flatMap((m) => (m.jobs ?? []).map((j) => j.name)).filter((name) => !(name in JOB_CATALOGUE));
  if (missing.length > 0) throw new Error(`jobs missing from src/job-catalogue.ts: ${missing.join(', ')}`);
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
): Map<string, GuardedConnector> {
  const { connectors: settings } = config;
  const list: Connector[] = realConnectors(settings, { timeoutMs: settings.timeoutMs, now: () => clock.now() }).map((c) => c.connector);
  if (config.env === 'sandbox' && cardCharges) list.unshift(createSandboxConnector(sql, reference, cardCharges, publicAddress));
  return new Map(list.map((c) => [c.name, new GuardedConnector(c, settings.breaker, metrics?.connectors, logger)]));
}

/** The in-process sandbox: decides by its tables (CONTRACT §6), with a virtual account per collection kept in the database. */
function createSandboxConnector(sql: Sql, reference: ReferenceService, cardCharges: SandboxCardCharges, publicAddress: PublicAddress): Connector {
  return sandbox.create({
    accountNumberFor: sandboxVirtualAccounts(sql),
    // The virtual account is at the bank the collection's network_id names (checked to be a bank of the country).
    bankFor: (countryCode, networkCode) => {
      const banks = reference.networks(countryCode, 'bank');
      const bank = banks.find((b) => b.code === networkCode) ?? banks[0];
      return { bankName: bank?.name ?? 'Sandbox Bank', bankCode: bank?.code ?? 'SANDBOX' };
    },
    cardCharges,
    publicBaseUrl: () => publicAddress.url,
  });
}
