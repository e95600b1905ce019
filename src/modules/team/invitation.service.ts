import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { randomToken, sha256Hex, timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput, parseUuid, type Command } from '../../shared/validation';
import { assertPermitted, ROLES, type Role } from '../access/permissions';
import { hashPassword, passwordProblem, verifyPassword, PASSWORD_MAX } from '../accounts/passwords';
import { actorOf, type AuditLog, type RequestOrigin } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import { MailNotSentError, type Mailer } from '../mail/mailer';
import { invitation as invitationMail } from '../mail/templates';
import { COLUMNS, datesOf, lockInvitation, viewOf, type Invitation, type InvitationRow } from './invitation.rows';
import { assertInvitationRole, assertPerson, INVITATION_TTL_MS, invitationStatus, UNUSABLE_INVITATION, type Acting } from './team.rules';

/** What the accept page shows before the person types anything. */
export interface InvitationPreview {
  merchantName: string;
  email: string;
  role: Role;
  /** The email has an account already: its password joins, no name asked. */
  existingUser: boolean;
}

/** Who joined where: the page then signs in with the email and the password just typed. */
export interface AcceptedInvitation {
  merchantId: string;
  userId: string;
  email: string;
  role: Role;
}

const inviteSchema = z.object({
  email: z.string({ error: 'is required' }).trim().toLowerCase().pipe(z.email('must be a valid email address').max(254, 'must be at most 254 characters')),
  role: z.enum(ROLES),
});
export type InviteCommand = Command<typeof inviteSchema>;

/** An invitation's address as it will be stored (trimmed, lower case); 400 naming `email` when it is not one. */
export const invitationEmail = (email: string): string => parseInput(inviteSchema, { email, role: 'viewer' }).email;

const tokenSchema = z.string({ error: 'is required' }).min(1, 'is required').max(200, 'must be at most 200 characters');
export const acceptInvitationSchema = z.object({
  token: tokenSchema,
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  password: z.string({ error: 'is required' }).max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`),
});
export type AcceptInvitationCommand = Command<typeof acceptInvitationSchema>;

export interface InvitationServiceDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  audit: AuditLog;
  mailer: Mailer;
  publicAddress: PublicAddress;
}

/**
 * Invitations by email (docs/access.md): an owner or admin invites with a role they could grant
 * (never owner: ownership is transferred). The link's token is random and stored as its SHA-256; it
 * lives 7 days, works once, and dies when resent (a new token) or revoked. The email is sent inside
 * the transaction that writes the invitation: a failed send leaves no invitation behind. Accepting
 * creates the person (the link proves the mailbox, so their email is verified) or, for an existing
 * account, needs its password; either way it adds the membership.
 */
export class InvitationService {
  constructor(private readonly deps: InvitationServiceDeps) {}

  async list(auth: AuthContext): Promise<Invitation[]> {
    const rows = await this.deps.sql.query<InvitationRow>(
      `select ${COLUMNS} from invitation i where i.merchant_id = $1 order by i.created_at desc, i.id desc limit 500`,
      [auth.merchantId],
      'invitation_list',
    );
    return rows.map((row) => viewOf(row, this.deps.clock.now()));
  }

  async invite({ auth, origin }: Acting, command: InviteCommand): Promise<Invitation> {
    const { email, role } = parseInput(inviteSchema, command);
    return this.deps.orm.em.fork().transactional(async (em) => {
      const actor = await this.actor(em, auth);
      assertInvitationRole(actor.role, role);
      return this.create(em, { merchantId: auth.merchantId, email, role, invitedBy: auth.actorId, inviterName: actor.name }, async (row) =>
        this.audited(em, auth, origin, 'invitation.created', row),
      );
    });
  }

  /**
   * An operator's invitation of a merchant's owner (`npm run merchant:create -- --owner-email`): in
   * production merchants do not sign up, so their first person arrives this way. The same link, email
   * and 7 days as a member's invitation; the audit log names the operator.
   */
  async inviteOwner(merchantId: string, command: { email: string }, operator: string): Promise<Invitation> {
    const email = invitationEmail(command.email);
    return this.deps.orm.em.fork().transactional(async (em) =>
      this.create(em, { merchantId, email, role: 'owner', invitedBy: null, inviterName: 'The operator' }, async (row) =>
        this.deps.audit.recordOn(em, {
          merchantId,
          actor: { type: 'operator', label: operator },
          action: 'invitation.created',
          target: { type: 'invitation', id: row.id },
          after: { email: row.email, role: row.role, expires_at: row.expires_at.toISOString() },
        }),
      ),
    );
  }

  private async create(
    em: EntityManager,
    invite: { merchantId: string; email: string; role: Role; invitedBy: string | null; inviterName: string },
    audit: (row: InvitationRow) => Promise<void>,
  ): Promise<Invitation> {
    const { merchantId, email, role } = invite;
    // One invitation at a time per address and merchant, even when two are sent at once.
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`invitation:${merchantId}:${email}`]);
    const [member]: unknown[] = await em.execute(
      'select 1 from membership m join app_user u on u.id = m.user_id where m.merchant_id = ? and lower(u.email) = ?',
      [merchantId, email],
    );
    if (member) throw AppError.duplicateField('email', 'is already a member of this team');
    const now = this.deps.clock.now();
    const [pending]: unknown[] = await em.execute(
      'select 1 from invitation where merchant_id = ? and lower(email) = ? and accepted_at is null and revoked_at is null and expires_at > ?',
      [merchantId, email, now],
    );
    if (pending) throw AppError.duplicateField('email', 'has a pending invitation already: resend it');
    const token = randomToken('inv');
    const row: InvitationRow = {
      id: timeOrderedUuid(),
      merchant_id: merchantId,
      email,
      role,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      accepted_at: null,
      revoked_at: null,
    };
    await em.execute('insert into invitation (id, merchant_id, email, role, token_hash, invited_by, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)', [
      row.id,
      row.merchant_id,
      email,
      role,
      sha256Hex(token),
      invite.invitedBy,
      now,
      row.expires_at,
    ]);
    await audit(row);
    await this.send(em, merchantId, invite.inviterName, row, token);
    return viewOf(row, this.deps.clock.now());
  }

  /** A new link (the old one dies) and a new 7 days, for an invitation not accepted or revoked. */
  async resend({ auth, origin }: Acting, id: string): Promise<Invitation> {
    const invitationId = parseUuid(id, 'id');
    return this.deps.orm.em.fork().transactional(async (em) => {
      const actor = await this.actor(em, auth);
      const row = await lockInvitation(em, auth.merchantId, invitationId);
      assertInvitationRole(actor.role, row.role);
      const status = invitationStatus(datesOf(row), this.deps.clock.now());
      if (status === 'accepted' || status === 'revoked') throw new AppError('INVALID_STATE', `This invitation was ${status}: invite again`);
      const token = randomToken('inv');
      row.expires_at = new Date(this.deps.clock.now().getTime() + INVITATION_TTL_MS);
      await em.execute('update invitation set token_hash = ?, expires_at = ? where id = ?', [sha256Hex(token), row.expires_at, row.id]);
      await this.audited(em, auth, origin, 'invitation.resent', row);
      await this.send(em, auth.merchantId, actor.name, row, token);
      return viewOf(row, this.deps.clock.now());
    });
  }

  /** Its link stops working. Revoking a revoked invitation changes nothing; an accepted one is a member now (remove them instead). */
  async revoke({ auth, origin }: Acting, id: string): Promise<Invitation> {
    const invitationId = parseUuid(id, 'id');
    return this.deps.orm.em.fork().transactional(async (em) => {
      const actor = await this.actor(em, auth);
      const row = await lockInvitation(em, auth.merchantId, invitationId);
      assertInvitationRole(actor.role, row.role);
      if (row.accepted_at) throw new AppError('INVALID_STATE', 'This invitation was accepted: remove the member instead');
      if (row.revoked_at) return viewOf(row, this.deps.clock.now());
      row.revoked_at = this.deps.clock.now();
      await em.execute('update invitation set revoked_at = ? where id = ?', [row.revoked_at, row.id]);
      await this.audited(em, auth, origin, 'invitation.revoked', row);
      return viewOf(row, this.deps.clock.now());
    });
  }

  /** What the link is for; one refusal for every link that cannot be used. */
  async preview(token: string): Promise<InvitationPreview> {
    const found = await this.usable(token);
    return { merchantName: found.merchant_name, email: found.email, role: found.role, existingUser: found.user !== null };
  }

  /** Joins the merchant: creates the person, or checks the existing account's password, then adds the membership. */
  async accept(command: AcceptInvitationCommand, origin?: RequestOrigin): Promise<AcceptedInvitation> {
    const { token, name, password } = parseInput(acceptInvitationSchema, command);
    const found = await this.usable(token);
    // The slow hash or check runs before the transaction, so no row stays locked for it.
    let passwordHash: string | null = null;
    if (found.user) {
      if (!(await verifyPassword(password, found.user.password_hash))) throw AppError.invalidField('password', 'is not the password of your account');
    } else {
      const problem = passwordProblem(password, found.email);
      if (problem) throw AppError.invalidField('password', problem);
      passwordHash = await hashPassword(password);
    }
    return this.deps.orm.em.fork().transactional(async (em) => {
      const row = await lockInvitation(em, found.merchant_id, found.id);
      const now = this.deps.clock.now();
      if (invitationStatus(datesOf(row), now) !== 'pending') throw AppError.invalidRequest(UNUSABLE_INVITATION);
      const [user]: Array<{ id: string }> = await em.execute('select id from app_user where lower(email) = ? for update', [row.email.toLowerCase()]);
      if ((user?.id ?? null) !== (found.user?.id ?? null)) throw new AppError('INVALID_STATE', 'Your account changed meanwhile: open the link again');
      let userId: string;
      if (user) {
        userId = user.id;
        await em.execute('update app_user set email_verified_at = coalesce(email_verified_at, ?), updated_at = ? where id = ?', [now, now, userId]);
      } else {
        userId = timeOrderedUuid();
        await em.execute(
          `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?, ?)`,
          [userId, row.email, name ?? row.email.split('@')[0]!, passwordHash, now, now, now, now],
        );
      }
      const joined: unknown[] = await em.execute(
        'insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values (?, ?, ?, ?, ?, ?) on conflict (user_id, merchant_id) do nothing returning id',
        [timeOrderedUuid(), userId, row.merchant_id, row.role, now, now],
      );
      if (joined.length === 0) throw new AppError('INVALID_STATE', 'You are a member of this team already: sign in');
      await em.execute('update invitation set accepted_at = ? where id = ?', [now, row.id]);
      await this.deps.audit.recordOn(em, {
        merchantId: row.merchant_id,
        actor: { type: 'user', id: userId, label: row.email, role: row.role },
        action: 'invitation.accepted',
        target: { type: 'invitation', id: row.id },
        origin,
        after: { email: row.email, role: row.role, new_user: !user },
      });
      return { merchantId: row.merchant_id, userId, email: row.email, role: row.role };
    });
  }

  /** The invitation of a link that can be used now (pending, of an enabled merchant), with its merchant's name and the account its email has. */
  private async usable(token: string) {
    const value = parseInput(z.object({ token: tokenSchema }), { token }).token;
    const [row] = await this.deps.sql.query<InvitationRow & { merchant_name: string; user_id: string | null; password_hash: string | null }>(
      `select ${COLUMNS}, m.name as merchant_name, u.id as user_id, u.password_hash
         from invitation i join merchant m on m.id = i.merchant_id and m.disabled_at is null
         left join app_user u on lower(u.email) = lower(i.email)
        where i.token_hash = $1`,
      [sha256Hex(value)],
      'invitation_by_token',
    );
    if (!row || invitationStatus(datesOf(row), this.deps.clock.now()) !== 'pending') throw AppError.invalidRequest(UNUSABLE_INVITATION);
    return { ...row, user: row.user_id && row.password_hash ? { id: row.user_id, password_hash: row.password_hash } : null };
  }

  /** The caller, a member whose role (as it is now) may manage the team. */
  private async actor(em: EntityManager, auth: AuthContext): Promise<{ role: Role; name: string }> {
    assertPerson(auth);
    const [actor]: Array<{ role: Role; name: string }> = await em.execute(
      'select m.role, u.name from membership m join app_user u on u.id = m.user_id where m.user_id = ? and m.merchant_id = ?',
      [auth.actorId, auth.merchantId],
    );
    if (!actor) throw AppError.forbidden('You are no longer a member of this merchant');
    assertPermitted({ role: actor.role, kind: 'user', enrolmentOnly: auth.enrolmentOnly }, 'team:manage');
    return actor;
  }

  /** The email, sent before the transaction commits: a send that fails undoes the invitation (or the resend), and says so. */
  private async send(em: EntityManager, merchantId: string, inviterName: string, row: InvitationRow, token: string): Promise<void> {
    const [merchant]: Array<{ name: string }> = await em.execute('select name from merchant where id = ?', [merchantId]);
    const link = `${this.deps.publicAddress.url}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`;
    try {
      await this.deps.mailer.send({ to: row.email, ...invitationMail({ inviterName, merchantName: merchant?.name ?? 'a merchant', role: row.role, link }) });
    } catch (err) {
      if (!(err instanceof MailNotSentError)) throw err;
      if (err.code === 'INVALID_RECIPIENT') throw AppError.invalidField('email', 'cannot receive mail: use a plain address (name@example.com)');
      throw new AppError('PROVIDER_UNAVAILABLE', 'The invitation email could not be sent, so nothing was saved: try again shortly');
    }
  }

  private async audited(
    em: EntityManager,
    auth: AuthContext,
    origin: RequestOrigin | undefined,
    action: 'invitation.created' | 'invitation.resent' | 'invitation.revoked',
    row: InvitationRow,
  ) {
    await this.deps.audit.recordOn(em, {
      merchantId: auth.merchantId,
      actor: actorOf(auth),
      action,
      target: { type: 'invitation', id: row.id },
      origin,
      after: { email: row.email, role: row.role, expires_at: row.expires_at.toISOString() },
    });
  }
}
