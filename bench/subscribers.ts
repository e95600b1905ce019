/**
 * GraphQL subscribers in their own process: `perMerchant` WebSockets per merchant
 * (protocol graphql-transport-ws, token in connection_init), each subscribed to
 * `transactionStatusChanged` for all of its merchant's transactions.
 *
 * Protocol with the orchestrator (JSON lines on stdout, commands on stdin):
 *   → {"event":"subscribed", …}   every socket has been acknowledged and has sent its subscribe
 *   → {"event":"probed", …}       every open socket received its merchant's probe event (or 20 s passed)
 *   ← "driven"                    the orchestrator has made every expected change
 *   → {"event":"result", …}       once every subscriber has every expected event, or `graceS` after "driven"
 */
import fs from 'node:fs';
import readline from 'node:readline';
import WebSocket from 'ws';
import { summarize, type Summary } from './lib/stats';

export interface SubscribersConfig {
  wsUrl: string;
  perMerchant: number;
  /** Seconds to wait for the last events after "driven". */
  graceS: number;
  merchants: Array<{ token: string; probe: string; expected: string[] }>;
}

export interface SubscribersResult {
  event: 'result';
  subscribers: number;
  connected: number;
  failedToConnect: number;
  closedEarly: number;
  probeReceivedBy: number;
  /** Sum over subscribers of the events each should receive (its merchant's driven transactions). */
  expectedDeliveries: number;
  received: number;
  missed: number;
  duplicates: number;
  /** Events neither expected nor probes (e.g. of transactions another scenario left processing). */
  otherEvents: number;
  graphqlErrors: number;
  firstError?: string;
  /** Receipt time minus the record's completedAt (or updatedAt), ms. */
  latency: Summary;
  /** When the first and last expected event arrived (epoch ms). */
  firstAt: number | null;
  lastAt: number | null;
}

const SUBSCRIPTION = 'subscription { transactionStatusChanged { reference externalReference status failureReason updatedAt completedAt } }';

interface Sub {
  merchant: number;
  ws: WebSocket;
  acked: boolean;
  closed: boolean;
  gotProbe: boolean;
  seen: Set<string>;
}

async function main() {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as SubscribersConfig;
  const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const expectedBy = cfg.merchants.map((m) => new Set(m.expected));
  const probes = cfg.merchants.map((m) => m.probe);
  const subs: Sub[] = [];
  const latencies: number[] = [];
  let failedToConnect = 0;
  let closedEarly = 0;
  let duplicates = 0;
  let otherEvents = 0;
  let graphqlErrors = 0;
  let firstError: string | undefined;
  let received = 0;
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  let finishing = false;
  const expectedDeliveries = cfg.merchants.reduce((n, m) => n + m.expected.length, 0) * cfg.perMerchant;
  let onProgress = () => {};

  const open = (merchant: number) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(cfg.wsUrl, 'graphql-transport-ws');
      const sub: Sub = { merchant, ws, acked: false, closed: false, gotProbe: false, seen: new Set() };
      let settled = false;
      const done = (ok: boolean) => {
        if (settled) return;
        settled = true;
        if (ok) subs.push(sub);
        else failedToConnect++;
        resolve();
      };
      const timer = setTimeout(() => {
        ws.terminate();
        done(false);
      }, 30_000);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${cfg.merchants[merchant]!.token}` } })));
      ws.on('message', (raw) => {
        const now = Date.now();
        const msg = JSON.parse(raw.toString()) as { type: string; payload?: any };
        if (msg.type === 'connection_ack') {
          sub.acked = true;
          ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
          clearTimeout(timer);
          done(true);
          return;
        }
        if (msg.type === 'ping') return ws.send(JSON.stringify({ type: 'pong' }));
        if (msg.type === 'error' || (msg.type === 'next' && msg.payload?.errors)) {
          graphqlErrors++;
          firstError ??= JSON.stringify(msg.payload).slice(0, 300);
          return;
        }
        if (msg.type !== 'next') return;
        const t = msg.payload?.data?.transactionStatusChanged;
        if (!t) return;
        if (t.reference === probes[merchant]) {
          if (!sub.gotProbe) {
            sub.gotProbe = true;
            onProgress();
          }
          return;
        }
        if (!expectedBy[merchant]!.has(t.reference) || t.status === 'PROCESSING') {
          otherEvents++;
          return;
        }
        if (sub.seen.has(t.reference)) {
          duplicates++;
          return;
        }
        sub.seen.add(t.reference);
        received++;
        firstAt ??= now;
        lastAt = now;
        const committed = Date.parse(t.completedAt ?? t.updatedAt);
        if (Number.isFinite(committed)) latencies.push(now - committed);
        onProgress();
      });
      ws.on('close', () => {
        if (!sub.acked) {
          clearTimeout(timer);
          done(false);
        } else if (!finishing && !sub.closed) {
          closedEarly++;
        }
        sub.closed = true;
      });
      ws.on('error', () => {
        /* a close follows */
      });
    });

  // Connect in waves so the server sees a realistic ramp rather than one burst of 1,000 handshakes.
  const order: number[] = [];
  for (let i = 0; i < cfg.perMerchant; i++) for (let m = 0; m < cfg.merchants.length; m++) order.push(m);
  for (let i = 0; i < order.length; i += 50) await Promise.all(order.slice(i, i + 50).map(open));
  print({ event: 'subscribed', connected: subs.length, failedToConnect });

  const alive = () => subs.filter((s) => !s.closed);
  await new Promise<void>((resolve) => {
    const check = () => {
      if (alive().every((s) => s.gotProbe)) resolve();
    };
    onProgress = check;
    setTimeout(resolve, 20_000);
    check();
  });
  print({ event: 'probed', by: subs.filter((s) => s.gotProbe).length, of: subs.length });

  await new Promise<void>((resolve) => {
    const rl = readline.createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      if (line.trim() === 'driven') resolve();
    });
    rl.on('close', () => resolve());
  });
  await new Promise<void>((resolve) => {
    const check = () => {
      if (received >= expectedDeliveries) resolve();
    };
    onProgress = check;
    setTimeout(resolve, cfg.graceS * 1000);
    check();
  });

  finishing = true;
  const result: SubscribersResult = {
    event: 'result',
    subscribers: order.length,
    connected: subs.length,
    failedToConnect,
    closedEarly,
    probeReceivedBy: subs.filter((s) => s.gotProbe).length,
    expectedDeliveries,
    received,
    // A socket that never connected misses everything its merchant emitted.
    missed: expectedDeliveries - received,
    duplicates,
    otherEvents,
    graphqlErrors,
    ...(firstError ? { firstError } : {}),
    latency: summarize(latencies),
    firstAt,
    lastAt,
  };
  print(result);
  for (const s of subs) s.ws.terminate();
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    process.stderr.write(`subscribers failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
