import { Params, type Sql } from '../../db/sql';
import { systemClock } from '../../shared/clock';

/** What each kind must have posted in each status (TransactionLifecycle.expectedLegs). */
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

/** A periodic run's report: what it read besides what it found (null when another instance ran one just now). */
export interface IncrementalReport {
  /** Lines, balance transactions and transactions read (those posted or changed since the checkpoint, and the overlap). */
  lines: number;
  balanceTransactions: number;
  transactions: number;
  /** How long each check took, in milliseconds. */
  ms: Record<string, number>;
  problems: string[];
}

/** Problems reported per check at most (the count says how many there are in all). */
const SAMPLE = 20;

/**
 * What a run reads: rows above these marks (all of them when every mark is 0). Ids are drawn
 * before their rows commit, so a row can become visible below a mark some time after the run
 * that set it: the marks a run uses are those the run before it had already seen settled
 * (IncrementalOptions.overlapS), and rows between two runs are read twice.
 */
interface Scope {
  line: number;
  entry: number;
  balanceSeq: number;
  event: number;
  /** Transactions whose time-ordered id is at least this one (ids are UUIDv7); null: every transaction. */
  transactionFloor: string | null;
  /**
   * Running totals: each merchant account's checkpoint (`ledger_verified_account`, its lines up to
   * `checkpointLine`) plus its lines above that. Null: every line summed (the whole-ledger check).
   */
  checkpointLine: number | null;
}

const WHOLE_LEDGER: Scope = { line: 0, entry: 0, balanceSeq: 0, event: 0, transactionFloor: null, checkpointLine: null };

/**
 * Recomputes the books from their entries and checks them whole (npm run ledger:verify; read-only,
 * so it runs on a replica): every entry balances in each currency; every merchant account's
 * running totals equal the sum of its lines, and none is below zero; every balance
 * transaction's balance_after follows from the one before and the last equals the balance;
 * every dispute has the entries its money's state prescribes, each of its amount and fee;
 * every debt repayment moves r > 0 from a merchant's available to its receivable, and no merchant
 * has money available while it owes the platform in that currency; every transaction has exactly the entries its kind prescribes for its status; entries whose
 * transaction is gone (an initiation the provider refused) cancel out.
 */
export async function verifyLedger(sql: Sql, rules: LegRule[]): Promise<LedgerReport> {
  const [counts] = await sql.query<{ entries: string; accounts: string; transactions: string }>(
    `select (select count(*) from ledger_entry) as entries, (select count(*) from ledger_account) as accounts, (select count(*) from "transaction") as transactions`,
  );
  const { problems } = await runChecks(sql, rules, WHOLE_LEDGER);
  return { entries: Number(counts!.entries), accounts: Number(counts!.accounts), transactions: Number(counts!.transactions), problems };
}

export interface IncrementalOptions {
  /** How long a transaction may hold an id before its row commits (longer-lived rows are read only by the whole check). */
  overlapS: number;
  /** A run this soon after the last one (by any instance) is skipped. */
  minIntervalS: number;
}

/**
 * The periodic check (the same checks as verifyLedger) over what changed since the last run:
 * lines, entries, balance transactions and history rows above the settled marks, transactions
 * created since them, and every merchant account's totals against its checkpoint plus its new
 * lines. An account whose totals disagree is summed whole before it is reported (a row
 * committed later than the overlap is a late row, not a fault, and its checkpoint is rebuilt).
 * Then the checkpoint advances to the settled marks, in one statement that only one instance
 * can make from a given run. Its cost follows the rate of postings, not the size of the books.
 */
export async function verifyLedgerIncrementally(sql: Sql, rules: LegRule[], opts: IncrementalOptions): Promise<IncrementalReport | null> {
  // Marks: `seen_*` now; the scan bounds (`settled_*`) are what the last run could already see whole (a run at
  // least overlapS before it); the checkpoint moves to what is whole now (a run at least overlapS ago).
  const [state] = await sql.query<{
    previous_id: string | null;
    recent: boolean | null;
    marked_at: Date;
    checkpoint_line: string;
    next_checkpoint_line: string;
    line: string;
    entry: string;
    balance_seq: string;
    event: string;
    settled_time: Date | null;
    seen_line: string;
    seen_entry: string;
    seen_balance_seq: string;
    seen_event: string;
  }>(
    `with prev as (select * from ledger_verification order by id desc limit 1),
     settled as (select v.* from ledger_verification v, prev where v.run_at <= prev.run_at - make_interval(secs => $1) order by v.id desc limit 1),
     whole as (select v.* from ledger_verification v where v.run_at <= now() - make_interval(secs => $1) order by v.id desc limit 1)
     select (select id from prev)::text as previous_id,
            (select run_at > now() - make_interval(secs => $2) from prev) as recent,
            now() as marked_at,
            coalesce((select checkpoint_line_id from prev), 0)::text as checkpoint_line,
            greatest((select checkpoint_line_id from prev), (select seen_line_id from whole), 0)::text as next_checkpoint_line,
            greatest((select settled_line_id from prev), (select seen_line_id from settled), 0)::text as line,
            greatest((select settled_entry_id from prev), (select seen_entry_id from settled), 0)::text as entry,
            greatest((select settled_balance_seq from prev), (select seen_balance_seq from settled), 0)::text as balance_seq,
            greatest((select settled_event_id from prev), (select seen_event_id from settled), 0)::text as event,
            coalesce((select run_at from settled) - make_interval(secs => $1), (select settled_time from prev)) as settled_time,
            coalesce((select max(id) from ledger_line), 0)::text as seen_line,
            coalesce((select max(id) from ledger_entry), 0)::text as seen_entry,
            coalesce((select max(seq) from balance_transaction), 0)::text as seen_balance_seq,
            coalesce((select max(id) from transaction_event), 0)::text as seen_event`,
    [opts.overlapS, opts.minIntervalS],
  );
  if (state!.recent) return null;
  const scope: Scope = {
    line: Number(state!.line),
    entry: Number(state!.entry),
    balanceSeq: Number(state!.balance_seq),
    event: Number(state!.event),
    transactionFloor: state!.settled_time ? uuidV7Floor(state!.settled_time.getTime()) : null,
    checkpointLine: Number(state!.checkpoint_line),
  };
  const { problems, repair, read, ms } = await runChecks(sql, rules, scope);
  const advanced = await sql.query(
    `with run as (
       insert into ledger_verification (previous_id, run_at, seen_line_id, seen_entry_id, seen_balance_seq, seen_event_id,
                                        settled_line_id, settled_entry_id, settled_balance_seq, settled_event_id, settled_time,
                                        checkpoint_line_id, problems)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       on conflict (previous_id) do nothing returning id),
     added as (
       select l.account_id, sum(greatest(-l.amount, 0)) as debits, sum(greatest(l.amount, 0)) as credits
       from ledger_line l join ledger_account a on a.id = l.account_id
       where l.id > $14 and l.id <= $12 and a.no_overdraft and l.account_id <> all($15::text[]) and exists (select 1 from run)
       group by l.account_id),
     rebuilt as (
       select l.account_id, sum(greatest(-l.amount, 0)) as debits, sum(greatest(l.amount, 0)) as credits
       from ledger_line l
       where l.account_id = any($15::text[]) and l.id <= $12 and exists (select 1 from run)
       group by l.account_id),
     checkpoint as (
       insert into ledger_verified_account as v (account_id, debits, credits)
       select account_id, debits, credits from added
       on conflict (account_id) do update set debits = v.debits + excluded.debits, credits = v.credits + excluded.credits),
     reset as (
       insert into ledger_verified_account as v (account_id, debits, credits)
       select account_id, debits, credits from rebuilt
       on conflict (account_id) do update set debits = excluded.debits, credits = excluded.credits),
     pruned as (delete from ledger_verification where run_at < now() - interval '7 days' and exists (select 1 from run))
     select id::text from run`,
    [
      state!.previous_id,
      state!.marked_at,
      state!.seen_line,
      state!.seen_entry,
      state!.seen_balance_seq,
      state!.seen_event,
      scope.line,
      scope.entry,
      scope.balanceSeq,
      scope.event,
      state!.settled_time,
      state!.next_checkpoint_line,
      problems.length,
      scope.checkpointLine,
      repair,
    ],
  );
  // Another instance advanced from the same run first: its report stands, this one is dropped.
  if (advanced.length === 0) return null;
  return { ...read, ms, problems };
}

/** The smallest UUIDv7 of a millisecond (RFC 9562: 48 bits of Unix time, then version 7 and the variant). */
function uuidV7Floor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/** The checks, over a scope; `repair`: accounts whose checkpoint was wrong but whose totals are right. */
async function runChecks(
  sql: Sql,
  rules: LegRule[],
  scope: Scope,
): Promise<{ problems: string[]; repair: string[]; read: Omit<IncrementalReport, 'problems' | 'ms'>; ms: Record<string, number> }> {
  const problems: string[] = [];
  const ms: Record<string, number> = {};
  const timed = async <T>(check: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      ms[check] = Math.round(performance.now() - started);
    }
  };
  const report = (check: string, rows: Array<Record<string, unknown>>) => {
    if (rows.length === 0) return;
    problems.push(
      `${check}: ${rows.length} found, e.g. ${rows
        .slice(0, SAMPLE)
        .map((r) => JSON.stringify(r))
        .join('; ')}`,
    );
  };

  // One pass over the newer lines; an entry whose lines there do not balance (a fault, or an entry with older lines too) is summed whole.
  report(
    'entries that do not balance in a currency',
    await timed('entries', () =>
      sql.query(
        `with suspect as (select entry_id from ledger_line where id > $1 group by entry_id, currency having sum(amount) <> 0)
         select e.key, l.currency, sum(l.amount)::text as sum from ledger_line l join ledger_entry e on e.id = l.entry_id
         where l.entry_id in (select entry_id from suspect)
         group by e.key, l.currency having sum(l.amount) <> 0 limit ${SAMPLE}`,
        [scope.line],
      ),
    ),
  );

  // Running totals: checkpoint + newer lines; an account that disagrees is summed whole before it is blamed.
  const totals = await timed('totals', () =>
    sql.query<{ id: string; debits: string; credits: string; line_debits: string; line_credits: string; settled: boolean }>(
      `with newer as (
       select account_id, sum(greatest(-amount, 0)) as debits, sum(greatest(amount, 0)) as credits from ledger_line where id > $1 group by account_id),
     recomputed as (
       select a.id, a.debits_posted, a.credits_posted,
              coalesce(v.debits, 0) + coalesce(n.debits, 0) as debits, coalesce(v.credits, 0) + coalesce(n.credits, 0) as credits
       from ledger_account a
       left join ledger_verified_account v on v.account_id = a.id and $2
       left join newer n on n.account_id = a.id
       where a.no_overdraft)
     select r.id, r.debits_posted::text as debits, r.credits_posted::text as credits,
            coalesce(w.debits, 0)::text as line_debits, coalesce(w.credits, 0)::text as line_credits,
            r.debits_posted = coalesce(w.debits, 0) and r.credits_posted = coalesce(w.credits, 0) as settled
     from recomputed r
     cross join lateral (
       select case when $2 then sum(greatest(-amount, 0)) else r.debits end as debits,
              case when $2 then sum(greatest(amount, 0)) else r.credits end as credits
       from ledger_line l where $2 and l.account_id = r.id) w
     where r.debits_posted <> r.debits or r.credits_posted <> r.credits`,
      [scope.checkpointLine ?? 0, scope.checkpointLine !== null],
    ),
  );
  report(
    'merchant accounts whose running totals differ from their lines',
    totals.filter((t) => !t.settled).map(({ settled: _s, ...t }) => t),
  );
  report(
    'merchant accounts below zero',
    await timed('belowZero', () =>
      sql.query(
        // The receivable (issue 39) is debit-normal: it is below zero when more was repaid than owed.
        `select id, (credits_posted - debits_posted)::text as balance from ledger_account
         where no_overdraft and case when code = 'receivable' then debits_posted < credits_posted else credits_posted < debits_posted end limit ${SAMPLE}`,
      ),
    ),
  );
  report(
    'balance transactions whose balance_after does not follow from the one before',
    await timed('chain', () =>
      sql.query(
        `select b.id, b.merchant_id, b.currency, b.balance_after::text, (coalesce(p.balance_after, 0) + b.net)::text as expected
       from balance_transaction b
       left join lateral (
         select p.balance_after from balance_transaction p
         where p.merchant_id = b.merchant_id and p.currency = b.currency and (p.created_at, p.seq) < (b.created_at, b.seq)
         order by p.created_at desc, p.seq desc limit 1) p on true
       where b.seq > $1 and b.balance_after <> coalesce(p.balance_after, 0) + b.net limit ${SAMPLE}`,
        [scope.balanceSeq],
      ),
    ),
  );
  report(
    'balances that differ from their last balance transaction',
    await timed('balances', () =>
      sql.query(
        `select a.merchant_id, a.currency, sum(a.credits_posted - a.debits_posted)::text as balance, last.balance_after::text
       from ledger_account a
       left join lateral (select b.balance_after from balance_transaction b where b.merchant_id = a.merchant_id and b.currency = a.currency order by b.created_at desc, b.seq desc limit 1) last on true
       where a.code in ('available', 'pending', 'receivable')
         and ($1 = 0 or (a.merchant_id, a.currency) in (select merchant_id, currency from balance_transaction where seq > $1))
       group by a.merchant_id, a.currency, last.balance_after
       having sum(a.credits_posted - a.debits_posted) <> coalesce(last.balance_after, 0)
       limit ${SAMPLE}`,
        [scope.balanceSeq],
      ),
    ),
  );

  // Disputes (issue 39): each has exactly the entries its money's state prescribes. Disputes are few (a fraction of card
  // payments), so every run reads them all: a dispute whose state moved without its entry has no entry to be found by.
  report(
    'disputes whose entries differ from where their money is',
    await timed('disputes', () =>
      sql.query(
        `select d.id, d.funds, coalesce(string_agg(split_part(e.key, ':', 2), ',' order by e.id), '') as legs
         from dispute d left join ledger_entry e on e.key in (d.id || ':hold', d.id || ':release', d.id || ':withdraw')
         group by d.id, d.funds
         having coalesce(string_agg(split_part(e.key, ':', 2), ',' order by e.id), '') <>
                case d.funds when 'none' then '' when 'held' then 'hold' when 'reinstated' then 'hold,release' else 'hold,withdraw' end
         limit ${SAMPLE}`,
      ),
    ),
  );
  // And each of those entries moves the dispute's own amount and fee, to the accounts its leg prescribes (docs/ledger.md):
  // a withdrawal's split between the provider's clearing and fee revenue has no running totals to betray it otherwise.
  report(
    'dispute entries whose amounts differ from the dispute’s amount and fee',
    await timed('disputeAmounts', () =>
      sql.query(
        `with legs as (
           select d.id, e.leg, (d.amount + d.fee)::text as held, d.amount::text as amount, d.fee::text as fee,
                  coalesce(sum(l.amount) filter (where l.account_id = 'm:' || d.merchant_id || ':disputed:' || d.currency), 0) as disputed,
                  coalesce(sum(l.amount) filter (where l.account_id in ('m:' || d.merchant_id || ':available:' || d.currency,
                                                                        'm:' || d.merchant_id || ':receivable:' || d.currency)), 0) as merchant,
                  coalesce(sum(l.amount) filter (where l.account_id like 'p:provider\\_clearing:%:' || d.currency), 0) as clearing,
                  coalesce(sum(l.amount) filter (where l.account_id = 'p:fee_revenue:' || d.currency), 0) as fee_revenue,
                  count(*) filter (where l.account_id not in ('m:' || d.merchant_id || ':disputed:' || d.currency,
                                                              'm:' || d.merchant_id || ':available:' || d.currency,
                                                              'm:' || d.merchant_id || ':receivable:' || d.currency,
                                                              'p:fee_revenue:' || d.currency)
                                          and l.account_id not like 'p:provider\\_clearing:%:' || d.currency) as elsewhere
           from dispute d
           join ledger_entry e on e.key in (d.id || ':hold', d.id || ':release', d.id || ':withdraw')
           join ledger_line l on l.entry_id = e.id
           group by d.id, e.leg, d.amount, d.fee, d.merchant_id, d.currency)
         select id, leg, held, amount, fee, disputed::text, merchant::text, clearing::text, fee_revenue::text, elsewhere::int from legs
         where elsewhere > 0 or not case leg
           when 'hold' then disputed = held::numeric and merchant = -held::numeric and clearing = 0 and fee_revenue = 0
           when 'release' then disputed = -held::numeric and merchant = held::numeric and clearing = 0 and fee_revenue = 0
           else disputed = -held::numeric and merchant = 0 and clearing = amount::numeric and fee_revenue = fee::numeric end
         limit ${SAMPLE}`,
      ),
    ),
  );

  // Debts repaid first (issue 39): each repayment moves r > 0 from a merchant's available to its receivable in one
  // currency, for an entry (its key's `<entry id>`, posted before it) that credited that available. Found through their
  // partial index: every one in the whole check, those above the mark in the periodic one.
  report(
    'debt repayments that do not move r > 0 from available to the receivable',
    await timed('repayments', () =>
      sql.query(
        `select e.key, e.merchant_id, coalesce(json_agg(json_build_object('account', l.account_id, 'amount', l.amount::text) order by l.id)
                                                 filter (where l.id is not null), '[]') as lines
         from ledger_entry e left join ledger_line l on l.entry_id = e.id
         where e.type = 'debt_repayment' and e.id > $1
         group by e.id, e.key, e.merchant_id
         having not (
           count(l.id) = 2 and count(distinct l.currency) = 1 and sum(l.amount) = 0
           and count(*) filter (where l.amount < 0 and l.account_id = 'm:' || e.merchant_id || ':available:' || l.currency) = 1
           and count(*) filter (where l.amount > 0 and l.account_id = 'm:' || e.merchant_id || ':receivable:' || l.currency) = 1
           and exists (select 1 from ledger_line c
                       where c.entry_id = case when e.key ~ '^[0-9]{1,18}:repay$' then split_part(e.key, ':', 1)::bigint end
                         and c.entry_id < e.id and c.amount > 0
                         and c.account_id = 'm:' || e.merchant_id || ':available:' || min(l.currency)))
         limit ${SAMPLE}`,
        [scope.entry],
      ),
    ),
  );
  // And their outcome: after every posting, a merchant either has nothing available or owes nothing in that currency
  // (r = min(available, owed)). Pending, reserved and disputed money repays nothing until it reaches available (the
  // settlement delay's release, a failed transfer's or refund's reversal, a won dispute). One row per receivable owed:
  // every run reads them all (a repayment that is gone has no entry above a mark to be found by).
  report(
    'merchants with money available while they owe the platform',
    await timed('debts', () =>
      sql.query(
        `select rc.merchant_id, rc.currency, (av.credits_posted - av.debits_posted)::text as available, (rc.debits_posted - rc.credits_posted)::text as owed
         from ledger_account rc join ledger_account av on av.id = 'm:' || rc.merchant_id || ':available:' || rc.currency
         where rc.code = 'receivable' and rc.debits_posted > rc.credits_posted and av.credits_posted > av.debits_posted
         limit ${SAMPLE}`,
      ),
    ),
  );

  // Transactions to check: those posted to or changed since the marks, and those created since (ids are time-ordered).
  const params = new Params();
  const rulesParam = params.p(JSON.stringify(rules));
  const touched =
    scope.entry === 0 && scope.event === 0 && scope.transactionFloor === null
      ? `select id from "transaction"`
      : `select transaction_id as id from ledger_entry where id > ${params.p(scope.entry)} and transaction_id is not null
         union select transaction_id from transaction_event where id > ${params.p(scope.event)}
         union select id from "transaction" where ${
           scope.transactionFloor === null
             ? 'true'
             : `id >= ${params.p(scope.transactionFloor)}::uuid and id <= ${params.p(uuidV7Floor(systemClock.now().getTime() + 86_400_000))}::uuid`
         }`;
  const [transactions] = await timed('transactions', () =>
    sql.query<{ checked: string; wrong: Array<Record<string, unknown>> }>(
      `with rules as (
       select kind, status, array(select jsonb_array_elements_text(r->'required')) as required,
              array(select jsonb_array_elements_text(r->'optional')) as optional
       from jsonb_array_elements(${rulesParam}::jsonb) r, lateral (select r->>'kind' as kind, r->>'status' as status) k),
     touched as materialized (${touched}),
     legs as (select transaction_id, array_agg(leg order by leg) as legs, count(*) as n, count(distinct leg) as distinct_legs
              from ledger_entry where transaction_id in (select id from touched) group by transaction_id),
     checked as (
       select t.reference, t.kind, t.status, coalesce(l.legs, '{}') as legs,
              r.kind is null
              or not (r.required <@ coalesce(l.legs, '{}') and coalesce(l.legs, '{}') <@ (r.required || r.optional))
              or coalesce(l.n, 0) <> coalesce(l.distinct_legs, 0) as wrong
       from "transaction" t
       join touched on touched.id = t.id
       left join legs l on l.transaction_id = t.id
       left join rules r on r.kind = t.kind and r.status = t.status)
     select (select count(*) from checked)::text as checked,
            (select coalesce(json_agg(w), '[]') from (select reference, kind, status, legs from checked where wrong limit ${SAMPLE}) w) as wrong`,
      params.values,
    ),
  );
  report('transactions without exactly the entries their kind prescribes', transactions!.wrong);
  report(
    'entries of a removed transaction that do not cancel out',
    await timed('removed', () =>
      sql.query(
        `select e.transaction_id, l.account_id, sum(l.amount)::text as sum
       from ledger_entry e join ledger_line l on l.entry_id = e.id
       where e.transaction_id in (
         select x.transaction_id from ledger_entry x
         where x.id > $1 and x.transaction_id is not null and not exists (select 1 from "transaction" t where t.id = x.transaction_id))
       group by e.transaction_id, l.account_id having sum(l.amount) <> 0 limit ${SAMPLE}`,
        [scope.entry],
      ),
    ),
  );

  const [read] = await sql.query<{ lines: string; balance_transactions: string }>(
    `select (select count(*) from ledger_line where id > $1)::text as lines, (select count(*) from balance_transaction where seq > $2)::text as balance_transactions`,
    [scope.checkpointLine ?? 0, scope.balanceSeq],
  );
  return {
    problems,
    ms,
    repair: totals.filter((t) => t.settled).map((t) => t.id),
    read: {
      lines: Number(read!.lines),
      balanceTransactions: Number(read!.balance_transactions),
      transactions: Number(transactions!.checked),
    },
  };
}
