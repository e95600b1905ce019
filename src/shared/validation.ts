import { z } from 'zod';
import { AppError, type ErrorDetail } from './errors';
import { UUID_ID } from './pagination';

/**
 * Validates an input against a schema, or throws INVALID_REQUEST with one detail
 * per problem. Used by services, so every door gets the same rules and messages.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : what,
    issue: issue.message,
  }));
  throw AppError.invalidRequest(`Invalid ${what}: ${details.map((d) => `${d.field} ${d.issue}`).join('; ')}`, details);
}

/** An id from a path or a command line: a uuid (lowercased), checked before any query; else 400 naming the field. */
export function parseUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UUID_ID.test(value)) {
    throw AppError.invalidRequest(`${field} must be a uuid`, [{ field, issue: 'must be a uuid' }]);
  }
  return value.toLowerCase();
}
