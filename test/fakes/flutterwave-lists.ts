/**
 * The Flutterwave fake's lists (reconciliation reads them), faithful to the official Node SDK (Flutterwave/Node-v3:
 * services/transactions/rave.retrieve.js `GET /v3/transactions?`, services/transfers/rave.retrieve.transfers.js `GET
 * /v3/transfers?`, services/schema/base.js listSchema: `page`, `from` and `to` ISO dates, `status`) and its
 * documentation's samples ("Transactions fetched", "Transfers fetched"; `meta.page_info {total, current_page,
 * total_pages}`; 44 transactions over 5 pages: ten a page). Newest first, as the samples list them.
 *
 * CHOSEN WHERE THE DOCS ARE SILENT
 *  - `from`/`to` are whole days (UTC), both inclusive; an unparseable date → 400 "from must be a valid date".
 *  - The transfers list takes `from`/`to` too (the SDK's schema allows them), and `status` as given (case-insensitive).
 *  - A page past the last answers an empty `data` with the same page_info.
 */

/** Flutterwave's page size on its lists (the samples: 44 records, 5 pages). */
const PAGE_SIZE = 10;

export interface ListQuery {
  page: number;
  from: number | null;
  /** The end of the `to` day, exclusive. */
  to: number | null;
  status: string | null;
}

/** Reads a list's query string; throws the message for a 400. */
export function listQuery(params: URLSearchParams): ListQuery | string {
  const page = Number(params.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1) return 'page must be a positive number';
  const day = (name: string, end: boolean): number | null | string => {
    const v = params.get(name);
    if (v === null || v === '') return null;
    const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
    if (Number.isNaN(t)) return `${name} must be a valid date`;
    return end ? t + 24 * 60 * 60 * 1000 : t;
  };
  const from = day('from', false);
  const to = day('to', true);
  if (typeof from === 'string') return from;
  if (typeof to === 'string') return to;
  return { page, from, to, status: params.get('status') };
}

/** One page of `records` (each with `created_at` and `status`), newest first, in Flutterwave's envelope. */
export function listPage<T extends { created_at: string; status: string }>(
  records: T[],
  query: ListQuery,
  render: (r: T) => Record<string, unknown>,
): { data: Record<string, unknown>[]; meta: { page_info: { total: number; current_page: number; total_pages: number } } } {
  const kept = records
    .filter((r) => {
      const t = Date.parse(r.created_at);
      if (query.from !== null && t < query.from) return false;
      if (query.to !== null && t >= query.to) return false;
      return query.status === null || r.status.toLowerCase() === query.status.toLowerCase();
    })
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const totalPages = Math.max(1, Math.ceil(kept.length / PAGE_SIZE));
  const data = kept.slice((query.page - 1) * PAGE_SIZE, query.page * PAGE_SIZE).map(render);
  return { data, meta: { page_info: { total: kept.length, current_page: query.page, total_pages: totalPages } } };
}
