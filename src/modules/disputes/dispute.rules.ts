/*
 * A dispute's statuses and what each change does (issue 39, docs/disputes.md), pure. The statuses are Stripe's; the
 * provider's own status is kept raw beside them. Inquiries (`warning_*`) move no money; a chargeback (`needs_response`,
 * `under_review`) holds the disputed amount and the dispute fee; `won` gives the hold back, `lost` pays it out.
 */

export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Stripe's reasons. */
export const DISPUTE_REASONS = [
  'fraudulent',
  'product_not_received',
  'product_unacceptable',
  'duplicate',
  'subscription_canceled',
  'credit_not_processed',
  'unrecognized',
  'general',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** Waiting for the merchant: evidence can be added, then submitted or the dispute accepted. */
export const NEEDS_RESPONSE: readonly DisputeStatus[] = ['warning_needs_response', 'needs_response'];
/** Still open: at most one such dispute per payment. */
export const OPEN_STATUSES: readonly DisputeStatus[] = ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'];
export const CLOSED_STATUSES: readonly DisputeStatus[] = ['warning_closed', 'won', 'lost', 'prevented'];

export const isOpen = (s: DisputeStatus) => OPEN_STATUSES.includes(s);
export const needsResponse = (s: DisputeStatus) => NEEDS_RESPONSE.includes(s);

/** Where each status may go next. An inquiry can become a chargeback; a chargeback can be won or lost with or without evidence. */
const NEXT: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  warning_needs_response: ['warning_under_review', 'warning_closed', 'needs_response', 'lost'],
  warning_under_review: ['warning_closed', 'needs_response', 'lost'],
  warning_closed: ['needs_response'],
  needs_response: ['under_review', 'won', 'lost'],
  under_review: ['won', 'lost', 'needs_response'],
  won: [],
  lost: [],
  prevented: [],
};

export function canMove(from: DisputeStatus, to: DisputeStatus): boolean {
  return NEXT[from].includes(to);
}

/** Where the dispute's money is: nothing moved (an inquiry), held, given back (won), or paid out (lost). */
export type DisputeFunds = 'none' | 'held' | 'reinstated' | 'withdrawn';

/** A movement of the dispute's money, in order. */
export type FundsMove = 'hold' | 'release' | 'withdraw';

/**
 * What reaching `to` does to the money, given where it is. A chargeback holds (once); won gives the hold back; lost
 * pays it out (holding first when nothing was held: a chargeback that arrives lost, or an inquiry lost outright).
 */
export function fundsMoves(funds: DisputeFunds, to: DisputeStatus): FundsMove[] {
  if (funds === 'none') {
    if (to === 'needs_response' || to === 'under_review') return ['hold'];
    if (to === 'lost') return ['hold', 'withdraw'];
    return [];
  }
  if (funds === 'held') {
    if (to === 'won') return ['release'];
    if (to === 'lost') return ['withdraw'];
  }
  return [];
}

/** Where the money ends after `moves`. */
export function fundsAfter(funds: DisputeFunds, moves: readonly FundsMove[]): DisputeFunds {
  let f = funds;
  for (const m of moves) f = m === 'hold' ? 'held' : m === 'release' ? 'reinstated' : 'withdrawn';
  return f;
}

export type DisputeEventType =
  'dispute.created' | 'dispute.updated' | 'dispute.closed' | 'dispute.funds_withdrawn' | 'dispute.funds_reinstated' | 'dispute.evidence_due_soon';

/** The events a change sends, in order: what happened to the dispute, then to its money. */
export function changeEvents(created: boolean, to: DisputeStatus, moves: readonly FundsMove[]): DisputeEventType[] {
  const events: DisputeEventType[] = [created ? 'dispute.created' : CLOSED_STATUSES.includes(to) ? 'dispute.closed' : 'dispute.updated'];
  if (moves.includes('hold')) events.push('dispute.funds_withdrawn');
  if (moves.includes('release')) events.push('dispute.funds_reinstated');
  return events;
}

/** A closed status after an inquiry or chargeback is created closed (a provider reports it late): its closed event too. */
export function creationEvents(status: DisputeStatus, moves: readonly FundsMove[]): DisputeEventType[] {
  const events = changeEvents(true, status, moves);
  if (CLOSED_STATUSES.includes(status)) events.push('dispute.closed');
  return events;
}
