/**
 * What makes two requests under one Idempotency-Key "the same request": the method, the
 * route's pattern, its path parameters and its JSON body, compared as values (key order and
 * whitespace do not matter). Pure; the store keeps only a keyed hash of this text.
 */
export interface IdempotentRequest {
  method: string;
  /** The route's pattern as registered, e.g. `/v1/customer/:uuid/kyc`. */
  route: string;
  params: unknown;
  body: unknown;
}

/** JSON with every object's keys sorted: one text for one value, however the client serialised it. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** A copy of `value` without the fields at these dotted paths (`card.cvc`); anything else is left as it is. */
export function withoutFields(value: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return value;
  let copy = value;
  for (const path of paths) copy = dropPath(copy, path.split('.'));
  return copy;
}

function dropPath(value: unknown, segments: string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(value, head)) return value;
  const { [head]: inner, ...others } = value as Record<string, unknown>;
  return rest.length === 0 ? others : { ...others, [head]: dropPath(inner, rest) };
}

/** The text whose keyed hash identifies a request; `omit` names body fields never kept in any form. */
export function fingerprintText(request: IdempotentRequest, omit: readonly string[] = []): string {
  return canonicalJson([request.method.toUpperCase(), request.route, request.params ?? {}, withoutFields(request.body ?? null, omit)]);
}

/** How long a key is remembered, and how long a claim may stay in flight before it counts as abandoned. */
export interface IdempotencyLimits {
  retentionMs: number;
  lockTimeoutMs: number;
}

/** What the stored row of a key means to a new request with it. */
export type StoredKeyState = 'absent' | 'mismatch' | 'replay' | 'in_progress';

/**
 * The rules, in order: a row older than the retention is absent (the key may be used afresh);
 * another request under the key is a mismatch (even if the first one's claim was abandoned);
 * a completed row is replayed; a claim whose holder is gone (the instance that made it no longer
 * heartbeats: killed, or restarted under a new id) or older than the lock timeout was abandoned by
 * a process that died, and is taken over; otherwise the first request is still in flight.
 * The claim statement (idempotency.store.ts) takes a row over under the same conditions.
 */
export function storedKeyState(
  row: { fingerprint: string; createdAt: Date; completed: boolean; holderGone?: boolean },
  fingerprint: string,
  now: Date,
  limits: IdempotencyLimits,
): StoredKeyState {
  const age = now.getTime() - row.createdAt.getTime();
  if (age >= limits.retentionMs) return 'absent';
  if (row.fingerprint !== fingerprint) return 'mismatch';
  if (row.completed) return 'replay';
  if (age >= limits.lockTimeoutMs || row.holderGone === true) return 'absent';
  return 'in_progress';
}

/**
 * Which answers are kept for replay: those of a request that began to execute. A 5xx is not
 * (the outcome is unknown or nothing happened: the client retries with the same key), nor a
 * 400 INVALID_REQUEST, which by the service's rule changed nothing (as Stripe does not keep a
 * request whose parameters failed validation: the client may correct it and retry with the key).
 */
export function keepsAnswer(statusCode: number): boolean {
  return statusCode < 500 && statusCode !== 400;
}
