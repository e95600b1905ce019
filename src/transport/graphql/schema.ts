import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { buildSchema } from 'type-graphql';
import type { PaymentsEnv } from '../../config';
import type { Services } from '../../container';
import { pick } from '../pick';
import { AccountsResolver } from './accounts/accounts.resolver';
import { AuditResolver } from './audit/audit.resolver';
import { CustomerResolver } from './customers/customer.resolver';
import { MerchantResolver } from './merchant/merchant.resolver';
import { CheckoutSettingsResolver } from './merchant/checkout-settings.resolver';
import { PaymentResolver } from './payments/payment.resolver';
import { CheckoutResolver } from './checkout/checkout.resolver';
import { PayoutResolver } from './payouts/payout.resolver';
import { DisputeResolver } from './disputes/dispute.resolver';
import { RatesResolver } from './rates/rates.resolver';
import { ReferenceResolver } from './reference/reference.resolver';
import { PayeesResolver } from './payees/payees.resolver';
import { PayoutScheduleResolver } from './payouts/payout-schedule.resolver';
import { SubscriptionResolver } from './subscriptions/subscription.resolver';
import { TransactionResolver } from './transactions/transaction.resolver';
import { WebhookResolver } from './webhooks/webhook.resolver';
import { LedgerResolver } from './ledger/ledger.resolver';
import { ApiKeyResolver } from './keys/api-key.resolver';
import { enforceRequirements } from './authorization';
import { InvitationResolver } from './team/invitation.resolver';
import { PayoutDestinationResolver } from './payouts/payout-destination.resolver';
import { TeamResolver } from './team/team.resolver';
import { TwoFactorResolver } from './team/two-factor.resolver';

/** Each resolver with the services it names (its `UsedServices`, picked from the bag) and, for sandbox-only operations, the environment. */
const resolvers = [
  resolver(MerchantResolver, (s, env) => new MerchantResolver({ services: pick(s, 'merchants'), env })),
  resolver(CheckoutSettingsResolver, (s) => new CheckoutSettingsResolver({ services: pick(s, 'merchants') })),
  resolver(AccountsResolver, (s) => new AccountsResolver(pick(s, 'accounts', 'passwords'))),
  resolver(CustomerResolver, (s) => new CustomerResolver(pick(s, 'customers', 'kyc'))),
  resolver(ReferenceResolver, (s) => new ReferenceResolver(pick(s, 'reference'))),
  resolver(PayeesResolver, (s) => new PayeesResolver(pick(s, 'payees', 'merchants'))),
  resolver(RatesResolver, (s) => new RatesResolver(pick(s, 'rates'))),
  resolver(
    TransactionResolver,
    (s, env) => new TransactionResolver({ services: pick(s, 'collections', 'customers', 'reference', 'transactions', 'transactionQueries', 'transfers'), env }),
  ),
  resolver(PaymentResolver, (s) => new PaymentResolver(pick(s, 'payments', 'reference'))),
  resolver(CheckoutResolver, (s) => new CheckoutResolver(pick(s, 'checkout', 'paymentLinks', 'reference'))),
  resolver(PayoutResolver, (s) => new PayoutResolver(pick(s, 'payouts', 'reference'))),
  resolver(DisputeResolver, (s) => new DisputeResolver(pick(s, 'disputes', 'reference'))),
  resolver(WebhookResolver, (s) => new WebhookResolver(pick(s, 'customers', 'merchants', 'webhooks'))),
  resolver(LedgerResolver, (s, env) => new LedgerResolver({ services: pick(s, 'ledger', 'reference', 'refunds', 'fundings'), env })),
  resolver(SubscriptionResolver, (s) => new SubscriptionResolver(pick(s, 'reference'))),
  resolver(AuditResolver, (s) => new AuditResolver(pick(s, 'auditQueries'))),
  resolver(ApiKeyResolver, (s) => new ApiKeyResolver(pick(s, 'apiKeys'))),
  resolver(TeamResolver, (s) => new TeamResolver(pick(s, 'team'))),
  resolver(InvitationResolver, (s) => new InvitationResolver(pick(s, 'invitations'))),
  resolver(TwoFactorResolver, (s) => new TwoFactorResolver(pick(s, 'twoFactor'))),
  resolver(PayoutDestinationResolver, (s) => new PayoutDestinationResolver(pick(s, 'payoutDestinations'))),
  resolver(PayoutScheduleResolver, (s) => new PayoutScheduleResolver(pick(s, 'payoutSchedules'))),
];
const [first, ...others] = resolvers;
const resolverClasses = [first.cls, ...others.map((r) => r.cls)] as const;

function resolver<C extends object>(cls: new (...args: never[]) => C, make: (services: Services, env: PaymentsEnv) => C) {
  return { cls, make };
}

/**
 * Builds the code-first schema. Resolvers are constructed here with the service
 * layer (type-graphql asks this container for each resolver class). Without
 * services the schema can only be printed, not executed (`npm run schema`).
 */
export function buildGraphQLSchema(): Promise<GraphQLSchema>;
export function buildGraphQLSchema(services: Services, env: PaymentsEnv): Promise<GraphQLSchema>;
export async function buildGraphQLSchema(services?: Services, env?: PaymentsEnv): Promise<GraphQLSchema> {
  const instances = new Map<unknown, unknown>(services && env ? resolvers.map((r) => [r.cls, r.make(services, env)]) : []);
  const schema = await buildSchema({
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
  // The role matrix (docs/access.md): each root field's @Requires, checked before its resolver runs.
  enforceRequirements(schema);
  return schema;
}

/** The SDL committed as schema.graphql (sorted, so it diffs cleanly). */
export function printSchemaSdl(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
