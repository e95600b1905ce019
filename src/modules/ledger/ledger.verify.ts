import type { Sql } from '../../db/sql';

/** What each kind must have posted in each status (TransactionService.expectedLegs). */
export interface LegRule {
  kind: string;
  status: string;
  required: string[];
  optional: string[];
}

export interface LedgerReport {
  entries: number;
  accounts: number;
  transactions: number;
  /** Each problem found, said plainly; empty when the books are right. */
  problems: string[];
}

/** Problems reported per check at most (the count says how many there are in all). */
const SAMPLE = 20;

/**
 * Recomputes the books from their entries and checks them whole (npm run ledger:verify, and
 * the periodic job): every entry balances in each currency; every merchant account's running
 * totals equal the sum of its lines, and none is below zero; every balance transaction's
 * balance_after follows from the one before and the last equals the balance; every
 * transaction has exactly the entries its kind prescribes for its status; entries whose
 * transaction is gone (an initiation the provider refused) cancel out. Read-only.
 */
export async function verifyLedger(sql: Sql, rules: LegRule[]): Promise<LedgerReport> {
  const problems: string[] = [];
  const report = (check: string, rows: Array<Record<string, unknown>>, total?: number) => {
    const count = total ?? rows.length;
    if (count === 0) return;
    problems.push(
      `${check}: ${count} found, e.g. ${rows
        .slice(0, SAMPLE)
        .map((r) => JSON.stringify(r))
        .join('; ')}`,
    );
  };

  const [counts] = await sql.query<{ entries: string; accounts: string; transactions: string }>(
    `select (select count(*) from ledger_entry) as entries, (select count(*) from ledger_account) as accounts, (select count(*) from "transaction") as transactions`,
  );

  report(
    'entries that do not balance in a currency',
    await sql.query(
      `select e.key, l.currency, sum(l.amount)::text as sum from ledger_line l join ledger_entry e on e.id = l.entry_id
       group by e.key, l.currency having sum(l.amount) <> 0 limit ${SAMPLE}`,
    ),
  );
  report(
    'merchant accounts whose running totals differ from their lines',
    await sql.query(
      `select a.id, a.debits_posted::text as debits, a.credits_posted::text as credits, coalesce(s.debits, 0)::text as line_debits, coalesce(s.credits, 0)::text as line_credits
       from ledger_account a
       left join (select account_id, sum(greatest(-amount, 0)) as debits, sum(greatest(amount, 0)) as credits from ledger_line group by account_id) s on s.account_id = a.id
       where a.no_overdraft and (a.debits_posted <> coalesce(s.debits, 0) or a.credits_posted <> coalesce(s.credits, 0))
       limit ${SAMPLE}`,
    ),
  );
  report(
    'merchant accounts below zero (recomputed from their lines)',
    await sql.query(
      `select a.id, sum(l.amount)::text as balance from ledger_account a join ledger_line l on l.account_id = a.id
       where a.no_overdraft group by a.id having sum(l.amount) < 0 limit ${SAMPLE}`,
    ),
  );
  report(
    'balance transactions whose balance_after does not follow from the one before',
    await sql.query(
      `select id, merchant_id, currency, balance_after::text, expected::text from (
         select id, merchant_id, currency, balance_after,
                sum(net) over (partition by merchant_id, currency order by seq) as expected
         from balance_transaction) b
       where balance_after <> expected limit ${SAMPLE}`,
    ),
  );
  report(
    'balances that differ from their last balance transaction',
    await sql.query(
      `select a.merchant_id, a.currency, sum(a.credits_posted - a.debits_posted)::text as balance, last.balance_after::text
       from ledger_account a
       left join lateral (select b.balance_after from balance_transaction b where b.merchant_id = a.merchant_id and b.currency = a.currency order by b.seq desc limit 1) last on true
       where a.code in ('available', 'pending')
       group by a.merchant_id, a.currency, last.balance_after
       having sum(a.credits_posted - a.debits_posted) <> coalesce(last.balance_after, 0)
       limit ${SAMPLE}`,
    ),
  );

  const rulesJson = JSON.stringify(rules);
  report(
    'transactions without exactly the entries their kind prescribes',
    await sql.query(
      `with rules as (
         select kind, status, array(select jsonb_array_elements_text(r->'required')) as required,
                array(select jsonb_array_elements_text(r->'optional')) as optional
         from jsonb_array_elements($1::jsonb) r, lateral (select r->>'kind' as kind, r->>'status' as status) k),
       legs as (select transaction_id, array_agg(leg order by leg) as legs, count(*) as n, count(distinct leg) as distinct_legs
                from ledger_entry where transaction_id is not null group by transaction_id)
       select t.reference, t.kind, t.status, coalesce(l.legs, '{}') as legs
       from "transaction" t
       left join legs l on l.transaction_id = t.id
       left join rules r on r.kind = t.kind and r.status = t.status
       where r.kind is null
          or not (r.required <@ coalesce(l.legs, '{}') and coalesce(l.legs, '{}') <@ (r.required || r.optional))
          or coalesce(l.n, 0) <> coalesce(l.distinct_legs, 0)
       limit ${SAMPLE}`,
      [rulesJson],
    ),
  );
  report(
    'entries of a removed transaction that do not cancel out',
    await sql.query(
      `select e.transaction_id, l.account_id, sum(l.amount)::text as sum
       from ledger_entry e join ledger_line l on l.entry_id = e.id
       where e.transaction_id is not null and not exists (select 1 from "transaction" t where t.id = e.transaction_id)
       group by e.transaction_id, l.account_id having sum(l.amount) <> 0 limit ${SAMPLE}`,
    ),
  );

  return {
    entries: Number(counts!.entries),
    accounts: Number(counts!.accounts),
    transactions: Number(counts!.transactions),
    problems,
  };
}
