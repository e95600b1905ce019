import { useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { PayoutInterval, PayoutScheduleInput, Weekday } from '../generated/graphql';
import { inCurrency } from '../money';
import { ErrorText, Loading, when } from '../ui';
import { BALANCES } from './ledger.gql';
import { PayoutPages } from './PayoutPages';

const SCHEDULE = graphql(`
  query PayoutSchedule($currency: String!) {
    payoutSchedule(currency: $currency) {
      ...PayoutScheduleFields
    }
  }
  fragment PayoutScheduleFields on PayoutSchedule {
    currency
    interval
    weeklyAnchor
    monthlyAnchor
    delayDays
    cutoffTime
    timeZone
    minimumAmount
    nextPayoutAt
    isDefault
  }
`);
const UPDATE = graphql(`
  mutation UpdatePayoutSchedule($input: PayoutScheduleInput!) {
    updatePayoutSchedule(input: $input) {
      ...PayoutScheduleFields
    }
  }
`);

const INTERVALS: Array<[PayoutInterval, string]> = [
  ['DAILY', 'Daily'],
  ['WEEKLY', 'Weekly'],
  ['MONTHLY', 'Monthly'],
  ['MANUAL', 'Manual (only when you ask)'],
];
const WEEKDAYS: Weekday[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const dayName = (d: string) => d.charAt(0) + d.slice(1).toLowerCase();

/** One currency's schedule: shown to anyone who may read balances, changed by those with payouts:manage. */
function ScheduleForm({ currency }: { currency: string }) {
  const can = useCan();
  const [{ data, error }] = useQuery({ query: SCHEDULE, variables: { currency } });
  const [saving, update] = useMutation(UPDATE);
  const [interval, chooseInterval] = useState<PayoutInterval | null>(null);

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the payout schedule" />;
  // The answer of the last save, once there is one: the form starts from it.
  const s = saving.data?.updatePayoutSchedule ?? data.payoutSchedule;
  const chosen = interval ?? s.interval;
  const editable = can('payouts:manage');

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    const input: PayoutScheduleInput = {
      currency,
      interval: chosen,
      delayDays: Number(text('delayDays')),
      cutoffTime: text('cutoffTime'),
      timeZone: text('timeZone').trim(),
      ...(chosen === 'WEEKLY' ? { weeklyAnchor: text('weeklyAnchor') as Weekday } : {}),
      ...(chosen === 'MONTHLY' ? { monthlyAnchor: Number(text('monthlyAnchor')) } : {}),
    };
    void update({ input });
  }

  return (
    <form key={`${currency}-${s.interval}-${s.timeZone}`} aria-label="Payout schedule" onSubmit={submit}>
      <p role="status" data-testid="next-payout">
        {s.nextPayoutAt ? `Next payout: ${when(s.nextPayoutAt)}` : 'No automatic payouts: you ask for each one.'}
        {s.isDefault && <span className="muted"> (the default schedule)</span>}
      </p>
      <p className="muted">
        The least paid out at once: {inCurrency(s.minimumAmount, currency)}. A payment is paid out in the first window that closes at least the delay after it
        was received.
      </p>
      <fieldset disabled={!editable}>
        <label>
          How often{' '}
          <select name="interval" value={chosen} onChange={(e) => chooseInterval(e.target.value as PayoutInterval)}>
            {INTERVALS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {chosen === 'WEEKLY' && (
          <label>
            On{' '}
            <select name="weeklyAnchor" aria-label="Weekday" defaultValue={s.weeklyAnchor ?? 'FRIDAY'}>
              {WEEKDAYS.map((d) => (
                <option key={d} value={d}>
                  {dayName(d)}
                </option>
              ))}
            </select>
          </label>
        )}
        {chosen === 'MONTHLY' && (
          <label>
            On day <input name="monthlyAnchor" aria-label="Day of the month" type="number" min={1} max={31} required defaultValue={s.monthlyAnchor ?? 1} />
            <span className="muted"> (a shorter month: its last day)</span>
          </label>
        )}
        <label>
          Cut-off <input name="cutoffTime" type="time" required defaultValue={s.cutoffTime} />
        </label>
        <label>
          Time zone <input name="timeZone" required defaultValue={s.timeZone} placeholder="Africa/Lagos" />
        </label>
        <label>
          Delay (days) <input name="delayDays" type="number" min={0} max={30} required defaultValue={s.delayDays} />
        </label>
        {editable && <button type="submit">Save schedule</button>}
      </fieldset>
      {!editable && <p className="muted">Your role can see the schedule but not change it.</p>}
      <p role="status" className="muted">
        {saving.data && !saving.error ? 'Schedule saved.' : ''}
      </p>
      <ErrorText error={saving.error} />
    </form>
  );
}

/** When each currency's balance is paid out (docs/payouts.md, "Schedules"). */
export function PayoutSchedule() {
  const [{ data, error }] = useQuery({ query: BALANCES });
  const currencies = (data?.balances ?? []).map((b) => b.currency);
  const [currency, setCurrency] = useState('');
  const shown = currency || currencies[0] || '';
  return (
    <section aria-labelledby="payout-title">
      <PayoutPages />
      <h2 id="payout-title">Payout schedule</h2>
      <p className="muted">When your balance in each currency is paid out to you.</p>
      <ErrorText error={error} />
      {!data && !error && <Loading what="currencies" />}
      {data && currencies.length === 0 && <p>No balances yet: a schedule applies once you hold a currency.</p>}
      {shown && (
        <>
          <label>
            Currency{' '}
            <select value={shown} onChange={(e) => setCurrency(e.target.value)}>
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <ScheduleForm key={shown} currency={shown} />
        </>
      )}
    </section>
  );
}
