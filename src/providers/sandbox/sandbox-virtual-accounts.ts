import type { Sql } from '../../db/sql';

/**
 * The sandbox's virtual accounts, one per idempotency key, kept in `sandbox_virtual_account`: the
 * same key always gets the same account number (as a real provider's idempotency would give).
 */
export function sandboxVirtualAccounts(sql: Sql): (idempotencyKey: string) => Promise<string> {
  return async (idempotencyKey) => {
    const [row] = await sql.query<{ account_number: string }>(
      `insert into sandbox_virtual_account (idempotency_key) values ($1)
       on conflict (idempotency_key) do update set idempotency_key = excluded.idempotency_key
       returning account_number`,
      [idempotencyKey],
      'sandbox_virtual_account',
    );
    return row!.account_number;
  };
}
