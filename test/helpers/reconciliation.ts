import { randomUUID } from 'node:crypto';
import type { ReconciliationService } from '../../src/modules/reconciliation/reconciliation.service';
import type { TestApp } from './test-app';
import { dbQuery } from './webhooks';

/** The app's reconciliation service (what the daily job and the CLI call). */
export const reconciliation = (app: TestApp): ReconciliationService => app.service.app.services.reconciliation;

/** A UTC day's window. */
export function day(date: string): { from: Date; to: Date } {
  const from = new Date(`${date}T00:00:00.000Z`);
  return { from, to: new Date(from.getTime() + 24 * 60 * 60 * 1000) };
}

/**
 * One of our transactions as a bare row on a connector (what reconciliation reads: kind, status, amounts, connector,
 * created_at), for a day the test controls. Returns its id (the key the provider was sent).
 */
export async function seedOurs(
  app: TestApp,
  merchantId: string,
  fields: { kind: 'collection' | 'transfer'; status: string; amount: string; currency: string; connector: string; createdAt: Date },
): Promise<{ id: string; reference: string }> {
  const id = randomUUID();
  const reference = `${fields.kind === 'collection' ? 'col' : 'trf'}_${id.replace(/-/g, '').slice(0, 24)}`;
  const transfer = fields.kind === 'transfer';
  await dbQuery(
    app.db.url,
    `insert into "transaction" (id, merchant_id, kind, reference, external_reference, status, connector, account_type, country_code,
       amount, currency, source_amount, source_currency, destination_amount, destination_currency, provider_reference, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, 'bank', 'NG', $8, $9, $10, $11, $12, $13, $14, $15, $15)`,
    [
      id,
      merchantId,
      fields.kind,
      reference,
      `ext-${id}`,
      fields.status,
      fields.connector,
      transfer ? null : fields.amount,
      transfer ? null : fields.currency,
      transfer ? fields.amount : null,
      transfer ? fields.currency : null,
      transfer ? fields.amount : null,
      transfer ? fields.currency : null,
      null,
      fields.createdAt,
    ],
  );
  return { id, reference };
}

/** Everything the books and the transaction table hold, as one comparable snapshot (the run must change none of it). */
export async function booksAndTransactions(app: TestApp): Promise<string> {
  const [row] = await dbQuery<{ snapshot: string }>(
    app.db.url,
    `select md5(coalesce((select string_agg(t::text, ',' order by id) from "transaction" t), '')) ||
            (select count(*) from ledger_entry)::text || ':' || (select count(*) from ledger_line)::text || ':' ||
            md5(coalesce((select string_agg(a::text, ',' order by id) from ledger_account a), '')) as snapshot`,
  );
  return row!.snapshot;
}
