import { reportsBalance } from '../../providers/capabilities';
import type { Connector } from '../../providers/connector';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { Decimal } from '../../shared/money';
import type { AuditContext } from '../audit/audit-log';
import { parseInput, parseUuid } from '../../shared/validation';
import { countByClass, matchRecords } from './matching';
import { listRunsSchema, resolveItemSchema, type ListRunsCommand, type ResolveItemCommand } from './reconciliation.inputs';
import { providerRecords, type AskProvider } from './provider-records';
import type { ClearingFigure, ReconciliationItem, ReconciliationRun, ReconciliationRunDetail, StoredItem } from './reconciliation.records';
import type { ReconciliationStore } from './reconciliation.store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the service is built with (the module factory). */
export interface ReconciliationDeps {
  store: ReconciliationStore;
  /** The configured connectors by name (the rails' router). */
  connector: (name: string) => Connector;
  connectorNames: () => string[];
  ask: AskProvider;
  clock: Clock;
  logger: Logger;
}

/** A run's outcome as the job and the CLI see it: the run, or why none ran. */
export type RunOutcome = { ran: true; run: ReconciliationRun } | { ran: false; run: ReconciliationRun | null; reason: string };

/** The UTC day `date` (YYYY-MM-DD) as a window; the day before `now` when absent. */
export function dayWindow(date: string | undefined, now: Date): { from: Date; to: Date } {
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw AppError.invalidField('date', 'must be a day, YYYY-MM-DD');
  const from = date ? new Date(`${date}T00:00:00.000Z`) : new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - DAY_MS);
  // A day that does not exist (2026-02-30) would roll over into the next month: refused, not moved.
  if (Number.isNaN(from.getTime()) || (date !== undefined && from.toISOString().slice(0, 10) !== date)) {
    throw AppError.invalidField('date', 'must be a day, YYYY-MM-DD');
  }
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/**
 * Reconciliation with the providers (issue 38, point 5; docs/reconciliation.md): per connector and UTC day, our
 * transactions against the provider's records, one to one, each classed; the provider's balance against our clearing
 * account. It never moves money: it writes only its own tables, and an operator resolves each exception with a note.
 */
export class ReconciliationService {
  constructor(private readonly deps: ReconciliationDeps) {}

  /** The connectors a daily run covers: every configured one. */
  connectors(): string[] {
    return this.deps.connectorNames();
  }

  /** Reconciles one connector's window: a run of its own, or nothing when the window's run exists (see the store's claim). */
  async reconcile(connectorName: string, window: { from: Date; to: Date }): Promise<RunOutcome> {
    if (!this.deps.connectorNames().includes(connectorName))
      throw AppError.invalidField('connector', `is not a configured connector (${this.connectors().join(', ')})`);
    const connector = this.deps.connector(connectorName);
    const runId = await this.deps.store.claim(connectorName, window.from, window.to, this.deps.clock.now());
    if (!runId) {
      const existing = (await this.deps.store.runs({ connector: connectorName, limit: 50 })).find((r) => r.windowFrom.getTime() === window.from.getTime());
      return { ran: false, run: existing ?? null, reason: 'this window was reconciled already, or is being reconciled' };
    }
    try {
      const ours = await this.deps.store.transactionsOf(connectorName, window.from, window.to);
      const theirs = await providerRecords(connector, ours, window, this.deps.ask);
      const items: StoredItem[] = matchRecords(ours, theirs);
      const clearing = await this.clearing(connector, [...new Set([...ours.map((t) => t.currency), ...theirs.map((r) => r.currency)])], window);
      for (const c of clearing.filter(balanceMoved)) {
        items.push({
          class: 'balance_mismatch',
          ours: null,
          theirs: null,
          currency: c.currency,
          ourAmount: new Decimal(c.ours),
          theirAmount: new Decimal(c.theirs!),
        });
      }
      const counts = countByClass(items);
      await this.deps.store.complete(runId, items, clearing, counts, this.deps.clock.now());
      this.logExceptions(connectorName, runId, items);
    } catch (err) {
      await this.deps.store.fail(runId, err instanceof Error ? err.message : String(err), this.deps.clock.now());
      this.deps.logger.error({ connector: connectorName, runId, err }, 'reconciliation run failed');
      throw err;
    }
    return { ran: true, run: (await this.deps.store.run(runId))! };
  }

  /**
   * Our clearing balance and the provider's, per currency. Both are read now (the provider answers only its balance
   * now), so they are compared as movements: between the previous run and this one, each side should have moved by
   * the same sum; the balances themselves differ by whatever was there before the books began and by the provider's
   * own fees (docs/reconciliation.md).
   */
  private async clearing(connector: Connector, seen: string[], window: { from: Date }): Promise<ClearingFigure[]> {
    const at = this.deps.clock.now();
    const previous = await this.deps.store.previousClearing(connector.name, window.from);
    // Every currency the books hold at the provider, the window moved, or the previous run checked (a wallet may move alone).
    const known = await this.deps.store.clearingCurrencies(connector.name);
    const currencies = [...new Set([...known, ...seen, ...(previous?.figures.map((f) => f.currency) ?? [])])].sort();
    const figures: ClearingFigure[] = [];
    for (const currency of currencies) {
      const ours = await this.deps.store.clearingBalance(connector.name, currency, at);
      let theirs: Decimal | null = null;
      let note: string | null = reportsBalance(connector) ? null : 'the provider reports no balance here';
      if (reportsBalance(connector)) {
        try {
          theirs = await connector.balance(currency);
        } catch (err) {
          note = `the balance call failed: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
      const before = previous?.figures.find((f) => f.currency === currency);
      const oursBefore = previous ? await this.deps.store.clearingBalance(connector.name, currency, previous.at) : null;
      figures.push({
        currency,
        ours: ours.toString(),
        theirs: theirs?.toString() ?? null,
        difference: theirs ? theirs.minus(ours).toString() : null,
        oursMoved: oursBefore ? ours.minus(oursBefore).toString() : null,
        theirsMoved: theirs && before?.theirs ? theirs.minus(before.theirs).toString() : null,
        note,
      });
    }
    return figures;
  }

  /** One error line per exception: the connector, the class and the references; never an account number or a name. */
  private logExceptions(connector: string, runId: string, items: readonly StoredItem[]): void {
    for (const item of items) {
      if (item.class === 'matched' || item.class === 'in_flight') continue;
      this.deps.logger.error(
        {
          connector,
          runId,
          class: item.class,
          reference: item.ours?.reference ?? null,
          providerReference: item.theirs?.providerReference ?? item.ours?.providerReference ?? null,
          currency: item.currency ?? item.ours?.currency ?? item.theirs?.currency ?? null,
        },
        `reconciliation exception: ${item.class}`,
      );
    }
  }

  /** Newest first; `after`: the last run of the previous page. */
  async listRuns(command: ListRunsCommand): Promise<ReconciliationRun[]> {
    const { connector, limit, after } = parseInput(listRunsSchema, command);
    return this.deps.store.runs({ connector, before: after, limit });
  }

  async getRun(runId: string): Promise<ReconciliationRunDetail> {
    const id = parseUuid(runId, 'runId');
    const run = await this.deps.store.run(id);
    if (!run) throw AppError.notFound('Reconciliation run');
    return { run, items: await this.deps.store.items(id) };
  }

  /** An operator resolves an open exception with a note: recorded on the item and in the audit log, in one statement. */
  async resolve(rawItemId: string, command: ResolveItemCommand, audit: AuditContext): Promise<ReconciliationItem> {
    const itemId = parseUuid(rawItemId, 'itemId');
    const { note } = parseInput(resolveItemSchema, command);
    const item = await this.deps.store.item(itemId);
    if (!item) throw AppError.notFound('Reconciliation item');
    if (item.class === 'matched' || item.class === 'in_flight') throw new AppError('INVALID_STATE', `A ${item.class} item is not an exception`);
    if (item.resolvedAt) throw new AppError('INVALID_STATE', 'This exception is resolved already');
    const by = audit.actor.label ?? audit.actor.type;
    const resolved = await this.deps.store.resolve(itemId, note, by, this.deps.clock.now(), {
      merchantId: null,
      actor: audit.actor,
      origin: audit.origin,
      action: 'reconciliation.exception_resolved',
      target: { type: 'reconciliation_item', id: itemId },
      before: { class: item.class, resolved: false },
      after: { class: item.class, resolved: true, note },
    });
    if (!resolved) throw new AppError('INVALID_STATE', 'This exception is resolved already');
    return resolved;
  }

  /** Open exceptions by connector and class (the Prometheus gauge). */
  openExceptions() {
    return this.deps.store.openExceptions();
  }
}

/** A currency whose two balances moved by different sums since the previous run (only when both movements are known). */
function balanceMoved(c: ClearingFigure): boolean {
  return c.theirs !== null && c.oursMoved !== null && c.theirsMoved !== null && !new Decimal(c.oursMoved).eq(c.theirsMoved);
}
