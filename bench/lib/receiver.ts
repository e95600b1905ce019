/** The local webhook receiver: answers 200 at once and records when each delivery arrived. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  receivedAt: number;
  path: string;
  webhookId: string | undefined;
  type: string | undefined;
  /** data.reference, data.created_at, data.completed_at of the event body. */
  reference: string | undefined;
  createdAt: string | undefined;
  completedAt: string | undefined;
  /** The event's own created_at (the body's top level). */
  eventCreatedAt: string | undefined;
  /** With `verify`: whether the signature verified (undefined without it). */
  verified?: boolean;
}

export interface ReceiverOptions {
  /** Checks each delivery's signature on its raw body (the soak: standardwebhooks, per merchant). */
  verify?: (path: string, rawBody: string, headers: http.IncomingHttpHeaders) => boolean;
  /** Keep every delivery in `deliveries` (default true; a long soak counts them through onDelivery instead). */
  keep?: boolean;
}

export async function startReceiver(opts: ReceiverOptions = {}) {
  const deliveries: Delivery[] = [];
  let onDelivery: (d: Delivery) => void = () => {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = Date.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const d: Delivery = {
        receivedAt,
        path: req.url ?? '',
        webhookId: req.headers['webhook-id'] as string | undefined,
        type: body?.type,
        reference: body?.data?.reference,
        createdAt: body?.data?.created_at,
        completedAt: body?.data?.completed_at,
        eventCreatedAt: body?.created_at,
        ...(opts.verify ? { verified: opts.verify(req.url ?? '', raw, req.headers) } : {}),
      };
      if (opts.keep !== false) deliveries.push(d);
      onDelivery(d);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    deliveries,
    onDelivery(fn: (d: Delivery) => void) {
      onDelivery = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
