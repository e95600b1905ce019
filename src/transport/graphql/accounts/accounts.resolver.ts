import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AccountService } from '../../../modules/accounts/account.service';
import type { PasswordService } from '../../../modules/accounts/password.service';
import { ANY_CALLER, Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { MeObject, UserSessionObject } from './accounts.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { accounts: AccountService; passwords: PasswordService };

/**
 * The caller's own account: who they are, their sessions, their password. Any signed-in caller may ask
 * (ANY_CALLER: a person who must enrol in 2FA first too); the session and password operations are a
 * person's, and an API key is answered FORBIDDEN by the service.
 */
@Resolver()
export class AccountsResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires(ANY_CALLER)
  @Query(() => MeObject, { description: 'Who the access token speaks for: kind, role, permissions, merchant; for a person, their account and memberships.' })
  async me(@Ctx() ctx: GraphQLContext): Promise<MeObject> {
    return MeObject.from(await this.services.accounts.me(ctx.auth));
  }

  @Requires(ANY_CALLER)
  @Query(() => [UserSessionObject], { description: 'Your dashboard sessions that can still refresh, most recently seen first (a person’s only).' })
  async mySessions(@Ctx() ctx: GraphQLContext): Promise<UserSessionObject[]> {
    return (await this.services.accounts.mySessions(ctx.auth)).map((s) => UserSessionObject.from(s));
  }

  @Requires(ANY_CALLER)
  @Mutation(() => Boolean, {
    description: 'Ends one of your sessions: its tokens stop working at once, everywhere. NOT_FOUND when it is not yours or ended already.',
  })
  async endSession(@Ctx() ctx: GraphQLContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    return this.services.accounts.endSession(ctx.auth, id, ctx.origin ?? {});
  }

  @Requires(ANY_CALLER)
  @Mutation(() => Int, { description: 'Ends every one of your sessions but this one; answers how many were ended.' })
  async endOtherSessions(@Ctx() ctx: GraphQLContext): Promise<number> {
    return this.services.accounts.endOtherSessions(ctx.auth, ctx.origin ?? {});
  }

  @Requires(ANY_CALLER)
  @Mutation(() => Boolean, { description: 'A new password (at least 10 characters, not your email); your other sessions end.' })
  async changePassword(
    @Ctx() ctx: GraphQLContext,
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
  ): Promise<boolean> {
    await this.services.passwords.changePassword(ctx.auth, { currentPassword, newPassword }, ctx.origin ?? {});
    return true;
  }
}
