import { ROLES, type Role } from '../../src/modules/access/permissions';
import {
  assertInvitationRole,
  assertRemoval,
  assertRoleChange,
  assertTransfer,
  invitationStatus,
  INVITATION_TTL_MS,
  twoFactorRequiredFor,
} from '../../src/modules/team/team.rules';
import { AppError } from '../../src/shared/errors';

const member = (userId: string, role: Role) => ({ userId, role });
const codeOf = (fn: () => void): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
};

describe('team rules', () => {
  const owner = member('o', 'owner');
  const admin = member('a', 'admin');
  const developer = member('d', 'developer');
  const viewer = member('v', 'viewer');

  it('nobody changes their own role, the last owner included', () => {
    expect(codeOf(() => assertRoleChange(owner, owner, 'admin', 1))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRoleChange(admin, admin, 'viewer', 1))).toBe('FORBIDDEN');
  });

  it('an admin cannot grant owner, nor change an owner', () => {
    expect(codeOf(() => assertRoleChange(admin, developer, 'owner', 1))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRoleChange(admin, owner, 'viewer', 1))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRoleChange(admin, owner, 'viewer', 2))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRoleChange(admin, developer, 'admin', 1))).toBeUndefined();
    expect(codeOf(() => assertRoleChange(admin, viewer, 'finance', 1))).toBeUndefined();
  });

  it('a role is granted or taken away only at or below the granter’s own; owner never by a role change', () => {
    for (const granter of ROLES) {
      for (const from of ROLES) {
        for (const to of ROLES) {
          const code = codeOf(() => assertRoleChange(member('g', granter), member('t', from), to, 2));
          const rank = { owner: 4, admin: 3, developer: 2, finance: 2, support: 2, viewer: 1 };
          const allowed = from !== 'owner' && to !== 'owner' && rank[from] <= rank[granter] && rank[to] <= rank[granter];
          expect([granter, from, to, code === undefined]).toEqual([granter, from, to, allowed]);
        }
      }
    }
  });

  it('the last owner cannot be removed, even by themselves; a member may leave; others only within the remover’s rank', () => {
    expect(codeOf(() => assertRemoval(owner, owner, 1))).toBe('INVALID_STATE');
    expect(codeOf(() => assertRemoval(owner, owner, 2))).toBeUndefined();
    expect(codeOf(() => assertRemoval(admin, owner, 1))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRemoval(admin, owner, 2))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRemoval(viewer, viewer, 3))).toBeUndefined();
    expect(codeOf(() => assertRemoval(developer, admin, 1))).toBe('FORBIDDEN');
    expect(codeOf(() => assertRemoval(owner, admin, 1))).toBeUndefined();
  });

  it('only an owner transfers ownership, to someone else', () => {
    expect(codeOf(() => assertTransfer(owner, admin))).toBeUndefined();
    expect(codeOf(() => assertTransfer(owner, viewer))).toBeUndefined();
    expect(codeOf(() => assertTransfer(admin, developer))).toBe('FORBIDDEN');
    expect(codeOf(() => assertTransfer(owner, owner))).toBe('INVALID_REQUEST');
  });

  it('nobody is invited as owner; an inviter invites at or below their role', () => {
    expect(codeOf(() => assertInvitationRole('owner', 'owner'))).toBe('INVALID_REQUEST');
    expect(codeOf(() => assertInvitationRole('owner', 'admin'))).toBeUndefined();
    expect(codeOf(() => assertInvitationRole('admin', 'admin'))).toBeUndefined();
    expect(codeOf(() => assertInvitationRole('developer', 'admin'))).toBe('FORBIDDEN');
    expect(codeOf(() => assertInvitationRole('developer', 'finance'))).toBeUndefined();
  });

  it('an invitation is pending until it expires (7 days, to the millisecond), is accepted or revoked', () => {
    const sent = new Date('2026-12-01T10:00:00Z');
    const expiresAt = new Date(sent.getTime() + INVITATION_TTL_MS);
    const open = { acceptedAt: null, revokedAt: null, expiresAt };
    expect(invitationStatus(open, sent)).toBe('pending');
    expect(invitationStatus(open, new Date(expiresAt.getTime() - 1))).toBe('pending');
    expect(invitationStatus(open, expiresAt)).toBe('expired');
    expect(invitationStatus(open, new Date(expiresAt.getTime() + 1000))).toBe('expired');
    expect(invitationStatus({ ...open, acceptedAt: sent }, new Date(expiresAt.getTime() + 1000))).toBe('accepted');
    expect(invitationStatus({ ...open, revokedAt: sent }, sent)).toBe('revoked');
  });

  it('2FA is required where the merchant requires it, and in production of roles that move money or manage keys or the team', () => {
    expect(twoFactorRequiredFor(false, 'owner', false)).toBe(false);
    expect(twoFactorRequiredFor(false, 'viewer', true)).toBe(true);
    expect(twoFactorRequiredFor(true, 'viewer', false)).toBe(false);
    expect(twoFactorRequiredFor(true, 'support', false)).toBe(false);
    for (const role of ['owner', 'admin', 'developer', 'finance'] as const) expect(twoFactorRequiredFor(true, role, false)).toBe(true);
  });
});
