import pino, { type DestinationStream, type Logger } from 'pino';
import { redactCardNumbers } from './card-numbers';
import { requestIdMixin } from './request-logger';

/**
 * Paths pino censors wherever they appear in a log object. Handlers never log
 * bodies; this is the second line of defence for secrets and card data.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  // The dashboard's session cookie holds a refresh token, coming and going.
  'headers.cookie',
  'res.headers["set-cookie"]',
  'headers["set-cookie"]',
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
  // A card's PIN and the one-time code its issuer sends (the hosted checkout's, Flutterwave's `authorization.pin`).
  ...['pin', 'cardPin', 'card_pin', 'otp'].flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

/** A PostgreSQL error (pg's DatabaseError) or the ORM's wrapper of one (MikroORM's DriverException, via knex). */
function isDatabaseError(err: unknown): err is Record<string, unknown> & Error {
  if (!(err instanceof Error)) return false;
  const e = err as unknown as Record<string, unknown>;
  return typeof e.sqlState === 'string' || (typeof e.severity === 'string' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code));
}

/** Identifiers PostgreSQL names (constraint, table, column) stay; any other quoted text in its message may be a value. */
function withoutQuotedValues(message: string, identifiers: Set<string>): string {
  return message.replace(/"([^"]*)"|'([^']*)'/g, (whole, dq?: string, sq?: string) => (identifiers.has(dq ?? sq ?? '') ? whole : '"…"'));
}

/**
 * A database error without any value from the statement: the ORM's message quotes the
 * whole SQL with its parameters, pg's `detail` quotes the offending key, and its
 * properties carry the query and parameters. Kept: what identifies the failure
 * (SQLSTATE, constraint, table, column, routine), pg's own message with quoted text
 * removed unless it is one of those identifiers, and the stack's frames.
 */
function serializeDatabaseError(err: Record<string, unknown> & Error) {
  const pick = (key: string) => (typeof err[key] === 'string' ? (err[key] as string) : undefined);
  const identifiers = new Set(['constraint', 'table', 'column', 'schema', 'dataType'].map(pick).filter((v): v is string => !!v));
  // knex's message is `<the SQL, values inlined> - <pg's message>`, and MikroORM adds lines (`detail: Key (…)=(…)`).
  const firstLine = err.message.split('\n', 1)[0]!;
  const primary = pick('sqlMessage') ?? (firstLine.includes(' - ') ? firstLine.slice(firstLine.lastIndexOf(' - ') + 3) : firstLine);
  const message = withoutQuotedValues(primary, identifiers);
  const frames = (err.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  return {
    type: err.name,
    message,
    code: pick('sqlState') ?? pick('code'),
    constraint: pick('constraint'),
    table: pick('table'),
    column: pick('column'),
    routine: pick('routine'),
    stack: [`${err.name}: ${message}`, ...frames].join('\n'),
  };
}

/**
 * Errors as pino writes them: a database error without values (serializeDatabaseError),
 * and any card number in a message or stack cut out (a parser may quote its input).
 */
function serializeError(err: unknown) {
  if (isDatabaseError(err)) return serializeDatabaseError(err);
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
