import type { Sql } from '../../db/sql';

/** A statement run inside the transaction: `$n` placeholders, rows answered. */
export type TxQuery = <R = Record<string, unknown>>(text: string, values: unknown[]) => Promise<R[]>;

/** Runs `work` in one transaction on one of the pool's connections: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(sql: Sql, work: (query: TxQuery) => Promise<T>): Promise<T> {
  const client = await sql.pool.connect();
  try {
    await client.query('begin');
    const result = await work(async <R>(text: string, values: unknown[]) => (await client.query(text, values)).rows as R[]);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
