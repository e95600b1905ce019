import type { BankInfo, DecideTrigger, RouteLeg, SettlementDecision } from '../../providers/connector';
import type { Decimal } from '../../shared/money';
import type { EventType } from '../outbox/event-types';
import type { Posting } from '../ledger/ledger.model';
import type { TransactionOf } from './transaction.record';
import { TransactionJob, type TransactionJobSpec } from './transaction.jobs';
import type { FinalStatus, TransactionKind, TransactionStatus } from './transaction.state';

/**
 * What each kind of transaction (collection, transfer, payment, refund; one folder each under
 * kinds/) plugs into the one model: the lifecycle (lifecycle.service.ts), the provider's signals
 * (provider-signals.service.ts) and the jobs (job-handlers.service.ts). The kinds map is built at
 * the composition root (container.ts); the generic services keep only what every kind shares
 * and never ask which kind they hold: what differs is a member of this interface.
 */

/** The follow-up that asks the provider for the outcome (or lets the sandbox decide): a row of `settlement_due`, not a job (SettlementPump). */
export const SETTLE = 'settle';

/** Work that follows a transaction the provider accepted (its settlement; an expiry job, which receives the transaction's id). */
interface FollowUp {
  name: typeof SETTLE | TransactionJob.ExpireCollection | TransactionJob.ExpirePaymentAction;
  delayMs: number;
}

/** What the provider answered to an initiation. */
export type ProviderAnswer =
  | {
      status: 'processing';
      providerReference: string;
      bankInfo?: BankInfo;
      virtualAccountNumber?: string;
      /** The payer approves on this page (a Flutterwave mobile money charge in Ghana, Uganda, Rwanda or Zambia). */
      nextActionUrl?: string | null;
      /** When it expires, if sooner than the transaction's own deadline (a provider's virtual account closes). */
      expiresAt?: Date | null;
      followUps: FollowUp[];
    }
  /** The customer must act (3-D Secure) on `nextActionUrl` before `expiresAt`; null when the address was lost to a crash. */
  | { status: 'requires_action'; providerReference: string; nextActionUrl: string | null; expiresAt: Date; followUps: FollowUp[] }
  | { status: 'successful'; providerReference: string }
  | { status: 'failed'; failureReason: string; providerReference?: string | null };

/** What expiry does to a kind that can expire: from which status, to which, why, and the job that does it. */
export interface Expiry {
  from: TransactionStatus;
  to: FinalStatus;
  reason: string;
  job: TransactionJob.ExpireCollection | TransactionJob.ExpirePaymentAction;
}

/** Money asked for and never paid (a bank collection's or bank transfer payment's account): it expires at its deadline. */
export const UNPAID_EXPIRY: Expiry = { from: 'processing', to: 'expired', reason: 'not_paid_before_expiry', job: TransactionJob.ExpireCollection };

/**
 * What a status change does to the books, written in the change's own statement: its entries,
 * the jobs that post later ones (a release after the settlement delay), and a claim on the
 * parent transaction (a refund holds part of its payment; a failed one gives it back).
 */
export interface LedgerEffect {
  postings: Posting[];
  jobs?: TransactionJobSpec[];
  parentClaim?: { parentId: string; amount: Decimal };
}

export const NO_LEDGER_EFFECT: LedgerEffect = { postings: [] };

/** The entries (by leg) a transaction of a kind has in a status: what ledger:verify checks. */
export interface ExpectedLegs {
  required: string[];
  /** Legs that may be there too (a release still waiting for its delay). */
  optional?: string[];
}

/**
 * A kind of transaction: its provider call (made from the stored row, so reconciliation can make
 * it again after a crash with the same idempotency key, the transaction's id), how it settles and
 * expires, and its ledger postings. `transient` is what the call needs once and is never stored
 * (a card): the creation path passes it; reconciliation cannot, so there the kind must look the
 * outcome up by the key instead of asking again. Checks (request → columns) stay with each
 * kind's service, which calls TransactionLifecycle.initiate. `K`: the kind; its methods take
 * that kind's record (the generic services hand each kind only its own).
 */
export interface TransactionKindHandler<K extends TransactionKind = TransactionKind, T = never> {
  readonly kind: K;
  /** What its service-assigned references start with (`col` in `col_01a21de034b1…`). */
  readonly referencePrefix: string;
  /**
   * The route a new transaction travels (routing picks its connector by it) and the amount the
   * connector is asked to move. Absent: the transaction takes its connector from its fields (a
   * refund goes back through its payment's).
   */
  route?(txn: TransactionOf<K>): RouteLeg;
  /** `retry`: reconciliation asks again after a crash (the first request may have reached the provider). */
  callProvider(txn: TransactionOf<K>, idempotencyKey: string, transient?: T, retry?: boolean): Promise<ProviderAnswer>;
  /** The settlement job's question: the provider's verdict on a processing transaction. Absent: nothing to ask. */
  settle?(txn: TransactionOf<K>, trigger: DecideTrigger): Promise<SettlementDecision>;
  /** How this transaction expires, if it can (a payment: by its method). */
  expiry?(txn: TransactionOf<K>): Expiry | null;
  /** The books: what entering `txn.status` posts (`initiating`: its insert). */
  ledger(txn: TransactionOf<K>): LedgerEffect;
  /**
   * ReleaseFunds: what the end of the settlement delay posts for a successful transaction (money
   * in: its net, pending → available). Absent: the kind leaves nothing pending.
   */
  release?(txn: TransactionOf<K>): LedgerEffect;
  /** When a transaction of this kind that just succeeded makes its money available (money in: after the settlement delay). Absent: never. */
  availableAt?(txn: TransactionOf<K>): Date;
  /**
   * The kind's authentication step (a payment's 3-D Secure), if it has one: the status in which a
   * transaction waits for its customer. Only such a kind's customer comes back from a provider's page.
   */
  readonly authentication?: { awaiting: TransactionStatus };
  /**
   * Whether a provider's definite refusal at initiation is kept as a failed transaction (a payout: the merchant is
   * told, and the money returns through the books) rather than removed with its reference freed.
   */
  readonly keepsRefusals?: boolean;
  /** What ledger:verify expects a transaction of this kind to have posted in `status`. */
  expectedLegs(status: TransactionStatus): ExpectedLegs;
  /**
   * The event a status of this kind is (a payout's `payout.paid`). Absent: `<kind>.<status>`
   * (`transfer.successful`). Null: that status has no event.
   */
  eventType?(status: TransactionStatus): EventType | null;
  /** What this kind's events carry, if not the transaction's record (a payout's event: the payout). */
  eventPayload?(txn: TransactionOf<K>): Record<string, unknown>;
  /** Why simulate must not decide the transaction as it is (e.g. 3-D Secure decides it); null: it may. */
  simulationRefusal?(txn: TransactionOf<K>): string | null;
}

export type TransactionKinds = { [K in TransactionKind]: TransactionKindHandler<K, unknown> };

/**
 * A kind's handler looked up by a record's own kind at run time (`kinds[txn.kind]`): each kind is
 * only ever handed its own records, which the types cannot follow through the lookup.
 */
export type AnyKindHandler = TransactionKindHandler<TransactionKind, unknown>;

/** The handler of a record's own kind (`kinds[txn.kind]`). */
export function handlerOf(kinds: TransactionKinds, kind: TransactionKind): AnyKindHandler {
  return kinds[kind] as AnyKindHandler;
}
