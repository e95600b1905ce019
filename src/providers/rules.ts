import { AppError } from '../shared/errors';
import type { Route, RouteLeg } from './connector';

/**
 * One of a connector's rules on a new transaction, checked before anything is written. It reads only the
 * request and the connector's reference data, never its credentials: the sandbox applies the same rule, with
 * the same answer, on a route that connector would serve in production (routing.ts, `ProductionParity`).
 * docs/providers.md's "Rules" table lists each one, and a unit test holds the table to this code.
 */
export interface ConnectorRule {
  /** Short and stable: the docs' table names the rule by it. */
  readonly id: string;
  /** What it refuses, in one line (the docs' table). */
  readonly refuses: string;
  /** The request field a refusal names (a 400 INVALID_REQUEST on it). */
  readonly field: 'amount' | 'currency' | 'accountNumber';
  /** The refusal's issue (`must be …`), or null when the request passes. */
  issue(leg: RouteLeg): string | null;
}

/** A connector's static side: which routes its reference data covers, whatever its credentials, and its rules there. */
export interface ConnectorRules {
  /** Whether its reference data covers the route (country, channel, network, direction); configuration may narrow it further. */
  covers(route: Route): boolean;
  /** Checked in this order; the first refusal is the answer. */
  readonly rules: readonly ConnectorRule[];
  /** Fewer decimals than the currency's that it pays out in (M-Pesa: whole shillings); undefined: the currency's. */
  payoutDecimals?(route: Route): number | undefined;
}

/** The first of the rules that refuses the request throws its 400; nothing has been written yet. */
export function applyRules(rules: readonly ConnectorRule[], leg: RouteLeg): void {
  for (const rule of rules) {
    const issue = rule.issue(leg);
    if (issue !== null) throw AppError.invalidField(rule.field, issue);
  }
}

/** A wallet is a phone number: digits only (spaces and a leading + aside), 7 to 15 of them. */
export const walletNumberRule: ConnectorRule = {
  id: 'wallet-number',
  refuses: 'a wallet number that is not a phone number: 7 to 15 digits (spaces and a leading + aside)',
  field: 'accountNumber',
  issue: (leg) =>
    leg.accountNumber === null || !/^\+?\d{7,15}$/.test(leg.accountNumber.replace(/\s/g, '')) ? 'must be the wallet’s phone number, digits only' : null,
};
