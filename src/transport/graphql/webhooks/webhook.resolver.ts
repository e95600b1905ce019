import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Services } from '../../../container';
import type { GraphQLContext } from '../context';
import { MerchantType } from '../merchant/merchant.type';
import { toConnection } from '../relay';
import { WebhookAttemptType, WebhookEventConnection, WebhookEventType, WebhookSecretRotationType } from './webhook.types';

/** Webhook endpoint, secret rotation and the event log; the same service calls as /v1/webhooks/*. */
@Resolver(() => WebhookEventType)
export class WebhookResolver {
  constructor(private readonly services: Services) {}

  @Mutation(() => MerchantType, {
    description:
      'Sets where webhooks are delivered; null removes the endpoint. Production: https only, and the host must not resolve to a loopback, private, link-local or other reserved address.',
  })
  async setWebhookEndpoint(@Ctx() ctx: GraphQLContext, @Arg('url', () => String, { nullable: true }) url?: string | null): Promise<MerchantType> {
    // An omitted argument stays undefined, so the service refuses it: only an explicit null removes the endpoint.
    return MerchantType.from(await this.services.webhooks.setEndpoint(ctx.auth.merchantId, { url }));
  }

  @Mutation(() => WebhookSecretRotationType, { description: 'A new signing secret, shown once; the previous one keeps signing (a second signature) for 24 hours.' })
  async rotateWebhookSecret(@Ctx() ctx: GraphQLContext): Promise<WebhookSecretRotationType> {
    return Object.assign(new WebhookSecretRotationType(), await this.services.webhooks.rotateSecret(ctx.auth.merchantId));
  }

  @Mutation(() => WebhookEventType, { description: 'Delivers the event again now, with the same webhook-id, whatever its delivery status.' })
  async resendWebhookEvent(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookEventType> {
    const detail = await this.services.webhooks.resend(ctx.auth.merchantId, id);
    return WebhookEventType.from(detail, detail.attempts);
  }

  @Query(() => WebhookEventConnection, { description: 'Your events with their delivery status, newest first.' })
  async webhookEvents(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'Only events of this type, e.g. "collection.successful".' }) type?: string,
  ): Promise<WebhookEventConnection> {
    const page = await this.services.webhooks.listEvents(ctx.auth.merchantId, {
      limit: first ?? undefined,
      after: after ?? undefined,
      type: type ?? undefined,
    });
    return toConnection(page, (node) => WebhookEventType.from(node));
  }

  @Query(() => WebhookEventType, { description: 'One of your events, by id, with every delivery attempt.' })
  async webhookEvent(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookEventType> {
    const detail = await this.services.webhooks.getEvent(ctx.auth.merchantId, id);
    return WebhookEventType.from(detail, detail.attempts);
  }

  @FieldResolver(() => [WebhookAttemptType], { description: 'Every delivery attempt, oldest first.' })
  async attempts(@Root() event: WebhookEventType, @Ctx() ctx: GraphQLContext): Promise<WebhookAttemptType[]> {
    if (event.loadedAttempts) return event.loadedAttempts;
    return (await this.services.webhooks.getEvent(ctx.auth.merchantId, event.id)).attempts.map(WebhookAttemptType.from);
  }
}
