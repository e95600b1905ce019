import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { AppError } from '../../shared/errors';
import { cleanGraphQLStrings } from '../input-hygiene';
import {
  Kind,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type GraphQLError,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

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
 * Each validated document's operation costs, in document order, as graphql-armor
 * computed them (so the rate limit charges what the cost limit measured, without a
 * second pass). Keyed by the parsed document: Apollo reuses a cached document
 * without validating it again, and the entry lives as long as the document does.
 */
const documentCosts = new WeakMap<DocumentNode, number[]>();

/** Starts a document's cost list afresh each time it is validated (runs before the cost rule). */
const resetCosts: ValidationRule = (context) => ({
  Document: { enter: () => void documentCosts.set(context.getDocument(), []) },
});

const recordCost = (context: ValidationContext | null, { n }: { n: number }) => {
  if (context) documentCosts.get(context.getDocument())?.push(n);
};

/** The cost of the operation that runs (by name, or the document's only one); undefined if it was not measured. */
export function operationCost(document: DocumentNode, operationName?: string | null): number | undefined {
  const costs = documentCosts.get(document);
  if (!costs) return undefined;
  let index = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (!operationName || definition.name?.value === operationName) return costs[index];
    index++;
  }
  return undefined;
}

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
    resetCosts,
    costLimitRule({
      maxCost: limits.maxCost,
      objectCost: 2,
      scalarCost: 1,
      depthCostFactor: 1.5,
      ignoreIntrospection: true,
      ...asValidationError,
      onAccept: [recordCost],
    }) as ValidationRule,
    maxDirectivesRule({ n: limits.maxDirectives, ...asValidationError }) as ValidationRule,
    cleanGraphQLStrings,
    ...(limits.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
}

/** graphql-js counts tokens as it parses and stops at the limit (a deeply nested document never reaches the stack's end). */
export function graphqlParseOptions(limits: GraphQLLimits): ParseOptions {
  return { maxTokens: limits.maxTokens };
}

/** Brackets of any kind ({ [ ( ) one document may nest: far beyond a real one, far below what exhausts the parser's stack. */
const MAX_DOCUMENT_NESTING = 64;

/**
 * graphql-js parses recursively, one stack frame set per nested list, object or selection:
 * `[[[[…]]]]` 2,000 deep exhausts the stack before maxTokens stops it. This scan, before
 * parsing, refuses such a document with INVALID_REQUEST. One pass over the characters,
 * skipping strings, block strings and comments.
 */
export function assertDocumentNesting(query: unknown): void {
  if (typeof query !== 'string') return;
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > MAX_DOCUMENT_NESTING) {
        throw AppError.invalidRequest(`The GraphQL document is nested too deeply (at most ${MAX_DOCUMENT_NESTING} levels of brackets)`);
      }
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    } else if (c === 0x23) {
      // A comment, to the end of the line.
      while (i < query.length && query.charCodeAt(i) !== 0x0a && query.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22) {
      if (query.startsWith('"""', i)) {
        // A block string ends at the next """ that is not escaped (\""").
        let from = i + 3;
        for (;;) {
          const end = query.indexOf('"""', from);
          if (end < 0) i = query.length;
          else if (query.charCodeAt(end - 1) === 0x5c) {
            from = end + 3;
            continue;
          } else i = end + 2;
          break;
        }
      } else {
        for (i++; i < query.length; i++) {
          const d = query.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22 || d === 0x0a) break;
        }
      }
    }
  }
}
