import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Client } from 'pg';
import WebSocket from 'ws';
import type { TestApp } from './test-app';

/**
 * Helpers for the security suites (test/e2e/security): bounded concurrency, a
 * fingerprint of every table (to prove nothing was written), ids of the same
 * shape, the registered REST routes, raw HTTP (exact headers) and a raw
 * graphql-transport-ws client that keeps every message in arrival order.
 */

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Tables written only by the machinery (heartbeats, migrations), never by a request. */
const MACHINERY_TABLES = new Set(['job_worker_instance', 'mikro_orm_migrations']);

/** Per table: its row count and an md5 of every row's JSON, sorted. Any insert, update or delete changes it. */
export type DbFingerprint = Record<string, { rows: number; md5: string }>;

export async function dbFingerprint(databaseUrl: string): Promise<DbFingerprint> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
      )
    ).rows
      .map((r) => r.name)
      .filter((t) => !MACHINERY_TABLES.has(t));
    const out: DbFingerprint = {};
    for (const t of tables) {
      const { rows } = await client.query<{ n: string; h: string | null }>(
        `select count(*)::text as n, md5(coalesce(string_agg(j, '|' order by j), '')) as h from (select row_to_json(x)::text as j from "${t}" x) s`,
      );
      out[t] = { rows: Number(rows[0]!.n), md5: rows[0]!.h ?? '' };
    }
    return out;
  } finally {
    await client.end();
  }
}

/** One query on the app's database, outside the service ($1 placeholders). */
export { dbQuery as dbRows } from './webhooks';

const HEX = '0123456789abcdef';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const pick = (chars: string) => chars[Math.floor(Math.random() * chars.length)]!;

/**
 * A random identifier of the same shape as `id`: a uuid for a uuid; otherwise the
 * same prefix (up to the first `_`), length and character classes (hex stays hex).
 */
export function randomLike(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return randomUUID();
  const cut = id.indexOf('_') + 1;
  const prefix = id.slice(0, cut);
  const body = id.slice(cut);
  const hex = /^[0-9a-f]+$/.test(body);
  let out: string;
  do {
    out =
      prefix +
      [...body].map((c) => (hex ? pick(HEX) : /[0-9]/.test(c) ? pick(DIGITS) : /[a-z]/.test(c) ? pick(LOWER) : /[A-Z]/.test(c) ? pick(UPPER) : c)).join('');
  } while (out === id);
  return out;
}

/**
 * Every route the app registered, from Fastify's own route tree
 * (`printRoutes({ commonPrefix: false })`): one entry per method and full path.
 */
export function registeredRoutes(app: TestApp): Array<{ method: string; path: string }> {
  const printed = app.service.app.fastify.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Array<{ method: string; path: string }> = [];
  for (const line of printed.split('\n')) {
    const m = /^([\s│]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      routes.push({ method, path });
  }
  return routes;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/**
 * HTTP over node:http, for headers fetch would normalise or merge: a header given
 * as an array is sent as that many separate header lines.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string | string[]>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: any;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A graphql-transport-ws message as the server sent it. */
export interface WsMessage {
  type: string;
  id?: string;
  payload?: any;
}

/**
 * A minimal graphql-transport-ws client on a raw socket. It keeps every message in
 * the order the server sent it (`log`), so a test can say what arrived before what.
 */
export class GqlSocket {
  readonly log: WsMessage[] = [];
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.log.push(JSON.parse(String(data)));
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /**
   * Opens a socket and sends connection_init with `payload` (or `init`, the message's
   * text as sent). Resolves once the server acknowledged or closed the socket: `ack`
   * true, or the close code.
   */
  static async open(
    app: TestApp,
    payload: unknown,
    { query = '', headers, init }: { query?: string; headers?: Record<string, string>; init?: string } = {},
  ): Promise<{ socket: GqlSocket; ack: boolean; closeCode: number | null }> {
    const ws = new WebSocket(`${app.url.replace('http://', 'ws://')}/graphql${query}`, 'graphql-transport-ws', headers ? { headers } : {});
    const socket = new GqlSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(init ?? JSON.stringify(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload }));
    await socket.until(() => socket.closeCode !== null || socket.log.some((m) => m.type === 'connection_ack'), 'connection_ack or close');
    return { socket, ack: socket.log.some((m) => m.type === 'connection_ack'), closeCode: socket.closeCode };
  }

  /** Opens a socket that must be acknowledged. */
  static async connect(app: TestApp, token: string): Promise<GqlSocket> {
    const { socket, ack, closeCode } = await GqlSocket.open(app, { Authorization: `Bearer ${token}` });
    if (!ack) throw new Error(`the socket was not acknowledged (closed ${closeCode})`);
    return socket;
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  subscribe(id: string, query: string, variables?: Record<string, unknown>) {
    this.send({ id, type: 'subscribe', payload: { query, ...(variables ? { variables } : {}) } });
  }

  /** The messages of one operation, in order. */
  of(id: string): WsMessage[] {
    return this.log.filter((m) => m.id === id);
  }

  /**
   * Waits until `condition` holds (checked at every message and at close). Fails
   * after `timeoutMs`: a bound on a wait for something that must happen, never a
   * way to decide that something did not.
   */
  until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(this.log).slice(0, 2000)}`)), timeoutMs);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  /**
   * Runs one query or mutation over the socket; resolves with its result: the
   * `next` payload, or the `error` message's errors as `{ errors }`.
   */
  async run(query: string, variables?: Record<string, unknown> | string): Promise<{ data?: any; errors?: any[] }> {
    const id = `op-${randomUUID()}`;
    // Variables given as text are sent as they are (a value too deep for JSON.stringify).
    if (typeof variables === 'string')
      this.send(`{"id":${JSON.stringify(id)},"type":"subscribe","payload":{"query":${JSON.stringify(query)},"variables":${variables}}}`);
    else this.subscribe(id, query, variables);
    await this.until(() => this.of(id).some((m) => m.type === 'next' || m.type === 'error') || this.closeCode !== null, `the result of ${id}`);
    const first = this.of(id).find((m) => m.type === 'next' || m.type === 'error');
    if (!first) throw new Error(`the socket closed (${this.closeCode}) before ${id} answered`);
    return first.type === 'next' ? first.payload : { errors: first.payload };
  }

  close(): Promise<void> {
    if (this.closeCode !== null) return Promise.resolve();
    this.ws.close(1000);
    return this.until(() => this.closeCode !== null, 'close');
  }
}

/** Codes a client error may carry; anything else (SERVER_ERROR) is the server failing. */
const CLIENT_ERROR_CODES = [
  'INVALID_REQUEST',
  'INVALID_TOKEN',
  'INVALID_CLIENT',
  'KYC_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'DUPLICATE_REQUEST',
  'INVALID_STATE',
  // A name taken as text and compared with the provider's (an SQL fragment is nobody's name): CONTRACT §6b.
  'BENEFICIARY_NAME_MISMATCH',
];

/** Why a REST answer is not a clean client error in the spec's envelope, or null when it is. */
export function restRefusalProblem(res: { status: number; body: any; text: string }): string | null {
  if (res.status < 400 || res.status >= 500) return `HTTP ${res.status}`;
  if (!res.body || res.body.status !== 'error') return `not the error envelope: ${res.text.slice(0, 200)}`;
  if (!CLIENT_ERROR_CODES.includes(res.body.code)) return `code ${res.body.code}`;
  if (typeof res.body.message !== 'string' || res.body.message.length === 0) return 'no message';
  return null;
}

/** Why a GraphQL answer is not a clean refusal (errors with a client error code, no data), or null when it is. */
export function graphqlRefusalProblem(res: { status: number; body: any; text: string }): string | null {
  if (res.status >= 500) return `HTTP ${res.status}`;
  const errors = res.body?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `no errors: ${res.text.slice(0, 200)}`;
  const bad = errors.find((e: any) => !CLIENT_ERROR_CODES.includes(e?.extensions?.code));
  if (bad) return `error code ${bad?.extensions?.code}: ${bad?.message}`;
  if (res.body.data != null) return `data alongside the errors: ${JSON.stringify(res.body.data).slice(0, 200)}`;
  return null;
}
