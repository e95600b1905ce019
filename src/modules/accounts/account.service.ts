import { z } from 'zod';
import { uniqueViolation, type Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { countryCodeField, emailAddressField, optionalText, requiredText, upperCased } from '../../shared/fields';
import type { Logger } from '../../shared/logger';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput, type Command } from '../../shared/validation';
import { permissionsOf, type Role } from '../access/permissions';
import { actorOf, type AuditLog, type RequestOrigin } from '../audit/audit-log';
import type { AuthContext } from '../auth/access-tokens';
import type { Mailer } from '../mail/mailer';
import type { MerchantCredentials, MerchantService } from '../merchants/merchant.service';
import { verifyEmail } from '../mail/templates';
import { signUpAttemptMessage } from './account-mail';
import { inTransaction } from './in-transaction';
import { hashPassword, passwordProblem } from './passwords';
import type { SessionGrant, SessionService } from './sessions.service';
import { CLAIM_USER_TOKEN, INSERT_USER_TOKEN, newUserToken, userTokenHash, userTokenRow } from './user-tokens';

export const signUpSchema = z.object({
  email: emailAddressField,
  password: z.string({ error: 'is required' }).max(256, 'must be at most 256 characters'),
  name: optionalText(200),
  businessName: requiredText(200),
  country: upperCased(countryCodeField),
});
export type SignUpCommand = Command<typeof signUpSchema>;

/** A person as they see themselves. */
export interface AccountUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
}

export interface Membership {
  merchantId: string;
  merchantName: string;
  role: Role;
}

/** Who the caller is: a person's session (with their memberships) or an API key. */
export interface Me {
  kind: 'user' | 'api_key';
  role: Role;
  permissions: string[];
  merchantId: string;
  merchantName: string;
  /** The session may only enrol in 2FA until the person does. */
  enrolmentOnly: boolean;
  user: AccountUser | null;
  memberships: Membership[];
}

export interface SignUpResult {
  credentials: MerchantCredentials;
  user: AccountUser;
  session: SessionGrant;
}

export interface AccountServiceDeps {
  sql: Sql;
  clock: Clock;
  merchants: MerchantService;
  sessions: SessionService;
  audit: AuditLog;
  mailer: Mailer;
  publicAddress: PublicAddress;
  logger: Logger;
  /** SIGNUP_ENABLED (default: on in the sandbox, off in production). */
  signupEnabled: boolean;
}

/** A session's person, or 403 for an API key (the operations on one's own account are a person's). */
export function personOf(auth: AuthContext): string {
  if (auth.kind !== 'user') throw AppError.forbidden('Only a person signed in to the dashboard has an account: an API key has none');
  return auth.actorId;
}

/**
 * People's accounts: sign-up (a sandbox merchant, its owner, its first API key), email verification,
 * who the caller is, their sessions. Sign-in is SignInService's; passwords PasswordService's.
 */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  /**
   * A new merchant (sandbox), its owner and its first API key, and a session for the owner. An email
   * that already has an account is answered 409, the same whatever its password, and its owner is
   * emailed (the credentials of a new merchant cannot be answered without making one, so sign-up
   * cannot answer a taken email as a success would; it is rate limited by address like sign-in).
   */
  async signUp(command: SignUpCommand, origin: RequestOrigin): Promise<SignUpResult> {
    if (!this.deps.signupEnabled) throw AppError.forbidden('Sign-up is off on this service: ask an owner of your company’s account to invite you');
    const body = parseInput(signUpSchema, command);
    const problem = passwordProblem(body.password, body.email);
    if (problem) throw AppError.invalidField('password', problem);
    const now = this.deps.clock.now();
    const userId = timeOrderedUuid();
    const name = body.name ?? body.email.split('@')[0]!;
    const passwordHash = await hashPassword(body.password);
    try {
      await this.deps.sql.query(
        `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
         values ($1, $2, $3, $4, null, $5, $5, $5)`,
        [userId, body.email, name, passwordHash, now],
      );
    } catch (err) {
      if (uniqueViolation(err) !== 'app_user_email_unique') throw err;
      this.sendLater(signUpAttemptMessage(body.email, `${this.deps.publicAddress.url}/dashboard/`));
      throw AppError.duplicateField('email', 'cannot be used to sign up: if it is yours, sign in (or reset your password); we have emailed it');
    }
    let credentials: MerchantCredentials;
    let verification: string;
    try {
      credentials = await this.deps.merchants.createMerchant({ name: body.businessName, createdBy: body.email });
      const merchantId = credentials.merchant.id;
      const link = newUserToken('verify_email', now);
      verification = link.token;
      await inTransaction(this.deps.sql, async (query) => {
        await query('insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)', [
          timeOrderedUuid(),
          userId,
          merchantId,
          'owner',
          now,
        ]);
        await query('update merchant set country = $2 where id = $1', [merchantId, body.country]);
        await query(INSERT_USER_TOKEN, userTokenRow(userId, 'verify_email', link));
        const entry = this.deps.audit.statement({
          merchantId,
          actor: { type: 'user', id: userId, label: body.email, role: 'owner' },
          action: 'user.signed_up',
          target: { type: 'merchant', id: merchantId },
          origin,
          after: { email: body.email, name, business_name: body.businessName, country: body.country },
        });
        await query(entry.text, entry.values);
      });
    } catch (err) {
      // No account without its merchant: the email may be used again (a merchant made before the failure stays, ownerless, in the sandbox).
      await this.deps.sql.query('delete from app_user where id = $1', [userId]).catch(() => undefined);
      throw err;
    }
    const session = await this.deps.sessions.start(userId, credentials.merchant.id, origin, false);
    this.sendLater({ to: body.email, ...verifyEmail({ name, link: this.verificationLink(verification) }) });
    this.deps.logger.info({ merchantId: credentials.merchant.id, userId }, 'signed up');
    return { credentials, session, user: { id: userId, email: body.email, name, emailVerified: false, twoFactorEnabled: false } };
  }

  /** Opens an emailed verification link: single use, 24 h. */
  async verifyEmail(token: string, origin: RequestOrigin): Promise<AccountUser> {
    const typed = parseInput(z.object({ token: z.string({ error: 'is required' }).min(1, 'is required').max(200, 'is invalid') }), { token }).token;
    const now = this.deps.clock.now();
    const [row] = await this.deps.sql.query<{ id: string; email: string; merchant_id: string | null }>(
      `with claimed as (${CLAIM_USER_TOKEN}),
            verified as (update app_user u set email_verified_at = coalesce(u.email_verified_at, $3), updated_at = $3
                           from claimed where u.id = claimed.user_id returning u.id, u.email)
       select v.id, v.email, (select merchant_id from membership where user_id = v.id order by created_at, id limit 1) as merchant_id from verified v`,
      [userTokenHash(typed), 'verify_email', now],
    );
    if (!row) throw AppError.invalidField('token', 'is invalid, already used or expired: ask for a new link');
    await this.deps.audit.record({
      merchantId: row.merchant_id,
      actor: { type: 'user', id: row.id, label: row.email },
      action: 'user.email_verified',
      target: { type: 'user', id: row.id },
      origin,
    });
    return this.userOf(row.id);
  }

  /** Emails a new verification link (the earlier ones stop working); nothing when the email is verified already. Answers whether one was sent. */
  async resendVerification(auth: AuthContext): Promise<boolean> {
    const userId = personOf(auth);
    const user = await this.userOf(userId);
    if (user.emailVerified) return false;
    const link = newUserToken('verify_email', this.deps.clock.now());
    await inTransaction(this.deps.sql, async (query) => {
      await query(`update user_token set used_at = $2 where user_id = $1 and purpose = 'verify_email' and used_at is null`, [userId, this.deps.clock.now()]);
      await query(INSERT_USER_TOKEN, userTokenRow(userId, 'verify_email', link));
    });
    this.sendLater({ to: user.email, ...verifyEmail({ name: user.name, link: this.verificationLink(link.token) }) });
    return true;
  }

  /** Who the caller is: role, permissions, merchant; for a person, their account and memberships. */
  async me(auth: AuthContext): Promise<Me> {
    const [merchant] = await this.deps.sql.query<{ name: string }>('select name from merchant where id = $1', [auth.merchantId]);
    const user = auth.kind === 'user' ? await this.userOf(auth.actorId) : null;
    const memberships =
      auth.kind === 'user'
        ? await this.deps.sql.query<{ merchant_id: string; merchant_name: string; role: Role }>(
            `select ms.merchant_id, mc.name as merchant_name, ms.role from membership ms join merchant mc on mc.id = ms.merchant_id
              where ms.user_id = $1 and mc.disabled_at is null order by ms.created_at, ms.id`,
            [auth.actorId],
          )
        : [];
    return {
      kind: auth.kind,
      role: auth.role,
      permissions: [...permissionsOf(auth)],
      merchantId: auth.merchantId,
      merchantName: merchant?.name ?? '',
      enrolmentOnly: auth.enrolmentOnly === true,
      user,
      memberships: memberships.map((m) => ({ merchantId: m.merchant_id, merchantName: m.merchant_name, role: m.role })),
    };
  }

  /** The caller's sessions (a person's), the current one marked. */
  async mySessions(auth: AuthContext) {
    const sessions = await this.deps.sessions.list(personOf(auth));
    return sessions.map((s) => ({ ...s, current: s.id === auth.familyId }));
  }

  /** Ends one of the caller's sessions (404 when it is not theirs or already ended). */
  async endSession(auth: AuthContext, sessionId: string, origin: RequestOrigin): Promise<boolean> {
    const userId = personOf(auth);
    const id = parseInput(z.object({ id: z.uuid('must be a uuid') }), { id: sessionId }).id;
    if (!(await this.deps.sessions.end(userId, id, 'ended_by_user'))) throw AppError.notFound('Session');
    await this.recordSessionsEnded(auth, origin, 1, id);
    return true;
  }

  /** Ends every session of the caller but this one; answers how many. */
  async endOtherSessions(auth: AuthContext, origin: RequestOrigin): Promise<number> {
    const ended = await this.deps.sessions.endAll(personOf(auth), 'ended_by_user', auth.familyId);
    await this.recordSessionsEnded(auth, origin, ended, null);
    return ended;
  }

  private async userOf(userId: string): Promise<AccountUser> {
    const [row] = await this.deps.sql.query<{ id: string; email: string; name: string; verified: boolean; two_factor: boolean }>(
      'select id, email, name, email_verified_at is not null as verified, totp_enabled_at is not null as two_factor from app_user where id = $1',
      [userId],
      'accounts_user_by_id',
    );
    if (!row) throw AppError.invalidToken();
    return { id: row.id, email: row.email, name: row.name, emailVerified: row.verified, twoFactorEnabled: row.two_factor };
  }

  private recordSessionsEnded(auth: AuthContext, origin: RequestOrigin, count: number, sessionId: string | null): Promise<void> {
    return this.deps.audit.record({
      merchantId: auth.merchantId,
      actor: actorOf(auth),
      action: 'user.sessions_ended',
      target: sessionId ? { type: 'session', id: sessionId } : { type: 'user', id: auth.actorId },
      origin,
      after: { sessions_ended: count, kept: auth.familyId },
    });
  }

  private verificationLink(token: string): string {
    return `${this.deps.publicAddress.url}/dashboard/verify-email?token=${encodeURIComponent(token)}`;
  }

  /** Mail goes out after the answer: its time (an SMTP server's) never shows in the answer's. A failure is logged; the person can ask again. */
  private sendLater(message: Parameters<Mailer['send']>[0]): void {
    void this.deps.mailer.send(message).catch((err: unknown) => {
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err), subject: message.subject }, 'an account email could not be sent');
    });
  }
}
