import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Role } from '../../../modules/access/permissions';
import type { InvitationService } from '../../../modules/team/invitation.service';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { RoleEnum } from '../enums';
import { InvitationObject } from './team.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { invitations: InvitationService };

/** Invitations to the team (accepting one is the dashboard's unauthenticated page: POST /dashboard/invitations/accept). */
@Resolver(() => InvitationObject)
export class InvitationResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('team:read')
  @Query(() => [InvitationObject], { description: 'Every invitation of the team, newest first, with its status.' })
  async invitations(@Ctx() ctx: GraphQLContext): Promise<InvitationObject[]> {
    return (await this.services.invitations.list(ctx.auth)).map(InvitationObject.from);
  }

  @Requires('team:manage')
  @Mutation(() => InvitationObject, {
    description: 'Emails an invitation to join as `role` (one you could grant; never OWNER: ownership is transferred). Its link works once, for 7 days.',
  })
  async inviteMember(
    @Arg('email', () => String) email: string,
    @Arg('role', () => RoleEnum) role: Role,
    @Ctx() ctx: GraphQLContext,
  ): Promise<InvitationObject> {
    return InvitationObject.from(await this.services.invitations.invite(ctx, { email, role }));
  }

  @Requires('team:manage')
  @Mutation(() => InvitationObject, { description: 'Emails a new link, valid 7 days from now; the previous link stops working.' })
  async resendInvitation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<InvitationObject> {
    return InvitationObject.from(await this.services.invitations.resend(ctx, id));
  }

  @Requires('team:manage')
  @Mutation(() => InvitationObject, { description: 'Its link stops working.' })
  async revokeInvitation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<InvitationObject> {
    return InvitationObject.from(await this.services.invitations.revoke(ctx, id));
  }
}
