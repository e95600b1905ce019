import { z } from 'zod';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput, type Command } from '../../shared/validation';
import { actorOf, type AuditLog, type RequestOrigin } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import type { Mailer, MailMessage } from '../mail/mailer';
import { resetPassword } from '../mail/templates';
import { personOf } from './account.service';
import { inTransaction } from './in-transaction';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import type { SessionService } from './sessions.service';
import { CLAIM_USER_TOKEN, newUserToken, userTokenHash } from './user-tokens';

const emailField = z.string({ error: 'is required' }).trim().min(1, 'is required').max(254, 'must be at most 254 characters');
const passwordField = z.string({ error: 'is required' }).max(256, 'must be at most 256 characters');
const tokenField = z.string({ error: 'is required' }).min(1, 'is required').max(200, 'is invalid');

export const resetPasswordSchema = z.object({ token: tokenField, password: passwordField });
export type ResetPasswordCommand = Command<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({ currentPassword: passwordField, newPassword: passwordField });
export type ChangePasswordCommand = Command<typeof changePasswordSchema>;

export interface PasswordServiceDeps {
  sql: Sql;
  clock: Clock;
  sessions: SessionService;
  audit: AuditLog;
  mailer: Mailer;
  publicAddress: PublicAddress;
  logger: Logger;
}

const INVALID_LINK = 'is invalid, already used or expired: ask for a new link';

/**
 * A person's password: changed (knowing the current one; their other sessions end) or reset by an
 * emailed link (single use, 1 hour; every session ends). Asking for a link answers the same, in the
 * same time, whether or not the email has an account: one statement either way, the mail sent after.
 */
export class PasswordService {
  constructor(private readonly deps: PasswordServiceDeps) {}

  /** Emails a reset link when the email has an account; nothing otherwise. The caller answers the same either way. */
  async forgotPassword(email: string): Promise<void> {
    const typed = parseInput(z.object({ email: emailField }), { email }).email;
    const now = this.deps.clock.now();
    // The link's row is written for a known email by the same statement that finds none for an unknown one.
    const link = newUserToken('reset_password', now);
    const [row] = await this.deps.sql.query<{ email: string; name: string }>(
      `with u as (select id, email, name from app_user where lower(email) = lower($1)),
            t as (insert into user_token (id, user_id, purpose, token_hash, created_at, expires_at, used_at)
                  select $2, u.id, 'reset_password', $3, $4, $5, null from u returning user_id)
       select u.email, u.name from u join t on t.user_id = u.id`,
      [typed, link.id, link.tokenHash, link.createdAt, link.expiresAt],
      'accounts_forgot_password',
    );
    if (row) {
      const resetLink = `${this.deps.publicAddress.url}/dashboard/reset-password?token=${encodeURIComponent(link.token)}`;
      this.sendLater({ to: row.email, ...resetPassword({ name: row.name, link: resetLink }) });
    }
  }

  /** Sets a new password from an emailed link: single use, 1 hour; the email counts as verified; every session of the person ends. */
  async resetPassword(command: ResetPasswordCommand, origin: RequestOrigin): Promise<void> {
    const body = parseInput(resetPasswordSchema, command);
    const now = this.deps.clock.now();
    const tokenHash = userTokenHash(body.token);
    // Read first, so that a password refused by the rules does not use the link up.
    const [found] = await this.deps.sql.query<{ user_id: string; email: string }>(
      `select t.user_id, u.email from user_token t join app_user u on u.id = t.user_id
        where t.token_hash = $1 and t.purpose = 'reset_password' and t.used_at is null and t.expires_at > $2`,
      [tokenHash, now],
    );
    if (!found) throw AppError.invalidField('token', INVALID_LINK);
    const problem = passwordProblem(body.password, found.email);
    if (problem) throw AppError.invalidField('password', problem);
    const passwordHash = await hashPassword(body.password);
    await inTransaction(this.deps.sql, async (query) => {
      const claimed = await query<{ user_id: string }>(CLAIM_USER_TOKEN, [tokenHash, 'reset_password', now]);
      if (claimed.length === 0) throw AppError.invalidField('token', INVALID_LINK);
      await query(
        `update app_user set password_hash = $2, password_changed_at = $3, email_verified_at = coalesce(email_verified_at, $3), updated_at = $3 where id = $1`,
        [found.user_id, passwordHash, now],
      );
      // Any other reset link of the person's stops working too.
      await query(`update user_token set used_at = $2 where user_id = $1 and purpose = 'reset_password' and used_at is null`, [found.user_id, now]);
      const [first] = await query<{ merchant_id: string }>('select merchant_id from membership where user_id = $1 order by created_at, id limit 1', [
        found.user_id,
      ]);
      const entry = this.deps.audit.statement({
        merchantId: first?.merchant_id ?? null,
        actor: { type: 'user', id: found.user_id, label: found.email },
        action: 'user.password_reset',
        target: { type: 'user', id: found.user_id },
        origin,
      });
      await query(entry.text, entry.values);
    });
    await this.deps.sessions.endAll(found.user_id, 'password_reset');
  }

  /** A new password for the signed-in person, who knows the current one; their other sessions end (this one stays). */
  async changePassword(auth: AuthContext, command: ChangePasswordCommand, origin: RequestOrigin): Promise<void> {
    const userId = personOf(auth);
    const body = parseInput(changePasswordSchema, command);
    const [user] = await this.deps.sql.query<{ email: string; password_hash: string }>('select email, password_hash from app_user where id = $1', [userId]);
    if (!user) throw AppError.invalidToken();
    if (!(await verifyPassword(body.currentPassword, user.password_hash))) throw AppError.invalidField('currentPassword', 'is incorrect');
    const problem = passwordProblem(body.newPassword, user.email);
    if (problem) throw AppError.invalidField('newPassword', problem);
    const passwordHash = await hashPassword(body.newPassword);
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (query) => {
      await query('update app_user set password_hash = $2, password_changed_at = $3, updated_at = $3 where id = $1', [userId, passwordHash, now]);
      await query(`update user_token set used_at = $2 where user_id = $1 and purpose = 'reset_password' and used_at is null`, [userId, now]);
      const entry = this.deps.audit.statement({
        merchantId: auth.merchantId,
        actor: { ...actorOf(auth), label: user.email },
        action: 'user.password_changed',
        target: { type: 'user', id: userId },
        origin,
      });
      await query(entry.text, entry.values);
    });
    await this.deps.sessions.endAll(userId, 'password_changed', auth.familyId);
  }

  private sendLater(message: MailMessage): void {
    void this.deps.mailer.send(message).catch((err: unknown) => {
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err), subject: message.subject }, 'an account email could not be sent');
    });
  }
}
