import { AppError } from '../shared/errors';

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
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
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
