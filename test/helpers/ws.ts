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
