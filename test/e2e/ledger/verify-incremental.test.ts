import pg from 'pg';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql, transferBody } from '../../helpers/transactions';

/**
 * Issue 22: the periodic ledger check reads what was posted since its last run, not the whole
 * ledger (ledger.verify.ts). Overlap 0 here: no statement of these tests is still uncommitted when
 * a run starts, so each run's marks are settled for the next.
 */

let app: TestApp;
let token: string;

const ledger = () => app.service.app.services.ledger;
const rules = () => app.service.app.services.transactions.expectedLegs();
const run = (minIntervalS = 0) => ledger().verifySinceLastRun(rules(), { overlapS: 0, minIntervalS });
/** What a run read and found (its timings aside). */
const readBy = async (report: ReturnType<typeof run>) => {
  const r = await report;
  return r && { lines: r.lines, balanceTransactions: r.balanceTransactions, transactions: r.transactions, problems: r.problems };
};
const count = async (table: string, where = 'true') => Number((await sql(app, `select count(*) as n from ${table} where ${where}`))[0].n);
const topUp = (amount: string) => request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token, body: { currency: 'NGN', amount } });

/** Statements run as the replication role does: no triggers, so the append-only and balancing rules do not stop them. */
async function tamper(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: app.db.url });
  await client.connect();
  try {
    await client.query('set session_replication_role = replica');
    for (const text of statements) await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', LEDGER_VERIFY_INTERVAL_S: '0' } });
  const merchant = await app.createMerchant('Incremental');
  token = (await app.token(merchant)).accessToken;
  for (const amount of ['10.00', '20.00', '30.00']) expect((await topUp(amount)).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
});

describe('the periodic ledger check', () => {
  it('reads the whole ledger while it has no settled checkpoint, then only what was posted since', async () => {
    const lines = await count('ledger_line');
    expect(await readBy(run())).toEqual({ lines, balanceTransactions: await count('balance_transaction'), transactions: 0, problems: [] });
    // The second run's checkpoint is the first run's marks, which only the third run may build on.
    expect((await run())!.lines).toBe(lines);
    expect(await readBy(run())).toEqual({ lines: 0, balanceTransactions: 0, transactions: 0, problems: [] });

    expect((await topUp('5.00')).status).toBe(200);
    expect((await topUp('6.00')).status).toBe(200);
    // Two entries of two lines each, two balance transactions: nothing else is read.
    expect(await readBy(run())).toEqual({ lines: 4, balanceTransactions: 2, transactions: 0, problems: [] });
    // The checkpoint now holds every line up to the last run's settled mark, summed per merchant account.
    const [mark] = await sql(app, `select checkpoint_line_id from ledger_verification order by id desc limit 1`);
    const drift = await sql(
      app,
      `select a.id from ledger_account a left join ledger_verified_account v on v.account_id = a.id
       left join (select account_id, sum(greatest(-amount, 0)) as debits, sum(greatest(amount, 0)) as credits from ledger_line where id <= ? group by account_id) l on l.account_id = a.id
       where a.no_overdraft and (coalesce(v.debits, 0) <> coalesce(l.debits, 0) or coalesce(v.credits, 0) <> coalesce(l.credits, 0))`,
      [mark.checkpoint_line_id],
    );
    expect(drift).toEqual([]);
    expect(await count('ledger_verified_account')).toBeGreaterThan(0);
  });

  it('reads a transaction created since the last run, and the one it posted', async () => {
    const customer = await approvedCustomer(app, token);
    const res = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customer.customer_uuid) });
    expect(res.status).toBe(200);
    const report = await run();
    expect(report).toMatchObject({ transactions: 1, problems: [] });
    expect(report!.lines).toBeGreaterThan(0);
  });

  it('is skipped when another run was made less than minIntervalS ago', async () => {
    expect(await run(3600)).toBeNull();
  });

  it('rebuilds an account whose checkpoint missed a row (a late commit), and does not report it', async () => {
    const [account] = await sql(app, `select account_id from ledger_verified_account where account_id like 'm:%:available:NGN' limit 1`);
    await sql(app, `update ledger_verified_account set debits = debits + 1 where account_id = ?`, [account.account_id]);
    expect((await run())!.problems).toEqual([]);
    const [{ ok }] = await sql(
      app,
      `select v.debits = coalesce((select sum(greatest(-amount, 0)) from ledger_line where account_id = v.account_id and id <= (select checkpoint_line_id from ledger_verification order by id desc limit 1)), 0) as ok
       from ledger_verified_account v where v.account_id = ?`,
      [account.account_id],
    );
    expect(ok).toBe(true);
  });

  it('finds what was broken since its last run: an unbalanced entry, running totals, a balance chain, a transaction without its entries', async () => {
    expect((await run())!.problems).toEqual([]);
    expect((await topUp('7.00')).status).toBe(200);
    const customer = await approvedCustomer(app, token);
    const transfer = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customer.customer_uuid) });
    expect(transfer.status).toBe(200);
    const [bt] = await sql(app, `select id from balance_transaction order by seq desc limit 1`);
    const [account] = await sql(app, `select id from ledger_account where no_overdraft and code = 'available' and currency = 'NGN' limit 1`);
    await tamper(
      `with e as (insert into ledger_entry (key, leg, type, created_at) values ('test:unbalanced', 'x', 'adjustment', now()) returning id)
       insert into ledger_line (entry_id, account_id, currency, amount) select id, 'p:external_funds:NGN', 'NGN', 5 from e`,
      `update ledger_account set debits_posted = debits_posted + 1 where id = '${account.id}'`,
      `update balance_transaction set balance_after = balance_after + 1 where id = '${bt.id}'`,
      `update "transaction" set status = 'successful' where reference = '${transfer.body.data.reference}'`,
    );
    const problems = (await run())!.problems.map((p) => p.split(':')[0]);
    expect(problems).toEqual([
      'entries that do not balance in a currency',
      'merchant accounts whose running totals differ from their lines',
      'balance transactions whose balance_after does not follow from the one before',
      'balances that differ from their last balance transaction',
      'transactions without exactly the entries their kind prescribes',
    ]);
    // The whole-ledger check (npm run ledger:verify) finds the same.
    expect((await ledger().verify(rules())).problems.map((p) => p.split(':')[0])).toEqual(problems);
  });
});
