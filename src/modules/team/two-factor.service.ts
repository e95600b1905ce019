import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import { timeOrderedUuid, type SecretBox } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { parseInput } from '../../shared/validation';
import { isRole } from '../access/permissions';
import { verifyPassword } from '../accounts/passwords';
import { looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeHash } from '../accounts/recovery-codes';
import { matchTotp, newTotpSecret, totpEnrolment } from '../accounts/totp';
import { actorOf, type AuditLog } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import { assertPerson, twoFactorRequiredFor, type Acting } from './team.rules';

/** What the enrolment screen shows: the secret for manual entry, its otpauth:// URI and that URI's QR code (SVG). */
export interface TwoFactorEnrolment {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

/** What the second factor is read against: the person's row, locked. */
interface SecondFactorRow {
  email: string;
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | null;
}

const codeSchema = z.string({ error: 'is required' }).trim().min(1, 'is required').max(32, 'must be at most 32 characters');

export interface TwoFactorServiceDeps {
  orm: Orm;
  clock: Clock;
  secretBox: SecretBox;
  audit: AuditLog;
  /** Production requires 2FA of every role that can move money or manage keys or the team. */
  production: boolean;
}

/**
 * A person's TOTP second factor (RFC 6238, accounts/totp.ts): enrolment (a new secret, sealed, not
 * on until a code from it is confirmed), ten single-use recovery codes answered once at
 * confirmation (stored hashed), and removal (their password and a current code, and only where no
 * merchant of theirs requires it). A code is never accepted twice: the step it matched is kept.
 *
 * Confirming revokes nothing: a session that could only enrol (its token's `enrolmentOnly`) becomes
 * a full one at its next refresh, which reads the person afresh; the dashboard refreshes right away.
 */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorServiceDeps) {}

  /** A new secret, replacing one begun but not confirmed; refused while 2FA is on (disable it first). */
  async begin({ auth }: Acting): Promise<TwoFactorEnrolment> {
    assertPerson(auth);
    const secret = newTotpSecret();
    const rows: Array<{ email: string }> = await this.deps.orm.em
      .fork()
      .execute('update app_user set totp_secret_sealed = ?, totp_last_step = null, updated_at = ? where id = ? and totp_enabled_at is null returning email', [
        this.deps.secretBox.seal(secret),
        this.deps.clock.now(),
        auth.actorId,
      ]);
    if (!rows[0]) await this.refuseBegin(auth);
    return { secret, ...(await totpEnrolment(secret, rows[0]!.email)) };
  }

  /** Turns 2FA on with a code from the secret just begun; answers the ten recovery codes, this once. */
  async confirm({ auth, origin }: Acting, code: string): Promise<string[]> {
    assertPerson(auth);
    const typed = parseInput(z.object({ code: codeSchema }), { code }).code;
    const codes = newRecoveryCodes();
    await this.deps.orm.em.fork().transactional(async (em) => {
      const user = await this.lockUser(em, auth.actorId);
      if (user.totp_enabled_at) throw new AppError('INVALID_STATE', 'Two-factor authentication is already on');
      if (!user.totp_secret_sealed) throw new AppError('INVALID_STATE', 'Begin the enrolment first (beginTwoFactorEnrolment)');
      const now = this.deps.clock.now();
      const step = matchTotp(this.deps.secretBox.open(user.totp_secret_sealed), typed.replace(/\s/g, ''), now, lastStepOf(user));
      if (step === undefined) throw AppError.invalidField('code', 'is not the current code of your authenticator app');
      await em.execute('update app_user set totp_enabled_at = ?, totp_last_step = ?, updated_at = ? where id = ?', [now, step, now, auth.actorId]);
      await em.execute('delete from recovery_code where user_id = ?', [auth.actorId]);
      const values = codes.map(() => '(?, ?, ?, null)').join(', ');
      await em.execute(
        `insert into recovery_code (id, user_id, code_hash, used_at) values ${values}`,
        codes.flatMap((c) => [timeOrderedUuid(), auth.actorId, recoveryCodeHash(c)]),
      );
      await this.deps.audit.recordOn(em, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'user.two_factor_enrolled',
        target: { type: 'user', id: auth.actorId },
        origin,
        after: { email: user.email, recovery_code_count: codes.length },
      });
    });
    return codes;
  }

  /** Turns 2FA off: the password and a current code (or a recovery code); refused where a merchant of theirs or production requires it. */
  async disable({ auth, origin }: Acting, password: string, code: string): Promise<void> {
    assertPerson(auth);
    const input = parseInput(z.object({ password: z.string({ error: 'is required' }).min(1, 'is required').max(256), code: codeSchema }), { password, code });
    const em = this.deps.orm.em.fork();
    const [stored]: Array<{ password_hash: string }> = await em.execute('select password_hash from app_user where id = ?', [auth.actorId]);
    if (!(await verifyPassword(input.password, stored?.password_hash))) throw AppError.invalidField('password', 'is incorrect');
    await em.transactional(async (tx) => {
      const user = await this.lockUser(tx, auth.actorId);
      // Read with the person's row locked: a merchant requiring 2FA meanwhile (TeamService.setTwoFactorRequired
      // holds that row FOR SHARE) has committed, and is seen here.
      const required = await this.requiringMerchants(tx, auth.actorId);
      if (required.length > 0) throw AppError.forbidden(`Two-factor authentication is required at ${required.join(', ')}: it cannot be turned off`);
      if (!user.totp_enabled_at) throw new AppError('INVALID_STATE', 'Two-factor authentication is not on');
      if (!(await this.consume(tx, auth.actorId, user, input.code))) throw AppError.invalidField('code', 'is not a current code or an unused recovery code');
      await tx.execute('update app_user set totp_secret_sealed = null, totp_enabled_at = null, totp_last_step = null, updated_at = ? where id = ?', [
        this.deps.clock.now(),
        auth.actorId,
      ]);
      await tx.execute('delete from recovery_code where user_id = ?', [auth.actorId]);
      await this.deps.audit.recordOn(tx, {
        merchantId: auth.merchantId,
        actor: actorOf(auth),
        action: 'user.two_factor_removed',
        target: { type: 'user', id: auth.actorId },
        origin,
        before: { email: user.email },
      });
    });
  }

  /**
   * Sign-in's second factor: a TOTP code (of a step later than the last one used) or an unused
   * recovery code, consumed either way. False when it matches neither, or the person has no 2FA.
   */
  async verifySecondFactor(userId: string, code: string): Promise<boolean> {
    return this.deps.orm.em.fork().transactional(async (em) => {
      const user = await this.lockUser(em, userId);
      return user.totp_enabled_at !== null && this.consume(em, userId, user, code.trim());
    });
  }

  private async consume(em: EntityManager, userId: string, user: SecondFactorRow, code: string): Promise<boolean> {
    if (looksLikeRecoveryCode(code)) {
      const used: unknown[] = await em.execute('update recovery_code set used_at = ? where user_id = ? and code_hash = ? and used_at is null returning id', [
        this.deps.clock.now(),
        userId,
        recoveryCodeHash(code),
      ]);
      return used.length === 1;
    }
    if (!user.totp_secret_sealed) return false;
    const step = matchTotp(this.deps.secretBox.open(user.totp_secret_sealed), code.replace(/\s/g, ''), this.deps.clock.now(), lastStepOf(user));
    if (step === undefined) return false;
    await em.execute('update app_user set totp_last_step = ? where id = ?', [step, userId]);
    return true;
  }

  private async lockUser(em: EntityManager, userId: string): Promise<SecondFactorRow> {
    const [user]: SecondFactorRow[] = await em.execute(
      'select email, password_hash, totp_secret_sealed, totp_enabled_at, totp_last_step from app_user where id = ? for update',
      [userId],
    );
    if (!user) throw AppError.forbidden('Only a person signed in to the dashboard can do this');
    return user;
  }

  /** The names of the person's merchants that require their 2FA (the merchant's choice, or production for their role). */
  private async requiringMerchants(em: EntityManager, userId: string): Promise<string[]> {
    const rows: Array<{ name: string; role: string; require_two_factor: boolean }> = await em.execute(
      'select mc.name, m.role, mc.require_two_factor from membership m join merchant mc on mc.id = m.merchant_id where m.user_id = ?',
      [userId],
    );
    return rows.filter((r) => isRole(r.role) && twoFactorRequiredFor(this.deps.production, r.role, r.require_two_factor)).map((r) => r.name);
  }

  private async refuseBegin(auth: AuthContext): Promise<never> {
    const [user]: unknown[] = await this.deps.orm.em.fork().execute('select 1 from app_user where id = ?', [auth.actorId]);
    if (!user) throw AppError.forbidden('Only a person signed in to the dashboard can do this');
    throw new AppError('INVALID_STATE', 'Two-factor authentication is already on: turn it off before enrolling again');
  }
}

const lastStepOf = (user: SecondFactorRow) => (user.totp_last_step === null ? null : Number(user.totp_last_step));
