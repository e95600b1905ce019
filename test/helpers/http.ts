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
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export async function graphql<T = any>(base: string, query: string, opts: { variables?: Record<string, unknown>; token?: string } = {}) {
  return request<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> }>(base, 'POST', '/graphql', {
    body: { query, variables: opts.variables },
    token: opts.token,
  });
}
