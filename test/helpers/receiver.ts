import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** The request path (with query), e.g. "/hooks". */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A status code; 'hang' to never answer; 'reset' to drop the connection unanswered (a failed connection, at once:
 * unanswered like a timeout, with no timing to race on a loaded machine); or a status with response headers.
 */
export type ReceiverAnswer = number | 'hang' | 'reset' | { status: number; headers: Record<string, string> };

/**
 * A webhook receiver on loopback. `respond` decides each answer (status code, or
 * 'hang' to never answer); every request is recorded.
 */
export async function startReceiver(respond: (req: ReceivedWebhook, n: number) => ReceiverAnswer = () => 200) {
  const received: ReceivedWebhook[] = [];
  /** Requests open now (a hanging answer stays open until the sender gives up), and the most at once. */
  const load = { open: 0, maxOpen: 0 };
  const server = http.createServer((req, res) => {
    // A request ends when its sender gives up (its FIN: the socket's 'end') or when the answer is done ('close', which
    // a loaded process may emit a turn later, after the sender's next request has arrived). It is counted as open
    // only after the rest of this turn's I/O: a sender that gave up and sent its next request can have both land in
    // one batch of events, the new request handled first (seen under load: 3 open for a cap of 2). A request that
    // really is open beside others stays open past the turn, and is counted.
    let counted = false;
    let ended = false;
    setImmediate(() => {
      if (ended) return;
      counted = true;
      load.open++;
      load.maxOpen = Math.max(load.maxOpen, load.open);
    });
    const end = () => {
      if (ended) return;
      ended = true;
      if (counted) load.open--;
    };
    req.socket.once('end', end);
    res.on('close', () => {
      req.socket.off('end', end);
      end();
    });
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const entry = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      received.push(entry);
      const answer = respond(entry, received.length);
      if (answer === 'hang') return;
      if (answer === 'reset') return void req.socket.destroy();
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    load,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
