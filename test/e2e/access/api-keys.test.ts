import { graphql, request } from '../../helpers/http';
import { apiKeyToken, personOf } from '../../helpers/people';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';
import { dbQuery } from '../../helpers/webhooks';

/**
 * API keys managed by people (issue 36, point 7): made with a label and a role, the secret shown once,
 * listed without it, rotated and revoked, each written once in the audit log; a revoked or rotated
 * key's tokens stop working at once on the other instance too.
 */
describe('API keys', () => {
  let two: TwoInstances;
  let merchantId: string;
  let owner: { token: string; userId: string; email: string };

  beforeAll(async () => {
    two = await startTwoInstances();
    const merchant = await two.a.createMerchant('Keys Merchant');
    merchantId = merchant.merchant.id;
    owner = await personOf(two.a, merchantId, 'owner');
  });

  afterAll(() => two.close());

  /** The key's one entry of this action (its target, actor and values). */
  const auditEntryOf = async (action: string, keyId: string) => {
    const rows = await dbQuery(two.db.url, 'select * from audit_log where merchant_id = $1 and action = $2 and target_id = $3', [merchantId, action, keyId]);
    expect(rows).toHaveLength(1);
    return rows[0];
  };
  const auditCount = async (action: string) =>
    Number((await dbQuery(two.db.url, 'select count(*) from audit_log where merchant_id = $1 and action = $2', [merchantId, action]))[0].count);

  it('makes a key with a label and a role, shows its secret once, lists it without one, and records who made it', async () => {
    const made = await request(two.a.url, 'POST', '/v1/api-keys', { token: owner.token, body: { label: 'Reports', role: 'viewer' } });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.body.data).toMatchObject({ label: 'Reports', role: 'viewer', created_by: owner.email, last_used_at: null, revoked_at: null });
    expect(made.body.data.client_secret).toMatch(/^sk_/);
    const listed = await request(two.a.url, 'GET', '/v1/api-keys', { token: owner.token });
    const key = listed.body.data.find((k: { id: string }) => k.id === made.body.data.id);
    expect(key).toMatchObject({ label: 'Reports', role: 'viewer' });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.data.client_secret);
    expect(listed.body.data.some((k: { label: string }) => k.label === 'Default key')).toBe(true);
    const [row] = await dbQuery(two.db.url, 'select client_secret_hash from api_key where id = $1', [made.body.data.id]);
    expect(row.client_secret_hash).not.toContain(made.body.data.client_secret);
    expect(await auditCount('api_key.created')).toBe(1);
    expect(await auditEntryOf('api_key.created', made.body.data.id)).toMatchObject({
      actor_type: 'user',
      actor_id: owner.userId,
      role: 'owner',
      target_type: 'api_key',
      before: null,
      after: { label: 'Reports', role: 'viewer', client_id: made.body.data.client_id },
    });
    expect(JSON.stringify(await auditEntryOf('api_key.created', made.body.data.id))).not.toContain(made.body.data.client_secret);
  });

  it('defaults to developer; refuses an unknown role, an owner or admin key, and a label with a card number', async () => {
    const made = await request(two.a.url, 'POST', '/v1/api-keys', { token: owner.token, body: { label: 'Server' } });
    expect(made.body.data.role).toBe('developer');
    for (const body of [
      { label: 'x', role: 'owner' },
      { label: 'x', role: 'admin' },
      { label: 'x', role: 'root' },
      { label: '' },
      { label: '4242424242424242' },
    ]) {
      const res = await request(two.a.url, 'POST', '/v1/api-keys', { token: owner.token, body });
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('a key is used by its role: a viewer key reads transactions but cannot refund; last_used_at is stamped', async () => {
    const viewer = await apiKeyToken(two.a, owner.token, 'viewer');
    expect((await request(two.a.url, 'GET', '/v1/transactions', { token: viewer.token })).status).toBe(200);
    const refund = await request(two.a.url, 'POST', '/v1/refunds', { token: viewer.token, body: {} });
    expect([refund.status, refund.body.code]).toEqual([403, 'FORBIDDEN']);
    const [row] = await dbQuery(two.db.url, 'select last_used_at from api_key where id = $1', [viewer.id]);
    expect(row.last_used_at).not.toBeNull();
  });

  it('revoking a key refuses its secret and its tokens at once, on the other instance too; revoking again changes nothing', async () => {
    const key = await apiKeyToken(two.a, owner.token, 'developer');
    expect((await request(two.b.url, 'GET', '/v1/merchant', { token: key.token })).status).toBe(200);
    const revoked = await request(two.a.url, 'POST', `/v1/api-keys/${key.id}/revoke`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    expect((await request(two.a.url, 'GET', '/v1/merchant', { token: key.token })).status).toBe(401);
    expect(await eventually(async () => (await request(two.b.url, 'GET', '/v1/merchant', { token: key.token })).status === 401)).toBe(true);
    const grant = await request(two.b.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret },
    });
    expect([grant.status, grant.body.code]).toEqual([401, 'INVALID_CLIENT']);
    const again = await request(two.a.url, 'POST', `/v1/api-keys/${key.id}/revoke`, { token: owner.token });
    expect(again.status).toBe(200);
    expect(await auditCount('api_key.revoked')).toBe(1);
    expect(await auditEntryOf('api_key.revoked', key.id)).toMatchObject({
      before: { revoked_at: null },
      after: { revoked_at: revoked.body.data.revoked_at },
    });
  });

  it('revokeApiKey over GraphQL: answers the key revoked; its tokens and secret are refused at once, on the other instance too; one audit entry', async () => {
    const key = await apiKeyToken(two.a, owner.token, 'finance');
    expect((await request(two.b.url, 'GET', '/v1/merchant', { token: key.token })).status).toBe(200);
    const revoked = await graphql(two.a.url, 'mutation($id: ID!) { revokeApiKey(id: $id) { id clientId label role revokedAt } }', {
      token: owner.token,
      variables: { id: key.id },
    });
    expect(revoked.body.errors).toBeUndefined();
    expect(revoked.body.data.revokeApiKey).toEqual({
      id: key.id,
      clientId: key.clientId,
      label: 'finance key',
      role: 'FINANCE',
      revokedAt: expect.any(String),
    });
    const { revokedAt } = revoked.body.data.revokeApiKey;
    expect(new Date(revokedAt).getTime()).toBe(two.a.clock.now().getTime());
    expect((await request(two.a.url, 'GET', '/v1/merchant', { token: key.token })).status).toBe(401);
    expect(await eventually(async () => (await request(two.b.url, 'GET', '/v1/merchant', { token: key.token })).status === 401)).toBe(true);
    const grant = await request(two.b.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret },
    });
    expect([grant.status, grant.body.code]).toEqual([401, 'INVALID_CLIENT']);
    const listed = await graphql(two.a.url, '{ apiKeys { id revokedAt } }', { token: owner.token });
    expect(listed.body.data.apiKeys).toContainEqual({ id: key.id, revokedAt });
    expect(await auditEntryOf('api_key.revoked', key.id)).toMatchObject({
      actor_type: 'user',
      actor_id: owner.userId,
      before: { revoked_at: null },
      after: { revoked_at: revokedAt },
    });
  });

  it('rotating gives a new secret for the same client_id; the old secret and tokens stop working', async () => {
    const key = await apiKeyToken(two.a, owner.token, 'developer');
    const rotated = await graphql(two.a.url, 'mutation($id: ID!) { rotateApiKey(id: $id) { clientSecret apiKey { clientId role } } }', {
      token: owner.token,
      variables: { id: key.id },
    });
    expect(rotated.body.data.rotateApiKey.apiKey.clientId).toBe(key.clientId);
    expect(rotated.body.data.rotateApiKey.clientSecret).not.toBe(key.clientSecret);
    expect((await request(two.a.url, 'GET', '/v1/merchant', { token: key.token })).status).toBe(401);
    const old = await request(two.a.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret },
    });
    expect(old.status).toBe(401);
    const fresh = await request(two.a.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: key.clientId, client_secret: rotated.body.data.rotateApiKey.clientSecret },
    });
    expect(fresh.status).toBe(200);
    expect(await auditCount('api_key.rotated')).toBe(1);
    expect(await auditEntryOf('api_key.rotated', key.id)).toMatchObject({ actor_id: owner.userId, after: { client_id: key.clientId } });
    expect(JSON.stringify(await auditEntryOf('api_key.rotated', key.id))).not.toContain(rotated.body.data.rotateApiKey.clientSecret);
  });

  it('an API key never manages keys, and another merchant’s key id is not found', async () => {
    const developer = await apiKeyToken(two.a, owner.token, 'developer');
    const res = await request(two.a.url, 'GET', '/v1/api-keys', { token: developer.token });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    const other = await two.a.createMerchant('Other Keys Merchant');
    const otherOwner = await personOf(two.a, other.merchant.id, 'owner');
    const revoke = await request(two.a.url, 'POST', `/v1/api-keys/${developer.id}/revoke`, { token: otherOwner.token });
    expect([revoke.status, revoke.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await request(two.a.url, 'GET', '/v1/merchant', { token: developer.token })).status).toBe(200);
    const theirs = await request(two.a.url, 'GET', '/v1/api-keys', { token: otherOwner.token });
    expect(theirs.body.data.map((k: { id: string }) => k.id)).not.toContain(developer.id);
  });
});
