import { createHash } from 'node:crypto';
import ratesFile from '../../src/modules/rates/data/rates.json';
import { movementBucket, movementFactor, priceQuote, readRateTable, type RateTable } from '../../src/modules/rates/rate-table';
import { readReferenceData } from '../../src/modules/reference/reference.data';
import { Decimal } from '../../src/shared/money';

const AT = new Date('2026-11-22T12:00:00Z');

/** A table without movement, so the arithmetic can be checked by hand. */
function flatTable(overrides: Partial<RateTable> = {}): RateTable {
  return {
    base: 'USD',
    mid: new Map([
      ['USD', new Decimal(1)],
      ['KES', new Decimal('129.10')],
      ['UGX', new Decimal('3620')],
      ['XOF', new Decimal('568.50')],
      ['GBP', new Decimal('0.7450')],
    ]),
    spreadBps: new Decimal(75),
    movementMaxBps: 0,
    bucketSeconds: 60,
    ...overrides,
  };
}

const price = (table: RateTable, src: string, dst: string, amount: string, srcMinor = 2, dstMinor = 2, at = AT) =>
  priceQuote(table, {
    sourceCurrency: src,
    destinationCurrency: dst,
    sourceAmount: new Decimal(amount),
    sourceMinorUnit: srcMinor,
    destinationMinorUnit: dstMinor,
    at,
    feeRule: { percent: new Decimal('1.00'), fixed: new Decimal(0) },
  });

describe('the rate table file', () => {
  const table = readRateTable();

  it('prices every currency of every supported country, with USD as the base', () => {
    const { currencies } = readReferenceData();
    expect(table.base).toBe('USD');
    for (const currency of currencies) expect(table.mid.get(currency.code)?.gt(0)).toBe(true);
    expect(table.mid.get('USD')!.eq(1)).toBe(true);
  });

  it('moves at most ±0.5 % and keeps a positive spread', () => {
    expect(table.movementMaxBps).toBe(50);
    expect(table.spreadBps.gt(0)).toBe(true);
    expect(ratesFile.movement_bucket_seconds).toBe(60);
  });

  it('refuses a malformed table', () => {
    expect(() => readRateTable({ ...ratesFile, mid: { ...ratesFile.mid, USD: '2' } })).toThrow(/base currency USD/);
    expect(() => readRateTable({ ...ratesFile, mid: { ...ratesFile.mid, KES: '1e2' } })).toThrow(/rates.json is invalid/);
    expect(() => readRateTable({ ...ratesFile, spread_bps: -1 })).toThrow(/rates.json is invalid/);
  });
});

describe('priceQuote', () => {
  it('takes the spread off the mid, rounds the rate down to 8 decimals and the destination down to its minor unit', () => {
    const figures = price(flatTable(), 'USD', 'KES', '100');
    // 129.10 × 0.9925 = 128.13175
    expect(figures.midRate.toFixed()).toBe('129.1');
    expect(figures.rate.toFixed()).toBe('128.13175');
    expect(figures.destinationAmount.toFixed()).toBe('12813.17');
    expect(figures.fee.toFixed()).toBe('1');
  });

  it('crosses through the base currency', () => {
    const figures = price(flatTable(), 'KES', 'UGX', '1000', 2, 0);
    // 3620 / 129.10 × 0.9925 = 27.82997676...
    const expected = new Decimal(3620).div('129.10').times('0.9925').toDecimalPlaces(8, Decimal.ROUND_DOWN);
    expect(figures.rate.toFixed()).toBe(expected.toFixed());
    expect(figures.rate.toFixed()).toBe('27.82997676');
    expect(figures.destinationAmount.toFixed()).toBe('27829');
    expect(figures.fee.toFixed()).toBe('10');
  });

  it('never gives decimals to currencies without minor units', () => {
    const ugx = price(flatTable(), 'USD', 'UGX', '99.99', 2, 0);
    expect(ugx.destinationAmount.decimalPlaces()).toBe(0);
    const xof = price(flatTable(), 'GBP', 'XOF', '10.01', 2, 0);
    expect(xof.destinationAmount.decimalPlaces()).toBe(0);
    const fromXof = price(flatTable(), 'XOF', 'KES', '12345', 0, 2);
    expect(fromXof.fee.toFixed()).toBe('123'); // 123.45 rounded half-up to whole francs
  });

  it('rounds the destination down (never pays out more than covered) and the fee half-up', () => {
    // 0.01 USD × 128.13175 = 1.2813175 KES → 1.28; fee 0.0001 → 0.00
    const tiny = price(flatTable(), 'USD', 'KES', '0.01');
    expect(tiny.destinationAmount.toFixed()).toBe('1.28');
    expect(tiny.fee.toFixed()).toBe('0');
    // fee 1 % of 0.50 = 0.005 → 0.01 (half-up)
    expect(price(flatTable(), 'USD', 'KES', '0.5').fee.toFixed()).toBe('0.01');
  });

  it('uses rate 1 without a spread for the same currency on both sides', () => {
    const same = price(flatTable(), 'KES', 'KES', '250.55');
    expect(same.rate.toFixed()).toBe('1');
    expect(same.destinationAmount.toFixed()).toBe('250.55');
    expect(same.fee.toFixed()).toBe('2.51');
  });

  it('throws for a currency the table does not price', () => {
    expect(() => price(flatTable(), 'USD', 'EUR', '1')).toThrow(/No rate/);
  });
});

describe('movement', () => {
  const table = readRateTable();

  it('is the same within a minute bucket and for the same bucket on another day of computing it', () => {
    const start = new Date('2026-11-22T12:00:00.000Z');
    const end = new Date('2026-11-22T12:00:59.999Z');
    expect(movementBucket(table, start)).toBe(movementBucket(table, end));
    expect(movementFactor(table, 'KES', start).eq(movementFactor(table, 'KES', end))).toBe(true);
    expect(price(table, 'USD', 'KES', '100', 2, 2, start)).toEqual(price(table, 'USD', 'KES', '100', 2, 2, end));
  });

  it('follows the documented hash: ±(tenths of a basis point) from sha256("<currency>:<bucket>")', () => {
    const bucket = movementBucket(table, AT);
    const offset = (createHash('sha256').update(`KES:${bucket}`).digest().readUInt32BE(0) % 1001) - 500;
    expect(movementFactor(table, 'KES', AT).toFixed()).toBe(new Decimal(1).plus(new Decimal(offset).div(100_000)).toFixed());
  });

  it('never moves the base and stays within ±0.5 % for every currency over a day of buckets', () => {
    const lower = new Decimal('0.995');
    const upper = new Decimal('1.005');
    const seen = new Set<string>();
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      const at = new Date(AT.getTime() + minute * 60_000);
      expect(movementFactor(table, 'USD', at).eq(1)).toBe(true);
      for (const currency of ['KES', 'NGN', 'UGX', 'XOF']) {
        const factor = movementFactor(table, currency, at);
        expect(factor.gte(lower) && factor.lte(upper)).toBe(true);
        if (currency === 'KES') seen.add(factor.toFixed());
      }
    }
    expect(seen.size).toBeGreaterThan(100); // it does move from bucket to bucket
  });

  it('keeps cross rates consistent: A→B from the same mids as A→USD→B', () => {
    const kesUsd = price(table, 'KES', 'USD', '1', 2, 2).midRate;
    const usdUgx = price(table, 'USD', 'UGX', '1', 2, 0).midRate;
    const kesUgx = price(table, 'KES', 'UGX', '1', 2, 0).midRate;
    expect(kesUsd.times(usdUgx).toDecimalPlaces(20).eq(kesUgx.toDecimalPlaces(20))).toBe(true);
  });
});
