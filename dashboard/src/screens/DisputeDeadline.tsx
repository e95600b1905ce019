import { useEffect, useState } from 'react';
import type { DisputeStatus } from '../generated/graphql';
import { when } from '../ui';
import { awaitsResponse } from './disputes.gql';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Under this much time left, the countdown is shown as urgent (red). */
const URGENT_MS = DAY;

/** The time now, read again every `everyMs` (a countdown's minutes move on without a reload). */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** The time left until `due` in words ("2 d 3 h left", "5 h 30 min left", "12 min left", "Overdue"), and whether it is under 24 h. */
function timeLeft(due: string, now: number): { text: string; urgent: boolean } {
  const ms = new Date(due).getTime() - now;
  if (ms <= 0) return { text: 'Overdue', urgent: true };
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const text = days > 0 ? `${days} d ${hours} h left` : hours > 0 ? `${hours} h ${minutes} min left` : `${Math.max(minutes, 1)} min left`;
  return { text, urgent: ms < URGENT_MS };
}

/**
 * A dispute's deadline (evidence_due_by): while it waits for an answer, the time left, red under 24 h (the
 * deadline itself in its title); once answered or closed, the deadline it had, muted.
 */
export function Deadline({ dueBy, status }: { dueBy: string | null | undefined; status: DisputeStatus }) {
  const now = useNow();
  if (!dueBy) return <span className="muted">—</span>;
  if (!awaitsResponse(status)) return <span className="muted">{when(dueBy)}</span>;
  const left = timeLeft(dueBy, now);
  return (
    <span className={`deadline${left.urgent ? ' due-soon' : ''}`} data-testid="deadline" data-urgent={left.urgent} title={`Respond by ${when(dueBy)}`}>
      {left.text}
    </span>
  );
}
