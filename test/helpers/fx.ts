import { createHash } from 'node:crypto';
import DecimalJs from 'decimal.js';
import rates from '../../src/modules/rates/data/rates.json';

/**
 * The quote a test expects, worked out here from the rate table file with
 * decimal.js directly (not the service's money module): the documented rule,
 * re-implemented, so the service's arithmetic is checked against it.
 */
const D = DecimalJs.clone({ precision: 60 });

const MINOR_UNITS: Record<string, number> = { UGX: 0, RWF: 0, XOF: 0, XAF: 0 };
const minorUnitOf = (currency: string) => MINOR_UNITS[currency] ?? 2;

function movement(currency: string, at: Date): DecimalJs {
  if (currency === rates.base) return new D(1);
  const bucket = Math.floor(at.getTime() / (rates.movement_bucket_seconds * 1000));
  const steps = rates.movement_max_bps * 10;
  const hash = createHash('sha256').update(`${currency}:${bucket}`).digest().readUInt32BE(0);
  return new D(1).plus(new D((hash % (2 * steps + 1)) - steps).div(100_000));
}

export function expectedQuote(source: string, destination: string, amount: string, at: Date) {
  const mids = rates.mid as Record<string, string>;
  const sourceMid = new D(mids[source]!).times(movement(source, at));
  const destinationMid = new D(mids[destination]!).times(movement(destination, at));
  const same = source === destination;
  const rate = same
    ? new D(1)
    : destinationMid
        .div(sourceMid)
        .times(new D(1).minus(new D(rates.spread_bps).div(10_000)))
        .toDecimalPlaces(8, DecimalJs.ROUND_DOWN);
  const srcMinor = minorUnitOf(source);
  const dstMinor = minorUnitOf(destination);
  return {
    rate: rate.toFixed(),
    source_amount: new D(amount).toFixed(srcMinor),
    destination_amount: new D(amount).times(rate).toDecimalPlaces(dstMinor, DecimalJs.ROUND_DOWN).toFixed(dstMinor),
    fee: new D(amount).times(DEFAULT_TRANSFER_FEE_PERCENT).div(100).toDecimalPlaces(srcMinor, DecimalJs.ROUND_HALF_UP).toFixed(srcMinor),
  };
}

/** FEE_DEFAULTS' transfer percent when unset (FeeSchedule's built-in default). */
const DEFAULT_TRANSFER_FEE_PERCENT = '1';

/** The expected quote as REST carries it: money and rate as JSON numbers. */
export function expectedQuoteJson(source: string, destination: string, amount: string, at: Date) {
  const q = expectedQuote(source, destination, amount, at);
  return { rate: Number(q.rate), source_amount: Number(q.source_amount), destination_amount: Number(q.destination_amount), fee: Number(q.fee) };
}
