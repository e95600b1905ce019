import type { ProviderRecord } from '../../providers/capabilities';
import type { Decimal } from '../../shared/money';
import type { MatchClass, OurTransaction } from './matching';

/** Every class a run counts: matching's, and the clearing check's `balance_mismatch`. */
export type RunClass = MatchClass | 'balance_mismatch';

/**
 * The clearing check of one currency (docs/reconciliation.md): our clearing account's balance and the provider's
 * reported balance when the run ran, their difference, and how each moved since the connector's previous run (null
 * when there is none, or a balance could not be read).
 */
export interface ClearingFigure {
  currency: string;
  ours: string;
  theirs: string | null;
  difference: string | null;
  oursMoved: string | null;
  theirsMoved: string | null;
  /** Why the provider's balance is missing (no balance call; the call failed). */
  note: string | null;
}

export interface ReconciliationRun {
  id: string;
  connector: string;
  windowFrom: Date;
  windowTo: Date;
  status: 'running' | 'completed' | 'failed';
  counts: Record<RunClass, number>;
  clearing: ClearingFigure[];
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

/** One side of an item as stored. */
export interface ItemSide {
  amount: Decimal | null;
  currency: string | null;
  status: string | null;
}

export interface ReconciliationItem {
  id: string;
  runId: string;
  class: RunClass;
  transactionId: string | null;
  transactionReference: string | null;
  kind: string | null;
  providerReference: string | null;
  /** A balance_mismatch's currency. */
  currency: string | null;
  ours: ItemSide | null;
  theirs: ItemSide | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolutionNote: string | null;
}

/** What a run stores per item: a matched pair or one side, or a currency's balances. */
export interface StoredItem {
  class: RunClass;
  ours: OurTransaction | null;
  theirs: ProviderRecord | null;
  currency?: string;
  ourAmount?: Decimal;
  theirAmount?: Decimal;
}

/** A run with its items (the admin API's one run). */
export interface ReconciliationRunDetail {
  run: ReconciliationRun;
  items: ReconciliationItem[];
}
