import CircuitBreaker from 'opossum';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import {
  checksRequests,
  inProcess,
  nothingDoneBy,
  readsNotifications,
  receivesWebhooks,
  redactsNotifications,
  roundsPayouts,
  resolvesAccounts,
  listsTransactions,
  handlesDisputes,
  type ChargesCards,
  type HandlesDisputes,
  type ListsTransactions,
  type ReportsBalance,
  type ResolvesAccounts,
  type ValidatesCardOtp,
  type OpensVirtualAccounts,
  type Refunds,
} from './capabilities';
import { NotSentAgain, ProviderRefusal, type Connector, type InitiateRequest, type Route, type RouteLeg } from './connector';

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * A new transaction's call refused by a breaker that opened after routing picked its connector
 * (another call, a poll or a reconciliation, tipped it meanwhile). Nothing was sent, so the
 * transaction may go to the route's next connector: the lifecycle routes it again.
 */
export class CircuitOpened extends AppError {
  constructor(connector: string, operation: string) {
    super('PROVIDER_UNAVAILABLE', `The provider ${connector} is not answering; ${nothingDoneBy(operation)}. Try again shortly`);
  }
}

export interface BreakerSettings {
  /** Calls in the rolling window before the breaker may open at all. */
  volumeThreshold: number;
  /** Percentage of failed calls in the window that opens it. */
  errorThresholdPercentage: number;
  /** How long it stays open before one trial call may go through (half-open). */
  resetTimeoutMs: number;
  /** The rolling window the percentage is taken over. */
  rollingWindowMs: number;
}

/** What the breaker tells the metrics: every call's outcome and every change of state. */
export interface ConnectorObserver {
  call(connector: string, operation: string, outcome: 'ok' | 'refused' | 'unknown' | 'rejected', seconds: number): void;
  state(connector: string, state: BreakerState): void;
}

const OPERATIONS = [
  'initiate',
  'decide',
  'checkCredentials',
  'createVirtualAccount',
  'chargeCard',
  'concludeCardCharge',
  'validateCardOtp',
  'refund',
  'resolveAccount',
  'balance',
  'answerDispute',
] as const satisfies ReadonlyArray<
  keyof (Connector & OpensVirtualAccounts & ChargesCards & ValidatesCardOtp & Refunds & ResolvesAccounts & ReportsBalance & HandlesDisputes)
>;

/** Reconciliation's call (its first attempt may have reached the provider): an initiate with its retry context, a virtual account or refund flagged. */
function isRetry(operation: string, request: unknown): boolean {
  if (operation === 'initiate') return (request as InitiateRequest).retry !== null;
  return (operation === 'createVirtualAccount' || operation === 'refund') && (request as { retry?: boolean }).retry === true;
}

/**
 * A refusal about the request itself (bad number, declined): the provider answered, so it is healthy. A call the
 * connector chose not to send (NotSentAgain) says nothing about the provider either.
 */
const answeredFine = (err: unknown) => (err instanceof AppError && !(err instanceof ProviderRefusal && err.providerFault)) || err instanceof NotSentAgain;

/** What a guarded connector is built from (the rails module). */
interface GuardedConnectorDeps {
  connector: Connector;
  settings: BreakerSettings;
  /** The connector metrics (the service's; CLIs have none). */
  observer: ConnectorObserver | undefined;
  logger: Logger;
}

/**
 * A connector behind its circuit breaker (opossum): every call goes through it. Failures are
 * the calls whose outcome is unknown (timeouts, 5xx, resets) and the provider's own faults (our
 * credentials refused); a provider's refusal of the request is an answer, not a failure. Once
 * failures pass the threshold in the rolling window the breaker opens: calls fail at once
 * (`initiate` with PROVIDER_UNAVAILABLE, as nothing was sent; others as unknown, so their jobs
 * retry later) and routing sends new transactions to the route's next connector. After
 * `resetTimeoutMs` one trial call goes through (half-open): success closes it, failure opens it
 * again. The state is this instance's (each instance judges the provider by its own calls).
 */
export class GuardedConnector implements Connector, Partial<OpensVirtualAccounts & ChargesCards & Refunds> {
  readonly name: string;
  readonly acknowledgement: unknown;
  readonly readsNotifications: boolean;
  readonly inProcess: boolean;
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  private current: BreakerState = 'closed';

  private readonly inner: Connector;
  private readonly observer: ConnectorObserver | undefined;
  private readonly logger: Logger;

  constructor({ connector: inner, settings, observer, logger }: GuardedConnectorDeps) {
    this.inner = inner;
    this.observer = observer;
    this.logger = logger;
    this.name = inner.name;
    this.acknowledgement = inner.acknowledgement;
    this.readsNotifications = readsNotifications(inner);
    this.inProcess = inProcess(inner);
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      // Each call has its own timeout (the HTTP client aborts it); the breaker only counts.
      timeout: false,
      volumeThreshold: settings.volumeThreshold,
      errorThresholdPercentage: settings.errorThresholdPercentage,
      resetTimeout: settings.resetTimeoutMs,
      rollingCountTimeout: settings.rollingWindowMs,
      rollingCountBuckets: 10,
      errorFilter: answeredFine,
      // Counts only: no latency percentiles sorted on each failure, no snapshot timer.
      rollingPercentilesEnabled: false,
      enableSnapshots: false,
    });
    this.breaker.on('open', () => this.moved('open'));
    this.breaker.on('halfOpen', () => this.moved('half_open'));
    this.breaker.on('close', () => this.moved('closed'));
    observer?.state(this.name, 'closed');
    // Reconciliation's listing reads page after page: each page is a call of its own through ProviderHttp (timeouts), not
    // one breaker call (an iterator cannot be one); a listing that fails fails its run, which is retried, and never
    // moves money, so it does not count against the provider for new transactions.
    if (listsTransactions(inner)) this.listTransactions = (window) => inner.listTransactions(window);
    // The same for the chargebacks' listing (a poll, retried), and a webhook's reading (no call at all).
    if (handlesDisputes(inner)) {
      this.listDisputes = (since) => inner.listDisputes(since);
      this.webhookDispute = (body) => inner.webhookDispute(body);
    }
    for (const op of OPERATIONS) {
      // A capability the connector lacks stays absent here too, so the same type guards answer for the guarded connector.
      const fn = (inner as unknown as Record<string, unknown>)[op] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (!fn) continue;
      // An in-process connector (the sandbox) has no network to fail: its calls go straight through (measured, BENCHMARKS.md).
      (this as Record<string, unknown>)[op] = this.inProcess
        ? fn.bind(inner)
        : (...args: unknown[]) => this.call(op, () => fn.apply(inner, args), isRetry(op, args[0]));
    }
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Open: routing passes over it for new transactions. */
  get isOpen(): boolean {
    return this.breaker.opened;
  }

  private moved(state: BreakerState): void {
    this.current = state;
    this.observer?.state(this.name, state);
    const log = state === 'open' ? this.logger.warn.bind(this.logger) : this.logger.info.bind(this.logger);
    log({ connector: this.name, breaker: state }, `provider ${this.name}: circuit breaker ${state.replace('_', '-')}`);
  }

  /** `retry`: reconciliation's call, whose earlier attempt may have reached the provider (an open breaker then says nothing). */
  private async call<T>(operation: string, fn: () => Promise<T>, retry = false): Promise<T> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = (await this.breaker.fire(fn)) as T;
      this.observer?.call(this.name, operation, 'ok', seconds());
      return result;
    } catch (err) {
      if ((err as { code?: string }).code === 'EOPENBREAKER') {
        this.observer?.call(this.name, operation, 'rejected', 0);
        // Nothing was sent: a definite refusal for a new transaction; for the rest (a retry included), "try again later".
        if (!retry && ['initiate', 'chargeCard', 'createVirtualAccount', 'refund', 'resolveAccount'].includes(operation)) {
          throw new CircuitOpened(this.name, operation);
        }
        throw new Error(`provider ${this.name}: circuit breaker open; ${operation} not sent`, { cause: err });
      }
      this.observer?.call(this.name, operation, answeredFine(err) ? 'refused' : 'unknown', seconds());
      throw err;
    }
  }

  serves(route: Parameters<Connector['serves']>[0]): boolean {
    return this.inner.serves(route);
  }

  /** The connector's own rules on a new transaction's request, if it has any. */
  check(leg: RouteLeg): void {
    if (checksRequests(this.inner)) this.inner.check(leg);
  }

  payoutDecimals(route: Route): number | undefined {
    return roundsPayouts(this.inner) ? this.inner.payoutDecimals(route) : undefined;
  }

  parseNotification(notification: Parameters<Connector['parseNotification']>[0]) {
    return this.inner.parseNotification(notification);
  }

  /** The body as it may be kept: as received, unless the connector redacts it. */
  storableBody(body: string): string {
    return redactsNotifications(this.inner) ? this.inner.storableBody(body) : body;
  }

  /** False for a connector that takes no account-wide webhooks. */
  authenticateWebhook(headers: Record<string, string | string[] | undefined>): boolean {
    return receivesWebhooks(this.inner) && this.inner.authenticateWebhook(headers);
  }

  /** False for a connector that resolves no account names. */
  resolvesAccountsOn(route: Route, bankCode: string | null): boolean {
    return resolvesAccounts(this.inner) && this.inner.resolvesAccountsOn(route, bankCode);
  }

  webhookTransaction(notification: Parameters<Connector['parseNotification']>[0]): string | null {
    return receivesWebhooks(this.inner) ? this.inner.webhookTransaction(notification) : null;
  }

  // Replaced in the constructor by the guarded calls.
  declare initiate: Connector['initiate'];
  declare decide: Connector['decide'];
  declare checkCredentials: Connector['checkCredentials'];
  declare createVirtualAccount?: OpensVirtualAccounts['createVirtualAccount'];
  declare chargeCard?: ChargesCards['chargeCard'];
  declare concludeCardCharge?: ChargesCards['concludeCardCharge'];
  declare validateCardOtp?: ValidatesCardOtp['validateCardOtp'];
  declare refund?: Refunds['refund'];
  declare resolveAccount?: ResolvesAccounts['resolveAccount'];
  declare balance?: ReportsBalance['balance'];
  declare listTransactions?: ListsTransactions['listTransactions'];
  declare listDisputes?: HandlesDisputes['listDisputes'];
  declare answerDispute?: HandlesDisputes['answerDispute'];
  declare webhookDispute?: HandlesDisputes['webhookDispute'];

  /** Stops the breaker's timers (shutdown, tests). */
  shutdown(): void {
    this.breaker.shutdown();
  }
}
