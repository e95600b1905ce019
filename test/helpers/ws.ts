import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from './test-app';

/** A graphql-ws client on the app's /graphql socket, authenticated in connection_init; no retries. */
export function connect(app: TestApp, token: string, onClosed?: (code: number) => void): Client {
  return connectTo(app.url, token, onClosed);
}

/** The same, to a service at `baseUrl` (a spawned process). */
export function connectTo(baseUrl: string, token: string, onClosed?: (code: number) => void): Client {
  return createClient({
    url: baseUrl.replace('http://', 'ws://') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    // A close the test expects (4403 …) is reported through `closed`; graphql-ws would also print it.
    onNonLazyError: () => undefined,
    on: { closed: (event) => onClosed?.((event as { code: number }).code) },
  });
}

/** Subscribes and collects every message (data and errors alike) and every transport error. */
export function collect(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const received: Array<{ data?: any; errors?: any[] }> = [];
  const errors: unknown[] = [];
  const stop = client.subscribe({ query, variables }, { next: (v) => received.push(v as any), error: (e) => errors.push(e), complete: () => undefined });
  return { received, errors, stop };
}

const ACTIVE_SUBSCRIPTIONS = /^payments_graphql_ws_active_subscriptions (\d+)$/m;

/** The subscription streams the instance at `baseUrl` has set up and not ended (its /metrics gauge; sandbox, no METRICS_TOKEN). */
export async function activeSubscriptions(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`);
  const m = ACTIVE_SUBSCRIPTIONS.exec(await res.text());
  if (!res.ok || !m) throw new Error(`no subscription gauge at ${baseUrl}/metrics (${res.status})`);
  return Number(m[1]);
}

/**
 * Subscribes, and returns once the server has set the stream up (its gauge counts it only
 * after the stream is listening), so an event committed after this reaches it. graphql-ws
 * has no "subscribed" message; this replaces a timed wait.
 */
export async function subscribeLive(baseUrl: string, client: Client, query: string, variables: Record<string, unknown> = {}) {
  const before = await activeSubscriptions(baseUrl);
  const sub = collect(client, query, variables);
  const deadline = Date.now() + 10_000;
  while ((await activeSubscriptions(baseUrl)) <= before) {
    if (sub.errors.length > 0 || sub.received.some((m) => m.errors)) return sub; // refused: the caller sees why
    if (Date.now() > deadline) throw new Error(`the subscription was not set up within 10 s: ${query}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return sub;
}
