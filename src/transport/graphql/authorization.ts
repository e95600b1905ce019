import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { assertPermitted, type Permission } from '../../modules/access/permissions';
import type { GraphQLContext } from './context';

/** Any signed-in caller (a person who must first enrol in 2FA excepted): the merchant's profile, reference data. */
export const SIGNED_IN = 'signed_in';
/** Any caller with a valid token, even a person who must enrol in 2FA first (their profile and enrolment). */
export const ANY_CALLER = 'any_caller';
type Requirement = Permission | typeof SIGNED_IN | typeof ANY_CALLER;

/** Each root field's requirement, by its name (a resolver method's name is its field's). */
const REQUIREMENTS = new Map<string, Requirement>();

/**
 * What a root field requires, as `enforceRequirements` checks it (undefined: no `@Requires`). The role
 * matrix test compares every Query, Mutation and Subscription field's with its own table.
 */
export const requirementOf = (field: string): Requirement | undefined => REQUIREMENTS.get(field);

/**
 * What a root field requires (docs/access.md): every Query, Mutation and Subscription field says it, or
 * the schema is refused. Only recorded here: `enforceRequirements` wraps each root resolver once, with a
 * synchronous check (type-graphql's @Authorized runs an async middleware chain per field, which cost a
 * third more CPU per GraphQL read: BENCHMARKS.md, issue 36).
 */
export function Requires(requirement: Requirement): MethodDecorator {
  return (_target, name) => {
    const field = String(name);
    const known = REQUIREMENTS.get(field);
    if (known !== undefined && known !== requirement) throw new Error(`GraphQL root field ${field} requires two things: ${known} and ${requirement}`);
    REQUIREMENTS.set(field, requirement);
  };
}

/** The check a requirement makes, with the role matrix of the service layer: 403 FORBIDDEN naming what is missing. */
function check(context: GraphQLContext, requirement: Requirement): void {
  if (requirement === ANY_CALLER) return;
  if (requirement === SIGNED_IN) assertPermitted(context.auth, 'transactions:read', true);
  else assertPermitted(context.auth, requirement);
}

/**
 * Wraps every root field's resolver (and a subscription's subscribe) with its requirement's check, once,
 * when the schema is built. Fails closed: a root field without `Requires` stops the build.
 */
export function enforceRequirements(schema: GraphQLSchema): void {
  const missing: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const requirement = REQUIREMENTS.get(field.name);
      if (requirement === undefined) {
        missing.push(`${root!.name}.${field.name}`);
        continue;
      }
      const guard = (inner: GraphQLFieldResolver<unknown, GraphQLContext> | undefined) =>
        inner &&
        ((source: unknown, args: Record<string, unknown>, context: GraphQLContext, info: Parameters<GraphQLFieldResolver<unknown, GraphQLContext>>[3]) => {
          check(context, requirement);
          return inner(source, args, context, info);
        });
      field.resolve = guard(field.resolve);
      field.subscribe = guard(field.subscribe);
    }
  }
  if (missing.length > 0) throw new Error(`GraphQL root fields without @Requires(…) (docs/access.md): ${missing.join(', ')}`);
}
