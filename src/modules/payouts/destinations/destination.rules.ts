import { maskAccount } from '../../transactions/counterparty';
import { ROLE_PERMISSIONS, ROLES, type Role } from '../../access/permissions';

/**
 * Payout destinations' rules, without I/O (docs/payouts.md, Destinations): the statuses, who approves, how long a
 * lone member's change cools off, and how an account is shown.
 */

export const DESTINATION_STATUSES = ['active', 'pending_approval', 'replaced', 'canceled'] as const;
export type DestinationStatus = (typeof DESTINATION_STATUSES)[number];

/** A change made by the only member who could approve it takes effect this long after it was made. */
const COOLING_OFF_MS = 24 * 60 * 60 * 1000;

/** The roles that hold payouts:manage: the makers and checkers of a change. */
export const PAYOUT_ROLES: readonly Role[] = ROLES.filter((role) => ROLE_PERMISSIONS[role].includes('payouts:manage'));

/** Who is told of a change that takes effect alone after the cooling-off. */
export const NOTIFIED_ROLES: readonly Role[] = ['owner', 'admin'];

/** An account for display: its bank's or network's name and the last four characters, never the whole number. */
export function maskedAccount(institution: string, accountNumber: string): string {
  return `${institution} ${maskAccount(accountNumber)}`;
}

/**
 * When a change takes effect: now's approval by a second member, or (when the maker is the team's only member
 * who holds payouts:manage) at the end of the cooling-off, unless someone approves or cancels it first.
 */
export function changeEffectiveAt(payoutMembers: number, now: Date): Date | null {
  return payoutMembers <= 1 ? new Date(now.getTime() + COOLING_OFF_MS) : null;
}
