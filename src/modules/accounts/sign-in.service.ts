import { z } from 'zod';
import type { PaymentsEnv } from '../../config';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { parseInput, type Command } from '../../shared/validation';
import type { Role } from '../access/permissions';
import type { AuditLog, RequestOrigin } from '../audit/audit-log';
import { verifyPassword } from './passwords';
import { looksLikeRecoveryCode, recoveryCodeHash } from './recovery-codes';
import type { SessionGrant, SessionService } from './sessions.service';
import { matchTotp } from './totp';

export const signInSchema = z.object({
  email: z.string({ error: 'is required' }).trim().min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: z.string({ error: 'is required' }).min(1, 'is required').max(256, 'must be at most 256 characters'),
  /** A TOTP code, or one of the recovery codes. */
  totpCode: z.string({ error: 'must be a string' }).trim().max(32, 'must be at most 32 characters').optional(),
  /** Which of the person's merchants to sign in at; none: the first they joined. */
  merchantId: z.uuid('must be a uuid').optional(),
});
export type SignInCommand = Command<typeof signInSchema>;

/** What sign-in reads of a person, in one statement whether or not the email is known. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | null;
  memberships: Array<{ merchant_id: string; role: Role }>;
}

const USER_BY_EMAIL = `
  select u.id, u.email, u.password_hash, u.email_verified_at, u.totp_secret_sealed, u.totp_enabled_at, u.totp_last_step,
         coalesce((select json_agg(json_build_object('merchant_id', m.merchant_id, 'role', m.role) order by m.created_at, m.id)
                     from membership m where m.user_id = u.id), '[]') as memberships
    from app_user u where lower(u.email) = lower($1)`;

/** The one answer to a wrong email or a wrong password: which of them was wrong is not said. */
const wrongCredentials = () => new AppError('INVALID_CLIENT', 'Wrong email or password');

export interface SignInServiceDeps {
  sql: Sql;
  clock: Clock;
  secretBox: SecretBox;
  audit: AuditLog;
  sessions: SessionService;
  environment: PaymentsEnv;
}

/**
 * Sign-in with email and password (and a second factor when the person has one), and switching to
 * another of the person's merchants. A known and an unknown email cost the same: one read (the same
 * statement), one argon2 verification (of a decoy hash when the email is unknown), one audit entry,
 * and the same answer. What follows a correct password (an unverified email in production, a second
 * factor) is said plainly: only the password's holder can see it.
 */
export class SignInService {
  constructor(private readonly deps: SignInServiceDeps) {}

  async signIn(command: SignInCommand, origin: RequestOrigin): Promise<SessionGrant> {
    const body = parseInput(signInSchema, command);
    const [user] = await this.deps.sql.query<UserRow>(USER_BY_EMAIL, [body.email], 'accounts_user_by_email');
    const passwordOk = await verifyPassword(body.password, user?.password_hash);
    const membership = user && (user.memberships.find((m) => m.merchant_id === body.merchantId) ?? (body.merchantId ? undefined : user.memberships[0]));
    const failed = async (reason: string, error: AppError): Promise<never> => {
      await this.deps.audit.record({
        merchantId: membership?.merchant_id ?? user?.memberships[0]?.merchant_id ?? null,
        actor: { type: 'user', id: user?.id ?? null, label: body.email.toLowerCase(), role: membership?.role ?? null },
        action: 'user.sign_in_failed',
        origin,
        after: { reason },
      });
      throw error;
    };
    if (!user || !passwordOk) return failed('wrong_email_or_password', wrongCredentials());
    if (this.deps.environment === 'production' && !user.email_verified_at) {
      return failed('email_unverified', new AppError('INVALID_CLIENT', 'Verify your email address before signing in: open the link we emailed you'));
    }
    if (!membership) {
      return failed(
        'not_a_member',
        body.merchantId ? AppError.forbidden('You are not a member of this merchant') : AppError.forbidden('You are not a member of any merchant'),
      );
    }
    if (user.totp_enabled_at) {
      if (!body.totpCode) {
        // The second step's prompt, not a failure: no audit entry (a wrong code writes one).
        throw new AppError('INVALID_CLIENT', 'A two-factor code is required: enter the code from your authenticator app, or a recovery code', [
          { field: 'totpCode', issue: 'is required' },
        ]);
      }
      if (!(await this.secondFactorMatches(user, body.totpCode))) {
        return failed(
          'second_factor',
          new AppError('INVALID_CLIENT', 'The two-factor code is wrong or was already used', [{ field: 'totpCode', issue: 'is incorrect' }]),
        );
      }
    }
    const grant = await this.deps.sessions.start(user.id, membership.merchant_id, origin, user.totp_enabled_at !== null);
    await this.deps.audit.record({
      merchantId: grant.merchantId,
      actor: { type: 'user', id: user.id, label: user.email, role: grant.role },
      action: 'user.sign_in_succeeded',
      target: { type: 'session', id: grant.familyId },
      origin,
      after: grant.enrolmentOnly ? { enrolment_only: true } : null,
    });
    return grant;
  }

  /**
   * The session of a dashboard cookie moved to another of the person's merchants: a new session there
   * (its role, its 2FA rule), and the old one ended. Refused (401) when the cookie's session cannot refresh any more.
   */
  async switchMerchant(refreshToken: string, merchantId: string, origin: RequestOrigin): Promise<SessionGrant> {
    const target = parseInput(z.object({ merchantId: z.uuid('must be a uuid') }), { merchantId }).merchantId;
    const session = await this.deps.sessions.ofRefreshToken(refreshToken);
    if (!session) throw AppError.invalidToken('No dashboard session: sign in');
    const [user] = await this.deps.sql.query<{ email: string; two_factor: boolean }>(
      'select email, totp_enabled_at is not null as two_factor from app_user where id = $1',
      [session.userId],
      'accounts_user_two_factor',
    );
    const grant = await this.deps.sessions.start(session.userId, target, origin, user?.two_factor === true);
    await this.deps.sessions.end(session.userId, session.familyId, 'switched_merchant');
    // A sign-in at the other merchant, recorded there (its log is the one its owners read).
    await this.deps.audit.record({
      merchantId: grant.merchantId,
      actor: { type: 'user', id: session.userId, label: user?.email ?? null, role: grant.role },
      action: 'user.sign_in_succeeded',
      target: { type: 'session', id: grant.familyId },
      origin,
      after: { switched_from: session.merchantId, ...(grant.enrolmentOnly ? { enrolment_only: true } : {}) },
    });
    return grant;
  }

  /**
   * A TOTP code of a step after the last one used (matched and recorded in one statement, so two
   * requests with one code cannot both pass), or an unused recovery code (used up by the same statement).
   */
  private async secondFactorMatches(user: UserRow, code: string): Promise<boolean> {
    const now = this.deps.clock.now();
    if (looksLikeRecoveryCode(code)) {
      const used = await this.deps.sql.query(
        'update recovery_code set used_at = $3 where id = (select id from recovery_code where user_id = $1 and code_hash = $2 and used_at is null limit 1) and used_at is null returning id',
        [user.id, recoveryCodeHash(code), now],
        'accounts_recovery_code_use',
      );
      return used.length === 1;
    }
    if (!user.totp_secret_sealed) return false;
    const lastStep = user.totp_last_step === null ? null : Number(user.totp_last_step);
    const step = matchTotp(this.deps.secretBox.open(user.totp_secret_sealed), code, now, lastStep);
    if (step === undefined) return false;
    const claimed = await this.deps.sql.query(
      'update app_user set totp_last_step = $2 where id = $1 and (totp_last_step is null or totp_last_step < $2) returning id',
      [user.id, step],
      'accounts_totp_step',
    );
    return claimed.length === 1;
  }
}
