import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { buildSchema } from 'type-graphql';
import type { PaymentsEnv } from '../../config';
import type { Services } from '../../container';
import { CustomerResolver } from './customers/customer.resolver';
import { MerchantResolver } from './merchant/merchant.resolver';
import { PaymentResolver } from './payments/payment.resolver';
import { RatesResolver } from './rates/rates.resolver';
import { ReferenceResolver } from './reference/reference.resolver';
import { SubscriptionResolver } from './subscriptions/subscription.resolver';
import { TransactionResolver } from './transactions/transaction.resolver';
import { WebhookResolver } from './webhooks/webhook.resolver';
import { LedgerResolver } from './ledger/ledger.resolver';

/** Resolvers get the service layer and, for sandbox-only operations, the environment. */
const resolverClasses: [typeof MerchantResolver, ...Array<new (services: Services, env: PaymentsEnv) => object>] = [
  MerchantResolver,
  CustomerResolver,
  ReferenceResolver,
  RatesResolver,
  TransactionResolver,
  PaymentResolver,
  WebhookResolver,
  LedgerResolver,
  SubscriptionResolver,
];

/**
 * Builds the code-first schema. Resolvers are constructed here with the service
 * layer (type-graphql asks this container for each resolver class). Without
 * services the schema can only be printed, not executed (`npm run schema`).
 */
export function buildGraphQLSchema(): Promise<GraphQLSchema>;
export function buildGraphQLSchema(services: Services, env: PaymentsEnv): Promise<GraphQLSchema>;
export async function buildGraphQLSchema(services?: Services, env?: PaymentsEnv): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>(services && env ? resolverClasses.map((cls) => [cls, new cls(services, env)]) : []);
  return buildSchema({
    resolvers: resolverClasses,
    container: { get: (cls) => instances.get(cls) },
    scalarsMap: [{ type: Date, scalar: GraphQLDateTime }],
    validate: false,
    // type-graphql insists on a PubSub; every subscription here brings its own
    // merchant-filtered stream (the `subscribe` option), so this one is never used.
    pubSub: {
      publish: () => undefined,
      subscribe: () => {
        throw new Error('subscriptions use their own subscribe');
      },
    },
  });
}

/** The SDL committed as schema.graphql (sorted, so it diffs cleanly). */
export function printSchemaSdl(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
