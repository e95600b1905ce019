import { createClient, type Client } from 'graphql-ws';

/**
 * The signed-in session: tokens live in this module's memory only (never localStorage,
 * sessionStorage, a cookie or a URL), so a reload or a closed tab signs out. The access
 * token is refreshed (refresh tokens rotate: the newest is kept) a minute before it expires;
 * sign-out revokes the family. Data goes through GraphQL and graphql-ws; tokens through
 * the API's OAuth endpoints.
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

/** One GraphQL operation over HTTP; errors become ApiError with the API's code and field details. */
export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  if (!tokens) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.accessToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json().catch(() => null)) as { data?: T; errors?: Array<{ message: string; extensions?: { code?: string; details?: [] } }> } | null;
  const error = json?.errors?.[0];
  if (error || !json?.data) {
    if (error?.extensions?.code === 'INVALID_TOKEN') clear();
    throw new ApiError(error?.message ?? `The service answered ${res.status}`, error?.extensions?.code ?? 'SERVER_ERROR', error?.extensions?.details ?? []);
  }
  return json.data;
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
export function subscribe<T>(query: string, variables: Record<string, unknown>, next: (data: T) => void): () => void {
  if (!tokens) return () => undefined;
  return ws().subscribe<T>({ query, variables }, { next: (v) => v.data && next(v.data as T), error: () => undefined, complete: () => undefined });
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
