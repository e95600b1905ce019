import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { postManyEntries } from '../../helpers/ledger';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody } from '../../helpers/transactions';

/**
 * RFC 4180 as a spreadsheet reads a file with `separator` between cells: a cell that starts with a
 * quote is quoted (doubled quotes inside; what follows its closing quote is kept, as spreadsheets
 * do); a quote anywhere else is just a character. Lines end with CRLF.
 */
function parseCsv(text: string, separator: ',' | ';' | '\t'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let atCellStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && atCellStart) {
      quoted = true;
      atCellStart = false;
    } else if (c === separator) {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      [row, cell, atCellStart] = [[], '', true];
      i++;
    } else {
      cell += c;
      atCellStart = false;
    }
  }
  if (cell || row.length) throw new Error('the last line has no CRLF');
  return rows;
}

/** What a spreadsheet runs as a formula: a cell starting (after spaces) with = + - @, a tab or a carriage return. */
const startsAFormula = (cell: string) => /^ *[=+\-@\t\r]/.test(cell);
/** A decimal the service wrote (an amount): a spreadsheet must read it as the number it is. */
const isDecimal = (cell: string) => /^-?\d+(\.\d+)?$/.test(cell);

/** Cells that would run as formulas when the file is opened with `,`, `;` or a tab as its separator. */
function formulaCells(text: string): Array<{ separator: string; cell: string }> {
  const found: Array<{ separator: string; cell: string }> = [];
  for (const separator of [',', ';', '\t'] as const) {
    for (const row of parseCsv(text, separator)) for (const cell of row) if (startsAFormula(cell) && !isDecimal(cell)) found.push({ separator, cell });
  }
  return found;
}

/** Names a customer (or a reference) may carry, each a formula somewhere when split on `,` or `;`. */
const HOSTILE = [
  'Ann;=2+3; Lee',
  '=HYPERLINK("http://x")',
  '+1;@SUM(A1)',
  'Bob,-5+3',
  'x;"=1+1"',
  "Jo;'=1",
  '@admin',
  'a;;-2',
  'Lee; +33 6 12',
  'Zoé; =cmd|/c calc!A0',
];
/**
 * Texts with a tab, which a tab-separated reading splits on and a spreadsheet reads as a formula's
 * start. A customer's name cannot hold a tab (refused at creation), so only the statement's source
 * references (an operator's adjustment reference, stored as given) carry them.
 */
const TABBED = ['Tab\t=1+1', '\t@x', 'a\tb\t-c'];

/** Issue 34, M2: the CSV guard holds whatever separator a spreadsheet opens the file with. */
describe('CSV formula injection, read with `,`, `;` or a tab as the separator', () => {
  let app: TestApp;
  let token: string;
  let merchantId: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '1000000' } });
    const merchant = await app.createMerchant('Injected');
    merchantId = merchant.merchant.id;
    token = (await app.token(merchant)).accessToken;
    const customers = await Promise.all(
      HOSTILE.map((name, i) => approvedCustomer(app, token, { first_name: name, last_name: i === 1 ? name : 'Smith', email: `c${i}@example.com` })),
    );
    for (const [i, c] of customers.entries()) {
      const res = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
        token,
        body: momoCollectionBody(c.customer_uuid, { reference: `-${i}-1+2`.replace('+', '-') }),
      });
      expect(res.status).toBe(200);
    }
    // The statement's text from outside is its entries' source references (an operator's adjustment reference, stored as given).
    await postManyEntries(app.db.url, merchantId, 'NGN', (HOSTILE.length + TABBED.length) * 3, { sourceReferences: [...HOSTILE, ...TABBED] });
  });
  afterAll(() => app.close());

  it('the transaction export: no cell starts a formula with either separator; the names read back with a leading quote where one started', async () => {
    const res = await request(app.url, 'GET', '/v1/transactions/export.csv', { token });
    expect(res.status).toBe(200);
    expect(formulaCells(res.text)).toEqual([]);
    const [header, ...rows] = parseCsv(res.text, ',');
    const name = header!.indexOf('customer_name');
    const names = rows.map((r) => r[name]);
    expect(names).toHaveLength(HOSTILE.length);
    expect(names).toContain("Ann;'=2+3; Lee Smith");
    expect(names).toContain(`'=HYPERLINK("http://x") =HYPERLINK("http://x")`); // after a space: not a cell's start
    expect(names).toContain("'@admin Smith");
    // The raw line: the cell is quoted (its `;` and `=` inside it).
    expect(res.text).toContain(`,"Ann;'=2+3; Lee Smith",`);
  });

  it('the statement: no cell starts a formula with either separator; negative amounts stay bare numbers', async () => {
    const from = '2000-01-01T00:00:00Z';
    const to = '2099-01-01T00:00:00Z';
    const res = await request(app.url, 'GET', `/v1/reports/statement?currency=NGN&from=${from}&to=${to}`, { token });
    expect(res.status).toBe(200);
    expect(formulaCells(res.text)).toEqual([]);
    const [header, ...rows] = parseCsv(res.text, ',');
    const [ref, amount] = [header!.indexOf('source_reference'), header!.indexOf('amount')];
    const entries = rows.filter((r) => r[0] === 'entry');
    expect(new Set(entries.map((r) => r[ref]).filter((r) => r !== ''))).toEqual(
      new Set([
        "Ann;'=2+3; Lee",
        `'=HYPERLINK("http://x")`,
        "'+1;'@SUM(A1)",
        "Bob,'-5+3",
        `x;'"=1+1"`,
        "Jo;''=1",
        "'@admin",
        "a;;'-2",
        "Lee;' +33 6 12",
        "Zoé;' =cmd|/c calc!A0",
        "Tab\t'=1+1",
        "'\t'@x",
        "a\tb\t'-c",
      ]),
    );
    // Read with a tab as the separator, each tab-separated piece that starts a formula carries its `'`.
    expect(res.text).toContain(`,"Tab\t'=1+1",`);
    // Amounts are the service's decimals: unquoted, untouched, negative ones included (a spreadsheet reads them as numbers).
    const debits = entries.filter((r) => r[amount]!.startsWith('-'));
    expect(debits.length).toBeGreaterThan(0);
    for (const r of debits) expect(r[amount]).toMatch(/^-\d+\.\d{2}$/);
    expect(res.text).toMatch(/,adjustment,NGN,-\d+\.\d{2},0\.00,-\d+\.\d{2},\d+\.\d{2},/);
  });
});
