import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { CustomerService } from '../../../modules/customers/customer.service';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import type { WebhookService } from '../../../modules/webhooks/webhook.service';
import { EVENT_TYPES, type EventType, type SelectableEventType } from '../../../modules/outbox/event-types';
import { batchedPerOperation } from '../batch';
import { CustomerObject } from '../customers/customer.types';
import { auditOf, type GraphQLContext } from '../context';
import { MerchantObject } from '../merchant/merchant.types';
import { toConnection } from '../relay';
import { WebhookAttemptObject, WebhookEventConnection, WebhookEventObject, WebhookSecretRotationObject } from './webhook.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { customers: CustomerService; merchants: MerchantService; webhooks: WebhookService };

/** Webhook endpoint, secret rotation and the event log; the same service calls as /v1/webhooks/*. */
@Resolver(() => WebhookEventObject)
export class WebhookResolver {
  /** The customers a page of events is about, read together (one query per operation and tick). */
  private readonly customerOf = batchedPerOperation(async (ctx, ids: string[]) => {
    const customers = await this.services.customers.customersByIds(ctx.auth.merchantId, ids);
    return new Map(customers.map((c) => [c.id, CustomerObject.from(c)]));
  });

  constructor(private readonly services: UsedServices) {}

  @FieldResolver(() => CustomerObject, { nullable: true, description: 'The customer a customer.* event is about (customerUuid’s record).' })
  async customer(@Root() event: WebhookEventObject, @Ctx() ctx: GraphQLContext): Promise<CustomerObject | null> {
    return event.customerUuid ? ((await this.customerOf(ctx, event.customerUuid)) ?? null) : null;
  }

  @Requires('webhooks:manage')
  @Mutation(() => MerchantObject, {
    description:
      'Sets where webhooks are delivered; null removes the endpoint. Production: https only, and the host must not resolve to a loopback, private, link-local or other reserved address.',
  })
  async setWebhookEndpoint(
    @Ctx() ctx: GraphQLContext,
    @Arg('url', () => String, { nullable: true }) url?: string | null,
    @Arg('eventTypes', () => [String], {
      nullable: true,
      description:
        'The event types recorded and sent to you (see webhookEventTypes; all but "webhook.test"). Omitted: unchanged. Null: the default, final statuses and KYC decisions. Add "collection.processing" and the like, and "payment.requires_action", to hear of each transaction as it is created.',
    })
    eventTypes?: string[] | null,
  ): Promise<MerchantObject> {
    // An omitted url stays undefined, and the service refuses it: only an explicit null removes the endpoint.
    // The event types are Strings here (they have dots, which enum values cannot); the service checks them.
    const merchant = await this.services.webhooks.setEndpoint(
      ctx.auth.merchantId,
      {
        url: url as string | null,
        eventTypes: eventTypes as SelectableEventType[] | null | undefined,
      },
      auditOf(ctx),
    );
    return MerchantObject.from(merchant, this.services.merchants.webhookSecretOverlapUntil(merchant));
  }

  @Requires('webhooks:manage')
  @Mutation(() => WebhookSecretRotationObject, {
    description: 'A new signing secret, shown once; the previous one keeps signing (a second signature) for 24 hours.',
  })
  async rotateWebhookSecret(@Ctx() ctx: GraphQLContext): Promise<WebhookSecretRotationObject> {
    return Object.assign(new WebhookSecretRotationObject(), await this.services.webhooks.rotateSecret(ctx.auth.merchantId, auditOf(ctx)));
  }

  @Requires('webhooks:manage')
  @Mutation(() => WebhookEventObject, { description: 'Delivers the event again now, with the same webhook-id, whatever its delivery status.' })
  async resendWebhookEvent(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookEventObject> {
    const detail = await this.services.webhooks.resend(ctx.auth.merchantId, id);
    return WebhookEventObject.from(detail, detail.attempts);
  }

  @Requires('webhooks:manage')
  @Mutation(() => WebhookEventObject, {
    description:
      'Records a "webhook.test" event and makes its first delivery attempt now, signed like every event: checks your receiver without making a transaction. The answer carries that attempt (your endpoint’s status code, or the error), or none yet while your endpoint’s deliveries are all in flight or its circuit is open. At most 10 a minute (then RATE_LIMITED).',
  })
  async sendWebhookTestEvent(@Ctx() ctx: GraphQLContext): Promise<WebhookEventObject> {
    const detail = await this.services.webhooks.sendTestEvent(ctx.auth.merchantId);
    return WebhookEventObject.from(detail, detail.attempts);
  }

  @Requires('webhooks:read')
  @Query(() => WebhookEventConnection, { description: 'Your events with their delivery status, newest first.' })
  async webhookEvents(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'Only events of this type, e.g. "collection.successful".' }) type?: string,
  ): Promise<WebhookEventConnection> {
    // The type is a String here (event types have dots, which enum values cannot); the service checks it.
    const page = await this.services.webhooks.listEvents(ctx.auth.merchantId, { limit: first, after, type: type as EventType | null | undefined });
    return toConnection(page, (node) => WebhookEventObject.from(node));
  }

  @Requires('webhooks:read')
  @Query(() => [String], {
    description:
      'Every event type the service sends, e.g. "collection.successful": the values of WebhookEvent.type and of the webhookEvents type filter. Strings, not an enum: event types have dots.',
  })
  webhookEventTypes(): readonly string[] {
    // The service's one list (modules/outbox/event-types), as it is: nothing is built per request.
    return EVENT_TYPES;
  }

  @Requires('webhooks:read')
  @Query(() => WebhookEventObject, { description: 'One of your events, by id, with every delivery attempt.' })
  async webhookEvent(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookEventObject> {
    const detail = await this.services.webhooks.getEvent(ctx.auth.merchantId, id);
    return WebhookEventObject.from(detail, detail.attempts);
  }

  @FieldResolver(() => [WebhookAttemptObject], { description: 'Every delivery attempt, oldest first.' })
  async attempts(@Root() event: WebhookEventObject, @Ctx() ctx: GraphQLContext): Promise<WebhookAttemptObject[]> {
    if (event.loadedAttempts) return event.loadedAttempts;
    return (await this.services.webhooks.getEvent(ctx.auth.merchantId, event.id)).attempts.map(WebhookAttemptObject.from);
  }
}
