import { z } from 'zod';
import { AppError, type ErrorDetail } from './errors';
import { UUID_ID } from './pagination';

/**
 * A command as a door hands it to a service: the shape the service declares, in the
 * domain's (camelCase) names. The service checks it all the same (parseInput): a
 * REST body is JSON of any shape, and GraphQL's types do not carry our rules.
 */
export type Command<S extends z.ZodType> = z.input<S>;

/**
 * zod's own words for a rule a schema states without a message of its own
 * ("Too big: expected number to be <=100"), said as this service says them.
 */
function issueText(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${String(issue.maximum)} characters` : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return issue.origin === 'string' ? `must be at least ${String(issue.minimum)} characters` : `must be at least ${String(issue.minimum)}`;
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return issue.expected === 'int' ? 'must be a whole number' : `must be a ${issue.expected}`;
    case 'invalid_value':
      return `must be ${issue.values
        .map(String)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`;
    case 'invalid_format':
      return 'is not in the expected format';
    default:
      return undefined;
  }
}

/**
 * Validates a command against its schema, or throws INVALID_REQUEST with one detail
 * per problem, each naming the field in the domain's names (the doors rename them).
 * Used by services, so every door gets the same rules and messages.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  // Only a refused input is parsed again with our wording: zod's faster path skips a custom error map.
  const result = schema.safeParse(input ?? {}, { error: issueText });
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : what,
    issue: issue.message,
  }));
  throw AppError.invalidFields(details, what);
}

/** An id from a path or a command line: a uuid (lowercased), checked before any query; else 400 naming the field. */
export function parseUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UUID_ID.test(value)) throw AppError.invalidField(field, 'must be a uuid');
  return value.toLowerCase();
}
