import pino, { type DestinationStream, type Logger } from 'pino';
import { redactCardNumbers } from './card-numbers';
import { requestIdMixin } from './request-logger';

/**
 * Paths pino censors wherever they appear in a log object. Handlers never log
 * bodies; this is the second line of defence for secrets and card data.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'webhook_secret',
  'webhookSecret',
  'token',
  'card',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.refresh_token',
  '*.webhook_secret',
  '*.webhookSecret',
  '*.token',
  '*.card',
  // Card data, under every name it arrives by on either door: the whole object (a REST body's `card`,
  // GraphQL's `variables.input.card`), or loose fields. Each wildcard path costs every log line a little
  // (about 0.3 µs, measured), so the depths are the ones a card can sit at.
  '*.*.card',
  ...['cvc', 'cvv', 'card_number', 'cardNumber', 'pan', 'exp_month', 'expMonth', 'exp_year', 'expYear'].flatMap((f) => [f, `*.${f}`]),
];

/** Errors as pino writes them, with any card number in their message or stack cut out (a parser may quote its input). */
function serializeError(err: unknown) {
  const out = pino.stdSerializers.err(err as Error) as Record<string, unknown>;
  for (const key of ['message', 'stack'] as const) if (typeof out[key] === 'string') out[key] = redactCardNumbers(out[key] as string);
  return out;
}

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'payments-gateway' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      // Every line written while a request is served carries its id (see request-logger.ts).
      mixin: requestIdMixin,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
