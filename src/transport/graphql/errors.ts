import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { redactCardNumbers } from '../../shared/card-numbers';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** An AppError as GraphQL carries it: the same code in extensions.code. */
export function toGraphQLError(err: AppError): GraphQLError {
  return new GraphQLError(err.message, { extensions: appErrorExtensions(err) });
}

/**
 * Services name fields as the REST API does (snake_case, `limit` for a page size);
 * GraphQL clients know them in camelCase, and a page size as `first`.
 */
const GRAPHQL_ARGUMENT_NAMES: Record<string, string> = { limit: 'first' };
const camelCasePath = (field: string) =>
  GRAPHQL_ARGUMENT_NAMES[field] ?? field.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function appErrorExtensions(err: AppError) {
  const details = err.details?.map((d) => ({ field: camelCasePath(d.field), issue: d.issue }));
  return { code: err.code, http: { status: err.httpStatus }, ...(details ? { details } : {}) };
}

/** A variable's path as graphql-js prints it after the value: ` at "input.card.number"; `. */
const VALUE_PATH = / at "[A-Za-z_$][\w$]*(?:\.[A-Za-z_]\w*|\[\d+\])*"; /g;

/**
 * graphql-js quotes the offending value in its request errors: `Variable "$input"
 * got invalid value { number: "4242…" } at "input.card"; …`, `Int cannot represent
 * non-integer value: "737"`, `Expected value of type "Int!", found "…"`, `Unexpected
 * Int "4242…"`. The value may be a card number, a CVC or a secret, so it is cut out:
 * the message keeps the variable, the path and the expected type, which say what
 * to fix. Any card number left (a field name, say) is redacted as well.
 */
export function withoutInputValues(message: string): string {
  let text = message;
  const got = text.indexOf(' got invalid value ');
  if (got >= 0) {
    const paths = [...text.slice(got).matchAll(VALUE_PATH)];
    const last = paths.at(-1);
    const end = last ? got + last.index! : text.indexOf('; ', got);
    text = `${text.slice(0, got)} got an invalid value${end >= 0 ? text.slice(end) : ''}`;
  }
  text = text
    .replace(/(cannot represent [^:;]*?value)(?:: [\s\S]*)?$/, '$1.')
    .replace(/, found [\s\S]*?(?=; |\.?$)/, '')
    .replace(/^Value "[\s\S]*?" does not exist in /, 'The value does not exist in ')
    .replace(/(Syntax Error: (?:Unexpected|Invalid)[^"]*?)\s*"[\s\S]*?"/, '$1');
  return redactCardNumbers(text);
}

function originalOf(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current;
}

/**
 * GraphQL door: the one place that decides what an error looks like (Apollo's
 * formatError and the WebSocket server both call it). AppErrors keep their code;
 * GraphQL's own request errors (syntax, validation, variable coercion) become
 * INVALID_REQUEST; everything else is logged and hidden behind SERVER_ERROR.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = originalOf(error);
  const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
  if (original instanceof AppError) {
    return { message: original.message, ...where, extensions: appErrorExtensions(original) };
  }
  if (original instanceof GraphQLError) {
    const code = original.extensions?.code;
    if (typeof code === 'string' && code in { INVALID_TOKEN: 1, INVALID_REQUEST: 1, RATE_LIMITED: 1 }) {
      return { message: formatted.message.replace(/^Context creation failed: /, ''), ...where, extensions: original.extensions };
    }
    if (code !== 'INTERNAL_SERVER_ERROR') {
      const message = withoutInputValues(formatted.message);
      return { message, ...where, extensions: appErrorExtensions(AppError.invalidRequest(message)) };
    }
  }
  logger.error({ err: original }, 'unhandled GraphQL error');
  const hidden = new AppError('SERVER_ERROR', 'An unexpected error occurred');
  return { message: hidden.message, ...where, extensions: appErrorExtensions(hidden) };
}
