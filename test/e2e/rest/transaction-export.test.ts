import { approvedCustomer, twoMerchants } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { copyTransaction, momoCollectionBody, transferBody } from '../../helpers/transactions';

/** RFC 4180, as a spreadsheet reads it: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  if (cell || row.length) throw new Error('the last line has no CRLF');
  return rows;
}

const COLUMNS = [
  'created_at',
  'reference',
  'external_reference',
  'type',
  'status',
  'amount',
  'currency',
  'fee',
  'destination_amount',
  'destination_currency',
  'customer_name',
  'customer_email',
  'customer_uuid',
  'failure_reason',
  'completed_at',
  // Issue 41: added last, so the columns above keep their places.
  'counterparty_name',
  'counterparty_account',
];

/** GET /v1/transactions/export.csv: the list as a file, every page, with the list's filters (issue 24). */
describe('REST GET /v1/transactions/export.csv', () => {
  let app: TestApp;
  let tokenA: string;
  let tokenB: string;
  let plain: string;
  let tricky: string;
  let collection: { reference: string; external_reference: string; fee: number | string; created_at: string };
  let transfer: { reference: string; source_amount: number | string; fee: number | string; destination_amount: number | string };
  let theirs: string;

  const exportCsv = (token: string | undefined, query = '') => request(app.url, 'GET', `/v1/transactions/export.csv${query}`, { token });
  const rowsOf = (text: string) => {
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(COLUMNS);
    return rows.map((r) => Object.fromEntries(COLUMNS.map((c, i) => [c, r[i]!])));
  };

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const { mine, theirs: other } = await twoMerchants(app, 'Exporter', { approvedCustomer: true });
    [tokenA, tokenB] = [mine.token, other.token];
    plain = mine.customerUuid;
    // A name with a comma and quotes, and one a spreadsheet would run as a formula.
    tricky = (await approvedCustomer(app, tokenA, { first_name: '=HYPERLINK("http://x")', last_name: 'O"Neil, Jr', email: 'Tricky@Example.com' }))
      .customer_uuid;
    app.clock.advance(1000);
    const col = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
      token: tokenA,
      body: momoCollectionBody(tricky, { reference: '-2-export', amount: 1500 }),
    });
    expect(col.status).toBe(200);
    collection = (await request(app.url, 'GET', `/v1/crossborder/global-transfer/${col.body.data.reference}`, { token: tokenA })).body.data;
    app.clock.advance(1000);
    const trf = await request(app.url, 'POST', '/v1/crossborder/global-transfer', { token: tokenA, body: transferBody(plain) });
    expect(trf.status).toBe(200);
    transfer = trf.body.data;
    // Failed: it charged nothing (its fee is given back with its reservation).
    expect(
      (await request(app.url, 'POST', `/v1/sandbox/transactions/${transfer.reference}/simulate`, { token: tokenA, body: { outcome: 'failed' } })).status,
    ).toBe(200);
    const b = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: tokenB, body: momoCollectionBody(other.customerUuid) });
    theirs = b.body.data.reference;
    // 520 more of A's (copies of its collection, older): the export reads more than one of its 500-row batches.
    await copyTransaction(app.db.url, collection.reference, 520);
  });
  afterAll(() => app.close());

  it('streams every matching transaction as RFC 4180 CSV, newest first, amounts as decimals with their currency, times in UTC', async () => {
    const res = await exportCsv(tokenA);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="transactions.csv"');
    expect(res.headers.get('transfer-encoding')).toBe('chunked'); // streamed, not built whole
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const rows = rowsOf(res.text);
    expect(rows).toHaveLength(2 + 520);
    expect(rows.map((r) => r.reference).slice(0, 3)).toEqual([transfer.reference, collection.reference, `${collection.reference}_1`]);
    expect(new Set(rows.map((r) => r.reference)).size).toBe(rows.length);
    expect(rows.at(-1)!.reference).toBe(`${collection.reference}_520`);

    const [t, c] = rows as [Record<string, string>, Record<string, string>];
    // A failed transfer: no fee (it had one while open), and the beneficiary on the other side, the customer its sender.
    expect(Number(transfer.fee)).toBeGreaterThan(0);
    expect(t).toMatchObject({
      type: 'transfer',
      status: 'failed',
      amount: Number(transfer.source_amount).toFixed(2),
      currency: 'USD',
      fee: '0.00',
      destination_amount: Number(transfer.destination_amount).toFixed(2),
      destination_currency: 'KES',
      customer_name: 'Amina Otieno',
      customer_email: 'amina@example.com',
      customer_uuid: plain,
      counterparty_name: 'Jane Wanjiru',
      counterparty_account: '••••5678',
    });
    expect(t.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(c).toMatchObject({
      created_at: collection.created_at,
      external_reference: "'-2-export", // would be read as a formula: quoted
      type: 'collection',
      amount: '1500.00',
      currency: 'KES',
      fee: Number(collection.fee).toFixed(2),
      destination_amount: '',
      customer_name: '\'=HYPERLINK("http://x") O"Neil, Jr',
      customer_email: 'Tricky@Example.com',
      customer_uuid: tricky,
      // A collection's other side is its sender: the customer (its name guarded like customer_name), from its wallet, masked.
      counterparty_name: '\'=HYPERLINK("http://x") O"Neil, Jr',
      counterparty_account: '••••5678',
      completed_at: '',
    });
    expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The raw line: the name is quoted, its quotes doubled; the email too (it holds a formula character, @).
    expect(res.text).toContain(`,"'=HYPERLINK(""http://x"") O""Neil, Jr","Tricky@Example.com",`);
  });

  it('takes the list’s filters and search: type, status, customer, time, reference and email', async () => {
    expect(rowsOf((await exportCsv(tokenA, '?type=transfer')).text).map((r) => r.reference)).toEqual([transfer.reference]);
    expect(rowsOf((await exportCsv(tokenA, '?status=successful')).text)).toEqual([]);
    expect(rowsOf((await exportCsv(tokenA, '?status=failed')).text).map((r) => [r.reference, r.fee])).toEqual([[transfer.reference, '0.00']]);
    expect(rowsOf((await exportCsv(tokenA, `?customer_uuid=${plain}`)).text).map((r) => r.reference)).toEqual([transfer.reference]);
    expect(rowsOf((await exportCsv(tokenA, '?search=tricky%40example.COM')).text)).toHaveLength(521);
    expect(rowsOf((await exportCsv(tokenA, '?search=-2-export')).text).map((r) => r.reference)).toEqual([collection.reference]);
    const window = await exportCsv(tokenA, `?created_from=${encodeURIComponent(collection.created_at)}`);
    expect(rowsOf(window.text).map((r) => r.reference)).toEqual([transfer.reference, collection.reference]);
  });

  it('never holds another merchant’s transactions', async () => {
    const b = rowsOf((await exportCsv(tokenB)).text);
    expect(b.map((r) => r.reference)).toEqual([theirs]);
    expect(rowsOf((await exportCsv(tokenB, `?search=${collection.reference}`)).text)).toEqual([]);
    expect(rowsOf((await exportCsv(tokenB, '?search=tricky%40example.com')).text)).toEqual([]);
    expect(rowsOf((await exportCsv(tokenA)).text).some((r) => r.reference === theirs)).toBe(false);
  });

  it('a bad filter is a 400 envelope naming it, before any CSV; paging is not a filter here; no token is 401', async () => {
    const bad = await exportCsv(tokenA, '?status=done&search=%20');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['search', 'status']);
    // The list's paging means nothing here (an unknown parameter, ignored as everywhere): the file holds every page.
    expect(rowsOf((await exportCsv(tokenA, '?limit=1')).text)).toHaveLength(522);
    expect((await exportCsv(undefined)).status).toBe(401);
  });

  it('is documented in the OpenAPI document as a CSV answer with the list’s query', async () => {
    const doc = (await request(app.url, 'GET', '/v1/openapi.json')).body;
    const op = doc.paths['/v1/transactions/export.csv'].get;
    expect(op.operationId).toBe('exportTransactions');
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/csv']);
    expect(op.responses['400']).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'created_from',
      'created_to',
      'customer_uuid',
      'payment_link_id',
      'search',
      'status',
      'type',
    ]);
  });
});
