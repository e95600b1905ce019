/** A minimal HTTP client over real sockets (Node's fetch), returning status, headers and parsed body. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetchOnce(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * fetch, tried again once when a kept-alive connection turns out closed before any answer. The
 * test's own server (same process) closes idle connections after KEEP_ALIVE_TIMEOUT_MS; when a
 * long synchronous step blocks the event loop past that, the next request can be written on a
 * connection whose close has not been processed yet (ECONNRESET, "other side closed"). The
 * server never read that request (it closed the connection as idle), so sending it again on a
 * fresh connection is safe, as browsers do.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

export async function graphql<T = any>(base: string, query: string, opts: { variables?: Record<string, unknown>; token?: string } = {}) {
  return request<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> }>(base, 'POST', '/graphql', {
    body: { query, variables: opts.variables },
    token: opts.token,
  });
}
