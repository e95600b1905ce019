import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { ApiKeys } from '../../../modules/auth/api-keys';
import type { KeyRole } from '../../../modules/access/permissions';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { ApiKeyObject, KeyRoleEnum, NewApiKeyObject } from './api-key.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { apiKeys: ApiKeys };

/** API keys managed by people: the same service calls as /v1/api-keys. */
@Resolver()
export class ApiKeyResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('keys:manage')
  @Query(() => [ApiKeyObject], { description: 'Your API keys, live first, newest first. A person’s session only.' })
  async apiKeys(@Ctx() ctx: GraphQLContext): Promise<ApiKeyObject[]> {
    return (await this.services.apiKeys.list(ctx.auth.merchantId)).map(ApiKeyObject.from);
  }

  @Requires('keys:manage')
  @Mutation(() => NewApiKeyObject, { description: 'Make an API key (role DEVELOPER unless given); its secret is in this answer only.' })
  async createApiKey(
    @Arg('label', () => String) label: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('role', () => KeyRoleEnum, { nullable: true }) role?: KeyRole | null,
  ): Promise<NewApiKeyObject> {
    return NewApiKeyObject.from(await this.services.apiKeys.create(ctx.auth, { label, ...(role ? { role } : {}) }, ctx.origin));
  }

  @Requires('keys:manage')
  @Mutation(() => NewApiKeyObject, { description: 'A new secret for a key (shown once); the old secret and every token issued with the key stop working now.' })
  async rotateApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<NewApiKeyObject> {
    return NewApiKeyObject.from(await this.services.apiKeys.rotate(ctx.auth, id, ctx.origin));
  }

  @Requires('keys:manage')
  @Mutation(() => ApiKeyObject, { description: 'Revoke a key for good: its secret and its tokens stop working now, on every instance.' })
  async revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ApiKeyObject> {
    return ApiKeyObject.from(await this.services.apiKeys.revoke(ctx.auth, id, ctx.origin));
  }
}
