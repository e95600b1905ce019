import { Field, ID, ObjectType } from 'type-graphql';
import { eventTypesOf, type Merchant } from '../../../modules/merchants/merchant.entity';

@ObjectType('Merchant', { description: 'The authenticated merchant. Secrets are never readable.' })
export class MerchantObject {
  @Field(() => ID, { description: 'REST: merchant_id.' })
  merchantId!: string;

  @Field(() => ID, { description: 'The same value as merchantId.' })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true, description: 'Where webhooks are delivered; null until configured.' })
  webhookUrl!: string | null;

  @Field(() => [String], {
    description:
      'The event types recorded and sent to you, e.g. "collection.successful" (the default until you choose: final statuses and KYC decisions). See webhookEventTypes.',
  })
  webhookEventTypes!: string[];

  @Field(() => Date, {
    nullable: true,
    description: 'Until when a rotated-out webhook secret still signs deliveries beside the current one; null when none does.',
  })
  webhookSecretOverlapUntil!: Date | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  static from(merchant: Merchant, webhookSecretOverlapUntil: Date | null): MerchantObject {
    return Object.assign(new MerchantObject(), {
      merchantId: merchant.id,
      id: merchant.id,
      name: merchant.name,
      clientId: merchant.clientId,
      webhookUrl: merchant.webhookUrl,
      webhookEventTypes: eventTypesOf(merchant),
      webhookSecretOverlapUntil,
      createdAt: merchant.createdAt,
      updatedAt: merchant.updatedAt,
    });
  }
}
