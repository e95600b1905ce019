import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOnOrm, type Params, type Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedUuid } from '../../shared/crypto';
import type { AuthContext } from '../auth/access-tokens';

/** Who can act: a person, an API key, an operator (a CLI, the admin API), the service itself (the sandbox's KYC reviewer). */
export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'operator', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Who did it. */
export interface AuditActor {
  type: AuditActorType;
  /** The person's or key's id; the operator's CLI name. */
  id?: string | null;
  /** What a reader recognises: the person's email, the key's label or client_id, the CLI. */
  label?: string | null;
  role?: string | null;
}

/** Where a request came from (the doors know it; a CLI has none). */
export interface RequestOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Who is acting and from where, as a door knows it: what a service that records an action takes
 * (`audit?: AuditContext`), so every door and CLI shares the service's one record call.
 */
export interface AuditContext {
  actor: AuditActor;
  origin?: RequestOrigin;
}

/** One entry: what happened to what, by whom, from where; before and after values with secrets redacted. */
export interface AuditEntry {
  merchantId: string | null;
  actor: AuditActor;
  action: AuditAction;
  target?: { type: string; id: string } | null;
  origin?: RequestOrigin;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Every action the log records (docs/access.md, The audit log). */
export const AUDIT_ACTIONS = [
  'user.signed_up',
  'user.sign_in_succeeded',
  'user.sign_in_failed',
  'user.email_verified',
  'user.two_factor_enrolled',
  'user.two_factor_removed',
  'user.password_changed',
  'user.password_reset',
  'user.sessions_ended',
  'invitation.created',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.removed',
  'team.ownership_transferred',
  'team.two_factor_requirement_changed',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'webhook.endpoint_changed',
  'webhook.secret_rotated',
  'checkout.settings_changed',
  'transfers.name_check_changed',
  'payout_schedule.changed',
  'refund.created',
  'payment_link.created',
  'payment_link.deactivated',
  'ledger.adjustment_posted',
  'sandbox.top_up',
  'balance.funding_created',
  'kyc.decided',
  'merchant.created',
  'merchant.disabled',
  'merchant.enabled',
  'payout_destination.added',
  'payout_destination.approval_requested',
  'payout_destination.approved',
  'payout_destination.canceled',
  'payout_destination.activated',
  'reconciliation.exception_resolved',
  'dispute.file_uploaded',
  'dispute.evidence_updated',
  'dispute.submitted',
  'dispute.accepted',
  'sandbox.dispute_created',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Keys whose values never enter the log, at any depth. */
/** Words that make a key secret wherever they stand in it (`client_secret`, `passwordHash`, `refresh_token`). */
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'password',
  'passwords',
  'passphrase',
  'token',
  'tokens',
  'totp',
  'cvc',
  'cvv',
  'pin',
  'pan',
  'hash',
  'sealed',
]);
/** Whole keys that are secret though their words alone are not (`country_code` is not; `code` and `recovery_codes` are). */
const SECRET_KEYS = new Set(['code', 'codes', 'recovery_code', 'recovery_codes', 'card_number', 'number']);

/** Whether a key names a secret: by its words (snake_case or camelCase), not by letters inside a word (`company` has no `pan`). */
function secretKey(key: string): boolean {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return SECRET_KEYS.has(snake) || snake.split(/[^a-z0-9]+/).some((word) => SECRET_WORDS.has(word));
}

/** A copy with every secret-looking value replaced by "[redacted]". */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, secretKey(k) ? '[redacted]' : redact(v, depth + 1)]));
}

/**
 * A URL as the log keeps it: a password in it and its query's values (where tokens hide) are
 * redacted; the scheme, host, path and query names stay, so a reader sees what changed.
 */
export function urlForAudit(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, 'redacted');
    return parsed.toString();
  } catch {
    return '[redacted]';
  }
}

/** The actor of a request's access token. */
export function actorOf(auth: AuthContext): AuditActor {
  return { type: auth.kind, id: auth.actorId, label: auth.kind === 'api_key' ? auth.clientId : null, role: auth.role };
}

const COLUMNS = 'id, merchant_id, actor_type, actor_id, actor_label, role, action, target_type, target_id, ip, user_agent, before, after, created_at';
const INSERT = `insert into audit_log (${COLUMNS})
                values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14)`;

/**
 * The append-only audit log's writer (PostgreSQL refuses UPDATE, DELETE and TRUNCATE on it: the
 * migration's trigger). One row per security-relevant action, from every door and the operator's CLIs.
 */
export class AuditLog {
  constructor(private readonly deps: { sql: Sql; clock: Clock }) {}

  /** The statement and its values, for a caller that writes it inside its own transaction. */
  statement(entry: AuditEntry): { text: string; values: unknown[] } {
    const { actor, target, origin } = entry;
    return {
      text: INSERT,
      values: [
        timeOrderedUuid(),
        entry.merchantId,
        actor.type,
        actor.id ?? null,
        actor.label ?? null,
        actor.role ?? null,
        entry.action,
        target?.type ?? null,
        target?.id ?? null,
        origin?.ip ?? null,
        origin?.userAgent?.slice(0, 512) ?? null,
        entry.before ? JSON.stringify(redact(entry.before)) : null,
        entry.after ? JSON.stringify(redact(entry.after)) : null,
        this.deps.clock.now(),
      ],
    };
  }

  async record(entry: AuditEntry): Promise<void> {
    const { text, values } = this.statement(entry);
    await this.deps.sql.query(text, values, 'audit_record');
  }

  /** Written inside an ORM transaction (`em` is the transaction's): it commits, or not, with the change. */
  async recordOn(em: EntityManager, entry: AuditEntry): Promise<void> {
    const { text, values } = this.statement(entry);
    await executeOnOrm(em, text, values);
  }

  /**
   * A common table expression that writes the entry in another statement, once for each row of
   * `guard` (a CTE of that statement that returns a row only when the change happened): so the
   * entry exists exactly when the change does.
   */
  cte(params: Params, entry: AuditEntry, guard: string, name = 'audited'): string {
    const { values } = this.statement(entry);
    const casts = ['uuid', 'uuid', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'jsonb', 'jsonb', 'timestamptz'];
    const selected = values.map((v, i) => `${params.p(v)}::${casts[i]}`).join(', ');
    return `${name} as (insert into audit_log (${COLUMNS}) select ${selected} from ${guard})`;
  }
}
