import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Role } from '../../../modules/access/permissions';
import type { TeamService } from '../../../modules/team/team.service';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { RoleEnum } from '../enums';
import { TeamMemberObject, TeamSettingsObject } from './team.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { team: TeamService };

/** The merchant's team: members, roles, ownership and the 2FA requirement (docs/access.md). */
@Resolver(() => TeamMemberObject)
export class TeamResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('team:read')
  @Query(() => [TeamMemberObject], { description: 'The people of the merchant’s team, longest-standing first.' })
  async teamMembers(@Ctx() ctx: GraphQLContext): Promise<TeamMemberObject[]> {
    return (await this.services.team.listMembers(ctx.auth)).map(TeamMemberObject.from);
  }

  @Requires('team:read')
  @Query(() => TeamSettingsObject)
  async teamSettings(@Ctx() ctx: GraphQLContext): Promise<TeamSettingsObject> {
    return TeamSettingsObject.from(await this.services.team.settings(ctx.auth));
  }

  @Requires('team:manage')
  @Mutation(() => TeamMemberObject, {
    description:
      'Gives a member another role: never your own, never from or to a role above yours, never OWNER (transferOwnership). Their sessions at this merchant end at once.',
  })
  async changeMemberRole(
    @Arg('id', () => ID, { description: 'The membership’s id (TeamMember.id).' }) id: string,
    @Arg('role', () => RoleEnum) role: Role,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TeamMemberObject> {
    return TeamMemberObject.from(await this.services.team.changeRole(ctx, id, role));
  }

  @Requires('team:manage')
  @Mutation(() => Boolean, { description: 'Removes a member (or yourself) from the team; their sessions at this merchant end at once. The last owner stays.' })
  async removeMember(@Arg('id', () => ID, { description: 'The membership’s id (TeamMember.id).' }) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await this.services.team.removeMember(ctx, id);
    return true;
  }

  @Requires('team:manage')
  @Mutation(() => TeamMemberObject, { description: 'Owner only: the member becomes the owner and you an admin. Answers the new owner.' })
  async transferOwnership(
    @Arg('id', () => ID, { description: 'The membership’s id (TeamMember.id).' }) id: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TeamMemberObject> {
    return TeamMemberObject.from(await this.services.team.transferOwnership(ctx, id));
  }

  @Requires('team:manage')
  @Mutation(() => Boolean, {
    description:
      'Requires 2FA of every member (or no longer does). Turning it on ends at once every session here of a member without 2FA: signing in again, they can only enrol. Only a member with 2FA may turn it on (INVALID_STATE otherwise).',
  })
  async setTwoFactorRequired(@Arg('required', () => Boolean) required: boolean, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return (await this.services.team.setTwoFactorRequired(ctx, required)).twoFactorRequired;
  }
}
