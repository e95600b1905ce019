import { Kind, type ASTNode, type ValidationRule } from 'graphql';
import { AppError } from '../shared/errors';
import { toGraphQLError } from './graphql/errors';

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL, which PostgreSQL refuses in text, or a UTF-16 surrogate without its pair, which it refuses in jsonb. */
function badCharacter(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be valid Unicode (it has an unpaired surrogate)';
  return null;
}

/**
 * The first string in a parsed input (a body, a query string, path parameters,
 * GraphQL variables) that no field can accept, anywhere in it, keys included: a
 * clean 400 naming the field, before any service or database sees it. One walk
 * over what was parsed; bodies are bounded by BODY_LIMIT_BYTES.
 */
export function assertCleanInput(value: unknown, path: string): void {
  const problem = findBadString(value, path, 0);
  if (problem) throw AppError.invalidRequest(`${problem.field} ${problem.issue}`, [problem]);
}

const MAX_DEPTH = 64;

function findBadString(value: unknown, path: string, depth: number): { field: string; issue: string } | null {
  if (typeof value === 'string') {
    const issue = badCharacter(value);
    return issue ? { field: path || 'body', issue } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return { field: path || 'body', issue: `is nested too deeply (at most ${MAX_DEPTH} levels)` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadString(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyIssue = badCharacter(key);
    if (keyIssue) return { field: path || 'body', issue: `has a field name that ${keyIssue}` };
    const found = findBadString(item, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The same rule for strings written into a GraphQL document itself (`firstName: "a\\u0000b"`),
 * which the parser decodes after the body was checked: a validation error naming the
 * argument, on both doors (it is one of graphqlValidationRules).
 */
export const cleanGraphQLStrings: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    const issue = badCharacter(node.value);
    if (!issue) return;
    const names = [...(ancestors as ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>), parent as ASTNode].flatMap((a) =>
      !Array.isArray(a) && ((a as ASTNode).kind === Kind.ARGUMENT || (a as ASTNode).kind === Kind.OBJECT_FIELD)
        ? [(a as { name: { value: string } }).name.value]
        : [],
    );
    const field = names.join('.') || 'query';
    const error = toGraphQLError(AppError.invalidRequest(`${field} ${issue}`, [{ field, issue }]));
    context.reportError(error);
  },
});
