import net from 'node:net';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { collect, connect } from '../../helpers/ws';

/** Writes raw bytes and resolves with everything the server sent until it closed the connection, and when it closed. */
function rawExchange(app: TestApp, text: string): { done: Promise<{ text: string; closedAfterMs: number }> } {
  const port = Number(new URL(app.url).port);
  const started = Date.now();
  const done = new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text: received, closedAfterMs: Date.now() - started }));
  });
  return { done };
}

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, head: head.toLowerCase(), body: JSON.parse(body) };
}

const REQUEST_TIMEOUT_MS = 1500;

describe('transport limits: slow clients and what the HTTP parser refuses answer in the envelope', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: '1000' } });
  });
  afterAll(() => app.close());

  it('a body that stops arriving is cut after REQUEST_TIMEOUT_MS with 408 and the connection closed; others are served meanwhile', async () => {
    const stalled = rawExchange(app, 'POST /v1/oauth/token HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grant_type":');
    // The server is not held by it.
    expect((await request(app.url, 'GET', '/health')).status).toBe(200);
    const { text, closedAfterMs } = await stalled.done;
    const answer = parse(text);
    expect(answer.status).toBe(408);
    expect(answer.head).toContain('connection: close');
    expect(answer.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'The request was not received in time; the connection is closed' });
    // Not before the documented time, and within it plus the parser's 1 s check.
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
  });

  it('headers that never finish (slowloris) are cut too', async () => {
    const { text } = await rawExchange(app, 'GET /health HTTP/1.1\r\nHost: t\r\nX-Slow: a').done;
    expect(parse(text).status).toBe(408);
    expect(parse(text).body.code).toBe('INVALID_REQUEST');
  });

  it('headers too large → 431, bytes that are not HTTP → 400, both in the envelope', async () => {
    const big = parse((await rawExchange(app, `GET /health HTTP/1.1\r\nHost: t\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`).done).text);
    expect(big.status).toBe(431);
    expect(big.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'The request headers (with the URL) are too large' });
    const garbage = parse((await rawExchange(app, 'HELLO THERE\r\n\r\n').done).text);
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'Malformed HTTP request' });
  });

  it('a path parameter over the length limit → 414, broken percent-encoding → 400, in the envelope with a request id', async () => {
    const long = await request(app.url, 'GET', `/v1/customer/${'a'.repeat(300)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'A path parameter is too long' });
    expect(long.headers.get('x-request-id')).toBeTruthy();
    const { text } = await rawExchange(app, 'GET /v1/customer/%E0%A4%A HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n').done;
    const bad = parse(text);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'The URL is not valid (bad percent-encoding)' });
  });

  it('an idle WebSocket is not a stalled request: it outlives a request cut for slowness', async () => {
    const merchant = await app.createMerchant('Idle socket');
    const { accessToken } = await app.token(merchant);
    const client = connect(app, accessToken);
    try {
      const first = collect(client, '{ merchant { id } }');
      expect(await eventually(async () => first.received.length > 0)).toBe(true);
      // Opened after the socket went idle, and cut: the socket has now been idle longer than any request may take.
      expect(
        parse((await rawExchange(app, 'POST /v1/oauth/token HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{').done).text)
          .status,
      ).toBe(408);
      const second = collect(client, '{ merchant { id } }');
      expect(await eventually(async () => second.received.length > 0)).toBe(true);
      expect(second.received[0]).toEqual({ data: { merchant: { id: merchant.merchant.id } } });
    } finally {
      await client.dispose();
    }
  });
});
