import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { parseInput, parseUuid } from '../../shared/validation';
import { assertPermitted, ROLES, type Permission, type Role } from '../access/permissions';
import { actorOf, type AuditLog } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import type { TokenRevocations } from '../auth/token-revocations';
import { announceRevoked, revokeMemberSessions } from './team.sessions';
import { assertPerson, assertRemoval, assertRoleChange, assertTransfer, type Acting, type MemberRole } from './team.rules';

/** A member of a merchant's team, as the Team page lists them. */
export interface TeamMember {
  /** The membership's id (what role changes and removals name). */
  id: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  twoFactorEnabled: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export interface TeamSettings {
  twoFactorRequired: boolean;
}

const roleSchema = z.enum(ROLES);

/** A locked membership row of the team. */
interface LockedMember extends MemberRole {
  id: string;
  email: string;
}

const MEMBERS = `select m.id, m.user_id as "userId", u.email, u.name, m.role, u.totp_enabled_at is not null as "twoFactorEnabled",
                        u.last_sign_in_at as "lastSignInAt", m.created_at as "createdAt"
                   from membership m join app_user u on u.id = m.user_id`;

export interface TeamServiceDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  audit: AuditLog;
  revocations: TokenRevocations;
}

/**
 * The team of a merchant: its members and their roles, ownership, and whether everyone must have
 * 2FA. Every change locks the team's memberships first (so two owners cannot demote each other at
 * once and leave none), checks the rules (team.rules.ts) against the roles as they are now, not as
 * the caller's token says, and writes its audit entry in the same transaction. A role change or a
 * removal ends the member's sessions at this merchant at once, on every instance; so does requiring
 * 2FA, for every member without it.
 */
export class TeamService {
  constructor(private readonly deps: TeamServiceDeps) {}

  async listMembers(auth: AuthContext): Promise<TeamMember[]> {
    return this.deps.sql.query<TeamMember>(`${MEMBERS} where m.merchant_id = $1 order by m.created_at, m.id`, [auth.merchantId], 'team_members');
  }

  async settings(auth: AuthContext): Promise<TeamSettings> {
    const [row] = await this.deps.sql.query<{ require_two_factor: boolean }>('select require_two_factor from merchant where id = $1', [auth.merchantId]);
    if (!row) throw AppError.notFound('Merchant');
    return { twoFactorRequired: row.require_two_factor };
  }

  async changeRole({ auth, origin }: Acting, membershipId: string, role: Role): Promise<TeamMember> {
    const id = parseUuid(membershipId, 'id');
    const newRole = parseInput(z.object({ role: roleSchema }), { role }).role;
    const revoked = await this.inTeam(auth, 'team:manage', async (em, actor, team) => {
      const target = memberOf(team, id);
      assertRoleChange(actor, target, newRole, owners(team));
      if (target.role === newRole) return [];
      const now = this.deps.clock.now();
      await em.execute('update membership set role = ?, updated_at = ? where id = ?', [newRole, now, id]);
      const families = await revokeMemberSessions(em, [target.userId], auth.merchantId, 'role_changed', now);
      await this.deps.audit.recordOn(em, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'member.role_changed',
        target: { type: 'user', id: target.userId },
        origin,
        before: { email: target.email, role: target.role },
        after: { email: target.email, role: newRole },
      });
      return families;
    });
    await announceRevoked(this.deps.revocations, revoked);
    return this.member(auth.merchantId, id);
  }

  async removeMember({ auth, origin }: Acting, membershipId: string): Promise<void> {
    const id = parseUuid(membershipId, 'id');
    const revoked = await this.inTeam(auth, 'team:manage', async (em, actor, team) => {
      const target = memberOf(team, id);
      assertRemoval(actor, target, owners(team));
      const now = this.deps.clock.now();
      await em.execute('delete from membership where id = ?', [id]);
      const families = await revokeMemberSessions(em, [target.userId], auth.merchantId, 'member_removed', now);
      await this.deps.audit.recordOn(em, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'member.removed',
        target: { type: 'user', id: target.userId },
        origin,
        before: { email: target.email, role: target.role },
      });
      return families;
    });
    await announceRevoked(this.deps.revocations, revoked);
  }

  /**
   * The member becomes the owner and the owner an admin, together. No session ends: the new owner's
   * role reaches their token at its next refresh, and an admin holds every permission an owner does;
   * what only an owner may do (this) is checked against the membership as it is now.
   */
  async transferOwnership({ auth, origin }: Acting, membershipId: string): Promise<TeamMember> {
    const id = parseUuid(membershipId, 'id');
    await this.inTeam(auth, 'team:manage', async (em, actor, team) => {
      const target = memberOf(team, id);
      assertTransfer(actor, target);
      const now = this.deps.clock.now();
      await em.execute(`update membership set role = 'owner', updated_at = ? where id = ?`, [now, target.id]);
      await em.execute(`update membership set role = 'admin', updated_at = ? where id = ?`, [now, actor.id]);
      await this.deps.audit.recordOn(em, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'team.ownership_transferred',
        target: { type: 'user', id: target.userId },
        origin,
        before: { owner: actor.email, role: target.role },
        after: { owner: target.email, previous_owner_role: 'admin' },
      });
      return [];
    });
    return this.member(auth.merchantId, id);
  }

  /**
   * Once required, a member without 2FA can only enrol, at once: their sessions at this merchant end
   * (revoked and announced to every instance, as a role change's), and a new sign-in gives them an
   * enrolment-only session. Members with 2FA keep theirs. Whoever requires it must have 2FA themselves
   * (as GitHub asks), so requiring it never signs its author out.
   */
  async setTwoFactorRequired({ auth, origin }: Acting, required: boolean): Promise<TeamSettings> {
    const value = parseInput(z.object({ required: z.boolean() }), { required }).required;
    const revoked = await this.inTeam(auth, 'team:manage', async (em, actor) => {
      const [merchant]: Array<{ require_two_factor: boolean }> = await em.execute('select require_two_factor from merchant where id = ? for update', [
        auth.merchantId,
      ]);
      if (!merchant) throw AppError.notFound('Merchant');
      if (merchant.require_two_factor === value) return [];
      // Held FOR SHARE: an enrolment or a removal of 2FA in flight commits first, and is read as it ends.
      const withoutTwoFactor: Array<{ userId: string }> = value
        ? await em.execute(
            `select m.user_id as "userId" from membership m join app_user u on u.id = m.user_id
              where m.merchant_id = ? and u.totp_enabled_at is null for share of u`,
            [auth.merchantId],
          )
        : [];
      if (withoutTwoFactor.some((m) => m.userId === actor.userId)) {
        throw new AppError('INVALID_STATE', 'Turn on two-factor authentication for yourself first (Profile → Two-factor), then require it of the team');
      }
      const now = this.deps.clock.now();
      await em.execute('update merchant set require_two_factor = ?, updated_at = ? where id = ?', [value, now, auth.merchantId]);
      await this.deps.audit.recordOn(em, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'team.two_factor_requirement_changed',
        target: { type: 'merchant', id: auth.merchantId },
        origin,
        before: { two_factor_required: merchant.require_two_factor },
        after: { two_factor_required: value },
      });
      return revokeMemberSessions(
        em,
        withoutTwoFactor.map((m) => m.userId),
        auth.merchantId,
        'two_factor_required',
        now,
      );
    });
    await announceRevoked(this.deps.revocations, revoked);
    return { twoFactorRequired: value };
  }

  /**
   * Runs `change` with the team's memberships locked, the caller's own among them: the caller must
   * still be a member whose role (as it is now) holds `permission`. Answers the token families the
   * change revoked, for announcing after commit.
   */
  private async inTeam(
    auth: AuthContext,
    permission: Permission,
    change: (em: EntityManager, actor: LockedMember, team: LockedMember[]) => Promise<string[]>,
  ): Promise<string[]> {
    assertPerson(auth);
    return this.deps.orm.em.fork().transactional(async (em) => {
      const team: LockedMember[] = await em.execute(
        `select m.id, m.user_id as "userId", m.role, u.email
           from membership m join app_user u on u.id = m.user_id
          where m.merchant_id = ? order by m.id for update of m`,
        [auth.merchantId],
      );
      const actor = team.find((m) => m.userId === auth.actorId);
      if (!actor) throw AppError.forbidden('You are no longer a member of this merchant');
      assertPermitted({ role: actor.role, kind: 'user', enrolmentOnly: auth.enrolmentOnly }, permission);
      return change(em, actor, team);
    });
  }

  private async member(merchantId: string, id: string): Promise<TeamMember> {
    const [row] = await this.deps.sql.query<TeamMember>(`${MEMBERS} where m.merchant_id = $1 and m.id = $2`, [merchantId, id]);
    if (!row) throw AppError.notFound('Member');
    return row;
  }
}

function memberOf(team: LockedMember[], id: string): LockedMember {
  const found = team.find((m) => m.id === id);
  if (!found) throw AppError.notFound('Member');
  return found;
}

const owners = (team: LockedMember[]) => team.filter((m) => m.role === 'owner').length;
