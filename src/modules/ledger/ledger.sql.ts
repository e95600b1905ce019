import type { Params } from '../../db/sql';
import type { Posting } from './ledger.model';

/** Common table expressions that post entries inside the caller's statement. */
export interface PostingSql {
  ctes: string[];
}

/**
 * CTEs that post `postings` inside the statement making the change they belong to. `guard`
 * names an earlier CTE: nothing is posted unless it returned a row (the change happened).
 * An entry whose key exists already posts nothing (ON CONFLICT DO NOTHING: a repeated
 * settlement, a job run twice after a crash). The lines' statement trigger checks the
 * balance, the accounts' limits and writes the balance transactions.
 */
export function postingsSql(params: Params, postings: readonly Posting[], guard: string | undefined, prefix: string): PostingSql {
  const ctes: string[] = [];
  postings.forEach((p, i) => {
    if (p.lines.length === 0) return;
    const entry = `${prefix}_entry${i}`;
    ctes.push(
      `${entry} as (
        insert into ledger_entry (key, merchant_id, transaction_id, leg, type, source_reference, fee, description, created_at)
        select ${params.p(p.key)}::text, ${params.p(p.merchantId)}::uuid, ${params.p(p.transactionId)}::uuid, ${params.p(p.leg)}::text,
               ${params.p(p.type)}::text, ${params.p(p.sourceReference)}::text, ${params.p(p.fee.toFixed())}::numeric,
               ${params.p(p.description)}::text, ${params.p(p.createdAt)}::timestamptz
        ${guard ? `from ${guard}` : ''}
        on conflict (key) do nothing
        returning id)`,
      `${prefix}_lines${i} as (
        insert into ledger_line (entry_id, account_id, currency, amount)
        select ${entry}.id, v.account_id, v.currency, v.amount
        from ${entry}, (values ${p.lines.map((l) => `(${params.p(l.account)}::text, ${params.p(l.currency)}::char(3), ${params.p(l.amount.toFixed())}::numeric)`).join(', ')})
          as v(account_id, currency, amount))`,
    );
  });
  return { ctes };
}
