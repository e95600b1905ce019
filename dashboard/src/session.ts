import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { Client as UrqlClient, fetchExchange, subscriptionExchange, type AnyVariables, type CombinedError } from '@urql/core';
import { createClient, type Client } from 'graphql-ws';

/**
 * The signed-in session: tokens live in this module's memory only (never localStorage,
 * sessionStorage, a cookie or a URL), so a reload or a closed tab signs out. The access
 * token is refreshed (refresh tokens rotate: the newest is kept) a minute before it expires;
 * sign-out revokes the family. Data goes through GraphQL and graphql-ws (one urql client,
 * typed documents from ./generated); tokens through the API's OAuth endpoints.
 */

interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

type Listener = () => void;

let tokens: Tokens | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let socket: Client | null = null;
const listeners = new Set<Listener>();

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly details: Array<{ field: string; issue: string }> = [],
  ) {
    super(message);
  }
}

const notify = () => listeners.forEach((l) => l());

/** Called when the session starts, is refreshed (a new socket) or ends. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const signedIn = () => tokens !== null;

async function oauth(path: string, body: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => null)) as { status?: string; data?: Record<string, unknown>; code?: string; message?: string } | null;
  if (!res.ok || json?.status !== 'success') {
    throw new ApiError(json?.message ?? `The service answered ${res.status}`, json?.code ?? 'SERVER_ERROR');
  }
  return json.data ?? {};
}

function adopt(data: Record<string, unknown>) {
  tokens = {
    accessToken: String(data.access_token),
    refreshToken: String(data.refresh_token),
    expiresAt: Date.now() + Number(data.expires_in) * 1000,
  };
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refresh(), Math.max(5_000, tokens.expiresAt - Date.now() - 60_000));
  // The socket's session ends with its token: a new socket with the new one.
  socket?.dispose();
  socket = null;
  notify();
}

export async function signIn(clientId: string, clientSecret: string): Promise<void> {
  adopt(await oauth('/v1/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }));
}

async function refresh(): Promise<void> {
  if (!tokens) return;
  try {
    adopt(await oauth('/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken }));
  } catch {
    clear();
  }
}

function clear() {
  clearTimeout(refreshTimer);
  tokens = null;
  socket?.dispose();
  socket = null;
  notify();
}

export async function signOut(): Promise<void> {
  const refreshToken = tokens?.refreshToken;
  clear();
  if (refreshToken) await oauth('/v1/oauth/revoke', { token: refreshToken }).catch(() => undefined);
}

/** The variables argument: optional when the operation has none that are required. */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

/**
 * The GraphQL client: urql's core, with no document cache (every screen reads fresh data, and a
 * cache would add `__typename` to each selection, which the API's cost limit charges). It keeps
 * urql's de-duplication of identical queries in flight, sends POST (as before; no GET), and hands
 * subscriptions to the session's graphql-ws socket. The token is read for each request.
 */
const client = new UrqlClient({
  url: '/graphql',
  preferGetMethod: false,
  requestPolicy: 'network-only',
  fetchOptions: () => ({ headers: { accept: 'application/json', authorization: `Bearer ${tokens?.accessToken ?? ''}` } }),
  exchanges: [
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: ws().subscribe({ ...request, query: request.query ?? '' }, sink) }),
      }),
    }),
  ],
});

/** An urql error as an ApiError with the API's code and field details; a failed connection stays what it was. */
function apiError(error: CombinedError): Error {
  const first = error.graphQLErrors[0] as { message: string; extensions?: { code?: string; details?: [] } } | undefined;
  if (first) return new ApiError(first.message, first.extensions?.code ?? 'SERVER_ERROR', first.extensions?.details ?? []);
  if (error.response instanceof Response) return new ApiError(`The service answered ${error.response.status}`, 'SERVER_ERROR');
  return error.networkError ?? error;
}

/** One GraphQL operation (query or mutation) over HTTP; errors become ApiError with the API's code and field details. */
export async function gql<T, V extends AnyVariables>(document: DocumentTypeDecoration<T, V>, ...[variables]: VariablesArg<V>): Promise<T> {
  if (!tokens) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  // A generated document is its operation's text (the operation first, then the fragments it uses).
  const text = document.toString();
  const vars = (variables ?? {}) as V;
  const result = await (/^\s*mutation\b/.test(text) ? client.mutation<T, V>(text, vars) : client.query<T, V>(text, vars)).toPromise();
  if (result.error || !result.data) {
    const error = result.error ? apiError(result.error) : new ApiError('The service answered without data', 'SERVER_ERROR');
    if (error instanceof ApiError && error.code === 'INVALID_TOKEN') clear();
    throw error;
  }
  return result.data;
}

/** The session's WebSocket (graphql-transport-ws), made on first use with the current token. */
function ws(): Client {
  if (!socket) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    const token = tokens?.accessToken ?? '';
    socket = createClient({ url, connectionParams: { Authorization: `Bearer ${token}` }, retryAttempts: 5, lazy: true });
  }
  return socket;
}

/** Subscribes while signed in; the returned function stops it. A new session (refresh) needs a new subscription. */
export function subscribe<T, V extends AnyVariables>(document: DocumentTypeDecoration<T, V>, variables: V, next: (data: T) => void): () => void {
  if (!tokens) return () => undefined;
  const subscription = client.subscription<T, V>(document.toString(), variables).subscribe((result) => {
    if (result.data) next(result.data);
  });
  return () => subscription.unsubscribe();
}

/**
 * A file from a REST endpoint (a CSV statement): fetched with the token in the Authorization
 * header (never in a URL), handed back as a Blob with the name the service gave it.
 */
export async function fetchFile(path: string): Promise<{ blob: Blob; filename: string }> {
  if (!tokens) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  const res = await fetch(path, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
  if (!res.ok) {
    const json = (await res.json().catch(() => null)) as { code?: string; message?: string; details?: Array<{ field: string; issue: string }> } | null;
    if (json?.code === 'INVALID_TOKEN') clear();
    throw new ApiError(json?.message ?? `The service answered ${res.status}`, json?.code ?? 'SERVER_ERROR', json?.details ?? []);
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await res.blob(), filename };
}
