import { AppError } from '../../shared/errors';
import { mayGrant, roleNeedsTwoFactor, type Role } from '../access/permissions';
import type { AuthContext } from '../auth/access-tokens';
import type { RequestOrigin } from '../audit/audit-log';

/**
 * The team's rules, without I/O (docs/access.md): who may change whose role, remove whom, transfer
 * ownership or invite; when an invitation is still good; who must have 2FA. The services load and
 * lock the rows, ask these, then write.
 */

/** Who is acting, and from where (the audit log's actor and origin). */
export interface Acting {
  auth: AuthContext;
  origin?: RequestOrigin;
}

/** A member as the rules see them. */
export interface MemberRole {
  userId: string;
  role: Role;
}

/** An invitation link lives this long from its (re)sending. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The one answer for a link that cannot be used, whatever the reason (expired, revoked, used, unknown). */
export const UNUSABLE_INVITATION = 'This invitation link is invalid, expired or already used: ask for a new one';

export function invitationStatus(invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): InvitationStatus {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

const lastOwner = (target: MemberRole, owners: number) => target.role === 'owner' && owners <= 1;

/**
 * Whether `actor` may give `target` the role `role`: never their own, never from or to a role above
 * the actor's, never to or from owner (ownership is transferred), never the last owner's.
 */
export function assertRoleChange(actor: MemberRole, target: MemberRole, role: Role, owners: number): void {
  if (actor.userId === target.userId) throw AppError.forbidden('You cannot change your own role');
  if (!mayGrant(actor.role, target.role)) throw AppError.forbidden(`Your role (${actor.role}) cannot change the role of a member who is ${target.role}`);
  if (role === 'owner') throw AppError.forbidden('Ownership is transferred (transferOwnership), not granted');
  if (!mayGrant(actor.role, role)) throw AppError.forbidden(`Your role (${actor.role}) cannot grant the role ${role}`);
  // Held by the rules above (no one may grant or take away owner); said again where it matters.
  if (lastOwner(target, owners)) throw new AppError('INVALID_STATE', 'The last owner cannot be demoted: transfer ownership first');
}

/** Whether `actor` may remove `target`: a member may leave, and remove those whose role they could grant; the last owner stays. */
export function assertRemoval(actor: MemberRole, target: MemberRole, owners: number): void {
  if (actor.userId !== target.userId && !mayGrant(actor.role, target.role)) {
    throw AppError.forbidden(`Your role (${actor.role}) cannot remove a member who is ${target.role}`);
  }
  if (lastOwner(target, owners)) throw new AppError('INVALID_STATE', 'The last owner cannot be removed: transfer ownership first');
}

/** Only an owner transfers, to another member. */
export function assertTransfer(actor: MemberRole, target: MemberRole): void {
  if (actor.role !== 'owner') throw AppError.forbidden('Only an owner can transfer ownership');
  if (actor.userId === target.userId) throw AppError.invalidField('id', 'is you: choose another member');
}

/** Whether `actor` may invite someone as `role` (or resend or revoke such an invitation). */
export function assertInvitationRole(actor: Role, role: Role): void {
  if (role === 'owner') throw AppError.invalidField('role', 'cannot be owner: ownership is transferred (transferOwnership)');
  if (!mayGrant(actor, role)) throw AppError.forbidden(`Your role (${actor}) cannot invite a member as ${role}`);
}

/** Whether a person in `role` at a merchant that does (or does not) require it must have 2FA. */
export function twoFactorRequiredFor(production: boolean, role: Role, merchantRequires: boolean): boolean {
  return merchantRequires || (production && roleNeedsTwoFactor(role));
}

/** A person's session (a dashboard sign-in), not an API key: what team and 2FA operations need. */
export function assertPerson(auth: AuthContext): void {
  if (auth.kind !== 'user') throw AppError.forbidden('Only a person signed in to the dashboard can do this, not an API key');
}
