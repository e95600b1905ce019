import { createContext, useContext } from 'react';
import type { MeQuery } from './generated/graphql';

/**
 * What the signed-in member may do: `me.permissions`, the service's own list for their role at this
 * merchant (src/modules/access/permissions.ts; the dashboard may not import the service's code, so
 * the names are repeated here, and a misspelt one fails the type-check). The dashboard hides or
 * disables what a role may not do; the service refuses it anyway.
 */
export type Permission =
  | 'transactions:read'
  | 'payments:create'
  | 'refunds:create'
  | 'customers:read'
  | 'customers:write'
  | 'balances:read'
  | 'balances:fund'
  | 'webhooks:read'
  | 'webhooks:manage'
  | 'keys:manage'
  | 'team:read'
  | 'team:manage'
  | 'audit:read'
  | 'payouts:manage'
  | 'payouts:create'
  | 'disputes:read'
  | 'disputes:manage'
  | 'rates:read';

export type Me = MeQuery['me'];

/** The member, read once per session by the shell (App.tsx) and handed to every screen. */
export const MeContext = createContext<Me | null>(null);

export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in dashboard');
  return me;
}

/** `can(permission)`: whether the signed-in member's role allows it. */
export function useCan(): (permission: Permission) => boolean {
  const me = useContext(MeContext);
  return (permission) => me?.permissions.includes(permission) ?? false;
}

/** The roles, most powerful first, as GraphQL names them; a member may grant only roles at or below their own. */
const ROLES = ['OWNER', 'ADMIN', 'DEVELOPER', 'FINANCE', 'SUPPORT', 'VIEWER'] as const;
const RANK: Record<string, number> = { OWNER: 4, ADMIN: 3, DEVELOPER: 2, FINANCE: 2, SUPPORT: 2, VIEWER: 1 };
/** The roles `granter` may give (never owner: ownership is transferred). The service checks the same rule. */
export const grantable = (granter: string) => ROLES.filter((r) => r !== 'OWNER' && RANK[r]! <= (RANK[granter] ?? 0));

/** What each role is for, in a line (docs/access.md has the matrix). */
export const ROLE_HINTS: Record<string, string> = {
  OWNER: 'everything, and the merchant itself',
  ADMIN: 'everything but ownership',
  DEVELOPER: 'payments, webhooks and API keys',
  FINANCE: 'balances, statements, refunds and payouts',
  SUPPORT: 'transactions and customers, read only',
  VIEWER: 'transactions and balances, read only',
};
