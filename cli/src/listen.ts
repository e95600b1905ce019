import { createClient, type Client } from 'graphql-ws/client';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import type { Api } from './api';

/** One event as the `eventRecorded` subscription carries it. */
interface RecordedEvent {
  id: string;
  type: string;
  createdAt: string;
  /** The webhook body a delivery of it carries, byte for byte. */
  body: string;
}

const EVENT_RECORDED = `subscription EventRecorded($types: [String!]) { eventRecorded(types: $types) { id type createdAt body } }`;

/** How long a local receiver has to answer one forwarded event. */
const FORWARD_TIMEOUT_MS = 10_000;

export interface ListenOptions {
  forwardTo: string;
  /** Only these event types (the subscription's `types`); every type when empty. */
  events: string[];
  /** The local signing secret (config.ts). */
  secret: string;
  /** Where lines go (stdout). */
  print: (line: string) => void;
}

/**
 * The Standard Webhooks headers of a forwarded event, as the service's deliveries carry them
 * (src/modules/webhooks/signing.ts, webhookHeaders), signed by the `standardwebhooks` package (the service's and the
 * SDK's) with the local secret instead of the endpoint's.
 */
function signedHeaders(secret: string, id: string, body: string): Record<string, string> {
  const now = new Date();
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-gateway-cli/listen',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

/** POSTs one event to the local URL and says how it went (one line: time, type, id, status). */
async function forward(event: RecordedEvent, options: ListenOptions): Promise<string> {
  const started = Date.now();
  let outcome: string;
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: signedHeaders(options.secret, event.id, event.body),
      body: event.body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    outcome = `[${response.status}]`;
  } catch (err) {
    const cause = (err as Error).cause as { code?: string } | undefined;
    outcome = `[ERR] ${cause?.code ?? (err as Error).name}`;
  }
  return `${new Date(started).toISOString()}  --> ${event.type} [${event.id}]  <-- ${outcome} POST ${options.forwardTo} (${Date.now() - started} ms)`;
}

/**
 * `listen`: signs in with the API key, opens a WebSocket to the service (outbound: no tunnel, and the webhook
 * endpoint setting is untouched), subscribes to `eventRecorded`, and forwards each event, in the order recorded, to
 * the local URL, signed with the local secret. Reconnects when the socket drops (a new access token each time).
 * Resolves when the subscription ends for good (an error the service answered, e.g. an unknown event type).
 */
export function listen(api: Api, options: ListenOptions): { done: Promise<void>; stop: () => Promise<void> } {
  const url = new URL('/graphql', api.credentials.baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let announced = false;
  const client: Client = createClient({
    url: url.toString(),
    webSocketImpl: WebSocket,
    lazy: false,
    // An access token ends the session when it expires (4403): connect again with a new one, as after any drop.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    connectionParams: async () => ({ Authorization: `Bearer ${await api.accessToken()}` }),
    on: {
      connected: () => {
        if (!announced) {
          announced = true;
          options.print(`Ready! Your webhook signing secret is ${options.secret} (^C to quit)`);
          options.print(`Forwarding ${options.events.length > 0 ? options.events.join(', ') : 'every event'} to ${options.forwardTo}`);
        } else {
          options.print('Reconnected');
        }
      },
    },
  });
  // One at a time, in the order recorded.
  let chain = Promise.resolve();
  const done = new Promise<void>((resolve, reject) => {
    client.subscribe<{ eventRecorded: RecordedEvent }>(
      { query: EVENT_RECORDED, variables: { types: options.events.length > 0 ? options.events : null } },
      {
        next: ({ data, errors }) => {
          if (errors?.length) return reject(new Error(errors.map((e) => e.message).join('; ')));
          const event = data?.eventRecorded;
          if (event) chain = chain.then(async () => options.print(await forward(event, options)));
        },
        error: (err) => reject(err instanceof Error ? err : new Error(Array.isArray(err) ? err.map((e) => e.message).join('; ') : String(err))),
        complete: () => resolve(),
      },
    );
  });
  return {
    done: done.finally(() => chain),
    stop: async () => {
      await client.dispose();
      await chain;
    },
  };
}
