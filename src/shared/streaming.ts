/**
 * The one way a long list is read for a file (a statement, the transaction export): keyset batches,
 * each a short query that starts after the last row of the one before, so memory holds one batch
 * whatever the file's size, no connection is held between batches, and a slow reader only slows
 * its own file (the caller pulls the next batch when the previous one has been written).
 */

/** One keyset read: up to `size` rows after `after` (undefined: from the start), in the list's order. */
export type KeysetRead<T> = (after: T | undefined, size: number) => Promise<T[]>;

/**
 * Yields the batches of a keyset-paged list until a batch comes back short, or `total` rows (when
 * given: what a count read beforehand says the file holds) have been yielded.
 */
export async function* keysetBatches<T>(read: KeysetRead<T>, size: number, total?: number): AsyncGenerator<T[]> {
  let after: T | undefined;
  let seen = 0;
  for (;;) {
    const want = total === undefined ? size : Math.min(size, total - seen);
    if (want <= 0) return;
    const batch = await read(after, want);
    if (batch.length > 0) yield batch;
    seen += batch.length;
    if (batch.length < want) return;
    after = batch.at(-1);
  }
}

/**
 * How many rows a file's writer turns into text at once: a batch of 500 is written in slices of
 * this many, each its own chunk, so that one slice of CPU work (a few ms) is the longest another
 * request waits behind a streaming file (transport/rest/streaming.ts yields between chunks).
 */
const ROWS_PER_CHUNK = 100;

/** The rows of a batch in slices of ROWS_PER_CHUNK. */
export function* chunksOf<T>(rows: readonly T[], size = ROWS_PER_CHUNK): Generator<readonly T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
