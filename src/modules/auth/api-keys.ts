import { z } from 'zod';
import { Params, type Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { randomToken, sha256Hex, timeOrderedUuid } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { requiredText } from '../../shared/fields';
import { UUID_ID } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import { KEY_ROLES, mayGrant, type KeyRole } from '../access/permissions';
import { actorOf, type AuditContext, type AuditEntry, type AuditLog, type RequestOrigin } from '../audit/audit-log';
import type { AuthContext } from './access-tokens';
import type { TokenRevocations } from './token-revocations';

/** One of a merchant's API keys, as its owners see it: never the secret. */
export interface ApiKey {
  id: string;
  merchantId: string;
  label: string;
  role: KeyRole;
  clientId: string;
  createdAt: Date;
  /** Who made it: a person's email, or `operator` (the merchant's first key, or one made by a CLI). */
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A key with its secret: answered once, when it is made or rotated. */
export interface NewApiKey {
  apiKey: ApiKey;
  clientSecret: string;
}

export const createApiKeySchema = z.object({
  label: requiredText(100),
  role: z.enum(KEY_ROLES, { error: `must be one of ${KEY_ROLES.join(', ')}` }).default('developer'),
});
export type CreateApiKeyCommand = Command<typeof createApiKeySchema>;

interface ApiKeyRow {
  id: string;
  merchant_id: string;
  label: string;
  role: KeyRole;
  client_id: string;
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, merchant_id, label, role, client_id, created_at, created_by, last_used_at, revoked_at';
const toApiKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  merchantId: r.merchant_id,
  label: r.label,
  role: r.role,
  clientId: r.client_id,
  createdAt: r.created_at,
  createdBy: r.created_by,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** A merchant has at most this many keys that are not revoked. */
const LIVE_KEYS_MAX = 50;

/**
 * API keys managed by people (docs/access.md): each a client credential with a label and a role, its
 * secret shown once and stored as a SHA-256 hash. Revoking or rotating one ends every token issued
 * with it at once, on every instance (its token families are revoked and announced, as a disabled
 * merchant's are). Only a person whose role allows `keys:manage` calls these (the doors check it), and an
 * operator's CLI the first key's rotation (`rotateFirstKey`).
 */
export class ApiKeys {
  constructor(private readonly deps: { sql: Sql; clock: Clock; revocations: TokenRevocations; audit: AuditLog }) {}

  async list(merchantId: string): Promise<ApiKey[]> {
    const rows = await this.deps.sql.query<ApiKeyRow>(
      `select ${COLUMNS} from api_key where merchant_id = $1 order by revoked_at is not null, created_at desc, id desc`,
      [merchantId],
    );
    return rows.map(toApiKey);
  }

  async create(auth: AuthContext, command: CreateApiKeyCommand, origin?: RequestOrigin): Promise<NewApiKey> {
    const { label, role } = parseInput(createApiKeySchema, command);
    if (!mayGrant(auth.role, role)) throw AppError.forbidden(`Your role (${auth.role}) cannot issue a ${role} key`);
    const clientSecret = randomToken('sk');
    const createdBy = await this.authorLabel(auth);
    const [id, clientId] = [timeOrderedUuid(), randomToken('ci', 12)];
    const params = new Params();
    const merchant = params.p(auth.merchantId);
    // The key and its audit entry in one statement: the entry exists exactly when the key does.
    const [row] = await this.deps.sql.query<ApiKeyRow>(
      `with made as (insert into api_key (id, merchant_id, label, role, client_id, client_secret_hash, created_at, created_by)
         select ${params.p(id)}, ${merchant}, ${params.p(label)}, ${params.p(role)}, ${params.p(clientId)}, ${params.p(sha256Hex(clientSecret))},
                ${params.p(this.deps.clock.now())}, ${params.p(createdBy)}
          where (select count(*) from api_key where merchant_id = ${merchant} and revoked_at is null) < ${LIVE_KEYS_MAX}
         returning ${COLUMNS}),
       ${this.deps.audit.cte(params, this.entry(auth.merchantId, { actor: actorOf(auth), origin }, 'api_key.created', id, null, { label, role, client_id: clientId }), 'made')}
       select * from made`,
      params.values,
    );
    if (!row) throw new AppError('INVALID_STATE', `A merchant has at most ${LIVE_KEYS_MAX} live API keys: revoke one first`);
    return { apiKey: toApiKey(row), clientSecret };
  }

  /** A new secret for the same key (its client_id stays); the old secret and every token issued with the key stop working now. */
  async rotate(auth: AuthContext, keyId: string, origin?: RequestOrigin): Promise<NewApiKey> {
    return this.rotateKey(auth.merchantId, keyId, { actor: actorOf(auth), origin });
  }

  /**
   * An operator's rotation of the merchant's first key, the client_id its record shows (`demo:credentials
   * --rotate-secret`): the same change as `rotate`, its tokens ended and one `api_key.rotated` entry, by the operator.
   */
  async rotateFirstKey(merchantId: string, audit: AuditContext): Promise<NewApiKey> {
    if (!UUID_ID.test(merchantId)) throw AppError.notFound('Merchant');
    const [key] = await this.deps.sql.query<{ id: string }>('select k.id from api_key k join merchant m on m.client_id = k.client_id where m.id = $1', [
      merchantId,
    ]);
    if (!key) throw AppError.notFound('Merchant');
    return this.rotateKey(merchantId, key.id, audit);
  }

  private async rotateKey(merchantId: string, keyId: string, audit: AuditContext): Promise<NewApiKey> {
    const clientSecret = randomToken('sk');
    // A key's client_id never changes: read before, named in the entry written with the change.
    const { clientId } = await this.get(merchantId, keyId);
    const entry = this.entry(merchantId, audit, 'api_key.rotated', keyId, null, { client_id: clientId });
    const apiKey = await this.changeKey(merchantId, keyId, (params) => `client_secret_hash = ${params.p(sha256Hex(clientSecret))}`, 'rotated', entry);
    return { apiKey, clientSecret };
  }

  /** Revoked for good: its secret is refused and its tokens stop working now, on every instance. Revoking it again changes nothing. */
  async revoke(auth: AuthContext, keyId: string, origin?: RequestOrigin): Promise<ApiKey> {
    const current = await this.get(auth.merchantId, keyId);
    if (current.revokedAt) return current;
    const now = this.deps.clock.now();
    const entry = this.entry(
      auth.merchantId,
      { actor: actorOf(auth), origin },
      'api_key.revoked',
      keyId,
      { revoked_at: null },
      { revoked_at: now.toISOString() },
    );
    return this.changeKey(auth.merchantId, keyId, (params) => `revoked_at = ${params.p(now)}`, 'api_key_revoked', entry);
  }

  private async get(merchantId: string, keyId: string): Promise<ApiKey> {
    if (!UUID_ID.test(keyId)) throw AppError.notFound('API key');
    const [row] = await this.deps.sql.query<ApiKeyRow>(`select ${COLUMNS} from api_key where id = $1 and merchant_id = $2`, [keyId, merchantId]);
    if (!row) throw AppError.notFound('API key');
    return toApiKey(row);
  }

  /**
   * Changes a live key and revokes its token families in one statement (the key's row lock orders it
   * against a grant in flight, which holds it FOR SHARE), then announces them to every instance.
   */
  private async changeKey(merchantId: string, keyId: string, set: (params: Params) => string, reason: string, entry: AuditEntry): Promise<ApiKey> {
    if (!UUID_ID.test(keyId)) throw AppError.notFound('API key');
    const params = new Params();
    const now = params.p(this.deps.clock.now());
    const [row] = await this.deps.sql.query<ApiKeyRow & { families: string[] | null }>(
      `with key as (update api_key set ${set(params)} where id = ${params.p(keyId)} and merchant_id = ${params.p(merchantId)} and revoked_at is null
                    returning ${COLUMNS}),
            families as (update token_family f set revoked_at = ${now}, revoked_reason = ${params.p(reason)}
                          where f.api_key_id = (select id from key) and f.revoked_at is null returning f.id),
            feed as (insert into token_revocation (family_id, revoked_at) select id, ${now} from families),
            ${this.deps.audit.cte(params, entry, 'key')}
       select key.*, (select array_agg(id) from families) as families from key`,
      params.values,
    );
    if (!row) {
      await this.get(merchantId, keyId);
      throw new AppError('INVALID_STATE', 'This API key is revoked');
    }
    for (const familyId of row.families ?? []) await this.deps.revocations.announce(familyId);
    return toApiKey(row);
  }

  private async authorLabel(auth: AuthContext): Promise<string> {
    if (auth.kind !== 'user') return auth.clientId;
    const [user] = await this.deps.sql.query<{ email: string }>('select email from app_user where id = $1', [auth.actorId]);
    return user?.email ?? auth.actorId;
  }

  /** A key's audit entry, written by the statement that makes the change (`AuditLog.cte`). */
  private entry(
    merchantId: string,
    { actor, origin }: AuditContext,
    action: 'api_key.created' | 'api_key.rotated' | 'api_key.revoked',
    keyId: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown>,
  ): AuditEntry {
    return { merchantId, actor, action, target: { type: 'api_key', id: keyId }, origin, before, after };
  }
}
