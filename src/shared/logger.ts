import pino, { type DestinationStream, type Logger } from 'pino';

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
];

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'payments-gateway' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
