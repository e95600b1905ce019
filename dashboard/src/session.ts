import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { Client as UrqlClient, CombinedError, fetchExchange, mapExchange, subscriptionExchange, type AnyVariables } from '@urql/core';
import { createClient, type Client } from 'graphql-ws';

/**
 * The signed-in session. The refresh token lives in an HttpOnly, SameSite=Strict cookie that the
 * service sets on its dashboard session routes (/dashboard/session, the only path it is sent to):
 * no script here, or injected, can read it, and it outlives a reload. The access token lives in
 * this module's memory only (never localStorage, sessionStorage, a readable cookie or a URL). On
 * load the page asks the refresh route for an access token, silently; without a session it shows
 * the sign-in form. The access token is refreshed a minute before it expires (each refresh rotates
 * the cookie's token); sign-out revokes the family and clears the cookie. Data goes through
 * GraphQL and graphql-ws (one urql client, typed documents from ./generated; the screens use it
 * through the hooks in ./data.ts).
 */

interface Access {
  token: string;
  expiresAt: number;
}

type Listener = () => void;

/** The session routes (src/transport/dashboard/dashboard-session.routes.ts). */
const SESSION = '/dashboard/session';

let access: Access | null = null;
let resuming = false;
let enrolmentOnly = false;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let socket: Client | null = null;
const listeners = new Set<Listener>();
/** Tells this origin's other tabs that the session ended here, so they show the sign-in form at once. */
const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dashboard-session');

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

/** Called when the session starts, is refreshed (a new socket) or ends, and when resuming it starts or ends. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const signedIn = () => access !== null;

/** True while the page asks whether the browser still has a session (show neither the form nor data yet). */
export const resumingSession = () => resuming;

/**
 * One call to a dashboard route (/dashboard/session/*, sign-up, the emailed links, invitations). The
 * custom header is what the service requires of these routes (with SameSite=Strict and its Origin
 * check, it keeps other sites' pages from using them). GET for a read (an invitation's preview).
 */
export async function dashboardCall(
  path: string,
  init: { body?: Record<string, unknown>; token?: string; method?: 'GET' | 'POST' } = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'x-requested-with': 'fetch' };
  if (init.body) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const method = init.method ?? 'POST';
  const res = await fetch(path, { method, credentials: 'same-origin', headers, body: init.body ? JSON.stringify(init.body) : undefined });
  const json = (await res.json().catch(() => null)) as {
    status?: string;
    data?: Record<string, unknown>;
    code?: string;
    message?: string;
    details?: Array<{ field: string; issue: string }>;
  } | null;
  if (!res.ok || json?.status !== 'success') {
    throw new ApiError(json?.message ?? `The service answered ${res.status}`, json?.code ?? 'SERVER_ERROR', json?.details ?? []);
  }
  return json.data ?? {};
}
const session = dashboardCall;

/**
 * A refresh, one tab at a time (Web Locks, shared by this origin's tabs): each refresh rotates the
 * cookie's token, so two tabs refreshing at once would present the same token twice, which the
 * service takes for a stolen token and answers by revoking the whole family (signing every tab
 * out). Under the lock, a tab's refresh sends the cookie the previous one set. Browsers without
 * Web Locks (a page over plain http on another host than localhost) refresh unserialised.
 */
async function refreshExclusively(): Promise<Record<string, unknown>> {
  const call = () => session(`${SESSION}/refresh`);
  if (typeof navigator === 'undefined' || !navigator.locks) return call();
  let data: Record<string, unknown> = {};
  // Held until the answer (and its Set-Cookie) is in: the next tab's refresh sends the new cookie.
  await navigator.locks.request('dashboard-session-refresh', async () => {
    data = await call();
  });
  return data;
}

/**
 * Whether an access token says its holder may only enrol in 2FA (its `enr` claim). Only what to show
 * depends on it: the service refuses everything else to such a token whatever the page shows.
 */
function enrolmentClaim(token: string): boolean {
  try {
    const payload = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return (JSON.parse(atob(payload)) as { enr?: unknown }).enr === true;
  } catch {
    return false;
  }
}

/** A session the service answered (sign-in, sign-up, an accepted invitation, a refresh): its access token kept in memory. */
export function adopt(data: Record<string, unknown>) {
  enrolmentOnly = data.two_factor_required === true || enrolmentClaim(String(data.access_token));
  access = { token: String(data.access_token), expiresAt: Date.now() + Number(data.expires_in) * 1000 };
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refresh(), Math.max(5_000, access.expiresAt - Date.now() - 60_000));
  // The socket's session ends with its token: a new socket with the new one.
  socket?.dispose();
  socket = null;
  notify();
}

/**
 * The readable cookie the service sets and clears with the session cookie (it holds no token): without it the
 * browser holds no session, and the page shows the sign-in form without asking (a refused refresh is a 401
 * in the console of every first visit).
 */
const SIGNED_IN = 'dashboard_signed_in=1';
const mayHoldSession = () => document.cookie.split(';').some((c) => c.trim() === SIGNED_IN);

/** On load: the session the browser's cookie holds, if it still has one; otherwise the sign-in form. */
export async function resumeSession(): Promise<void> {
  if (!mayHoldSession()) return;
  resuming = true;
  notify();
  try {
    adopt(await refreshExclusively());
  } catch {
    // No session (none, expired, revoked) or no answer: the sign-in form.
  } finally {
    resuming = false;
    notify();
  }
}

/**
 * Sign-in with an email and password (and, for a member with 2FA, a code from their app or a
 * recovery code). Without the code the service answers INVALID_CLIENT saying one is needed
 * (`needsCode`), only once the password was right.
 */
export async function signIn(email: string, password: string, code?: string, merchantId?: string): Promise<void> {
  adopt(await session(SESSION, { body: { email, password, ...(code ? { totp_code: code } : {}), ...(merchantId ? { merchant_id: merchantId } : {}) } }));
}

/** The service asked for a second factor (after a correct password). */
export const needsCode = (err: unknown) => err instanceof ApiError && err.code === 'INVALID_CLIENT' && /\b(code|two-factor|2fa)\b/i.test(err.message);

/** A member who must enrol in 2FA before anything else: the service's 403 says so. */
const mustEnrol = (err: unknown) => err instanceof ApiError && err.code === 'FORBIDDEN' && /enrol/i.test(err.message);

/** The same person at another of their merchants: a new session there (the cookie's family ends). */
export async function switchMerchant(merchantId: string): Promise<void> {
  adopt(await session(`${SESSION}/switch`, { body: { merchant_id: merchantId }, token: access?.token }));
}

/** A refresh now (after enrolling in 2FA: the new token carries the member's full role). */
export async function refreshNow(): Promise<void> {
  await refresh();
}

/** True while the session may only enrol in 2FA (the service said so at sign-in, or refused a request for it). */
export const enrolmentRequired = () => enrolmentOnly;

/** The access token, for a dashboard route that takes it (resending the verification email). */
export const accessToken = () => access?.token;

async function refresh(): Promise<void> {
  if (!access) return;
  try {
    adopt(await refreshExclusively());
  } catch {
    clear();
  }
}

function clear() {
  clearTimeout(refreshTimer);
  access = null;
  enrolmentOnly = false;
  socket?.dispose();
  socket = null;
  notify();
}

tabs?.addEventListener('message', (event) => {
  if (event.data === 'signed-out') clear();
});

/** Revokes the session's family (the cookie's, and this tab's access token's) and clears the cookie; the other tabs are told. */
export async function signOut(): Promise<void> {
  const token = access?.token;
  clear();
  await session(`${SESSION}/sign-out`, { token }).catch(() => undefined);
  tabs?.postMessage('signed-out');
}

/** The variables argument: optional when the operation has none that are required. */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

/**
 * The GraphQL client: urql's core, with no document cache (every screen reads fresh data, and a
 * cache would add `__typename` to each selection, which the API's cost limit charges). It keeps
 * urql's de-duplication of identical queries in flight, sends POST (as before; no GET), and hands
 * subscriptions to the session's graphql-ws socket. The token is read for each request. A query or
 * mutation refused for its token ends the session here (the sign-in form), whoever sent it: a
 * screen's hook (./data.ts) or `gql`. The screens reach it through urql's React bindings (the
 * `Provider` in main.tsx).
 */
export const client = new UrqlClient({
  url: '/graphql',
  preferGetMethod: false,
  requestPolicy: 'network-only',
  fetchOptions: () => ({ headers: { accept: 'application/json', authorization: `Bearer ${access?.token ?? ''}` } }),
  exchanges: [
    mapExchange({
      onError(error, operation) {
        if (operation.kind === 'subscription') return;
        const api = toApiError(error);
        if (api instanceof ApiError && api.code === 'INVALID_TOKEN') clear();
        else if (mustEnrol(api) && !enrolmentOnly) {
          enrolmentOnly = true;
          notify();
        }
      },
    }),
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: ws().subscribe({ ...request, query: request.query ?? '' }, sink) }),
      }),
    }),
  ],
});

/**
 * An urql error as an ApiError with the API's code and field details (the first GraphQL error's);
 * a failed connection stays what it was. Anything else is handed back as it is.
 */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof CombinedError)) return error;
  const first = error.graphQLErrors[0] as { message: string; extensions?: { code?: string; details?: [] } } | undefined;
  if (first) return new ApiError(first.message, first.extensions?.code ?? 'SERVER_ERROR', first.extensions?.details ?? []);
  if (error.response instanceof Response) return new ApiError(`The service answered ${error.response.status}`, 'SERVER_ERROR');
  return error.networkError ?? error;
}

/**
 * One GraphQL operation (query or mutation) over HTTP, outside a screen's hooks (./data.ts), for what
 * is read once for the tab's life; errors become ApiError with the API's code and field details.
 */
export async function gql<T, V extends AnyVariables>(document: DocumentTypeDecoration<T, V>, ...[variables]: VariablesArg<V>): Promise<T> {
  if (!access) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  // A generated document is its operation's text (the operation first, then the fragments it uses).
  const text = document.toString();
  const vars = (variables ?? {}) as V;
  const result = await (/^\s*mutation\b/.test(text) ? client.mutation<T, V>(text, vars) : client.query<T, V>(text, vars)).toPromise();
  if (result.error) throw toApiError(result.error);
  if (!result.data) throw new ApiError('The service answered without data', 'SERVER_ERROR');
  return result.data;
}

/** The session's WebSocket (graphql-transport-ws), made on first use with the current token. */
function ws(): Client {
  if (!socket) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    const token = access?.token ?? '';
    socket = createClient({ url, connectionParams: { Authorization: `Bearer ${token}` }, retryAttempts: 5, lazy: true });
  }
  return socket;
}

/** A REST error answer as an ApiError (ending the session here when the token was refused). */
async function restError(res: Response): Promise<ApiError> {
  const json = (await res.json().catch(() => null)) as { code?: string; message?: string; details?: Array<{ field: string; issue: string }> } | null;
  if (json?.code === 'INVALID_TOKEN') clear();
  const error = new ApiError(json?.message ?? `The service answered ${res.status}`, json?.code ?? 'SERVER_ERROR', json?.details ?? []);
  if (mustEnrol(error) && !enrolmentOnly) {
    enrolmentOnly = true;
    notify();
  }
  return error;
}

/**
 * A file from a REST endpoint (a CSV statement): fetched with the token in the Authorization
 * header (never in a URL), handed back as a Blob with the name the service gave it.
 */
export async function fetchFile(path: string): Promise<{ blob: Blob; filename: string }> {
  if (!access) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  const res = await fetch(path, { headers: { authorization: `Bearer ${access.token}` } });
  if (!res.ok) throw await restError(res);
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await res.blob(), filename };
}

/**
 * A file sent to a REST endpoint (a dispute's evidence) as multipart/form-data, its one part named
 * `file`, with the token in the Authorization header; the answer's `data` (the stored file's record).
 * The file goes as it is (no base64 in a JSON body: a third larger, and held whole in memory twice).
 */
export async function uploadFile(path: string, file: File): Promise<Record<string, unknown>> {
  if (!access) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  const body = new FormData();
  body.append('file', file, file.name);
  // No content-type of our own: the browser writes multipart/form-data with its boundary.
  const res = await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${access.token}` }, body });
  if (!res.ok) throw await restError(res);
  const json = (await res.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
  return json?.data ?? {};
}
