import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PaymentsEnv } from '../../config';
import { AppError } from '../../shared/errors';
import { assertWebhookUrlAllowed, checkAddress } from './url-policy';

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /**
   * The endpoint gave no answer: the attempt timed out or its connection failed. What the
   * endpoint's circuit counts. False for an answer of any status, and for an address the
   * policy refused (nothing was sent).
   */
  unanswered: boolean;
}

/** The address policy refused the resolved address: nothing was sent, and the endpoint is not to blame for a silence. */
class RefusedAddress extends Error {}

/**
 * A lookup that refuses forbidden addresses, used for the connection itself, so a
 * host that re-resolves to a private address after the policy check (DNS
 * rebinding) is still refused.
 */
function guardedLookup(env: PaymentsEnv): LookupFunction {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- LookupFunction is dns.lookup's overloads; one body serves them all
  return ((hostname: string, options: any, callback: any) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const forbidden = addresses.map((a) => checkAddress(a.address, env)).find((v) => !v.allowed);
      if (forbidden && !forbidden.allowed) return callback(new RefusedAddress(`refused: ${forbidden.reason}`));
      if (options?.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

/**
 * POSTs one webhook. The URL is checked again (after DNS resolution) at every
 * attempt; redirects are never followed (a 3xx is a failure); the whole attempt is
 * bounded by `timeoutMs`.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, env: PaymentsEnv, timeoutMs: number): Promise<SendResult> {
  // A duration: the monotonic clock, which no wall-clock step moves.
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let target: URL;
  try {
    target = await assertWebhookUrlAllowed(url, env);
  } catch (err) {
    return { statusCode: null, latencyMs: elapsed(), error: err instanceof AppError ? err.message : 'url refused', unanswered: false };
  }
  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: guardedLookup(env),
        timeout: timeoutMs,
        agent: false,
      },
      (response) => {
        response.resume(); // the body is not needed; drain it so the socket closes
        response.on('end', () => resolve({ statusCode: response.statusCode ?? null, latencyMs: elapsed(), error: null, unanswered: false }));
        response.on('error', (err) => resolve({ statusCode: response.statusCode ?? null, latencyMs: elapsed(), error: err.message, unanswered: false }));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', (err) => resolve({ statusCode: null, latencyMs: elapsed(), error: err.message, unanswered: !(err instanceof RefusedAddress) }));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
