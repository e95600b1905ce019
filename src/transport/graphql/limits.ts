import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { NoSchemaIntrospectionCustomRule, type GraphQLError, type ParseOptions, type ValidationContext, type ValidationRule } from 'graphql';

/** What one GraphQL document may ask for, over HTTP and over the socket alike. */
export interface GraphQLLimits {
  /** Deepest selection. */
  maxDepth: number;
  /** Aliases in one operation: 1,000 aliases of one field once froze every tenant for seconds. */
  maxAliases: number;
  /** graphql-armor's cost: each field costs 1 (an object 2), multiplied by 1.5 per level of depth. */
  maxCost: number;
  /** Lexical tokens: bounds the parser's work and recursion before anything else runs. */
  maxTokens: number;
  maxDirectives: number;
  /** Production: no introspection (the committed schema.graphql is the public description). */
  introspection: boolean;
}

/** Report a rejection as an ordinary validation error (INVALID_REQUEST), rather than throwing out of validate(). */
const asValidationError = {
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/**
 * The GraphQL limits, one list for both doors: Apollo over HTTP and graphql-ws over
 * the socket. graphql-armor's rules (well kept, each a single pass over the
 * document), built once at start. Batching stays off (Apollo's default) and list
 * sizes are capped by `first` in the services.
 */
export function graphqlValidationRules(limits: GraphQLLimits): ValidationRule[] {
  return [
    maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, ...asValidationError }) as ValidationRule,
    maxAliasesRule({ n: limits.maxAliases, ...asValidationError }) as ValidationRule,
    costLimitRule({ maxCost: limits.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true, ...asValidationError }) as ValidationRule,
    maxDirectivesRule({ n: limits.maxDirectives, ...asValidationError }) as ValidationRule,
    ...(limits.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
}

/** graphql-js counts tokens as it parses and stops at the limit (a deeply nested document never reaches the stack's end). */
export function graphqlParseOptions(limits: GraphQLLimits): ParseOptions {
  return { maxTokens: limits.maxTokens };
}
