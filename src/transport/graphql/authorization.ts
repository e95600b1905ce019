import { Authorized, getMetadataStorage, type AuthCheckerFn } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { assertPermitted, type Permission } from '../../modules/access/permissions';
import type { GraphQLContext } from './context';

/** Any signed-in caller (a person who must first enrol in 2FA excepted): the merchant's profile, reference data. */
export const SIGNED_IN = 'signed_in';
/** Any caller with a valid token, even a person who must enrol in 2FA first (their profile and enrolment). */
export const ANY_CALLER = 'any_caller';
type Requirement = Permission | typeof SIGNED_IN | typeof ANY_CALLER;

/** What a root field requires (docs/access.md): every Query, Mutation and Subscription field says it, or the schema is refused. */
export function Requires(requirement: Requirement): MethodDecorator & PropertyDecorator {
  return Authorized<Requirement>(requirement);
}

/** The check `Requires` declares, with the role matrix of the service layer: 403 FORBIDDEN naming what is missing. */
export const authChecker: AuthCheckerFn<GraphQLContext, Requirement> = ({ context }, requirements) => {
  const auth = context.auth;
  for (const requirement of requirements) {
    if (requirement === ANY_CALLER) continue;
    if (requirement === SIGNED_IN) assertPermitted(auth, 'transactions:read', true);
    else assertPermitted(auth, requirement);
  }
  return true;
};

/**
 * Fails closed: a root field without `Requires` would be open to every role, so building the schema
 * stops at it. Run once, when the schema is built.
 */
export function assertEveryRootFieldRequires(schema: GraphQLSchema): void {
  const declared = new Set(getMetadataStorage().authorizedFields.map((f) => f.fieldName));
  const missing: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const name of Object.keys(root?.getFields() ?? {})) if (!declared.has(name)) missing.push(`${root!.name}.${name}`);
  }
  if (missing.length > 0) throw new Error(`GraphQL root fields without @Requires(…) (docs/access.md): ${missing.join(', ')}`);
}
