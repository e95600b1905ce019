import { Field, ID, ObjectType } from 'type-graphql';
import type { Merchant } from '../../../modules/merchants/merchant.entity';

@ObjectType('Merchant', { description: 'The authenticated merchant. Secrets are never readable.' })
export class MerchantType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true, description: 'Where webhooks are delivered; null until configured.' })
  webhookUrl!: string | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  static from(merchant: Merchant): MerchantType {
    return Object.assign(new MerchantType(), {
      id: merchant.id,
      name: merchant.name,
      clientId: merchant.clientId,
      webhookUrl: merchant.webhookUrl,
      createdAt: merchant.createdAt,
      updatedAt: merchant.updatedAt,
    });
  }
}
