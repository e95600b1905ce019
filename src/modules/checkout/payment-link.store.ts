import { Params, type Sql } from '../../db/sql';
import { Decimal } from '../../shared/money';
import { decodeCursor } from '../../shared/pagination';
import type { AuditEntry, AuditLog } from '../audit/audit-log';
import type { LinkCollect, PaymentLink } from './checkout.records';
import type { CheckoutMethod } from './checkout.views';

/** `plink_` and 24 characters: 6 bytes of time, then 12 random ones. */
export const LINK_ID = /^plink_[A-Za-z0-9_-]{24}$/;

export type StoredLink = Omit<PaymentLink, 'url'>;
export type NewLink = Omit<StoredLink, 'paymentsCount' | 'active' | 'deactivatedAt'>;

interface Row {
  id: string;
  merchant_id: string;
  slug: string;
  name: string;
  amount: string | null;
  currency: string;
  description: string | null;
  payment_methods: CheckoutMethod[] | null;
  collect: LinkCollect[];
  min_amount: string | null;
  max_amount: string | null;
  max_payments: number | null;
  payments_count: number;
  expires_at: Date | null;
  redirect_url: string | null;
  active: boolean;
  created_at: Date;
  deactivated_at: Date | null;
}

const COLUMNS = `id, merchant_id, slug, name, amount::text as amount, currency, description, payment_methods, collect, min_amount::text as min_amount,
  max_amount::text as max_amount, max_payments, payments_count, expires_at, redirect_url, active, created_at, deactivated_at`;

const decimalOrNull = (v: string | null) => (v === null ? null : new Decimal(v));

function linkOfRow(r: Row): StoredLink {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    slug: r.slug,
    name: r.name,
    amount: decimalOrNull(r.amount),
    currency: r.currency,
    description: r.description,
    paymentMethods: r.payment_methods,
    collect: r.collect,
    minAmount: decimalOrNull(r.min_amount),
    maxAmount: decimalOrNull(r.max_amount),
    maxPayments: r.max_payments,
    paymentsCount: r.payments_count,
    expiresAt: r.expires_at,
    redirectUrl: r.redirect_url,
    active: r.active,
    createdAt: r.created_at,
    deactivatedAt: r.deactivated_at,
  };
}

/** Direct statements on payment_link; creation and deactivation each write their audit entry in the same statement. */
export class PaymentLinkStore {
  constructor(private readonly deps: { sql: Sql; audit: AuditLog }) {}

  /** Throws the unique violation of a taken slug (`payment_link_slug_key`). */
  async insert(l: NewLink, audit: AuditEntry | null): Promise<StoredLink> {
    const params = new Params();
    const values = [
      params.p(l.id),
      `${params.p(l.merchantId)}::uuid`,
      params.p(l.slug),
      params.p(l.name),
      `${params.p(l.amount?.toString() ?? null)}::numeric`,
      params.p(l.currency),
      params.p(l.description),
      `${params.p(l.paymentMethods)}::text[]`,
      `${params.p(l.collect)}::text[]`,
      `${params.p(l.minAmount?.toString() ?? null)}::numeric`,
      `${params.p(l.maxAmount?.toString() ?? null)}::numeric`,
      `${params.p(l.maxPayments)}::int`,
      `${params.p(l.expiresAt)}::timestamptz`,
      params.p(l.redirectUrl),
      `${params.p(l.createdAt)}::timestamptz`,
    ];
    const ctes = [
      `inserted as (insert into payment_link (id, merchant_id, slug, name, amount, currency, description, payment_methods, collect, min_amount,
        max_amount, max_payments, expires_at, redirect_url, created_at) values (${values.join(', ')}) returning ${COLUMNS})`,
    ];
    if (audit) ctes.push(this.deps.audit.cte(params, audit, 'inserted'));
    const [row] = await this.deps.sql.query<Row>(`with ${ctes.join(', ')} select * from inserted`, params.values);
    return linkOfRow(row!);
  }

  async find(id: string): Promise<StoredLink | null> {
    const [row] = await this.deps.sql.query<Row>(`select ${COLUMNS} from payment_link where id = $1`, [id], 'payment_link_find');
    return row ? linkOfRow(row) : null;
  }

  async findBySlug(slug: string): Promise<StoredLink | null> {
    const [row] = await this.deps.sql.query<Row>(`select ${COLUMNS} from payment_link where slug = $1`, [slug], 'payment_link_by_slug');
    return row ? linkOfRow(row) : null;
  }

  /** Up to `limit + 1` of the merchant's links after the cursor, newest first. */
  async list(merchantId: string, limit: number, after: string | null | undefined): Promise<StoredLink[]> {
    const params = new Params();
    const where = [`merchant_id = ${params.p(merchantId)}::uuid`];
    if (after) {
      const cursor = decodeCursor(after, LINK_ID);
      where.push(`(created_at, id) < (${params.p(cursor.createdAt)}::timestamptz, ${params.p(cursor.id)})`);
    }
    const rows = await this.deps.sql.query<Row>(
      `select ${COLUMNS} from payment_link where ${where.join(' and ')} order by created_at desc, id desc limit ${params.p(limit + 1)}`,
      params.values,
    );
    return rows.map(linkOfRow);
  }

  /** Active → inactive, with its audit entry; null when it was inactive already (nothing written). */
  async deactivate(id: string, merchantId: string, now: Date, audit: AuditEntry): Promise<StoredLink | null> {
    const params = new Params();
    const ctes = [
      `changed as (update payment_link set active = false, deactivated_at = ${params.p(now)}::timestamptz
        where id = ${params.p(id)} and merchant_id = ${params.p(merchantId)}::uuid and active returning ${COLUMNS})`,
      this.deps.audit.cte(params, audit, 'changed'),
    ];
    const [row] = await this.deps.sql.query<Row>(`with ${ctes.join(', ')} select * from changed`, params.values);
    return row ? linkOfRow(row) : null;
  }

  /** The next session number of the link (its sessions' references: `plink-{slug}-{n}`). */
  async nextSessionNumber(id: string): Promise<number> {
    const [row] = await this.deps.sql.query<{ n: number }>(
      'update payment_link set sessions_count = sessions_count + 1 where id = $1 returning sessions_count as n',
      [id],
      'payment_link_next_session',
    );
    return row!.n;
  }
}
