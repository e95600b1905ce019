import { z } from 'zod';
import type { Logger } from 'pino';
import type { Clock } from '../../shared/clock';
import type { Faults } from '../../shared/faults';
import { AppError } from '../../shared/errors';
import { currencyField, upperCased, amountField } from '../../shared/fields';
import { timeOrderedBytes } from '../../shared/crypto';
import { Decimal, parseAmount } from '../../shared/money';
import { pageRequestSchema, type Page } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import type { FeeSchedule } from '../ledger/fee-schedule';
import type { BalanceTransaction } from '../ledger/ledger.service';
import type { ReferenceService } from '../reference/reference.service';
import type { TransactionLifecycle } from '../transactions/lifecycle.service';
import type { TransactionQueries } from '../transactions/queries.service';
import { expectedArrival, type Payout } from '../transactions/kinds/payout/payout.record';
import type { PayoutTransaction } from '../transactions/transaction.record';
import { payoutReport, type PayoutReport } from './payout.report';
import type { PayoutRow, PayoutStore } from './payout.store';

/** Where a merchant's payouts in a currency go (the destinations' service, issue 38 point 2). */
interface PayoutDestination {
  id: string;
  /** For display: the institution and the last four characters. */
  masked: string;
  accountType: 'bank' | 'momo';
  countryCode: string;
  channelId: string;
  networkId: string;
  accountNumber: string;
  dialCode: string;
  accountName: string;
}

export interface PayoutDestinations {
  activeDestination(merchantId: string, currency: string): Promise<PayoutDestination | null>;
  /** Every merchant and currency with an active destination: the run's candidates. */
  payable(): Promise<Array<{ merchantId: string; currency: string }>>;
}

/** The window a merchant's schedule has due at `now` (its latest cut-off), or null (manual). */
interface DueWindow {
  windowKey: string;
  coversUpTo: Date;
  minimum: Decimal;
}

export interface PayoutSchedules {
  dueWindow(merchantId: string, currency: string, now: Date): Promise<DueWindow | null>;
  /** The next cut-off after `now` (null: manual), and what it would cover. */
  nextWindow(merchantId: string, currency: string, now: Date): Promise<{ at: Date; coversUpTo: Date; minimum: Decimal } | null>;
  minimum(currency: string): Decimal;
}

/** The next automatic payout of a currency, as things stand (the dashboard's overview). */
export interface UpcomingPayout {
  currency: string;
  /** The next cut-off; null: the schedule is manual. */
  scheduledAt: Date | null;
  /** What it would pay if the window closed now: what is owed, capped by what is available; 0 under the minimum. */
  expectedAmount: Decimal;
  minimum: Decimal;
  /** Where it would go; null: no active destination (nothing is paid out). */
  destination: { accountName: string; masked: string } | null;
}

export const upcomingPayoutSchema = z.object({ currency: upperCased(currencyField) });
export type UpcomingPayoutQuery = Command<typeof upcomingPayoutSchema>;

export const createPayoutSchema = z.object({ currency: upperCased(currencyField), amount: amountField });
export type CreatePayoutCommand = Command<typeof createPayoutSchema>;

export const payoutListSchema = pageRequestSchema.extend({ currency: upperCased(currencyField).nullish() });
export type PayoutListQuery = Command<typeof payoutListSchema>;

const pick = (d: PayoutDestination) => ({ accountName: d.accountName, masked: d.masked });

const PAYOUT_ID = /^po_[A-Za-z0-9_-]{24}$/;
const newPayoutId = () => `po_${timeOrderedBytes(18).toString('base64url')}`;

export interface PayoutServiceDeps {
  store: PayoutStore;
  lifecycle: Pick<TransactionLifecycle, 'initiate'>;
  queries: Pick<TransactionQueries, 'getTransaction'>;
  destinations: PayoutDestinations;
  schedules: PayoutSchedules;
  fees: Pick<FeeSchedule, 'fee'>;
  reference: Pick<ReferenceService, 'currencyMinorUnit'>;
  clock: Clock;
  logger: Logger;
  faults: Pick<Faults, 'hit'>;
}

/**
 * Payouts to the merchant's own account (docs/payouts.md): the automatic run per schedule window, manual payouts,
 * and what each settles. A payout is claimed (its row) and then sent (its `payout` transaction, through the engine's
 * creation path: the reservation rides in its insert, so no payout ever overdraws the balance); a claim that could
 * not be sent is released, so its window and its balance transactions are paid by a later run.
 */
export class PayoutService {
  constructor(private readonly deps: PayoutServiceDeps) {}

  /** The run: every merchant and currency with a destination, its due window paid once. One failing does not stop the others. */
  async runDue(): Promise<number> {
    let paid = 0;
    for (const { merchantId, currency } of await this.deps.destinations.payable()) {
      try {
        if (await this.runWindow(merchantId, currency)) paid += 1;
      } catch (err) {
        this.deps.logger.error({ err, merchantId, currency }, 'payout run failed for a merchant; the next run tries again');
      }
    }
    return paid;
  }

  /** One merchant's currency: first what a crash left claimed and unsent, then the schedule's due window. */
  async runWindow(merchantId: string, currency: string): Promise<Payout | null> {
    for (const row of await this.deps.store.unsent(merchantId, currency)) await this.send(row);
    const now = this.deps.clock.now();
    const due = await this.deps.schedules.dueWindow(merchantId, currency, now);
    if (!due || (await this.deps.store.windowTaken(merchantId, currency, due.windowKey))) return null;
    const destination = await this.deps.destinations.activeDestination(merchantId, currency);
    if (!destination) return null;
    const row = await this.deps.store.claimWindow({
      id: newPayoutId(),
      merchantId,
      currency,
      windowKey: due.windowKey,
      coversUpTo: due.coversUpTo,
      destinationId: destination.id,
      minimum: due.minimum,
      expectedArrivalAt: expectedArrival(destination.accountType, now),
      now,
    });
    if (!row) return null;
    // Durability test only: the run dies with the window claimed and nothing sent; the next run sends it, once.
    this.deps.faults.hit('crash-after-payout-claim');
    return this.send(row);
  }

  /** POST /v1/payouts: within what is available, to the active destination. */
  async createManual(merchantId: string, command: CreatePayoutCommand): Promise<Payout> {
    const body = parseInput(createPayoutSchema, command);
    const minorUnit = this.deps.reference.currencyMinorUnit(body.currency);
    if (minorUnit === undefined) throw AppError.invalidField('currency', 'is not a supported currency');
    const amount = parseAmount(body.amount, minorUnit);
    const minimum = this.deps.schedules.minimum(body.currency);
    if (amount.lt(minimum)) throw AppError.invalidField('amount', `must be at least the minimum payout, ${minimum.toFixed()} ${body.currency}`);
    const destination = await this.deps.destinations.activeDestination(merchantId, body.currency);
    if (!destination)
      throw new AppError('INVALID_STATE', `You have no active payout destination in ${body.currency}; add one first (POST /v1/payout-destinations)`);
    const now = this.deps.clock.now();
    const id = newPayoutId();
    await this.deps.store.insertManual({
      id,
      merchantId,
      currency: body.currency,
      amount,
      destinationId: destination.id,
      expectedArrivalAt: expectedArrival(destination.accountType, now),
      now,
    });
    const row = (await this.deps.store.get(merchantId, id))!.row;
    const sent = await this.send(row, true);
    if (!sent) throw new AppError('INVALID_STATE', 'The payout could not be sent; nothing left your balance');
    return sent;
  }

  /**
   * The next automatic payout, as things stand: its cut-off, and what it would pay were the window to close now
   * (the balance transactions posted since the last one, up to now less the schedule's delay). An estimate: the
   * window pays what is there at its cut-off.
   */
  async upcoming(merchantId: string, query: UpcomingPayoutQuery): Promise<UpcomingPayout> {
    const { currency } = parseInput(upcomingPayoutSchema, query, 'query');
    if (this.deps.reference.currencyMinorUnit(currency) === undefined)
      throw AppError.invalidFields([{ field: 'currency', issue: 'is not a supported currency' }], 'query');
    const now = this.deps.clock.now();
    const [next, destination] = await Promise.all([
      this.deps.schedules.nextWindow(merchantId, currency, now),
      this.deps.destinations.activeDestination(merchantId, currency),
    ]);
    const minimum = next?.minimum ?? this.deps.schedules.minimum(currency);
    const zero = new Decimal(0);
    if (!next || !destination) return { currency, scheduledAt: next?.at ?? null, expectedAmount: zero, minimum, destination: destination && pick(destination) };
    // What the window would cover were it to close now: the delay counts back from now as it will from the cut-off.
    const coversUpTo = new Date(now.getTime() - (next.at.getTime() - next.coversUpTo.getTime()));
    const { amount } = await this.deps.store.preview(merchantId, currency, coversUpTo);
    return { currency, scheduledAt: next.at, expectedAmount: amount.lt(minimum) ? zero : amount, minimum, destination: pick(destination) };
  }

  async get(merchantId: string, id: string): Promise<Payout> {
    return (await this.found(merchantId, id)).payout;
  }

  async list(merchantId: string, query: PayoutListQuery): Promise<Page<Payout>> {
    const q = parseInput(payoutListSchema, query, 'query');
    return this.deps.store.list(merchantId, q);
  }

  /** The balance transactions an automatic payout settles, in posting order (a manual payout settles none of them). */
  async balanceTransactions(merchantId: string, id: string): Promise<BalanceTransaction[]> {
    return this.deps.store.settled((await this.found(merchantId, id)).row);
  }

  /** The payout's report: its figures add up to its amount, to the minor unit, or it is not served. */
  async report(merchantId: string, id: string): Promise<{ payout: Payout; report: PayoutReport; entries: BalanceTransaction[] }> {
    const { row, payout } = await this.found(merchantId, id);
    const entries = await this.deps.store.settled(row);
    return { payout, report: payoutReport(row, entries), entries };
  }

  /** The payout's transaction, if one was written (its merchant reference is the payout's id). */
  private async written(row: PayoutRow): Promise<PayoutTransaction | null> {
    try {
      return (await this.deps.queries.getTransaction(row.merchantId, row.id)) as PayoutTransaction;
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  private async found(merchantId: string, id: string): Promise<{ row: PayoutRow; payout: Payout }> {
    const found = PAYOUT_ID.test(id) ? await this.deps.store.get(merchantId, id) : null;
    if (!found) throw AppError.notFound('Payout');
    return found;
  }

  /**
   * A claimed payout's transaction, once: its id is the transaction's merchant reference, so a second send (after a
   * crash) finds the first instead of paying twice. Nothing held (not enough available, no route): released.
   * `manual`: the caller hears why (402 INSUFFICIENT_FUNDS…), and the claim is released.
   */
  private async send(row: PayoutRow, manual = false): Promise<Payout | null> {
    const destination = await this.deps.destinations.activeDestination(row.merchantId, row.currency);
    if (!destination) {
      await this.deps.store.cancel(row.id, 'no_active_destination');
      return null;
    }
    const fee = await this.deps.fees.fee(row.merchantId, 'payout', row.currency, row.amount);
    let txn: PayoutTransaction;
    try {
      if (!fee.lt(row.amount)) throw AppError.invalidField('amount', `does not cover the payout fee of ${fee.toFixed()} ${row.currency}`);
      txn = await this.deps.lifecycle.initiate({
        kind: 'payout',
        merchantId: row.merchantId,
        externalReference: row.id,
        accountType: destination.accountType,
        countryCode: destination.countryCode,
        channelId: destination.channelId,
        networkId: destination.networkId,
        accountNumber: destination.accountNumber,
        dialCode: destination.dialCode,
        accountName: destination.accountName,
        reason: row.windowKey ? `Payout ${row.windowKey}` : 'Payout',
        description: row.windowKey,
        amount: row.amount,
        currency: row.currency,
        fee,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Written all the same (sent before a crash, or the provider did not answer and reconciliation finishes it): keep it.
      const written = await this.written(row);
      if (!written) {
        await this.deps.store.release(row.id);
        this.deps.logger.warn({ merchantId: row.merchantId, payout: row.id, code: err.code }, 'payout not sent; its window is paid by a later run');
        if (manual) throw err;
        return null;
      }
      txn = written;
    }
    await this.deps.store.link(row.id, {
      transactionId: txn.id,
      transactionReference: txn.reference,
      destinationId: destination.id,
      expectedArrivalAt: expectedArrival(destination.accountType, txn.createdAt),
    });
    return (await this.deps.store.get(row.merchantId, row.id))!.payout;
  }
}
