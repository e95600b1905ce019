import type { FastifyRequest } from 'fastify';
import { redactCardNumbers } from '../../shared/card-numbers';

/** Segments longer than this are shown as `…`: a 3-D Secure handle (43 characters) or a token never appears. */
const LONGEST_SHOWN_SEGMENT = 32;

/**
 * A request's path as logs and error messages may show it. A matched route shows
 * its pattern (`/v1/payments/verify/:reference`), never the values in the path.
 * An unmatched one shows the path without its query, with long segments elided
 * and card numbers redacted: a client may put a card number or a handle where it
 * does not belong, and neither may reach a log or be echoed.
 */
export function describePath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  const raw = request.url.split('?', 1)[0]!;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Malformed percent-encoding: show it as it came.
  }
  const segments = decoded.split('/').map((s) => (s.length > LONGEST_SHOWN_SEGMENT ? '…' : s));
  return redactCardNumbers(segments.join('/'));
}
