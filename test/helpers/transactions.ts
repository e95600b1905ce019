import { request } from './http';
import type { TestApp } from './test-app';
import { eventually } from './wait';
import { dbQuery } from './webhooks';

let seq = 0;

/** A merchant reference no other test uses (letters, digits, '-' only). */
export function newReference(prefix = 'ref'): string {
  seq += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${seq}`;
}

/** The GraphQL twin of `momoCollectionBody`: an InitiateCollectionInput; override any field. */
export function momoCollectionInput(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customerUuid,
    amount: '1500',
    currency: 'KES',
    countryCode: 'KE',
    channelId: 'ke_momo_deposit',
    networkId: 'ke_mpesa',
    accountNumber: '712345678',
    dialCode: '+254',
    accountType: 'MOMO',
    reason: 'Invoice 42',
    reference: newReference('gql-col'),
    ...overrides,
  };
}

/** A valid Kenyan M-Pesa collection (spec §4.2 body); override any field, `undefined` removes it. */
export function momoCollectionBody(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customer_uuid: customerUuid,
    amount: 1500,
    currency: 'KES',
    channel_id: 'ke_momo_deposit',
    account_number: '712345678',
    network_id: 'ke_mpesa',
    reason: 'Invoice 42',
    reference: newReference('col'),
    dial_code: '+254',
    account_type: 'momo',
    country_code: 'KE',
    ...overrides,
  };
}

/** A valid Kenyan bank collection (virtual account). */
export function bankCollectionBody(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return momoCollectionBody(customerUuid, {
    amount: 5000,
    channel_id: 'ke_bank_deposit',
    network_id: 'ke_kcb',
    account_number: '0123456789',
    account_type: 'bank',
    reference: newReference('bcol'),
    ...overrides,
  });
}

/** A valid USD → KES M-Pesa transfer (CONTRACT §6 body). */
/** A GraphQL transfer input: USD → KES to an M-Pesa wallet; override any field. */
export function momoTransferInput(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customerUuid,
    amount: '100',
    sourceCurrency: 'USD',
    destinationCurrency: 'KES',
    countryCode: 'KE',
    channelId: 'ke_momo_withdrawal',
    networkId: 'ke_mpesa',
    accountNumber: '711111111',
    accountName: 'Wanjiru Kamau',
    dialCode: '+254',
    accountType: 'MOMO',
    reason: 'Family support',
    reference: newReference('gql-trf'),
    ...overrides,
  };
}

export function transferBody(customerUuid: string, overrides: Record<string, unknown> = {}) {
  return {
    customer_uuid: customerUuid,
    amount: 100,
    source_currency: 'USD',
    destination_currency: 'KES',
    country_code: 'KE',
    channel_id: 'ke_momo_withdrawal',
    network_id: 'ke_mpesa',
    account_number: '712345678',
    account_name: 'Jane Wanjiru',
    dial_code: '+254',
    account_type: 'momo',
    reason: 'Supplier payout',
    reference: newReference('trf'),
    ...overrides,
  };
}

/** Runs SQL (with `?` placeholders) on the app's database, outside any request. */
export async function sql<T = any>(app: TestApp, text: string, params: unknown[] = []): Promise<T[]> {
  return (await app.service.orm.em.fork().execute(text, params as never[])) as T[];
}

export async function transactionCount(app: TestApp): Promise<number> {
  return Number((await sql(app, 'select count(*) as n from "transaction"'))[0].n);
}

/** The outbox rows about one transaction (subject = the service's reference), oldest first. */
export async function outboxRows(app: TestApp, reference: string) {
  return sql<{ type: string; payload: Record<string, unknown>; merchant_id: string }>(
    app,
    'select type, payload, merchant_id from outbox_event where subject_id = ? order by created_at, id',
    [reference],
  );
}

/** The history of one transaction, in order. */
export async function historyRows(app: TestApp, reference: string) {
  return sql<{ from_status: string | null; to_status: string; reason: string | null }>(
    app,
    `select e.from_status, e.to_status, e.reason from transaction_history e join "transaction" t on t.id = e.transaction_id
      where t.reference = ? order by e.seq`,
    [reference],
  );
}

export const getTransaction = (app: TestApp, token: string, reference: string) =>
  request(app.url, 'GET', `/v1/crossborder/global-transfer/${encodeURIComponent(reference)}`, { token });

/** Waits (boundedly) until the transaction is no longer processing; returns its status record. */
export async function awaitFinalStatus(app: TestApp, token: string, reference: string, opts?: { attempts?: number; everyMs?: number }) {
  let record: any;
  const done = await eventually(async () => {
    record = (await getTransaction(app, token, reference)).body.data;
    return record?.status !== undefined && record.status !== 'processing';
  }, opts);
  if (!done) throw new Error(`transaction ${reference} did not leave processing in time: ${JSON.stringify(record)}`);
  return record;
}

/**
 * `copies` copies of the transaction `reference`, each older than it by its number of seconds, with the references
 * `${reference}_${n}` and external references `copy-${n}`: a merchant with many transactions in one statement.
 * Every stored column is copied but the generated ones (checkout_claim), which PostgreSQL computes itself.
 */
export async function copyTransaction(databaseUrl: string, reference: string, copies: number): Promise<void> {
  const columns = (
    await dbQuery<{ name: string }>(
      databaseUrl,
      `select quote_ident(column_name) as name from information_schema.columns
       where table_name = 'transaction' and is_generated = 'NEVER' order by ordinal_position`,
    )
  ).map((c) => c.name);
  await dbQuery(
    databaseUrl,
    `insert into "transaction" (${columns.join(', ')})
     select ${columns.map((c) => `r.${c}`).join(', ')}
     from "transaction" t, generate_series(1, $2::int) g,
       jsonb_populate_record(null::"transaction", to_jsonb(t) || jsonb_build_object(
         'id', gen_random_uuid(), 'reference', t.reference || '_' || g, 'external_reference', 'copy-' || g,
         'created_at', t.created_at - make_interval(secs => g))) r
     where t.reference = $1`,
    [reference, copies],
  );
}
