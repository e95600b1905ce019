import { GraphQLError, type GraphQLFormattedError } from 'graphql';
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
      return { message: formatted.message, ...where, extensions: appErrorExtensions(AppError.invalidRequest(formatted.message)) };
    }
  }
  logger.error({ err: original }, 'unhandled GraphQL error');
  const hidden = new AppError('SERVER_ERROR', 'An unexpected error occurred');
  return { message: hidden.message, ...where, extensions: appErrorExtensions(hidden) };
}
