#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Api, type Credentials } from './api';
import { configDir, listenSecret } from './config';
import { resend } from './events';
import { listen } from './listen';
import { trigger, TRIGGERABLE } from './trigger';

const USAGE = `payments-gateway: the payments gateway from your terminal

Usage:
  payments-gateway listen --forward-to <url> [--events <type,type,…>]
      Forwards your events, as they are recorded, to a local URL, signed (Standard Webhooks) with a local
      secret it prints and keeps in ${configDir()}/cli.json. Outbound WebSocket: no tunnel, and your
      webhook endpoint setting is left as it is.
  payments-gateway trigger <event>
      Makes sandbox objects that produce the event: ${TRIGGERABLE.join(', ')}.
  payments-gateway events resend <event id>
      Delivers an event again to your webhook endpoint.

Options:
  --api-url <url>   the service (default $PAYMENTS_BASE_URL, else http://127.0.0.1:4000)

The API key: $PAYMENTS_CLIENT_ID and $PAYMENTS_CLIENT_SECRET (npm run demo:credentials prints the sandbox's).
`;

function credentials(apiUrl: string | undefined): Credentials {
  const { PAYMENTS_CLIENT_ID: clientId, PAYMENTS_CLIENT_SECRET: clientSecret } = process.env;
  if (!clientId || !clientSecret) throw new Error('set PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET (an API key: client_id and client_secret)');
  return { baseUrl: apiUrl ?? process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:4000', clientId, clientSecret };
}

const print = (line: string) => void process.stdout.write(`${line}\n`);
const warn = (line: string) => void process.stderr.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'api-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    print(USAGE);
    return values.help ? 0 : 2;
  }
  switch (command) {
    case 'listen': {
      const forwardTo = values['forward-to'];
      if (!forwardTo || !/^https?:\/\//.test(forwardTo)) throw new Error('listen needs --forward-to <http(s) URL>, e.g. http://localhost:3000/hooks');
      const api = new Api(credentials(values['api-url']));
      await api.accessToken(); // a wrong key is said now, not retried
      const session = listen(api, {
        forwardTo,
        events: (values.events ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        secret: listenSecret(),
        print,
      });
      const stop = () => void session.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await session.done;
      return 0;
    }
    case 'trigger': {
      if (rest.length !== 1) throw new Error(`trigger takes one event: ${TRIGGERABLE.join(', ')}`);
      await trigger(new Api(credentials(values['api-url'])), rest[0]!, print, warn);
      return 0;
    }
    case 'events': {
      if (rest[0] !== 'resend' || rest.length !== 2) throw new Error('usage: events resend <event id>');
      await resend(new Api(credentials(values['api-url'])), rest[1]!, print);
      return 0;
    }
    default:
      warn(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    warn(`Error: ${(err as Error).message}`);
    process.exit(1);
  },
);
