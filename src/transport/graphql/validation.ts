import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { ValidationRule } from 'graphql';

/**
 * The GraphQL limits, one list for both doors: Apollo over HTTP and graphql-ws
 * over the socket. The schema has no recursive types today, so the depth limit is
 * a guard for tomorrow's schema as much as today's.
 */
export function graphqlValidationRules(maxDepth: number): ValidationRule[] {
  return [
    maxDepthRule({
      n: maxDepth,
      ignoreIntrospection: true,
      exposeLimits: true,
      // Report it as an ordinary validation error (INVALID_REQUEST), rather than throwing out of validate().
      propagateOnRejection: false,
      onReject: [(context, error) => context?.reportError(error)],
    }) as ValidationRule,
  ];
}
