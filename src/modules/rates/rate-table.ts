import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Decimal, roundMoney } from '../../shared/money';
import { feeFor, type FeeRule } from '../ledger/fee-schedule';
import ratesFile from './data/rates.json';

/** Decimals a rate is shown (and applied) with. */
const RATE_DECIMALS = 8;

/** The sandbox's reference rates (./data/rates.json), parsed. */
export interface RateTable {
  base: string;
  /** Units of each currency per 1 unit of `base`. */
  mid: ReadonlyMap<string, Decimal>;
  /** Taken off the cross mid rate, in basis points. */
  spreadBps: Decimal;
  /** Largest deterministic drift of a mid rate away from the table, in basis points. */
  movementMaxBps: number;
  /** Rates hold still within one bucket of this many seconds. */
  bucketSeconds: number;
}

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string');
const rateFileSchema = z.object({
  base: z.string().regex(/^[A-Z]{3}$/),
  spread_bps: z.number().int().min(0).max(10_000),
  movement_max_bps: z.number().int().min(0).max(1_000),
  movement_bucket_seconds: z.number().int().min(1),
  mid: z.record(z.string().regex(/^[A-Z]{3}$/), decimalString),
});

export function readRateTable(content: unknown = ratesFile): RateTable {
  const parsed = rateFileSchema.safeParse(content);
  if (!parsed.success) {
    throw new Error(`Rate table rates.json is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const file = parsed.data;
  const mid = new Map(Object.entries(file.mid).map(([code, value]) => [code, new Decimal(value)]));
  if (!mid.get(file.base)?.eq(1)) throw new Error(`Rate table rates.json: the base currency ${file.base} must have a mid rate of 1`);
  for (const [code, value] of mid) if (!value.gt(0)) throw new Error(`Rate table rates.json: the mid rate of ${code} must be > 0`);
  return {
    base: file.base,
    mid,
    spreadBps: new Decimal(file.spread_bps),
    movementMaxBps: file.movement_max_bps,
    bucketSeconds: file.movement_bucket_seconds,
  };
}

/** The time bucket `at` falls in: the same bucket always gives the same rates. */
export function movementBucket(table: RateTable, at: Date): number {
  return Math.floor(at.getTime() / (table.bucketSeconds * 1000));
}

/**
 * The sandbox's market movement: each currency's mid rate drifts from the table
 * by a whole number of tenths of a basis point within ±movementMaxBps, picked by
 * a hash of the currency and the time bucket. Deterministic (no Math.random, no
 * floats): the same bucket always gives the same rate. The base currency does not
 * move, and each currency moves on its own rather than each pair, so every cross
 * rate of one bucket comes from the same mids and quotes never disagree with each
 * other (no triangular arbitrage between quotes).
 */
export function movementFactor(table: RateTable, currency: string, at: Date): Decimal {
  if (currency === table.base || table.movementMaxBps === 0) return new Decimal(1);
  const steps = table.movementMaxBps * 10;
  const digest = createHash('sha256')
    .update(`${currency}:${movementBucket(table, at)}`)
    .digest();
  const offset = (digest.readUInt32BE(0) % (2 * steps + 1)) - steps;
  return new Decimal(1).plus(new Decimal(offset).div(100_000));
}

/** Units of `currency` per unit of the base currency at `at`; undefined when the table has no rate for it. */
function midRate(table: RateTable, currency: string, at: Date): Decimal | undefined {
  const mid = table.mid.get(currency);
  return mid?.times(movementFactor(table, currency, at));
}

export interface QuoteRequest {
  sourceCurrency: string;
  destinationCurrency: string;
  /** Already validated: positive, within the source currency's minor unit. */
  sourceAmount: Decimal;
  sourceMinorUnit: number;
  destinationMinorUnit: number;
  at: Date;
  /** The merchant's price for a transfer in the source currency (FeeSchedule). */
  feeRule: FeeRule;
}

export interface QuoteFigures {
  /** Cross mid rate before the spread, full precision. */
  midRate: Decimal;
  /** Destination units per source unit, after the spread, rounded down to RATE_DECIMALS. */
  rate: Decimal;
  /** sourceAmount × rate, rounded down to the destination minor unit: never pay out more than is covered. */
  destinationAmount: Decimal;
  /** The fee rule's percent of sourceAmount, rounded half-up to the source minor unit, plus its fixed part. */
  fee: Decimal;
}

/**
 * Prices a conversion. Cross rates go through the base: mid = mid(dst) / mid(src).
 * The rate is the mid less the spread, rounded down to 8 decimals, and the
 * destination amount is computed from that shown rate, so a client can check
 * source × rate itself. Same currency on both sides: rate 1, no spread.
 */
export function priceQuote(table: RateTable, request: QuoteRequest): QuoteFigures {
  const { sourceCurrency, destinationCurrency, sourceAmount, at } = request;
  const sourceMid = midRate(table, sourceCurrency, at);
  const destinationMid = midRate(table, destinationCurrency, at);
  if (!sourceMid || !destinationMid) throw new Error(`No rate for ${sourceCurrency}/${destinationCurrency}`);
  const mid = sourceCurrency === destinationCurrency ? new Decimal(1) : destinationMid.div(sourceMid);
  const spread = sourceCurrency === destinationCurrency ? new Decimal(0) : table.spreadBps.div(10_000);
  const rate = mid.times(new Decimal(1).minus(spread)).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN);
  return {
    midRate: mid,
    rate,
    destinationAmount: roundMoney(sourceAmount.times(rate), request.destinationMinorUnit, 'down'),
    fee: feeFor(request.feeRule, sourceAmount, request.sourceMinorUnit),
  };
}
