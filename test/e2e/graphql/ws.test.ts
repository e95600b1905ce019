import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { request } from '../../helpers/http';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';

const PROTOCOL = 'graphql-transport-ws';

interface RawOutcome {
  code: number;
  reason: string;
  messages: Array<{ type: string; [key: string]: unknown }>;
}

/** A bare graphql-transport-ws handshake: sends connection_init and reports how the server ended the socket. */
function rawHandshake(wsUrl: string, payload?: Record<string, unknown>): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, PROTOCOL);
    const messages: RawOutcome['messages'] = [];
    socket.on('open', () => {
      expect(socket.protocol).toBe(PROTOCOL);
      socket.send(JSON.stringify(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload }));
    });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      messages.push(message);
      // A server that (wrongly) accepts the connection: close it ourselves so the test fails on the code, not a hang.
      if (message.type === 'connection_ack') socket.close(1000, 'test: unexpected ack');
    });
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), messages }));
    socket.on('error', reject);
  });
}

/** Runs one operation through graphql-ws and collects what the server sent. */
function run(client: Client, query: string): Promise<{ results: ExecutionResult[]; error?: unknown }> {
  return new Promise((resolve) => {
    const results: ExecutionResult[] = [];
    client.subscribe(
      { query },
      {
        next: (value) => results.push(value as ExecutionResult),
        error: (error) => resolve({ results, error }),
        complete: () => resolve({ results }),
      },
    );
  });
}

/** graphql-ws hands operation errors to the sink as an array of formatted GraphQL errors. */
function codesOf(error: unknown): unknown[] {
  if (!Array.isArray(error)) {
    const close = error as { code?: unknown; reason?: unknown } | undefined;
    throw new Error(
      `expected an operation error (an array of GraphQL errors), got ${
        close && typeof close.code === 'number' ? `the socket closed with ${close.code} "${String(close.reason)}"` : String(error)
      }`,
    );
  }
  return (error as Array<{ extensions?: { code?: unknown } }>).map((e) => e.extensions?.code);
}

describe('GraphQL over WebSocket (graphql-transport-ws on /graphql)', () => {
  let app: TestApp;
  let wsUrl: string;
  let merchant: MerchantCredentials;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    wsUrl = `${app.url.replace(/^http:\/\//, 'ws://')}/graphql`;
    merchant = await app.createMerchant('Socket Merchant');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => app.close());

  /** A client that connects at once; resolves when the server acknowledged connection_init. */
  async function connect(connectionParams: Record<string, unknown>): Promise<Client> {
    let acknowledged!: () => void;
    let failed!: (reason: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      acknowledged = resolve;
      failed = reject;
    });
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams,
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: (err) => failed(err),
      on: { connected: () => acknowledged(), closed: (event) => failed(event) },
    });
    clients.push(client);
    await ready;
    return client;
  }

  /** A client whose connection the server refuses; resolves to the close code it saw. */
  function refusedCloseCode(connectionParams?: Record<string, unknown>): Promise<number> {
    return new Promise((resolve, reject) => {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        ...(connectionParams ? { connectionParams } : {}),
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => undefined,
        on: {
          connected: () => reject(new Error('the server acknowledged a connection it should have refused')),
          closed: (event) => resolve((event as { code: number }).code),
        },
      });
      clients.push(client);
    });
  }

  describe('refuses the connection with 4403', () => {
    it('over a raw socket without a connection_init payload', async () => {
      const outcome = await rawHandshake(wsUrl);
      expect(outcome.code).toBe(4403);
      expect(outcome.messages.map((m) => m.type)).not.toContain('connection_ack');
    });

    it('over a raw socket with an empty payload', async () => {
      const outcome = await rawHandshake(wsUrl, {});
      expect(outcome.code).toBe(4403);
    });

    it('over a raw socket with a garbage bearer token', async () => {
      const outcome = await rawHandshake(wsUrl, { Authorization: 'Bearer garbage' });
      expect(outcome.code).toBe(4403);
      expect(outcome.messages.map((m) => m.type)).not.toContain('connection_ack');
    });

    it('over a raw socket with an expired token', async () => {
      const { accessToken } = await app.token(merchant);
      app.clock.advance(3600_000);
      const outcome = await rawHandshake(wsUrl, { Authorization: `Bearer ${accessToken}` });
      expect(outcome.code).toBe(4403);
    });

    it('over a raw socket with a token that is not a string', async () => {
      const outcome = await rawHandshake(wsUrl, { Authorization: 42 });
      expect(outcome.code).toBe(4403);
    });

    it('through the graphql-ws client without connectionParams', async () => {
      expect(await refusedCloseCode()).toBe(4403);
    });

    it('through the graphql-ws client with a garbage token', async () => {
      expect(await refusedCloseCode({ Authorization: 'Bearer garbage' })).toBe(4403);
    });
  });

  it('acknowledges a valid token over a raw socket', async () => {
    const { accessToken } = await app.token(merchant);
    const socket = new WebSocket(wsUrl, PROTOCOL);
    const first = await new Promise<{ type: string }>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${accessToken}` } })));
      socket.on('message', (data) => resolve(JSON.parse(data.toString())));
      socket.on('error', reject);
      socket.on('close', (code) => reject(new Error(`closed with ${code}`)));
    });
    expect(first.type).toBe('connection_ack');
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.close(1000);
    await closed;
  });

  it('answers the merchant query over the socket for a valid token', async () => {
    const { accessToken } = await app.token(merchant);
    const client = await connect({ Authorization: `Bearer ${accessToken}` });
    const { results, error } = await run(client, '{ merchant { id name clientId createdAt } }');
    expect(error).toBeUndefined();
    expect(results).toEqual([
      {
        data: {
          merchant: {
            id: merchant.merchant.id,
            name: 'Socket Merchant',
            clientId: merchant.merchant.clientId,
            createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
          },
        },
      },
    ]);
  });

  it("scopes the socket to the token's merchant", async () => {
    const other = await app.createMerchant('Other Socket Merchant');
    const { accessToken } = await app.token(other);
    const client = await connect({ authorization: `Bearer ${accessToken}` });
    const { results } = await run(client, '{ merchant { id } }');
    expect(results).toEqual([{ data: { merchant: { id: other.merchant.id } } }]);
  });

  it('refuses new operations with INVALID_TOKEN once the token has expired on an open socket', async () => {
    const { accessToken } = await app.token(merchant);
    const client = await connect({ Authorization: `Bearer ${accessToken}` });
    const before = await run(client, '{ merchant { id } }');
    expect(before.results).toEqual([{ data: { merchant: { id: merchant.merchant.id } } }]);

    app.clock.advance(3600_000);
    const after = await run(client, '{ merchant { id } }');
    expect(after.results).toEqual([]);
    expect(codesOf(after.error)).toEqual(['INVALID_TOKEN']);
  });

  it('closes the socket with 4403 once the token has been revoked: no operation runs on it after', async () => {
    const { accessToken, refreshToken } = await app.token(merchant);
    const client = await connect({ Authorization: `Bearer ${accessToken}` });
    expect((await run(client, '{ merchant { id } }')).results).toHaveLength(1);

    expect((await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } })).status).toBe(200);
    const after = await run(client, '{ merchant { id } }');
    expect(after.results).toEqual([]);
    expect(after.error).toMatchObject({ code: 4403, reason: 'Forbidden: the access token was revoked' });
  });

  it('answers an unknown field with INVALID_REQUEST', async () => {
    const { accessToken } = await app.token(merchant);
    const client = await connect({ Authorization: `Bearer ${accessToken}` });
    const { results, error } = await run(client, '{ merchant { id clientSecret } }');
    expect(results).toEqual([]);
    const codes = codesOf(error);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code === 'INVALID_REQUEST')).toBe(true);
    expect((error as Array<{ message: string }>)[0]!.message).toMatch(/clientSecret/);

    // The socket survives a bad operation.
    expect((await run(client, '{ merchant { id } }')).results).toEqual([{ data: { merchant: { id: merchant.merchant.id } } }]);
  });

  it('answers a syntax error with INVALID_REQUEST', async () => {
    const { accessToken } = await app.token(merchant);
    const client = await connect({ Authorization: `Bearer ${accessToken}` });
    const { results, error } = await run(client, '{ merchant { id ');
    expect(results).toEqual([]);
    expect(codesOf(error)).toEqual(['INVALID_REQUEST']);
    // A bad operation must not take the connection down.
    expect((await run(client, '{ merchant { id } }')).results).toEqual([{ data: { merchant: { id: merchant.merchant.id } } }]);
  });
});
