import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { rateLimitHeaders, type RateLimits } from '../rate-limits';

/** What a streamed file's OpenAPI description says of its cost (CONTRACT, decisions: streamed files). */
export const STREAM_COST =
  'Cost: besides the request’s point, one point of your request budget per 100 rows (RATE_LIMIT_STREAM_ROWS_PER_POINT), at most half the budget, ' +
  'counted before the first byte; and at most 2 statements or exports of yours stream at once (RATE_LIMIT_STREAMS_PER_MERCHANT): one more is ' +
  '429 RATE_LIMITED with Retry-After.';

/** The 429s a streamed file adds to a bearer route's. */
export const STREAM_ERRORS = {
  RATE_LIMITED: 'your request budget is spent, or cannot cover this file’s rows, or two of your statements or exports are streaming already (see Retry-After)',
} as const;

/** A file a service has opened (its size known, its body still to be read): a statement, the transaction export. */
export interface StreamedFile {
  /** How many rows it holds (what it costs; a count read before the body). */
  rows: number;
  contentType: string;
  /** Sent as an attachment with this name; inline JSON has none. */
  filename?: string;
  /** The body, pulled a batch at a time as the client reads it. */
  body: AsyncIterable<string>;
}

/**
 * The body, with a turn of the event loop after each chunk: reading the next chunk's rows is often
 * only microtasks away, and without a turn another request's I/O would wait for the whole batch.
 */
async function* takingTurns(body: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of body) {
    yield chunk;
    await nextTurn();
  }
}

/**
 * The one way a REST route streams a file (a statement, the transaction export):
 * 1. one of the merchant's stream slots is taken (a third file at once is 429 with Retry-After,
 *    before anything is read);
 * 2. `open` reads what the file holds (and checks its input: a 400 is answered in the envelope);
 * 3. its rows are charged to the merchant budget (RateLimits.chargeStream: 429 when they do not fit);
 * 4. the body is sent as it is read, with backpressure: the next batch is read only once the
 *    previous one has been written, so memory holds a batch, whatever the file's size.
 * The slot is given back when the body ends, fails, or the client goes away.
 */
export async function sendStreamedFile(
  reply: FastifyReply,
  rateLimits: RateLimits,
  merchantId: string,
  open: () => Promise<StreamedFile>,
): Promise<FastifyReply> {
  const slot = await rateLimits.streams.acquire(merchantId);
  let file: StreamedFile;
  try {
    file = await open();
    const state = await rateLimits.chargeStream(merchantId, file.rows);
    if (state) reply.headers(rateLimitHeaders(state, false));
  } catch (err) {
    slot.release();
    throw err;
  }
  const body = Readable.from(takingTurns(file.body), { highWaterMark: 1 });
  body.once('close', () => slot.release());
  reply.code(200).header('content-type', file.contentType).header('cache-control', 'no-store');
  if (file.filename) reply.header('content-disposition', `attachment; filename="${file.filename}"`);
  return reply.send(body);
}
