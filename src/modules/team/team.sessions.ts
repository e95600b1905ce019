import type { EntityManager } from '@mikro-orm/postgresql';
import type { TokenRevocations } from '../auth/token-revocations';

/**
 * Ends people's sessions at one merchant inside the caller's transaction (their token families
 * revoked and recorded in token_revocation, which every instance polls), as OAuthService does for a
 * family. The caller announces the ids after commit (`announceRevoked`), so they stop at once on
 * every instance, not at the next poll.
 */
export async function revokeMemberSessions(em: EntityManager, userIds: readonly string[], merchantId: string, reason: string, now: Date): Promise<string[]> {
  if (userIds.length === 0) return [];
  const families: Array<{ id: string }> = await em.execute(
    `update token_family set revoked_at = ?, revoked_reason = ?
      where user_id in (${userIds.map(() => '?').join(', ')}) and merchant_id = ? and revoked_at is null returning id`,
    [now, reason, ...userIds, merchantId],
  );
  for (const family of families) await em.execute('insert into token_revocation (family_id, revoked_at) values (?, ?)', [family.id, now]);
  return families.map((f) => f.id);
}

/** After commit: each revoked family, told to this instance and published to the others. */
export async function announceRevoked(revocations: TokenRevocations, familyIds: readonly string[]): Promise<void> {
  for (const familyId of familyIds) await revocations.announce(familyId);
}
