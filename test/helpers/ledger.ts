import { dbQuery } from './webhooks';

/**
 * Posts `count` balance transactions for one merchant and currency in a single statement, through
 * the real ledger (entries and lines; the lines' trigger checks them, moves the accounts and writes
 * the balance transactions), so a test can have a statement of tens of thousands of entries in a
 * second. Entries cycle through top-ups (credits) and adjustments (debits to external funds), with
 * amounts of various decimals and the given source references in turn. The merchant's available
 * balance must cover the debits (the sandbox opening balance does).
 */
export async function postManyEntries(
  databaseUrl: string,
  merchantId: string,
  currency: string,
  count: number,
  opts: { keyPrefix?: string; sourceReferences?: Array<string | null> } = {},
): Promise<void> {
  const refs = opts.sourceReferences ?? [null];
  const prefix = opts.keyPrefix ?? `bulk-${Date.now()}`;
  await dbQuery(
    databaseUrl,
    `with g as (
       select n, (n % 3 = 0) as debit, ((n % 7) * 10 + (n % 100) / 100.0 + 1)::numeric as amount,
              ($4::text[])[1 + (n % cardinality($4::text[]))] as ref
       from generate_series(1, $3::int) n
     ),
     e as (
       insert into ledger_entry (key, merchant_id, transaction_id, leg, type, source_reference, fee, description, created_at)
       select $5 || ':' || n, $1::uuid, null, case when debit then 'adjustment' else 'top_up' end,
              case when debit then 'adjustment' else 'top_up' end, ref, 0, 'test bulk', now()
       from g order by n
       returning id, key
     )
     insert into ledger_line (entry_id, account_id, currency, amount)
     select e.id, v.account_id, $2::char(3), v.amount
     from e join g on e.key = $5 || ':' || g.n
     cross join lateral (values
       ('m:' || $1 || ':available:' || $2, case when g.debit then -g.amount else g.amount end),
       (case when g.debit then 'p:external_funds:' else 'p:sandbox_funding:' end || $2, case when g.debit then g.amount else -g.amount end)
     ) v(account_id, amount)
     order by e.id`,
    [merchantId, currency, count, refs, prefix],
  );
}
