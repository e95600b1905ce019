import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { uniqueViolation } from '../../../db/sql';
import type { Orm } from '../../../db/orm';
import type { Sql } from '../../../db/sql';
import type { Clock } from '../../../shared/clock';
import { timeOrderedBytes } from '../../../shared/crypto';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { PublicAddress } from '../../../shared/public-address';
import { parseInput, type Command } from '../../../shared/validation';
import { assertPermitted } from '../../access/permissions';
import type { AuditLog } from '../../audit/audit-log';
import type { AuthContext } from '../../auth/access-tokens';
import type { Mailer } from '../../mail/mailer';
import { namesMatch } from '../../payees/name-match';
import { resolveAccountSchema, type PayeesService } from '../../payees/payees.service';
import type { ReferenceService } from '../../reference/reference.service';
import type { ChannelType } from '../../reference/reference.types';
import { assertPerson, type Acting } from '../../team/team.rules';
import { DestinationAudit } from './destination.audit';
import { notifyOwners } from './destination.mail';
import { changeEffectiveAt, maskedAccount, PAYOUT_ROLES } from './destination.rules';
import { DestinationStore, type DestinationRow } from './destination.store';
import { DestinationViews, type PayoutDestination } from './destination.view';

/** What payouts read: the destination payouts in a currency go to now. */
export interface ActiveDestination {
  id: string;
  merchantId: string;
  currency: string;
  accountType: ChannelType;
  countryCode: string;
  channelId: string;
  networkId: string;
  /** The bank's local code (Nigeria's CBN/NIP code…) where the account was given by one; null otherwise. */
  bankCode: string | null;
  accountNumber: string;
  dialCode: string;
  accountName: string;
  masked: string;
}

export const addDestinationSchema = resolveAccountSchema.extend({
  currency: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code, e.g. NGN')
    .transform((c) => c.toUpperCase())
    .nullish(),
});
export type AddDestinationCommand = Command<typeof addDestinationSchema>;

const DESTINATION_ID = /^pdest_[A-Za-z0-9_-]{24}$/;
const newDestinationId = () => `pdest_${timeOrderedBytes(18).toString('base64url')}`;

export interface PayoutDestinationServiceDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  logger: Logger;
  audit: AuditLog;
  mailer: Mailer;
  publicAddress: PublicAddress;
  payees: PayeesService;
  reference: ReferenceService;
}

interface Member {
  userId: string;
  email: string;
  role: string;
}

/**
 * Where a merchant's payouts go, per currency (docs/payouts.md, Destinations): a bank account or a wallet whose
 * holder's name is the business's. The first in a currency takes effect at once; a change waits for a second
 * member with payouts:manage (maker-checker), or, when the maker is the only one, for a 24-hour cooling-off with
 * every owner and admin emailed. Each step is audited in the transaction that makes it.
 */
export class PayoutDestinationService {
  private readonly store: DestinationStore;
  private readonly trail: DestinationAudit;
  private readonly views: DestinationViews;

  constructor(private readonly deps: PayoutDestinationServiceDeps) {
    this.store = new DestinationStore(deps.sql);
    this.trail = new DestinationAudit(deps.audit);
    this.views = new DestinationViews(deps.reference);
  }

  /** The destination payouts in `currency` go to now (the approved one), or null. One statement, unless a cooled-off change is promoted now. */
  async activeDestination(merchantId: string, currency: string): Promise<ActiveDestination | null> {
    const rows = await this.store.current(merchantId, currency, this.deps.clock.now());
    if (rows.some((r) => r.status === 'pending_approval')) {
      await this.promoteDue(merchantId, currency);
      return this.activeOf(await this.store.current(merchantId, currency, this.deps.clock.now()));
    }
    return this.activeOf(rows);
  }

  /** Every merchant and currency with a destination that is active or may become so (the payout run's candidates). */
  payable(): Promise<Array<{ merchantId: string; currency: string }>> {
    return this.store.payable();
  }

  private activeOf(rows: DestinationRow[]): ActiveDestination | null {
    const row = rows.find((r) => r.status === 'active');
    if (!row) return null;
    const { id, merchantId, currency, accountType, countryCode, channelId, networkId, bankCode, accountNumber, dialCode, accountName } = row;
    return {
      id,
      merchantId,
      currency,
      accountType,
      countryCode,
      channelId,
      networkId,
      bankCode,
      accountNumber,
      dialCode,
      accountName,
      masked: this.views.masked(row),
    };
  }

  async list(auth: AuthContext): Promise<PayoutDestination[]> {
    let rows = await this.store.list(auth.merchantId);
    if (rows.some((r) => this.due(r))) {
      await this.promoteDue(auth.merchantId, null);
      rows = await this.store.list(auth.merchantId);
    }
    return rows.map((r) => this.views.view(r));
  }

  async get(auth: AuthContext, id: string): Promise<PayoutDestination> {
    const found = await this.find(auth.merchantId, id);
    if (!this.due(found)) return this.views.view(found);
    await this.promoteDue(auth.merchantId, found.currency);
    return this.views.view(await this.find(auth.merchantId, id));
  }

  /**
   * Adds a destination: the account is read as account resolution reads it, its holder named by the provider and
   * checked against the business name (422 BENEFICIARY_NAME_MISMATCH stores nothing), then stored active (the
   * currency's first) or pending approval (a change).
   */
  async add({ auth, origin }: Acting, command: AddDestinationCommand): Promise<PayoutDestination> {
    assertPerson(auth);
    const body = parseInput(addDestinationSchema, command);
    const target = this.deps.payees.accountTarget({ country: body.country, bankCode: body.bankCode, network: body.network, accountNumber: body.accountNumber });
    const { country, network } = target;
    const field = body.bankCode != null ? 'bankCode' : 'network';
    if (!network) throw AppError.invalidField(field, 'is a bank payouts cannot reach yet (listed by code only: GET /v1/banks shows no network_id)');
    if (body.currency != null && body.currency !== country.currency)
      throw AppError.invalidField('currency', `must be ${country.currency}, ${country.code}’s currency`);
    const channel = this.deps.reference.channels(country.code, 'withdrawal').find((c) => c.channelType === network.channelType && c.status === 'active');
    if (!channel) throw AppError.invalidField(field, `cannot be paid out to here: no ${network.channelType} payouts in ${country.code}`);
    await this.assertNoPendingChange(auth.merchantId, country.currency);
    const merchantName = await this.merchantName(auth.merchantId);
    const accountName = await this.deps.payees.holderName(target);
    const nameChecked = merchantName.trim() !== '';
    if (nameChecked && !namesMatch(merchantName, accountName)) {
      throw new AppError(
        'BENEFICIARY_NAME_MISMATCH',
        `The account is held in another name than your business’s (the provider says "${accountName}"); nothing was stored`,
      );
    }
    const now = this.deps.clock.now();
    const id = newDestinationId();
    await this.transaction(auth, async (em, team) => {
      await this.promoteDueOn(em, auth.merchantId, country.currency);
      const current = await this.store.lockedOf(em, auth.merchantId, country.currency);
      if (current.some((r) => r.status === 'pending_approval')) throw pendingExists(country.currency);
      const isChange = current.some((r) => r.status === 'active');
      const payoutMembers = team.filter((m) => PAYOUT_ROLES.includes(m.role as never)).length;
      const effectiveAt = isChange ? changeEffectiveAt(payoutMembers, now) : now;
      const row = {
        id,
        merchantId: auth.merchantId,
        currency: country.currency,
        accountType: network.channelType,
        countryCode: country.code,
        channelId: channel.id,
        networkId: network.id,
        bankCode: target.bankCode,
        accountNumber: target.accountNumber,
        dialCode: country.dialCode,
        accountName,
        nameChecked,
        status: isChange ? ('pending_approval' as const) : ('active' as const),
        createdBy: auth.actorId,
        effectiveAt,
        createdAt: now,
        activatedAt: isChange ? null : now,
      };
      await this.store.insert(em, row);
      const shown = { currency: row.currency, account: maskedAccount(network.name, row.accountNumber), account_name: accountName, status: row.status };
      await this.trail.added(em, auth, origin, id, shown);
      if (!isChange) return;
      await this.trail.approvalRequested(em, auth, origin, id, { ...shown, cooling_off_until: effectiveAt?.toISOString() ?? null });
      if (!effectiveAt) return;
      // Sent before the change commits: a lone member's change that no owner or admin was told of must not stand.
      const maker = team.find((m) => m.userId === auth.actorId)?.email ?? 'A team member';
      await notifyOwners(this.deps, team, { merchantName, maker, account: shown.account, accountName, currency: row.currency, effectiveAt });
    });
    return this.views.view(await this.find(auth.merchantId, id));
  }

  /** A second member with payouts:manage approves a pending change: it becomes the destination, the old one replaced. */
  async approve({ auth, origin }: Acting, id: string): Promise<PayoutDestination> {
    assertPerson(auth);
    const destinationId = parseDestinationId(id);
    await this.transaction(auth, async (em) => {
      const change = await this.pendingChange(em, auth.merchantId, destinationId);
      if (change.createdBy === auth.actorId) throw AppError.forbidden('You made this change: another member with payouts:manage must approve it');
      const now = this.deps.clock.now();
      await this.store.promote(em, change, auth.actorId, now);
      await this.trail.approved(em, auth, origin, change.id, {
        currency: change.currency,
        account: this.views.masked(change),
        account_name: change.accountName,
      });
    });
    return this.views.view(await this.find(auth.merchantId, destinationId));
  }

  /** The maker or another member with payouts:manage cancels a pending change: the current destination stays. */
  async cancel({ auth, origin }: Acting, id: string): Promise<PayoutDestination> {
    assertPerson(auth);
    const destinationId = parseDestinationId(id);
    await this.transaction(auth, async (em) => {
      const change = await this.pendingChange(em, auth.merchantId, destinationId);
      await this.store.cancel(em, change.id, auth.actorId, this.deps.clock.now());
      await this.trail.canceled(em, auth, origin, change.id, {
        currency: change.currency,
        account: this.views.masked(change),
        account_name: change.accountName,
      });
    });
    return this.views.view(await this.find(auth.merchantId, destinationId));
  }

  /** A pending change of the merchant, locked; cooled-off changes are promoted first (so they are no longer pending). */
  private async pendingChange(em: EntityManager, merchantId: string, id: string): Promise<DestinationRow> {
    await this.promoteDueOn(em, merchantId, null);
    const change = await this.store.locked(em, merchantId, id);
    if (!change) throw AppError.notFound('Payout destination');
    if (change.status !== 'pending_approval')
      throw new AppError('INVALID_STATE', `This destination is ${change.status.replace('_', ' ')}, not a change pending approval`);
    return change;
  }

  /** Promotes the merchant's cooled-off changes, each exactly once (lockedDue), audited with the system as actor. */
  private async promoteDue(merchantId: string, currency: string | null): Promise<void> {
    await this.deps.orm.em.fork().transactional((em) => this.promoteDueOn(em, merchantId, currency));
  }

  private async promoteDueOn(em: EntityManager, merchantId: string, currency: string | null): Promise<void> {
    const now = this.deps.clock.now();
    for (const change of await this.store.lockedDue(em, merchantId, currency, now)) {
      await this.store.promote(em, change, null, now);
      await this.trail.activated(em, merchantId, change.id, {
        currency: change.currency,
        account: this.views.masked(change),
        cooling_off_ended_at: change.effectiveAt,
      });
    }
  }

  /**
   * Runs `change` with the team's memberships held (FOR SHARE: a role change waits, so "the only member with
   * payouts:manage" stays true until commit): the caller must still be a member whose role holds payouts:manage.
   */
  private async transaction<T>(auth: AuthContext, change: (em: EntityManager, team: Member[]) => Promise<T>): Promise<T> {
    try {
      return await this.deps.orm.em.fork().transactional(async (em) => {
        const team: Member[] = await em.execute(
          `select m.user_id as "userId", u.email, m.role from membership m join app_user u on u.id = m.user_id
            where m.merchant_id = ? order by m.id for share of m`,
          [auth.merchantId],
        );
        const actor = team.find((m) => m.userId === auth.actorId);
        if (!actor) throw AppError.forbidden('You are no longer a member of this merchant');
        assertPermitted({ role: actor.role as never, kind: 'user', enrolmentOnly: auth.enrolmentOnly }, 'payouts:manage');
        return change(em, team);
      });
    } catch (err) {
      // Two changes of one currency at once: the partial unique indexes let one through.
      if (uniqueViolation(err)?.startsWith('payout_destination_one_'))
        throw new AppError('INVALID_STATE', 'Another change of this destination was made at the same moment; look again and retry');
      throw err;
    }
  }

  /** Before the provider is asked: a change still pending (not cooled off) blocks another. The transaction checks again. */
  private async assertNoPendingChange(merchantId: string, currency: string): Promise<void> {
    const [pending] = await this.deps.sql.query<{ id: string }>(
      `select id from payout_destination
        where merchant_id = $1 and currency = $2 and status = 'pending_approval' and (effective_at is null or effective_at > $3)`,
      [merchantId, currency, this.deps.clock.now()],
      'payout_destination_pending',
    );
    if (pending) throw pendingExists(currency);
  }

  private async merchantName(merchantId: string): Promise<string> {
    const [row] = await this.deps.sql.query<{ name: string }>('select name from merchant where id = $1', [merchantId], 'merchant_name');
    if (!row) throw AppError.notFound('Merchant');
    return row.name;
  }

  private async find(merchantId: string, id: string): Promise<DestinationRow> {
    const row = await this.store.one(merchantId, parseDestinationId(id));
    if (!row) throw AppError.notFound('Payout destination');
    return row;
  }

  private due(row: DestinationRow): boolean {
    return row.status === 'pending_approval' && row.effectiveAt !== null && row.effectiveAt <= this.deps.clock.now();
  }
}

function pendingExists(currency: string): AppError {
  return new AppError('INVALID_STATE', `A change of the ${currency} destination is already pending approval: approve or cancel it first`);
}

/** 404 for anything that is not a destination's id (the same answer as another merchant's). */
function parseDestinationId(id: string): string {
  if (typeof id !== 'string' || !DESTINATION_ID.test(id)) throw AppError.notFound('Payout destination');
  return id;
}
