/** Parses `5s,30s,2m,1h` into milliseconds; throws on anything else. */
export function parseRetrySchedule(text: string, variable = 'WEBHOOK_RETRY_SCHEDULE', minMs = 0): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match) throw new Error(`${variable}: "${part.trim()}" is not like 5s, 2m or 1h`);
    const ms = Number(match[1]) * units[match[2]!]!;
    if (ms < minMs) throw new Error(`${variable}: "${part.trim()}" is shorter than ${minMs} ms`);
    return ms;
  });
  if (delays.length === 0) throw new Error(`${variable} is empty`);
  return delays;
}

/** PROVIDER_POLL_SCHEDULE's delays: each at least 100 ms (a status query per transaction). */
export function parsePollSchedule(text: string): number[] {
  return parseRetrySchedule(text, 'PROVIDER_POLL_SCHEDULE', 100);
}

/**
 * The delay before retry number `retry` (1-based), with ±20 % jitter so that
 * many deliveries failing together do not all come back at the same moment.
 * Undefined when the schedule is exhausted (the delivery has failed).
 */
export function retryDelay(schedule: number[], retry: number, random: () => number = Math.random): number | undefined {
  const base = schedule[retry - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (0.8 + 0.4 * random()));
}
