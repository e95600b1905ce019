import { z } from 'zod';
import type { Sql } from '../../db/sql';
import { MerchantCache } from '../../events/merchant-cache';
import type { PubSub } from '../../events/pubsub';
import { LedgerTopic } from './ledger.topics';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { Decimal, parseAmount, readPositiveDecimal, roundMoney } from '../../shared/money';
import { currencyField, upperCased } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';

/** The kinds a merchant pays a fee on (a refund gives money back and costs nothing). */
/** `dispute`: the fee of a chargeback (issue 39), held with its amount and charged when it is lost. */
export const PRICED_KINDS = ['collection', 'transfer', 'payment', 'payout', 'dispute'] as const;
export type PricedKind = (typeof PRICED_KINDS)[number];

/** A price: `percent` of the amount (rounded half-up to the currency's minor unit) plus `fixed`. */
export interface FeeRule {
  percent: Decimal;
  fixed: Decimal;
}

/** The service's default prices (FEE_DEFAULTS), per kind, for every currency; fixed parts are 0 (one figure cannot suit every currency). */
export type FeeDefaults = Record<PricedKind, Decimal>;

/** `collection:1,transfer:1,payment:1.5` → percent per kind; a kind left out keeps the built-in default. */
export function parseFeeDefaults(text: string): FeeDefaults {
  // Payouts to the merchant's own account are free unless an operator prices them (as Stripe's standard payouts are).
  // Disputes cost nothing unless an operator prices them (a fixed fee per currency: PUT /v1/admin/merchants/{id}/fees).
  const defaults: FeeDefaults = {
    collection: new Decimal(1),
    transfer: new Decimal(1),
    payment: new Decimal('1.5'),
    payout: new Decimal(0),
    dispute: new Decimal(0),
  };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(collection|transfer|payment|payout|dispute):(\d{1,2}(?:\.\d{1,4})?)$/.exec(part);
    if (!match) throw new Error(`FEE_DEFAULTS: "${part}" is not kind:percent (e.g. payment:1.5)`);
    defaults[match[1] as PricedKind] = new Decimal(match[2]!);
  }
  return defaults;
}

/** The fee for `amount` under `rule`, in a currency of `minorUnit` decimals; never more than the amount itself. */
export function feeFor(rule: FeeRule, amount: Decimal, minorUnit: number): Decimal {
  const fee = roundMoney(amount.times(rule.percent).div(100), minorUnit, 'half_up').plus(rule.fixed);
  return Decimal.min(fee, amount);
}

/** An operator's price for one merchant: a kind, optionally one currency (else every currency), percent and fixed. */
export const setFeeSchema = z.object({
  kind: z.enum(PRICED_KINDS, { error: 'must be collection, transfer, payment, payout or dispute' }),
  currency: upperCased(currencyField).nullish(),
  percent: z.unknown(),
  fixed: z.unknown().optional(),
});
export type SetFeeCommand = Command<typeof setFeeSchema>;

type Rules = Map<string, FeeRule>;

/** What FeeSchedule is built with (the composition root passes it). */
export interface FeeScheduleDeps {
  sql: Sql;
  pubsub: PubSub;
  defaults: FeeDefaults;
  minorUnitOf: (currency: string) => number | undefined;
  logger: Logger;
  /** Milliseconds since the epoch, for the cache's expiry (Date.now unless a test passes its own). */
  now?: () => number;
}

/**
 * Prices: a merchant's own rules (merchant_fee, set by an operator) over the defaults.
 * Read on every initiation, so held in memory per merchant and forgotten when an operator
 * changes them (MerchantCache: here at once, on other instances by pub/sub, after a minute at the latest).
 */
export class FeeSchedule {
  private readonly cache: MerchantCache<Rules>;
  private readonly deps: FeeScheduleDeps;

  constructor(deps: FeeScheduleDeps) {
    this.deps = deps;
    this.cache = new MerchantCache({
      pubsub: deps.pubsub,
      topic: LedgerTopic.FeeScheduleChanged,
      logger: deps.logger,
      what: 'a fee change',
      now: deps.now,
      load: async (merchantId) => {
        const rows = await deps.sql.query<{ kind: string; currency: string; percent: string; fixed: string }>(
          'select kind, currency, percent, fixed from merchant_fee where merchant_id = $1',
          [merchantId],
          'merchant_fees',
        );
        return new Map(rows.map((r) => [`${r.kind}:${r.currency.trim()}`, { percent: new Decimal(r.percent), fixed: new Decimal(r.fixed) }]));
      },
    });
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** The rule that prices `kind` in `currency` for this merchant. */
  async ruleFor(merchantId: string, kind: PricedKind, currency: string): Promise<FeeRule> {
    const rules = await this.rulesOf(merchantId);
    return rules.get(`${kind}:${currency}`) ?? rules.get(`${kind}:*`) ?? { percent: this.deps.defaults[kind], fixed: new Decimal(0) };
  }

  /** The fee this merchant pays on `amount` of `currency` for `kind`. */
  async fee(merchantId: string, kind: PricedKind, currency: string, amount: Decimal): Promise<Decimal> {
    const minorUnit = this.deps.minorUnitOf(currency);
    if (minorUnit === undefined) throw new Error(`No minor unit is known for ${currency}`);
    return feeFor(await this.ruleFor(merchantId, kind, currency), amount, minorUnit);
  }

  /** Every rule of a merchant's own (the defaults apply to the rest). */
  async list(merchantId: string): Promise<Array<{ kind: PricedKind; currency: string | null; percent: Decimal; fixed: Decimal }>> {
    const rules = await this.rulesOf(merchantId);
    return [...rules.entries()].map(([key, rule]) => {
      const [kind, currency] = key.split(':') as [PricedKind, string];
      return { kind, currency: currency === '*' ? null : currency, ...rule };
    });
  }

  /** Operator: sets one rule of a merchant's. A fixed part needs a currency (its minor unit decides its decimals). */
  async set(merchantId: string, command: SetFeeCommand): Promise<void> {
    const body = parseInput(setFeeSchema, command);
    const percent = readPercent(body.percent);
    const minorUnit = body.currency ? this.deps.minorUnitOf(body.currency) : undefined;
    if (body.currency && minorUnit === undefined) throw AppError.invalidField('currency', 'is not a supported currency');
    let fixed = new Decimal(0);
    if (!isZeroOrAbsent(body.fixed)) {
      // A fixed fee is in one currency: its minor unit decides its decimals.
      if (minorUnit === undefined) throw AppError.invalidField('fixed', 'needs a currency: a fixed fee is in one currency');
      fixed = parseAmount(body.fixed, minorUnit, 'fixed');
    }
    const result = await this.deps.sql.query(
      `insert into merchant_fee (merchant_id, kind, currency, percent, fixed, updated_at)
       select $1, $2, $3, $4, $5, now() where exists (select 1 from merchant where id = $1)
       on conflict (merchant_id, kind, currency) do update set percent = excluded.percent, fixed = excluded.fixed, updated_at = excluded.updated_at
       returning 1`,
      [merchantId, body.kind, body.currency ?? '*', percent.toFixed(), fixed.toFixed()],
    );
    if (result.length === 0) throw AppError.notFound('Merchant');
    await this.changed(merchantId);
  }

  private rulesOf(merchantId: string): Promise<Rules> {
    return this.cache.get(merchantId);
  }

  private changed(merchantId: string): Promise<void> {
    return this.cache.changed(merchantId);
  }
}

/** Absent, or written as zero ("0", "0.00", 0): what parseAmount, which wants a positive amount, would refuse. */
function isZeroOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === 0 || (typeof value === 'string' && /^\s*0+(\.0+)?\s*$/.test(value));
}

function readPercent(value: unknown): Decimal {
  if (value !== undefined && value !== null && isZeroOrAbsent(value)) return new Decimal(0);
  const percent = readPositiveDecimal(value, 'percent');
  if (percent.gte(100) || percent.decimalPlaces() > 4) throw AppError.invalidField('percent', 'must be at least 0 and below 100, with at most 4 decimals');
  return percent;
}
