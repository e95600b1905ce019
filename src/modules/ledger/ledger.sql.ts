import type { Params, Sql } from '../../db/sql';
import type { AppError } from '../../shared/errors';
import { Decimal } from '../../shared/money';
import { insufficientFunds, type Posting } from './ledger.model';

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

/** A merchant's available account: `m:<merchant>:available:<currency>`. */
const AVAILABLE = /^m:[^:]+:available:([A-Z]{3})$/;

/**
 * INSUFFICIENT_FUNDS for postings the database refused (a merchant's account would go below zero), with the shortfall:
 * what they take, net, from each of the merchant's available accounts, and what that account holds, read now, after
 * the refusal (one read, on the error path only). The account named is the first the postings take more from than it
 * holds (or, should a credit have landed since, the first they take from at all).
 */
export async function refusedForFunds(sql: Sql, postings: readonly Posting[], minorUnitOf: (currency: string) => number | undefined): Promise<AppError> {
  const taken = new Map<string, Decimal>();
  for (const line of postings.flatMap((p) => p.lines)) {
    if (AVAILABLE.test(line.account)) taken.set(line.account, (taken.get(line.account) ?? new Decimal(0)).minus(line.amount));
  }
  const debited = [...taken].filter(([, amount]) => amount.gt(0));
  const rows = await sql.query<{ id: string; balance: string }>(
    'select id, (credits_posted - debits_posted)::text as balance from ledger_account where id = any($1::text[])',
    [debited.map(([account]) => account)],
    'ledger_available_after_refusal',
  );
  const held = new Map(rows.map((r) => [r.id, new Decimal(r.balance)]));
  const short = debited.map(([account, needed]) => ({ account, needed, available: held.get(account) ?? new Decimal(0) }));
  const refused = short.find((s) => s.needed.gt(s.available)) ?? short[0];
  const currency = refused ? AVAILABLE.exec(refused.account)![1]! : (postings[0]?.lines[0]?.currency ?? '');
  return insufficientFunds(currency, refused?.needed ?? new Decimal(0), refused?.available ?? new Decimal(0), minorUnitOf(currency));
}
