// The types of server.js, for TypeScript code that loads it: the gateway's test of this example
// (test/e2e/webhooks/example-receiver.test.ts). Running the example needs only server.js.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface ReceiverOptions {
  /** The merchant's webhook secret, `whsec_…`. */
  secret: string;
  /** Where the receiver writes its lines (default: console.log). */
  print?: (line: string) => void;
  /** How many webhook-ids it keeps to recognise a repeat (default: 10 000). */
  maxRemembered?: number;
}

export interface RunningReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** One handler per event type the gateway sends; each describes its event in one line. */
export const handlers: Readonly<Record<string, (data: Record<string, unknown>) => string>>;

/** The receiver as an Express app (a request listener): POST /hooks. */
export function createApp(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void;

/** Starts the receiver on 127.0.0.1; port 0 (the default) takes any free port. */
export function start(options: ReceiverOptions & { port?: number }): Promise<RunningReceiver>;
