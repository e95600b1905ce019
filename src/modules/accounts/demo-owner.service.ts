import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { randomToken, timeOrderedUuid } from '../../shared/crypto';
import type { AuditLog } from '../audit/audit-log';
import { inTransaction } from './in-transaction';
import { hashPassword } from './passwords';
import type { SessionService } from './sessions.service';

/** The sandbox demo merchant's owner: the password exists only in the answer that made or reset it. */
export interface DemoOwner {
  email: string;
  password: string;
}

const DEMO_OWNER_EMAIL = 'owner@demo.example';

/** A random password an operator is shown once (16 base64url characters after the prefix: 96 bits). */
const newDemoPassword = () => randomToken('demo', 12);

/**
 * The sandbox's demo merchant's owner (owner@demo.example): made at the first start with a random
 * password printed in the start-up banner; its email shown again, and its password replaced, by
 * `npm run demo:credentials`.
 */
export class DemoOwnerService {
  constructor(private readonly deps: { sql: Sql; clock: Clock; sessions: SessionService; audit: AuditLog }) {}

  /**
   * Made once, with the merchant (an owner already there: null). A person with the demo email already
   * (another merchant's owner) becomes this one's too, and keeps their password (null: nothing to show).
   */
  async ensure(merchantId: string): Promise<DemoOwner | null> {
    const password = newDemoPassword();
    const passwordHash = await hashPassword(password);
    const now = this.deps.clock.now();
    return inTransaction(this.deps.sql, async (query) => {
      const owners = await query('select 1 from membership where merchant_id = $1 and role = $2 for update', [merchantId, 'owner']);
      if (owners.length > 0) return null;
      const made = await query<{ id: string }>(
        `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
         values ($1, $2, 'Demo Owner', $3, $4, $4, $4, $4) on conflict do nothing returning id`,
        [timeOrderedUuid(), DEMO_OWNER_EMAIL, passwordHash, now],
      );
      const [user] = made.length > 0 ? made : await query<{ id: string }>('select id from app_user where lower(email) = $1', [DEMO_OWNER_EMAIL]);
      await query('insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) on conflict do nothing', [
        timeOrderedUuid(),
        user!.id,
        merchantId,
        'owner',
        now,
      ]);
      return made.length > 0 ? { email: DEMO_OWNER_EMAIL, password } : null;
    });
  }

  /** The email of the merchant's first owner, if it has one. */
  async ownerEmail(merchantId: string): Promise<string | null> {
    const [row] = await this.deps.sql.query<{ email: string }>(
      `select u.email from membership ms join app_user u on u.id = ms.user_id where ms.merchant_id = $1 and ms.role = 'owner' order by ms.created_at, ms.id limit 1`,
      [merchantId],
    );
    return row?.email ?? null;
  }

  /** A new password for the merchant's first owner, by an operator: shown this once; every session of theirs ends. Null: no owner. */
  async resetPassword(merchantId: string): Promise<DemoOwner | null> {
    const [owner] = await this.deps.sql.query<{ id: string; email: string }>(
      `select u.id, u.email from membership ms join app_user u on u.id = ms.user_id where ms.merchant_id = $1 and ms.role = 'owner' order by ms.created_at, ms.id limit 1`,
      [merchantId],
    );
    if (!owner) return null;
    const password = newDemoPassword();
    const now = this.deps.clock.now();
    await this.deps.sql.query('update app_user set password_hash = $2, password_changed_at = $3, updated_at = $3 where id = $1', [
      owner.id,
      await hashPassword(password),
      now,
    ]);
    await this.deps.audit.record({
      merchantId,
      actor: { type: 'operator', label: 'demo:credentials' },
      action: 'user.password_reset',
      target: { type: 'user', id: owner.id },
    });
    await this.deps.sessions.endAll(owner.id, 'password_reset');
    return { email: owner.email, password };
  }
}
