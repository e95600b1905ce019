import { z } from 'zod';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput, type Command } from '../../shared/validation';
import { actorOf, type AuditLog, type RequestOrigin } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import type { Mailer } from '../mail/mailer';
import { resetPassword } from '../mail/templates';
import { personOf } from './account.service';
import { inTransaction } from './in-transaction';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import type { SessionService } from './sessions.service';
import { CLAIM_USER_TOKEN, INSERT_USER_TOKEN, newUserToken, userTokenHash, userTokenRow } from './user-tokens';

const emailField = z.string({ error: 'is required' }).trim().min(1, 'is required').max(254, 'must be at most 254 characters');
const passwordField = z.string({ error: 'is required' }).max(256, 'must be at most 256 characters');
const tokenField = z.string({ error: 'is required' }).min(1, 'is required').max(200, 'is invalid');

export const resetPasswordSchema = z.object({ token: tokenField, password: passwordField });
export type ResetPasswordCommand = Command<typeof resetPasswordSchema>;

const changePasswordSchema = z.object({ currentPassword: passwordField, newPassword: passwordField });
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

  /**
   * Emails a reset link when the email has an account; nothing otherwise. The caller answers the same
   * either way, in the same time: the answer waits for one read, the same for both; a known email's
   * link is written and mailed after it (a write's commit would otherwise show in the answer's time).
   */
  async forgotPassword(email: string): Promise<void> {
    const typed = parseInput(z.object({ email: emailField }), { email }).email;
    const [user] = await this.deps.sql.query<{ id: string; email: string; name: string }>(
      'select id, email, name from app_user where lower(email) = lower($1)',
      [typed],
      'accounts_forgot_password',
    );
    // After the answer has left: a link written at once would send its statement ahead of the answer (the pool hands
    // out its connection on a tick), which a caller could time.
    if (user) setImmediate(() => void this.sendResetLink(user));
  }

  /** Writes a reset link and mails it; a failure is logged (the person can ask again). */
  private async sendResetLink(user: { id: string; email: string; name: string }): Promise<void> {
    try {
      const link = newUserToken('reset_password', this.deps.clock.now());
      await this.deps.sql.query(INSERT_USER_TOKEN, userTokenRow(user.id, 'reset_password', link));
      const resetLink = `${this.deps.publicAddress.url}/dashboard/reset-password?token=${encodeURIComponent(link.token)}`;
      await this.deps.mailer.send({ to: user.email, ...resetPassword({ name: user.name, link: resetLink }) });
    } catch (err) {
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err), userId: user.id }, 'a password reset link could not be sent');
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
}
