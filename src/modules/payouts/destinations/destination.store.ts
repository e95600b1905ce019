import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../../db/sql';
import type { ChannelType } from '../../reference/reference.types';
import type { DestinationStatus } from './destination.rules';

/** A payout_destination row as the service reads it, with the emails of the people who made, approved or canceled it. */
export interface DestinationRow {
  id: string;
  merchantId: string;
  currency: string;
  accountType: ChannelType;
  countryCode: string;
  channelId: string;
  networkId: string;
  bankCode: string | null;
  accountNumber: string;
  dialCode: string;
  accountName: string;
  nameChecked: boolean;
  status: DestinationStatus;
  createdBy: string;
  createdByEmail: string | null;
  approvedBy: string | null;
  approvedByEmail: string | null;
  canceledBy: string | null;
  canceledByEmail: string | null;
  effectiveAt: Date | null;
  createdAt: Date;
  activatedAt: Date | null;
  replacedAt: Date | null;
  canceledAt: Date | null;
}

export type NewDestination = Pick<
  DestinationRow,
  | 'id'
  | 'merchantId'
  | 'currency'
  | 'accountType'
  | 'countryCode'
  | 'channelId'
  | 'networkId'
  | 'bankCode'
  | 'accountNumber'
  | 'dialCode'
  | 'accountName'
  | 'nameChecked'
  | 'status'
  | 'createdBy'
  | 'effectiveAt'
  | 'createdAt'
  | 'activatedAt'
>;

const SELECT = `select d.id, d.merchant_id as "merchantId", d.currency, d.account_type as "accountType", d.country_code as "countryCode",
    d.channel_id as "channelId", d.network_id as "networkId", d.bank_code as "bankCode", d.account_number as "accountNumber",
    d.dial_code as "dialCode", d.account_name as "accountName", d.name_checked as "nameChecked", d.status,
    d.created_by as "createdBy", cu.email as "createdByEmail", d.approved_by as "approvedBy", au.email as "approvedByEmail",
    d.canceled_by as "canceledBy", xu.email as "canceledByEmail", d.effective_at as "effectiveAt", d.created_at as "createdAt",
    d.activated_at as "activatedAt", d.replaced_at as "replacedAt", d.canceled_at as "canceledAt"
  from payout_destination d
  left join app_user cu on cu.id = d.created_by
  left join app_user au on au.id = d.approved_by
  left join app_user xu on xu.id = d.canceled_by`;

/** A pending change whose cooling-off is over: it is the destination now, whether or not a read has promoted it yet. */
const DUE = `d.status = 'pending_approval' and d.effective_at <= $3`;

/** The statements of payout destinations (the service decides; this reads and writes). */
export class DestinationStore {
  constructor(private readonly sql: Sql) {}

  /** A merchant's destinations, newest first. */
  list(merchantId: string): Promise<DestinationRow[]> {
    return this.sql.query<DestinationRow>(`${SELECT} where d.merchant_id = $1 order by d.created_at desc, d.id desc`, [merchantId], 'payout_destinations');
  }

  async one(merchantId: string, id: string): Promise<DestinationRow | undefined> {
    const [row] = await this.sql.query<DestinationRow>(`${SELECT} where d.merchant_id = $1 and d.id = $2`, [merchantId, id], 'payout_destination');
    return row;
  }

  /** The active destination and a due change of one currency, in one statement (the payouts' hot path). */
  current(merchantId: string, currency: string, now: Date): Promise<DestinationRow[]> {
    return this.sql.query<DestinationRow>(
      `${SELECT} where d.merchant_id = $1 and d.currency = $2 and (d.status = 'active' or (${DUE})) order by d.status = 'active'`,
      [merchantId, currency, now],
      'payout_destination_current',
    );
  }

  /** Every merchant and currency with a destination that is active or may become so: the payout run's candidates. */
  payable(): Promise<Array<{ merchantId: string; currency: string }>> {
    return this.sql.query(
      `select distinct merchant_id as "merchantId", currency from payout_destination where status in ('active', 'pending_approval') order by 1, 2`,
      [],
      'payout_destinations_payable',
    );
  }

  /** The active destination and the pending change of one currency, locked. */
  async lockedOf(em: EntityManager, merchantId: string, currency: string): Promise<DestinationRow[]> {
    return em.execute(`${SELECT} where d.merchant_id = ? and d.currency = ? and d.status in ('active', 'pending_approval') for update of d`, [
      merchantId,
      currency,
    ]);
  }

  /** One destination of the merchant, locked (a change waits here for another's approval, cancel or promotion). */
  async locked(em: EntityManager, merchantId: string, id: string): Promise<DestinationRow | undefined> {
    const [row]: DestinationRow[] = await em.execute(`${SELECT} where d.merchant_id = ? and d.id = ? for update of d`, [merchantId, id]);
    return row;
  }

  /**
   * The merchant's changes whose cooling-off is over (of one currency, or all), locked. FOR UPDATE waits for a
   * concurrent approval or cancel and then reads the row again: a change that was approved or canceled meanwhile
   * is no longer due, so only one of them wins.
   */
  async lockedDue(em: EntityManager, merchantId: string, currency: string | null, now: Date): Promise<DestinationRow[]> {
    return em.execute(
      `${SELECT} where d.merchant_id = ? and (?::text is null or d.currency = ?) and d.status = 'pending_approval' and d.effective_at <= ?
        order by d.created_at for update of d`,
      [merchantId, currency, currency, now],
    );
  }

  async insert(em: EntityManager, d: NewDestination): Promise<void> {
    await em.execute(
      `insert into payout_destination (id, merchant_id, currency, account_type, country_code, channel_id, network_id, bank_code, account_number,
         dial_code, account_name, name_checked, status, created_by, effective_at, created_at, activated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        d.id,
        d.merchantId,
        d.currency,
        d.accountType,
        d.countryCode,
        d.channelId,
        d.networkId,
        d.bankCode,
        d.accountNumber,
        d.dialCode,
        d.accountName,
        d.nameChecked,
        d.status,
        d.createdBy,
        d.effectiveAt,
        d.createdAt,
        d.activatedAt,
      ],
    );
  }

  /** The pending change becomes the destination, the active one replaced: the old one first (one active per currency). */
  async promote(em: EntityManager, change: DestinationRow, approvedBy: string | null, now: Date): Promise<void> {
    await em.execute(`update payout_destination set status = 'replaced', replaced_at = ? where merchant_id = ? and currency = ? and status = 'active'`, [
      now,
      change.merchantId,
      change.currency,
    ]);
    await em.execute(`update payout_destination set status = 'active', approved_by = ?, activated_at = ? where id = ? and status = 'pending_approval'`, [
      approvedBy,
      now,
      change.id,
    ]);
  }

  async cancel(em: EntityManager, id: string, by: string, now: Date): Promise<void> {
    await em.execute(`update payout_destination set status = 'canceled', canceled_by = ?, canceled_at = ? where id = ? and status = 'pending_approval'`, [
      by,
      now,
      id,
    ]);
  }
}
