/** Small statistics helpers shared by the orchestrator and its child processes. */

export interface Summary {
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(values: number[]): Summary {
  const sorted = Float64Array.from(values).sort();
  const arr = Array.from(sorted);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    count: arr.length,
    p50: round(percentile(arr, 50)),
    p90: round(percentile(arr, 90)),
    p99: round(percentile(arr, 99)),
    max: round(arr.length ? arr[arr.length - 1]! : null),
    mean: round(arr.length ? arr.reduce((a, b) => a + b, 0) / arr.length : null),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items` with at most `concurrency` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!, i);
      }
    }),
  );
  return results;
}
