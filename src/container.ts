import type { Config } from './config';
import type { Orm } from './db/orm';
import type { Sql } from './db/sql';
import type { PubSub } from './events/pubsub';
import { JOB_CATALOGUE, type JobPayloads } from './job-catalogue';
import type { JobRunner } from './jobs/job-runner';
import type { Metrics } from './observability/metrics';
import type { OAuthService } from './modules/auth/oauth.service';
import type { ApiKeys } from './modules/auth/api-keys';
import type { TokenRevocations } from './modules/auth/token-revocations';
import type { MerchantAccess } from './modules/auth/merchant-access';
import type { CustomerService } from './modules/customers/customer.service';
import type { SubscriptionService } from './modules/subscriptions/subscription.service';
import type { KycService } from './modules/kyc/kyc.service';
import type { EventChoices } from './modules/outbox/event-choices';
import type { ListenerPresence } from './events/listener-presence';
import type { WebhookPump } from './modules/webhooks/webhook-pump';
import type { SettlementPump } from './modules/transactions/settlement-pump';
import type { WebhookService } from './modules/webhooks/webhook.service';
import type { MerchantService } from './modules/merchants/merchant.service';
import type { LedgerService } from './modules/ledger/ledger.service';
import type { FeeSchedule } from './modules/ledger/fee-schedule';
import type { IdempotencyStore } from './modules/idempotency/idempotency.store';
import type { RatesService } from './modules/rates/rates.service';
import type { ReferenceService } from './modules/reference/reference.service';
import type { ModuleParts } from './modules/module';
import { authModule } from './modules/auth/auth.module';
import { accountsModule } from './modules/accounts/accounts.module';
import type { AccountService } from './modules/accounts/account.service';
import type { PasswordService } from './modules/accounts/password.service';
import type { SessionService } from './modules/accounts/sessions.service';
import type { DemoOwnerService } from './modules/accounts/demo-owner.service';
import type { SignInService } from './modules/accounts/sign-in.service';
import { auditModule } from './modules/audit/audit.module';
import type { AuditLog } from './modules/audit/audit-log';
import type { AuditLogQueries } from './modules/audit/audit.queries';
import { mailModule } from './modules/mail/mail.module';
import type { Mailer } from './modules/mail/mailer';
import { teamModule } from './modules/team/team.module';
import type { TeamService } from './modules/team/team.service';
import type { InvitationService } from './modules/team/invitation.service';
import type { TwoFactorService } from './modules/team/two-factor.service';
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
import { railsModule } from './modules/rails/rails.module';
import { transactionsModule } from './modules/transactions/transactions.module';
import { checkoutModule } from './modules/checkout/checkout.module';
import type { CheckoutService } from './modules/checkout/checkout.service';
import type { PaymentLinkService } from './modules/checkout/payment-link.service';
import { payeesModule } from './modules/payees/payees.module';
import { payoutDestinationsModule } from './modules/payouts/destinations/destinations.module';
import type { PayoutDestinationService } from './modules/payouts/destinations/destination.service';
import type { PayoutScheduleService } from './modules/payouts/schedule/payout-schedule.service';
import { payoutScheduleModule } from './modules/payouts/schedule/schedule.module';
import { payoutsModule } from './modules/payouts/payouts.module';
import type { PayoutService } from './modules/payouts/payout.service';
import type { PayoutRuns } from './modules/payouts/payout.runs';
import type { PayoutNotices } from './modules/payouts/payout.notices';
import { reconciliationModule } from './modules/reconciliation/reconciliation.module';
import type { ReconciliationService } from './modules/reconciliation/reconciliation.service';
import type { ReconciliationDaily } from './modules/reconciliation/reconciliation.daily';
import type { PayeesService } from './modules/payees/payees.service';
import { disputesModule } from './modules/disputes/disputes.module';
import type { DisputeService, EvidenceFiles } from './modules/disputes/dispute.service';
import type { DisputeSweeps } from './modules/disputes/dispute.sweeps';
import type { DisputeNotices } from './modules/disputes/dispute.notices';
import { DisputeProviders } from './modules/disputes/dispute.providers';
import { disputeFilesModule } from './modules/disputes/files/files.module';
import type { DisputeFiles } from './modules/disputes/files/dispute-files.service';
import type { TransactionJobHandlers } from './modules/transactions/job-handlers.service';
import type { TransactionLifecycle } from './modules/transactions/lifecycle.service';
import type { ProviderSignals } from './modules/transactions/provider-signals.service';
import type { TransactionQueries } from './modules/transactions/queries.service';
import type { CollectionService } from './modules/transactions/kinds/collection/collection.service';
import type { TransferService } from './modules/transactions/kinds/transfer/transfer.service';
import type { PaymentService } from './modules/transactions/kinds/payment/payment.service';
import type { RefundService } from './modules/transactions/kinds/refund/refund.service';
import type { FundingService } from './modules/transactions/kinds/funding/funding.service';
import { CARD_ROUTE } from './modules/transactions/kinds/payment/payment.kind';
import type { Rails } from './modules/rails/rails';
import { FormTokens } from './shared/form-tokens';
import { PublicAddress } from './shared/public-address';
import type { Clock } from './shared/clock';
import type { Faults } from './shared/faults';
import { SecretBox, deriveKey } from './shared/crypto';
import type { KeyMaterial } from './shared/keys';
import type { Logger } from './shared/logger';
import { Retention } from './retention';

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
  /** The append-only audit log's writer. */
  audit: AuditLog;
  /** Reading a merchant's audit log: pages and the CSV export. */
  auditQueries: AuditLogQueries;
  /** Verification, reset and invitation emails. */
  mailer: Mailer;
  merchants: MerchantService;
  /** Banks by their local codes, account holders' names (GET /v1/banks, POST /v1/accounts/resolve). */
  payees: PayeesService;
  /** Where payouts go: name-checked destinations per currency, changed by maker-checker (issue 38). */
  payoutDestinations: PayoutDestinationService;
  /** People's accounts: sign-up, email verification, who the caller is, their sessions. */
  accounts: AccountService;
  /** Sign-in with email and password (and 2FA), switching merchant. */
  signIn: SignInService;
  /** Password change, and reset by an emailed link. */
  passwords: PasswordService;
  /** People's dashboard sessions (token families with a person). */
  sessions: SessionService;
  /** The sandbox demo merchant's owner (the first start, npm run demo:credentials). */
  demoOwner: DemoOwnerService;
  oauth: OAuthService;
  /** A merchant's API keys, managed by people (docs/access.md). */
  apiKeys: ApiKeys;
  revocations: TokenRevocations;
  /** Whether a token's merchant exists and is enabled: in memory, forgotten on change. */
  merchantAccess: MerchantAccess;
  /** A merchant's members, their roles, ownership and the 2FA requirement. */
  team: TeamService;
  /** Invitations by email, and accepting them. */
  invitations: InvitationService;
  /** A person's TOTP enrolment, its removal, and the second factor at sign-in. */
  twoFactor: TwoFactorService;
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
  settlementPump: SettlementPump;
  collections: CollectionService;
  transfers: TransferService;
  payments: PaymentService;
  refunds: RefundService;
  /** Fundings of a merchant's own balance (issue 41): an account to pay into. */
  fundings: FundingService;
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
  webhookPump: WebhookPump;
  /** What only grows leaves once past its retention: events with their deliveries and attempts, spent jobs (issue 40). */
  retention: Retention;
  subscriptions: SubscriptionService;
  /** Idempotency-Key's claims and stored answers (REST POSTs that create something). */
  idempotency: IdempotencyStore;
  /** Provider connectors, the routing table, callbacks (docs/providers.md). */
  rails: Rails;
  /** Hosted checkout sessions: created by merchants, paid on the page (issue 37). */
  checkout: CheckoutService;
  /** Payment links: each visit opens a checkout session. */
  paymentLinks: PaymentLinkService;
  /** When each merchant is paid, per currency (issue 38). */
  payoutSchedules: PayoutScheduleService;
  /** Payouts to the merchant's own account: manual ones, the run per schedule window, each payout's report. */
  payouts: PayoutService;
  payoutRuns: PayoutRuns;
  payoutNotices: PayoutNotices;
  /** Reconciliation with the providers: runs, their items, an operator's resolution (docs/reconciliation.md). */
  reconciliation: ReconciliationService;
  /** The daily reconciliation job's work. */
  reconciliationDaily: ReconciliationDaily;
  /** Disputes and chargebacks: the merchant's answer, the money held, the deadlines (issue 39). */
  disputes: DisputeService;
  disputeSweeps: DisputeSweeps;
  disputeNotices: DisputeNotices;
  /** Dispute evidence files: in PostgreSQL, or S3-compatible storage when S3_* is set. */
  disputeFiles: DisputeFiles;
}

/** The evidence's view of the files module: what a dispute's evidence keeps of each file. */
function evidenceFilesOf(files: DisputeFiles): EvidenceFiles {
  const kept = (f: { id: string; filename: string; contentType: string; size: number }) => ({
    id: f.id,
    filename: f.filename,
    contentType: f.contentType,
    size: f.size,
  });
  return {
    records: async (merchantId, disputeId, ids) => (await files.records(merchantId, disputeId, ids)).map(kept),
    upload: async (file) => kept(await files.upload(file)),
    get: async (merchantId, fileId) => {
      const { record, bytes } = await files.get(merchantId, fileId);
      return { record: { ...kept(record), disputeId: record.disputeId }, bytes };
    },
  };
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
 * follow-ups (modules/module.ts).
 */
const MODULES = [
  referenceModule,
  auditModule,
  mailModule,
  merchantsModule,
  authModule,
  accountsModule,
  teamModule,
  outboxModule,
  feesModule,
  ratesModule,
  ledgerModule,
  customersModule,
  kycModule,
  webhooksModule,
  subscriptionsModule,
  idempotencyModule,
  railsModule,
  payeesModule,
  payoutDestinationsModule,
  transactionsModule,
  checkoutModule,
  payoutScheduleModule,
  payoutsModule,
  reconciliationModule,
  disputeFilesModule,
  disputesModule,
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
  const { config, keys } = infra;
  assertModulesDeclared();
  const secretBox = new SecretBox(keys.encryptionKey);
  const base = { ...infra, secretBox };
  const parts: Array<{ start?(): Promise<void>; stop?(): Promise<void> }> = [];
  const made = <S>(p: ModuleParts<S>): S => (parts.push(p), p.services);

  const { reference } = made(referenceModule.create(base, {}));
  const { audit, auditQueries } = made(auditModule.create(base, {}));
  const { mailer } = made(mailModule.create(base, {}));
  const publicAddress = new PublicAddress(config.publicBaseUrl);
  const { merchants, merchantCreated } = made(merchantsModule.create(base, { audit, publicAddress }));
  const { oauth, revocations, merchantAccess, apiKeys } = made(authModule.create(base, { merchants, audit }));
  const { accounts, signIn, passwords, sessions, demoOwner } = made(
    accountsModule.create(base, { merchants, oauth, revocations, merchantAccess, audit, mailer, publicAddress }),
  );
  const { team, invitations, twoFactor } = made(teamModule.create(base, { audit, mailer, revocations, publicAddress }));
  // What every event's statement also writes, from each module that declares it (webhooks: the delivery row).
  const followUps = MODULES.flatMap((m) => (m.outboxFollowUps ? [m.outboxFollowUps(base)] : []));
  const { outbox, eventChoices } = made(outboxModule.create(base, { followUps }));
  const { fees } = made(feesModule.create(base, { reference }));
  const { rates } = made(ratesModule.create(base, { reference, fees }));
  const { ledger } = made(ledgerModule.create(base, { reference, rates, merchantCreated, audit }));
  const { customers } = made(customersModule.create(base, { reference }));
  const { kyc } = made(kycModule.create(base, { customers, outbox, audit }));
  const { webhooks, webhookPump, eventRetention, eventFeed } = made(webhooksModule.create(base, { outbox, eventChoices, audit }));
  const { subscriptions, listeners } = made(subscriptionsModule.create(base, { kyc, ledger, eventFeed }));
  const { idempotency } = made(idempotencyModule.create(base, {}));
  const { rails, cardCharges } = made(railsModule.create(base, { reference, publicAddress }));
  const { payees } = made(payeesModule.create(base, { reference, rails }));
  const { payoutDestinations } = made(payoutDestinationsModule.create(base, { audit, mailer, publicAddress, payees, reference }));
  const {
    transactions,
    transactionQueries,
    providerSignals,
    transactionJobs,
    settlementPump,
    collections,
    transfers,
    payments,
    refunds,
    fundings,
    disputeReported,
  } = made(
    transactionsModule.create(
      { ...base, instances: base.jobs },
      {
        reference,
        rates,
        fees,
        customers,
        merchants,
        outbox,
        eventChoices,
        listeners,
        rails,
        payees,
        cardCharges,
        audit,
        publicAddress,
      },
    ),
  );
  const { checkout, paymentLinks } = made(
    checkoutModule.create(base, { reference, outbox, audit, publicAddress, payments, rails, transactionQueries, providerSignals }),
  );
  const { payoutSchedules } = made(payoutScheduleModule.create(base, { audit, reference }));
  const { payouts, payoutRuns, payoutNotices } = made(
    payoutsModule.create(base, {
      reference,
      fees,
      mailer,
      publicAddress,
      transactions,
      transactionQueries,
      destinations: payoutDestinations,
      schedules: payoutSchedules,
    }),
  );
  const { reconciliation, reconciliationDaily } = made(reconciliationModule.create(base, { rails, providerSignals, audit }));
  const { disputeFiles } = made(disputeFilesModule.create(base, {}));
  const disputeProviders = new DisputeProviders({ rails, sql: base.sql, queries: transactionQueries, clock: base.clock, logger: base.logger });
  const { disputes, disputeSweeps, disputeNotices } = made(
    disputesModule.create(base, {
      reference,
      fees,
      mailer,
      publicAddress,
      outbox,
      audit,
      transactionQueries,
      files: evidenceFilesOf(disputeFiles),
      providers: disputeProviders,
    }),
  );
  disputeProviders.reportTo(disputes);
  // A chargeback webhook is acknowledged whatever becomes of it here: the next dispute sweep polls the provider anyway.
  disputeReported.on(({ connector, dispute }) =>
    disputeProviders
      .reported(connector, dispute)
      .catch((err: Error) =>
        base.logger.warn({ connector, dispute: dispute.providerDisputeId, err: err.message }, 'chargeback webhook not applied; the next poll reads it'),
      ),
  );
  const formTokens = new FormTokens(deriveKey(keys.encryptionKey, 'form-csrf'));
  const services: Services = {
    audit,
    auditQueries,
    mailer,
    merchants,
    accounts,
    signIn,
    passwords,
    sessions,
    demoOwner,
    oauth,
    apiKeys,
    revocations,
    merchantAccess,
    team,
    invitations,
    twoFactor,
    reference,
    rates,
    customers,
    kyc,
    transactions,
    transactionQueries,
    providerSignals,
    transactionJobs,
    settlementPump,
    collections,
    transfers,
    payees,
    payoutDestinations,
    payments,
    refunds,
    fundings,
    ledger,
    fees,
    eventChoices,
    listeners,
    publicAddress,
    formTokens,
    webhooks,
    webhookPump,
    retention: new Retention({ events: eventRetention, jobs: base.jobs, clock: base.clock, failedJobMs: base.config.retention.failedJobMs }),
    subscriptions,
    idempotency,
    rails,
    checkout,
    paymentLinks,
    payoutSchedules,
    payouts,
    payoutRuns,
    payoutNotices,
    reconciliation,
    reconciliationDaily,
    disputes,
    disputeSweeps,
    disputeNotices,
    disputeFiles,
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
