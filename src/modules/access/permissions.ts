import { AppError } from '../../shared/errors';

/**
 * Who may do what: the one place the role matrix lives (docs/access.md). Every door checks a
 * caller's permission through `assertPermitted` (REST: a route's `config.permission`; GraphQL:
 * `@Requires(permission)`, checked by a wrapper of each root resolver), and the service layer's own checks (a role cannot grant a role above
 * its own, the last owner stays) use the same tables.
 */
export const PERMISSIONS = [
  /** Transactions, their events and exports; the merchant's own record; reference data. */
  'transactions:read',
  /** Collections, transfers and card payments; sandbox simulations. */
  'payments:create',
  'refunds:create',
  /** Customers' names, addresses, identity documents and KYC. */
  'customers:read',
  /** Enrol customers and submit their KYC. */
  'customers:write',
  /** Balances, balance transactions and statements. */
  'balances:read',
  /** Funding the merchant's own balance (an account to pay into, issue 41), and sandbox top-ups. */
  'balances:fund',
  /** Webhook event log. */
  'webhooks:read',
  /** Webhook endpoint, event types, secret rotation, test events, resends. */
  'webhooks:manage',
  /** Create, rotate and revoke API keys. */
  'keys:manage',
  /** See the team: members, their roles, invitations. */
  'team:read',
  /** Invite, change roles, remove members, require 2FA. */
  'team:manage',
  'audit:read',
  /** Payout destinations and the payout schedule (issue 38): where the merchant's money goes. People only. */
  'payouts:manage',
  /** Manual payouts to the active destination (issue 38): API keys of a role that has it may. */
  'payouts:create',
  /** FX quotes and rates. */
  'rates:read',
  /** Disputes and chargebacks, their evidence and files (issue 39). */
  'disputes:read',
  /** Answer a dispute: evidence, files, submit, accept. */
  'disputes:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The built-in roles, most powerful first. */
export const ROLES = ['owner', 'admin', 'developer', 'finance', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an API key may have: never a person's (owner, admin). */
export const KEY_ROLES = ['developer', 'finance', 'support', 'viewer'] as const satisfies readonly Role[];
export type KeyRole = (typeof KEY_ROLES)[number];

const ALL: readonly Permission[] = PERMISSIONS;

/** The matrix. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ALL,
  admin: ALL,
  developer: [
    'transactions:read',
    'payments:create',
    'refunds:create',
    'customers:read',
    'customers:write',
    'balances:read',
    'balances:fund',
    'webhooks:read',
    'webhooks:manage',
    'keys:manage',
    'team:read',
    'rates:read',
    'disputes:read',
    'disputes:manage',
  ],
  finance: [
    'transactions:read',
    'refunds:create',
    'balances:read',
    'balances:fund',
    'webhooks:read',
    'team:read',
    'payouts:manage',
    'payouts:create',
    'rates:read',
    'disputes:read',
    'disputes:manage',
  ],
  support: ['transactions:read', 'customers:read', 'webhooks:read', 'team:read', 'rates:read', 'disputes:read', 'disputes:manage'],
  viewer: ['transactions:read', 'balances:read', 'webhooks:read', 'team:read', 'rates:read', 'disputes:read'],
};

/** What only a person can do: an API key of any role never may (managing keys, the team, payouts; reading the audit log). */
const PEOPLE_ONLY: ReadonlySet<Permission> = new Set(['keys:manage', 'team:read', 'team:manage', 'audit:read', 'payouts:manage']);

/**
 * Whose permissions need a second factor: a person whose role can move money or manage keys or
 * the team must have 2FA in production (and everywhere once the merchant requires it). docs/access.md
 * lists them (test/unit/permissions.test.ts compares).
 */
export const SENSITIVE: ReadonlySet<Permission> = new Set(['refunds:create', 'payouts:manage', 'payouts:create', 'keys:manage', 'team:manage']);

/** Each role's rank: a member may grant only roles at or below their own; developer, finance and support are peers. */
const RANK: Readonly<Record<Role, number>> = { owner: 4, admin: 3, developer: 2, finance: 2, support: 2, viewer: 1 };

/** Who is acting, as far as permissions go. */
export interface Principal {
  role: Role;
  /** An API key or a person (a dashboard session). */
  kind: 'api_key' | 'user';
  /** A person who must enrol in 2FA before anything else (the merchant requires it, or production does for their role). */
  enrolmentOnly?: boolean;
}

const granted = new Map<string, ReadonlySet<Permission>>(
  ROLES.flatMap((role) => [
    [`user:${role}`, new Set(ROLE_PERMISSIONS[role])],
    [`api_key:${role}`, new Set(ROLE_PERMISSIONS[role].filter((p) => !PEOPLE_ONLY.has(p)))],
  ]),
);
const NONE: ReadonlySet<Permission> = new Set();

/** The permissions a principal holds now (a set made once per role and kind: a lookup per request). */
export function permissionsOf(principal: Principal): ReadonlySet<Permission> {
  if (principal.enrolmentOnly) return NONE;
  return granted.get(`${principal.kind}:${principal.role}`) ?? NONE;
}

export function permits(principal: Principal, permission: Permission): boolean {
  return permissionsOf(principal).has(permission);
}

/**
 * 403 FORBIDDEN naming what is missing, unless the principal holds the permission. `anyRole`: every
 * role may (the merchant's profile, reference data); only a person who must first enrol in 2FA is refused.
 */
export function assertPermitted(principal: Principal, permission: Permission, anyRole = false): void {
  if (anyRole ? !principal.enrolmentOnly : permits(principal, permission)) return;
  if (principal.enrolmentOnly) throw AppError.forbidden('Two-factor authentication is required: enrol before anything else (Profile → Two-factor)');
  throw AppError.forbidden(`Your ${principal.kind === 'api_key' ? 'API key' : 'role'} (${principal.role}) does not allow this (${permission})`);
}

/** Whether `granter` may give (or take away) `role`: never above their own; owner only by an owner's transfer. */
export function mayGrant(granter: Role, role: Role): boolean {
  return role !== 'owner' && RANK[role] <= RANK[granter];
}

/** Whether a person in this role must have 2FA in production. */
export function roleNeedsTwoFactor(role: Role): boolean {
  return ROLE_PERMISSIONS[role].some((p) => SENSITIVE.has(p));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
