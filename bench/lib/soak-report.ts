/** npm run soak: the shape of bench/results/soak-latest.json, the growth-trend rule, and the Markdown it prints. */
import type { BurstResult } from '../soak-load';
import type { MachineFacts, Target } from './types';

export interface SoakMinute {
  /** 1-based. */
  minute: number;
  /** Seconds since the soak's load started. */
  fromS: number;
  toS: number;
  /** A short last interval (under half of one): shown, left out of the trends. */
  partial: boolean;
  requests: number;
  rps: number;
  p50: number | null;
  p99: number | null;
  /** Mixed load: non-2xx (429s included), GraphQL errors, connection errors, timeouts. */
  errors: number;
  /** 429s the normal merchants received (must stay 0). */
  limitedOthers: number;
  /** The burst merchant's answers in this minute's bursts. */
  burstSent: number;
  burst429: number;
  burstOther: number;
  /** The product's VmRSS: median and peak of the samples (every 5 s) in this minute, MB. */
  rssMb: number | null;
  rssPeakMb: number | null;
  /** Oldest pending webhook delivery's age, the largest sample (every 15 s) in this minute, ms. */
  outboxLagMs: number | null;
  pendingDeliveries: number | null;
  /** Cumulative: deliveries the database holds (one per event with an endpoint) vs distinct verified events received. */
  webhooksExpected: number | null;
  webhooksDelivered: number;
  /** Receipt time minus the event's created_at, for the deliveries received in this minute, ms. */
  webhookP99Ms: number | null;
  /** WAL written over the minute divided by its responses (kB): flat when index inserts stay on the same pages. */
  walKbPerRequest: number | null;
  accepted: number;
  /** The machine's 1-minute load average at the end of the row: other work on shared cores shows here. */
  loadAverage: number;
  byKind: Record<string, { requests: number; p99: number | null; errors: number }>;
  sampleErrors: string[];
  /** The vacuums and analyzes (100 ms or more) and the checkpoints of this minute (bench/lib/maintenance.ts). */
  maintenance: string;
}

export interface Trend {
  metric: string;
  /** Minutes used (after the warm-up, without a partial last one). */
  points: number;
  warmupMinutes: number;
  firstThirdMedian: number | null;
  lastThirdMedian: number | null;
  /** lastThirdMedian ÷ firstThirdMedian − 1, in %. */
  growthPct: number | null;
  /** Least-squares slope over the same minutes, in % of their median per hour (information: it extrapolates). */
  slopePctPerHour: number | null;
  /** Allowed growth of the last third's median over the first third's, % (plus `slack`, in the metric's unit). */
  limitPct: number;
  slack: number;
  /** null: too few minutes to judge (fewer than 3 after the warm-up). */
  flat: boolean | null;
}

export interface SoakReport {
  version: 1;
  kind: 'soak';
  runId: string;
  startedAt: string;
  finishedAt: string;
  totalS: number;
  machine: MachineFacts;
  settings: Record<string, unknown>;
  capacity: { rps: number; source: 'calibrated' | 'given'; calibrationP99: number | null };
  targetRps: number;
  rateLimit: { windowS: number; merchantBudget: number; burstAmount: number };
  minutes: SoakMinute[];
  bursts: BurstResult[];
  trends: Trend[];
  drain: { finished: boolean; seconds: number; note: string };
  totals: Record<string, number>;
  checks: Target[];
  verdict: 'PASS' | 'FAIL';
  problems: string[];
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
export { median };

const r2 = (v: number | null) => (v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);

/**
 * Does a per-minute series grow? The first `warmup` minutes are left out (a fresh process
 * fills its heap, caches and pools); of the rest, the median of the last third must not
 * exceed the median of the first third by more than `limitPct` % (+ `slack`). Medians of
 * thirds rather than a slope: one noisy minute on a shared machine moves neither much,
 * while a leak moves both. The least-squares slope is reported beside it.
 */
export function trendOf(metric: string, values: Array<number | null>, warmupMinutes: number, limitPct: number, slack = 0): Trend {
  const used = values.slice(warmupMinutes).filter((v): v is number => v !== null && Number.isFinite(v));
  const base: Trend = {
    metric,
    points: used.length,
    warmupMinutes,
    firstThirdMedian: null,
    lastThirdMedian: null,
    growthPct: null,
    slopePctPerHour: null,
    limitPct,
    slack,
    flat: null,
  };
  if (used.length < 3) return base;
  const third = Math.max(1, Math.floor(used.length / 3));
  const first = median(used.slice(0, third))!;
  const last = median(used.slice(used.length - third))!;
  const n = used.length;
  const meanX = (n - 1) / 2;
  const meanY = used.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  used.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  const slopePerMinute = den === 0 ? 0 : num / den;
  const mid = median(used)!;
  return {
    ...base,
    firstThirdMedian: r2(first),
    lastThirdMedian: r2(last),
    growthPct: first > 0 ? r2((last / first - 1) * 100) : null,
    slopePctPerHour: mid > 0 ? r2(((slopePerMinute * 60) / mid) * 100) : null,
    flat: last <= first * (1 + limitPct / 100) + slack,
  };
}

const n = (v: number | null | undefined, digits = 0) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

/** The per-minute table, the trends and the checks, as Markdown (BENCHMARKS.md's Soak section takes the same columns). */
export function renderSoakMarkdown(r: SoakReport): string {
  const m = r.machine;
  const out: string[] = [];
  out.push(`## Soak: ${r.verdict}`, '');
  out.push(
    `\`npm run soak\` (${r.settings.minutes} min) on ${m.date.slice(0, 16).replace('T', ' ')} UTC, commit \`${m.commit}\`${m.uncommittedChanges ? ' (with uncommitted changes)' : ''}; ` +
      `${m.cpuModel}, ${m.cores} cores; load average ${m.loadAverageAtStart.join(' / ')} at the start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' / ')} at the end` : ''}.`,
    '',
  );
  out.push(
    `Capacity ${n(r.capacity.rps)} req/s (${r.capacity.source}); mixed load at ${n(r.targetRps)} req/s over ${r.settings.merchants} merchants; ` +
      `merchant rate limit ${r.rateLimit.merchantBudget} per ${r.rateLimit.windowS} s; a burst of ${r.rateLimit.burstAmount} reads for one more merchant every ${r.settings.burstEveryS} s.`,
    '',
  );
  out.push(
    row([
      'min',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      '429 (burst / others)',
      'RSS MB (median / peak)',
      'outbox lag ms',
      'webhooks delivered / expected',
      'webhook p99 ms',
      'WAL kB/request',
      'load avg',
      'vacuums, checkpoints',
    ]),
  );
  out.push(row(['---:', '---:', '---:', '---:', '---:', '---', '---', '---:', '---', '---:', '---:', '---:', '---']));
  for (const x of r.minutes) {
    out.push(
      row([
        `${x.minute}${x.partial ? ' (partial)' : ''}`,
        n(x.rps),
        n(x.p50, 1),
        n(x.p99, 1),
        x.errors === 0 ? '0' : `**${x.errors}**`,
        `${x.burst429} / ${x.limitedOthers === 0 ? '0' : `**${x.limitedOthers}**`}`,
        `${n(x.rssMb)} / ${n(x.rssPeakMb)}`,
        n(x.outboxLagMs),
        `${x.webhooksDelivered} / ${x.webhooksExpected ?? '—'}`,
        n(x.webhookP99Ms),
        n(x.walKbPerRequest, 2),
        n(x.loadAverage, 1),
        x.maintenance ?? '—',
      ]),
    );
  }
  out.push('');
  out.push(row(['trend (warm-up left out)', 'minutes', 'first third', 'last third', 'growth', 'allowed', 'slope', 'flat']));
  out.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---']));
  for (const t of r.trends) {
    out.push(
      row([
        `${t.metric} (first ${t.warmupMinutes} min left out)`,
        t.points,
        n(t.firstThirdMedian, 1),
        n(t.lastThirdMedian, 1),
        t.growthPct === null ? '—' : `${t.growthPct} %`,
        `${t.limitPct} %${t.slack ? ` + ${t.slack}` : ''}`,
        t.slopePctPerHour === null ? '—' : `${t.slopePctPerHour} %/h`,
        t.flat === null ? 'not judged' : t.flat ? 'yes' : '**no**',
      ]),
    );
  }
  out.push('');
  out.push(row(['check', 'goal', 'this run', 'result']));
  out.push(row(['---', '---', '---', '---']));
  for (const c of r.checks) out.push(row([c.name, c.goal, c.value, c.met === null ? 'n/a' : c.met ? '**pass**' : '**FAIL**']));
  out.push('');
  out.push(`Drain: ${r.drain.note}.`);
  if (r.problems.length > 0) {
    out.push('', '### Problems during the run', '');
    for (const p of r.problems) out.push(`- ${p.replace(/\n/g, ' ').slice(0, 400)}`);
  }
  out.push('');
  return out.join('\n');
}
