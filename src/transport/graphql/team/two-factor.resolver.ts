import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { TwoFactorService } from '../../../modules/team/two-factor.service';
import { ANY_CALLER, Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { TwoFactorEnrolmentObject } from './team.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { twoFactor: TwoFactorService };

/** The signed-in person's own 2FA (what a session that may only enrol can do). */
@Resolver(() => TwoFactorEnrolmentObject)
export class TwoFactorResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires(ANY_CALLER)
  @Mutation(() => TwoFactorEnrolmentObject, { description: 'A new TOTP secret and its QR code; 2FA is on once a code from it is confirmed.' })
  async beginTwoFactorEnrolment(@Ctx() ctx: GraphQLContext): Promise<TwoFactorEnrolmentObject> {
    return TwoFactorEnrolmentObject.from(await this.services.twoFactor.begin(ctx));
  }

  @Requires(ANY_CALLER)
  @Mutation(() => [String], {
    description:
      'Turns 2FA on with a current code from the authenticator app. Answers 10 single-use recovery codes, shown this once. A session that could only enrol gets full access at its next token refresh.',
  })
  async confirmTwoFactor(@Arg('code', () => String) code: string, @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return this.services.twoFactor.confirm(ctx, code);
  }

  @Requires(ANY_CALLER)
  @Mutation(() => Boolean, {
    description:
      'Turns 2FA off, with your password and a current code (or a recovery code). Refused where a merchant of yours, or production for your role, requires it.',
  })
  async disableTwoFactor(
    @Arg('password', () => String) password: string,
    @Arg('code', () => String) code: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await this.services.twoFactor.disable(ctx, password, code);
    return true;
  }
}
