import { useEffect, useState } from 'react';
import { useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { ActivityQuery } from '../generated/graphql';
import { decimalsOf, formatAmount, inCurrency, isZero, sum } from '../money';
import { Empty, ErrorText, Loading } from '../ui';
import { BALANCE_CHANGED, BALANCES, withBalance, type BalanceRow } from './ledger.gql';
import { OpenDisputesBanner } from './Disputes';
import { NextPayouts } from './NextPayouts';

type ActivityData = ActivityQuery['activity'];
type Day = ActivityData['days'][number];

const DAYS = 30;
const ACTIVITY = graphql(`
  query Activity($days: Int) {
    activity(days: $days) {
      days {
        day
        currency
        collected
        paidOut
      }
      finalCount
      successfulCount
      successRate
    }
  }
`);

/** A UTC day (YYYY-MM-DD) as the browser's locale writes a date ("27 Nov 2026" in en-GB). */
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const showDay = (day: string | undefined) => (day ? DAY.format(new Date(`${day}T00:00:00Z`)) : '');

/** YYYY-MM-DD (UTC, as the activity's days are) of a time. */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The `count` UTC days ending with `last`, oldest first. */
function dayRange(last: string, count: number): string[] {
  const end = new Date(`${last}T00:00:00Z`).getTime();
  return Array.from({ length: count }, (_, i) => utcDay(new Date(end - (count - 1 - i) * 86_400_000)));
}

/** Only the currencies holding anything; every one when all are zero. */
function shownBalances(balances: BalanceRow[]): BalanceRow[] {
  const holding = balances.filter((b) => !isZero(b.available) || !isZero(b.pending) || !isZero(b.reserved) || !isZero(b.disputed) || !isZero(b.owed));
  return holding.length > 0 ? holding : balances;
}

/** Currencies by their volume (collected + paid out) in the period, most first; those without any after, as listed. */
function byVolume(days: Day[], others: string[]): string[] {
  const volume = new Map<string, number>();
  for (const d of days) volume.set(d.currency, (volume.get(d.currency) ?? 0) + Number(d.collected) + Number(d.paidOut));
  const active = [...volume.entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const seen = new Set(active.map(([c]) => c));
  return [...active.map(([c]) => c), ...others.filter((c) => !seen.has(c))];
}

function Balances({ balances }: { balances: BalanceRow[] }) {
  if (balances.length === 0) return <Empty>No balance yet: money you collect is credited here.</Empty>;
  return (
    <ul className="balances" aria-label="Balances">
      {shownBalances(balances).map((b) => (
        <li key={b.currency} className="card balance" data-currency={b.currency} aria-labelledby={`bal-${b.currency}`}>
          <h4 id={`bal-${b.currency}`}>{b.currency}</h4>
          <dl>
            <div className="available">
              <dt>Available</dt>
              <dd>{formatAmount(b.available)}</dd>
            </div>
            <div>
              <dt>Pending</dt>
              <dd>{formatAmount(b.pending)}</dd>
            </div>
            <div>
              <dt>Reserved</dt>
              <dd>{formatAmount(b.reserved)}</dd>
            </div>
            {/* Shown only when a chargeback holds money, or left a debt (docs/disputes.md). */}
            {!isZero(b.disputed) && (
              <div className="disputed">
                <dt>Disputed</dt>
                <dd>{formatAmount(b.disputed)}</dd>
              </div>
            )}
            {!isZero(b.owed) && (
              <div className="owed">
                <dt>Owed</dt>
                <dd>{formatAmount(b.owed)}</dd>
              </div>
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** SVG geometry, in viewBox units: one slot per day, two bars in each (collected, paid out). */
const SLOT = 20;
const PLOT = 160;
const BAR = 7.5;

/** `decimals`: the currency's, for totals of a period without any volume. */
function VolumeChart({ days, currency, decimals }: { days: Day[]; currency: string; decimals: number }) {
  const mine = days.filter((d) => d.currency === currency);
  const byDay = new Map(mine.map((d) => [d.day, d]));
  // The service's clock decides the days: the window ends today, or on its latest day if that is later.
  const latest = mine.reduce((max, d) => (d.day > max ? d.day : max), utcDay(new Date()));
  const range = dayRange(latest, DAYS);
  const inRange = range.map((day) => byDay.get(day)).filter((d): d is Day => d !== undefined);
  const scale = Math.max(decimals, ...inRange.map((d) => decimalsOf(d.collected)));
  const collected = sum(
    inRange.map((d) => d.collected),
    scale,
  );
  const paidOut = sum(
    inRange.map((d) => d.paidOut),
    scale,
  );
  const top = Math.max(0, ...inRange.map((d) => Math.max(Number(d.collected), Number(d.paidOut))));
  const height = (value: string) => {
    const v = Number(value);
    return v <= 0 || top === 0 ? 0 : Math.max(1.5, (v / top) * PLOT);
  };
  const peak = inRange.reduce<Day | null>(
    (best, d) => (!best || Number(d.collected) + Number(d.paidOut) > Number(best.collected) + Number(best.paidOut) ? d : best),
    null,
  );
  const summary = `Collected ${inCurrency(collected, currency)} and paid out ${inCurrency(paidOut, currency)} from ${range[0]} to ${range.at(-1)}.`;

  return (
    <figure className="chart">
      <p className="totals" data-testid="volume-totals">
        <span>
          <span className="swatch swatch-in" aria-hidden="true" /> Collected <strong>{inCurrency(collected, currency)}</strong>
        </span>
        <span>
          <span className="swatch swatch-out" aria-hidden="true" /> Paid out <strong>{inCurrency(paidOut, currency)}</strong>
        </span>
      </p>
      <svg viewBox={`0 0 ${SLOT * DAYS} ${PLOT + 2}`} role="img" aria-label={`Daily volume in ${currency}. ${summary}`} preserveAspectRatio="none">
        <line className="axis" x1={0} x2={SLOT * DAYS} y1={PLOT + 1} y2={PLOT + 1} />
        {range.map((day, i) => {
          const d = byDay.get(day);
          if (!d) return null;
          const hIn = height(d.collected);
          const hOut = height(d.paidOut);
          return (
            <g key={day}>
              <title>{`${day}: collected ${inCurrency(d.collected, currency)}, paid out ${inCurrency(d.paidOut, currency)}`}</title>
              {hIn > 0 && <rect className="bar-in" x={i * SLOT + 2} y={PLOT - hIn} width={BAR} height={hIn} />}
              {hOut > 0 && <rect className="bar-out" x={i * SLOT + 2 + BAR + 1} y={PLOT - hOut} width={BAR} height={hOut} />}
            </g>
          );
        })}
      </svg>
      <div className="chart-axis muted" aria-hidden="true">
        <span>{showDay(range[0])}</span>
        <span>{showDay(range.at(-1))}</span>
      </div>
      <figcaption className="muted">
        Each day (UTC): successful collections and card payments in, transfers and refunds out.
        {peak && ` Busiest day: ${showDay(peak.day)}.`} {top > 0 && `The tallest bar is ${inCurrency(formatTop(inRange), currency)}.`}
      </figcaption>
      {inRange.length > 0 && (
        <details>
          <summary>The figures, day by day</summary>
          <div className="scroll">
            <table>
              <caption className="sr-only">Daily volume in {currency}</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" className="num">
                    Collected
                  </th>
                  <th scope="col" className="num">
                    Paid out
                  </th>
                </tr>
              </thead>
              <tbody>
                {inRange.map((d) => (
                  <tr key={d.day}>
                    <td>{showDay(d.day)}</td>
                    <td className="num">{formatAmount(d.collected)}</td>
                    <td className="num">{formatAmount(d.paidOut)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}

/** The largest single bar's amount, as the API wrote it. */
function formatTop(days: Day[]): string {
  let best = '0';
  for (const d of days) for (const v of [d.collected, d.paidOut]) if (Number(v) > Number(best)) best = v;
  return best;
}

function SuccessRate({ activity }: { activity: ActivityData }) {
  if (activity.successRate == null || activity.finalCount === 0) {
    return <p className="muted">No transaction reached a final status in the last {DAYS} days.</p>;
  }
  const n = activity.finalCount;
  return (
    <p data-testid="success-rate">
      <strong className="big">{(activity.successRate * 100).toFixed(1)} %</strong> of {n} final transaction{n === 1 ? '' : 's'} succeeded (
      {activity.successfulCount} successful, {n - activity.successfulCount} failed or expired).
    </p>
  );
}

/** The balances heard live: the latest of each currency, and the last one heard. */
interface Live {
  last: BalanceRow;
  balances: BalanceRow[];
}

/** The landing page: balances, the next payouts, 30 days of volume and the success rate, kept current by balanceChanged. */
export function Overview() {
  const [chosen, setChosen] = useState<string | null>(null);
  const [{ data: read, error }] = useQuery({ query: BALANCES });
  const [activity, reloadActivity] = useQuery({ query: ACTIVITY, variables: { days: DAYS } });
  // Live: every balance heard, the latest of each currency; they win over the read (even one heard before it answered).
  const [{ data: live }] = useSubscription({ query: BALANCE_CHANGED, variables: { currency: null } }, (heard: Live | undefined, { balanceChanged: b }) => ({
    last: b,
    balances: withBalance(heard?.balances ?? [], b),
  }));
  const balances = read ? (live ? live.balances.reduce(withBalance, read.balances) : read.balances) : null;
  const b = live?.last;
  const announce = b ? `${b.currency} balance changed: ${inCurrency(b.available, b.currency)} available` : '';

  // The activity is read again once a burst of balance changes is over.
  useEffect(() => {
    if (!live) return undefined;
    const timer = setTimeout(reloadActivity, 300);
    return () => clearTimeout(timer);
  }, [live, reloadActivity]);

  const days = activity.data?.activity.days ?? [];
  const currencies = byVolume(
    days,
    (balances ?? []).map((b) => b.currency),
  );
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? null);

  return (
    <section aria-labelledby="ov-title">
      <h2 id="ov-title">Overview</h2>
      <OpenDisputesBanner />
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <h3>Balances</h3>
      <ErrorText error={error} />
      {balances === null && !error && <Loading what="balances" />}
      {balances && <Balances balances={balances} />}
      {balances && <NextPayouts balances={balances} />}

      <div className="grid overview-grid">
        <section className="card" aria-labelledby="vol-title">
          <h3 id="vol-title">Volume, last {DAYS} days</h3>
          <ErrorText error={activity.error} />
          {!activity.data && !activity.error && <Loading what="activity" />}
          {activity.data && currency && (
            <>
              <form className="filters" aria-label="Chart currency" onSubmit={(e) => e.preventDefault()}>
                <label>
                  Currency
                  <select value={currency} onChange={(e) => setChosen(e.target.value)}>
                    {currencies.map((c) => (
                      <option key={c}>{c}</option>
                    ))}
                  </select>
                </label>
              </form>
              <VolumeChart days={days} currency={currency} decimals={decimalsOf(balances?.find((b) => b.currency === currency)?.available ?? '0')} />
            </>
          )}
        </section>
        <section className="card" aria-labelledby="rate-title">
          <h3 id="rate-title">Success rate</h3>
          {activity.data && <SuccessRate activity={activity.data.activity} />}
          <p className="muted">Of the transactions that reached a final status (successful, failed or expired) in the last {DAYS} days.</p>
        </section>
      </div>
    </section>
  );
}
