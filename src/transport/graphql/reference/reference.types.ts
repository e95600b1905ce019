import { Field, Int, ObjectType } from 'type-graphql';
import type { Channel, ChannelStatus, ChannelType, Country, Network, RampType } from '../../../modules/reference/reference.service';
import { ChannelStatusEnum, ChannelTypeEnum, RampTypeEnum } from '../enums';
import { formatAmount } from '../../../shared/money';
import { DecimalScalar } from '../scalars';

@ObjectType('Country', { description: 'A supported cross-border country.' })
export class CountryObject {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2.' })
  countryCode!: string;

  @Field(() => String, { description: 'ISO 4217 code of the local currency.' })
  currency!: string;

  @Field(() => Int, { description: 'ISO 4217 exponent: decimals an amount in the currency may have.' })
  minorUnit!: number;

  @Field(() => String, { description: 'International dialling prefix, e.g. "+254".' })
  dialCode!: string;

  @Field(() => String, {
    description: 'A mobile number of the country as the service takes them (without the dial code or a leading 0): for examples and sandbox tests.',
  })
  exampleMobileNumber!: string;

  static from(country: Country): CountryObject {
    return Object.assign(new CountryObject(), {
      name: country.name,
      countryCode: country.code,
      currency: country.currency,
      minorUnit: country.minorUnit,
      dialCode: country.dialCode,
      exampleMobileNumber: country.exampleMobileNumber,
    });
  }
}

@ObjectType('Channel', { description: 'A way to move money in a country, in one direction.' })
export class ChannelObject {
  @Field(() => String, { description: 'e.g. "ke_momo_deposit"; pass it as channel_id.' })
  channelId!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => ChannelTypeEnum)
  channelType!: ChannelType;

  @Field(() => RampTypeEnum)
  rampType!: RampType;

  @Field(() => DecimalScalar, { description: 'Smallest amount per transaction, in the local currency.' })
  minAmount!: string;

  @Field(() => DecimalScalar, { description: 'Largest amount per transaction, in the local currency.' })
  maxAmount!: string;

  @Field(() => ChannelStatusEnum)
  status!: ChannelStatus;

  static from(channel: Channel): ChannelObject {
    return Object.assign(new ChannelObject(), {
      channelId: channel.id,
      countryCode: channel.countryCode,
      currency: channel.currency,
      channelType: channel.channelType,
      rampType: channel.rampType,
      minAmount: formatAmount(channel.minAmount, channel.minorUnit),
      maxAmount: formatAmount(channel.maxAmount, channel.minorUnit),
      status: channel.status,
    });
  }
}

@ObjectType('Network', { description: 'A bank or mobile money operator.' })
export class NetworkObject {
  @Field(() => String, { description: 'e.g. "ke_mpesa"; pass it as network_id.' })
  networkId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'SWIFT BIC for a bank; the operator code for mobile money.' })
  code!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => ChannelTypeEnum)
  channelType!: ChannelType;

  @Field(() => String, {
    nullable: true,
    description: 'The code the country’s own payment system uses (Nigeria: the CBN/NIP code, e.g. "058"); null where none is listed.',
  })
  localCode!: string | null;

  static from(network: Network): NetworkObject {
    return Object.assign(new NetworkObject(), {
      networkId: network.id,
      name: network.name,
      code: network.code,
      countryCode: network.countryCode,
      channelType: network.channelType,
      localCode: network.localCode,
    });
  }
}
