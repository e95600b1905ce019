import type { ProviderRecord } from '../../providers/capabilities';
import type { Decimal } from '../../shared/money';

/*
 * Reconciliation's matching (docs/reconciliation.md): our transactions of a window against the provider's records,
 * one to one by the key we sent the provider (our transaction's id), else by the provider's reference. Pure: no I/O.
 */

/** The classes a compared transaction or record falls in. `matched` and `in_flight` are not exceptions. */
const MATCH_CLASSES = ['matched', 'amount_mismatch', 'status_mismatch', 'missing_at_provider', 'missing_here', 'in_flight'] as const;
export type MatchClass = (typeof MATCH_CLASSES)[number];

/** One of our transactions as matching reads it: what the provider was asked to move, and where it stands. */
export interface OurTransaction {
  id: string;
  reference: string;
  /** Any kind (collection, transfer, payment, refund, and kinds to come): matching never asks which. */
  kind: string;
  /** Our status as stored (initiating, processing, requires_action, successful, failed, expired). */
  status: string;
  providerReference: string | null;
  amount: Decimal;
  currency: string;
}

export interface MatchItem {
  class: MatchClass;
  ours: OurTransaction | null;
  theirs: ProviderRecord | null;
}

/** Our status in the provider's three words: expired is a failure (nothing moved); anything not final is pending. */
function threeWordStatus(status: string): ProviderRecord['status'] {
  if (status === 'successful') return 'successful';
  if (status === 'failed' || status === 'expired') return 'failed';
  return 'pending';
}

/** One pair's class: the amount first (the same transaction moving another sum is the worst news), then the statuses. */
export function classifyPair(ours: OurTransaction, theirs: ProviderRecord): MatchClass {
  if (!ours.amount.eq(theirs.amount) || ours.currency !== theirs.currency) return 'amount_mismatch';
  const mine = threeWordStatus(ours.status);
  if (mine === 'pending' || theirs.status === 'pending') return 'in_flight';
  return mine === theirs.status ? 'matched' : 'status_mismatch';
}

/**
 * Ours without a record of theirs. Successful or processing: the provider should know it (missing_at_provider). A
 * failure or expiry with no record moved nothing on either side (matched). Still being created or awaiting the
 * customer (initiating, requires_action): in flight.
 */
export function classifyUnpaired(ours: OurTransaction): MatchClass {
  if (ours.status === 'successful' || ours.status === 'processing') return 'missing_at_provider';
  if (threeWordStatus(ours.status) === 'failed') return 'matched';
  return 'in_flight';
}

/**
 * Every transaction and record of the window, each in exactly one item: pairs by our reference (the provider record's
 * `ourReference` is our transaction's id), else by the provider's reference; a record of theirs with no transaction of
 * ours is `missing_here`. A second record naming a transaction already paired is `missing_here` too (one to one).
 */
export function matchRecords(ours: readonly OurTransaction[], theirs: readonly ProviderRecord[]): MatchItem[] {
  const byId = new Map(ours.map((t) => [t.id, t]));
  const byProviderReference = new Map(ours.flatMap((t) => (t.providerReference ? [[t.providerReference, t] as const] : [])));
  const paired = new Set<string>();
  const items: MatchItem[] = [];
  for (const record of theirs) {
    const candidate = (record.ourReference !== null ? byId.get(record.ourReference) : undefined) ?? byProviderReference.get(record.providerReference);
    if (!candidate || paired.has(candidate.id)) {
      items.push({ class: 'missing_here', ours: null, theirs: record });
      continue;
    }
    paired.add(candidate.id);
    items.push({ class: classifyPair(candidate, record), ours: candidate, theirs: record });
  }
  for (const t of ours) if (!paired.has(t.id)) items.push({ class: classifyUnpaired(t), ours: t, theirs: null });
  return items;
}

/** How many items of each class (every class present, zero or more), the clearing check's `balance_mismatch` with them. */
export function countByClass(items: ReadonlyArray<{ class: MatchClass | 'balance_mismatch' }>): Record<MatchClass | 'balance_mismatch', number> {
  const counts = Object.fromEntries([...MATCH_CLASSES, 'balance_mismatch'].map((c) => [c, 0])) as Record<MatchClass | 'balance_mismatch', number>;
  for (const item of items) counts[item.class] += 1;
  return counts;
}
