/**
 * The HTTP plumbing the provider fakes (mtn-momo.fake.ts, mpesa.fake.ts) share, and nothing a provider documents:
 * listening on 127.0.0.1, reading and recording requests, the fault rules (`failNext`), the decision timers, and
 * sending callbacks to http://127.0.0.1 with waiters for `callbackDelivered`. Status codes, bodies, error shapes,
 * auth, the callback's method, Content-Type and any extra headers stay in each fake (they are the provider's, or each fake's documented
 * choice) and come in here as parameters.
 *
 * The one rule that holds for all of it: nothing is ever sent anywhere but http://127.0.0.1 (assertLoopbackUrl runs
 * before every callback request).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The only host a fake listens on or sends to. */
const LOOPBACK_HOST = '127.0.0.1';

export type FakeFault = 'timeout' | '500' | '503' | 'reset' | 'accept-then-timeout' | 'accept-then-500';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What every recorded callback has; each fake adds its own keys (reference id, kind, method …). */
export interface CallbackDelivery {
  url: string;
  body: string;
  /** The receiver's HTTP status; null when the request failed (error says why). */
  status: number | null;
  error: string | null;
  at: Date;
}

/** The one guard on everything a fake sends: http://127.0.0.1 only. Throws (naming `owner`) otherwise. */
export function assertLoopbackUrl(raw: string, owner: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`${owner} refuses to send to ${JSON.stringify(raw)}: not a URL`);
  }
  if (u.protocol !== 'http:' || u.hostname !== LOOPBACK_HOST) {
    throw new Error(`${owner} refuses to send to ${raw}: only http://127.0.0.1 is allowed`);
  }
  return u;
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

/**
 * Listens on 127.0.0.1, port 0, then builds the fake with its server and `http://127.0.0.1:<port>`. A request that
 * arrives before the fake exists is dropped.
 */
export async function startFakeServer<T>(
  create: (server: http.Server, url: string) => T,
  onRequest: (fake: T, req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<T> {
  const holder: { fake?: T } = {};
  const server = http.createServer((req, res) => {
    if (holder.fake !== undefined) onRequest(holder.fake, req, res);
    else res.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK_HOST, () => resolve());
  });
  holder.fake = create(server, `http://${LOOPBACK_HOST}:${(server.address() as AddressInfo).port}`);
  return holder.fake;
}

/** The whole body as UTF-8 text. A request that errors never resolves (its socket is gone; nothing to answer). */
function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

// ---------------------------------------------------------------------------------------------
// Faults and the request pipeline
// ---------------------------------------------------------------------------------------------

/**
 * The rules `failNext` adds: the next `count` (default 1) requests whose path (with its query) matches get `fault`;
 * no path = any request; rules apply in the order given. A string path matches as `stringMatch` says: 'contains'
 * (the path contains it) or 'prefix' (the path starts with it); a RegExp is tested against the path.
 */
export class FaultRules {
  private readonly rules: { fault: FakeFault; remaining: number; path?: string | RegExp }[] = [];

  constructor(private readonly stringMatch: 'contains' | 'prefix') {}

  add(fault: FakeFault, options: { count?: number; path?: string | RegExp } = {}): void {
    this.rules.push({ fault, remaining: options.count ?? 1, path: options.path });
  }

  /** The fault for this request, if a rule matches (and counts it), else null. */
  take(path: string): FakeFault | null {
    const rule = this.rules.find((r) => r.remaining > 0 && this.matches(r.path, path));
    if (!rule) return null;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.rules.splice(this.rules.indexOf(rule), 1);
    return rule.fault;
  }

  private matches(rule: string | RegExp | undefined, path: string): boolean {
    if (rule === undefined) return true;
    if (typeof rule !== 'string') return rule.test(path);
    return this.stringMatch === 'prefix' ? path.startsWith(rule) : path.includes(rule);
  }
}

/** What a fake gives serveFakeRequest: where to record, and its own (provider-specific) answers. */
export interface FakeIntake<A> {
  readonly requests: RecordedRequest[];
  readonly internalErrors: Error[];
  readonly faults: FaultRules;
  /** The fake's `down` flag: every request answers `unavailable`. */
  isDown(): boolean;
  /** The provider's answer; it turns the provider's own rejections into answers and throws only on a bug. */
  route(method: string, path: string, headers: http.IncomingHttpHeaders, body: string): A;
  send(res: http.ServerResponse, answer: A): void;
  /** The answer to a '500' or 'accept-then-500' fault, and to a bug inside `route` (recorded in internalErrors). */
  internalError(): A;
  /** Answers a '503' fault and `down`. */
  unavailable(res: http.ServerResponse): void;
}

/**
 * One request, the same way in every fake: read and record it (faulted or not), then `down`, then the faults:
 * 'timeout' never answers (the client gives up, or close() drops the socket), 'reset' destroys the socket, '500' and
 * '503' answer at once; 'accept-then-*' run the request (its effects stay) and then never answer, or answer 500.
 */
export function serveFakeRequest<A>(req: http.IncomingMessage, res: http.ServerResponse, intake: FakeIntake<A>): void {
  void readBody(req).then((body) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    intake.requests.push({ method, path, headers: { ...req.headers }, body });

    if (intake.isDown()) return intake.unavailable(res);
    const fault = intake.faults.take(path);
    if (fault === 'timeout') return;
    if (fault === 'reset') return void req.socket.destroy();
    if (fault === '500') return intake.send(res, intake.internalError());
    if (fault === '503') return intake.unavailable(res);

    let answer: A;
    try {
      answer = intake.route(method, path, req.headers, body);
    } catch (error) {
      intake.internalErrors.push(error as Error);
      answer = intake.internalError();
    }
    if (fault === 'accept-then-timeout') return;
    if (fault === 'accept-then-500') return intake.send(res, intake.internalError());
    intake.send(res, answer);
  });
}

// ---------------------------------------------------------------------------------------------
// Timers
// ---------------------------------------------------------------------------------------------

/** The fake's pending decisions: unref'd timeouts, cancelled by key or all at close(); a failure lands in internalErrors. */
export class FakeTimers {
  private readonly pending = new Map<unknown, NodeJS.Timeout>();

  constructor(private readonly internalErrors: Error[]) {}

  /** Runs `fn` after `delayMs`. A `key` (default: a fresh one) lets cancel() stop it; a new timer replaces one with the same key. */
  later(delayMs: number, fn: () => Promise<void>, key: unknown = Symbol('timer')): void {
    this.cancel(key);
    const timer = setTimeout(() => {
      this.pending.delete(key);
      fn().catch((error: Error) => this.internalErrors.push(error));
    }, delayMs);
    timer.unref();
    this.pending.set(key, timer);
  }

  cancel(key: unknown): void {
    const timer = this.pending.get(key);
    if (timer) clearTimeout(timer);
    this.pending.delete(key);
  }

  clear(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Callbacks to 127.0.0.1
// ---------------------------------------------------------------------------------------------

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface LoopbackCallbacksOptions<D extends CallbackDelivery> {
  /** The fake's class name, for error messages ("MpesaFake closed"). */
  owner: string;
  /** The callback's HTTP method (each fake's documented choice). */
  method: string;
  /** The callback's Content-Type (each fake's documented choice). */
  contentType: string;
  /** The fake's public list of callbacks: every attempt is pushed here, then updated in place with its outcome. */
  deliveries: D[];
  /** The id a delivery is for, as `callbackDelivered(id)` names it. */
  idOf: (delivery: D) => string;
  /**
   * Extra request headers for a delivery (e.g. Flutterwave's `verif-hash`); none by default. Content-Type and
   * Content-Length are always the ones above and cannot be overridden here.
   */
  headersOf?: (delivery: D) => Record<string, string>;
}

/**
 * Sends a fake's callbacks, once each, to http://127.0.0.1 only, and wakes whoever waits for them. A callback counts as
 * delivered once the receiver answers with any HTTP status (the rest of its answer is drained and ignored); it fails
 * on a network error or after 10 s without an answer.
 */
export class LoopbackCallbacks<D extends CallbackDelivery> {
  private readonly agent = new http.Agent({ keepAlive: false });
  private readonly outgoing = new Set<http.ClientRequest>();
  private readonly waiters = new Map<string, Waiter[]>();
  private closed = false;

  constructor(private readonly options: LoopbackCallbacksOptions<D>) {}

  /**
   * The only place a fake sends anything. Throws (before sending) for any host but 127.0.0.1, rejects once closed;
   * else records `delivery` and resolves with it once the attempt is over (status or error filled in).
   */
  send(delivery: D): Promise<D> {
    const target = assertLoopbackUrl(delivery.url, this.options.owner);
    if (this.closed) return Promise.reject(new Error(`${this.options.owner} closed`));
    this.options.deliveries.push(delivery);
    const { body } = delivery;
    const extraHeaders = Object.fromEntries(
      Object.entries(this.options.headersOf?.(delivery) ?? {}).filter(([name]) => !/^content-(type|length)$/i.test(name)),
    );
    return new Promise((resolve) => {
      let done = false;
      const finish = (status: number | null, error: string | null) => {
        this.outgoing.delete(req);
        if (done) return;
        done = true;
        delivery.status = status;
        delivery.error = error;
        if (status !== null) this.wake(this.options.idOf(delivery));
        resolve(delivery);
      };
      const req = http.request(
        {
          agent: this.agent,
          host: LOOPBACK_HOST,
          port: Number(target.port || 80),
          path: `${target.pathname}${target.search}`,
          method: this.options.method,
          headers: { ...extraHeaders, 'content-type': this.options.contentType, 'content-length': Buffer.byteLength(body) },
          timeout: 10_000,
        },
        (res) => {
          // Delivered once the receiver answers with a status; the rest of its answer is drained and ignored.
          res.on('error', () => undefined);
          res.resume();
          finish(res.statusCode ?? 0, null);
        },
      );
      req.on('timeout', () => req.destroy(new Error('receiver did not answer within 10 s')));
      req.on('error', (error) => finish(null, error.message));
      this.outgoing.add(req);
      req.end(body);
    });
  }

  /** send(), then the receiver's HTTP status; throws when the attempt failed. */
  async sendOrThrow(delivery: D): Promise<number> {
    await this.send(delivery);
    if (delivery.status === null) {
      throw new Error(`${this.options.owner}: callback for ${this.options.idOf(delivery)} to ${delivery.url} failed: ${delivery.error}`);
    }
    return delivery.status;
  }

  /**
   * Resolves when a callback for `id` has been delivered (any HTTP answer); rejects once `timeoutMs` passes, saying why:
   * the last attempt's error, else `notSent()` (default "no callback was sent").
   */
  delivered(id: string, timeoutMs: number, notSent: () => string = () => 'no callback was sent'): Promise<void> {
    const { deliveries, idOf, owner } = this.options;
    if (deliveries.some((d) => idOf(d) === id && d.status !== null)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.removeWaiter(id, waiter);
        const last = [...deliveries].reverse().find((d) => idOf(d) === id);
        const why = last ? `last attempt failed: ${last.error}` : notSent();
        reject(new Error(`${owner}: no callback delivered for ${id} within ${timeoutMs} ms (${why})`));
      }, timeoutMs);
      timer.unref();
      const waiter: Waiter = { resolve, reject, timer };
      const list = this.waiters.get(id) ?? [];
      list.push(waiter);
      this.waiters.set(id, list);
    });
  }

  /** Aborts the callbacks in flight, rejects every waiter ("<owner> closed"); send() rejects from now on. */
  close(): void {
    this.closed = true;
    for (const req of this.outgoing) req.destroy();
    this.outgoing.clear();
    for (const list of this.waiters.values()) {
      for (const w of list) {
        clearTimeout(w.timer);
        w.reject(new Error(`${this.options.owner} closed`));
      }
    }
    this.waiters.clear();
    this.agent.destroy();
  }

  private wake(id: string): void {
    const list = this.waiters.get(id);
    if (!list) return;
    this.waiters.delete(id);
    for (const w of list) {
      clearTimeout(w.timer);
      w.resolve();
    }
  }

  private removeWaiter(id: string, waiter: Waiter): void {
    const list = this.waiters.get(id);
    if (!list) return;
    const i = list.indexOf(waiter);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.waiters.delete(id);
  }
}

// ---------------------------------------------------------------------------------------------
// Shutdown
// ---------------------------------------------------------------------------------------------

/**
 * A fake's close(), in the one safe order: no more decisions (timers), callbacks in flight aborted and waiters
 * rejected (outbox), then the server: every open connection dropped (a request held by a 'timeout' fault included),
 * and its close awaited.
 */
export async function closeFake<D extends CallbackDelivery>(parts: { timers: FakeTimers; outbox: LoopbackCallbacks<D>; server: http.Server }): Promise<void> {
  parts.timers.clear();
  parts.outbox.close();
  parts.server.closeAllConnections();
  await new Promise<void>((resolve) => parts.server.close(() => resolve()));
}
