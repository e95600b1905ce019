import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode } from 'graphql';
import { RateLimitedError, rateLimitHeaders, type RateLimitState, type RateLimits } from '../rate-limits';
import type { GraphQLContext } from './context';
import { operationCost } from './limits';
import { toGraphQLError } from './errors';

/**
 * Charges one GraphQL operation to its merchant's budget by what it costs (graphql-armor's
 * measure, in units of RATE_LIMIT_GRAPHQL_COST_UNIT), not by request. A document that
 * does not parse or validate is charged one point. The same for HTTP and the socket.
 */
export async function chargeOperation(
  rateLimits: RateLimits,
  merchantId: string,
  document: DocumentNode | undefined,
  operationName?: string | null,
): Promise<RateLimitState | undefined> {
  const cost = document ? operationCost(document, operationName) : undefined;
  return rateLimits.consume('merchant', merchantId, cost === undefined ? 1 : rateLimits.graphqlPoints(cost));
}

/** A 429 as GraphQL carries it: RATE_LIMITED in extensions.code, and the headers over HTTP. */
export function rateLimitedGraphQLError(err: RateLimitedError): GraphQLError {
  const error = toGraphQLError(err);
  const headers = new Map(Object.entries(rateLimitHeaders(err.state, true)));
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: 429, headers } } });
}

/** Apollo (GraphQL over HTTP): charge after the operation is known, before it runs. */
export function graphqlRateLimitPlugin(rateLimits: RateLimits): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let charged = false;
      const charge = async (merchantId: string, document?: DocumentNode, operationName?: string | null) => {
        charged = true;
        try {
          return await chargeOperation(rateLimits, merchantId, document, operationName);
        } catch (err) {
          if (err instanceof RateLimitedError) throw rateLimitedGraphQLError(err);
          throw err;
        }
      };
      return {
        async didResolveOperation({ contextValue, document, operationName, response }) {
          const state = await charge(contextValue.auth.merchantId, document, operationName);
          if (state) for (const [name, value] of Object.entries(rateLimitHeaders(state, false))) response.http.headers.set(name, value);
        },
        // A document that never resolved to an operation (it did not parse or validate) still costs a point.
        async didEncounterErrors({ contextValue, operation }) {
          if (charged || operation || !contextValue?.auth) return;
          await charge(contextValue.auth.merchantId).catch(() => undefined);
        },
      };
    },
  };
}
