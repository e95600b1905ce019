import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Channel, Country, Network } from '../../../modules/reference/reference.service';
import { formatAmount } from '../../../shared/money';
import { DecimalScalar } from '../scalars';

/** GraphQL enum names are upper case; their values are the service's lower-case words. */
export enum RampTypeValue {
  DEPOSIT = 'deposit',
  WITHDRAWAL = 'withdrawal',
}
registerEnumType(RampTypeValue, {
  name: 'RampType',
  description: 'Direction of a channel: DEPOSIT (collection) or WITHDRAWAL (transfer).',
});

export enum ChannelTypeValue {
  BANK = 'bank',
  MOMO = 'momo',
}
registerEnumType(ChannelTypeValue, { name: 'ChannelType', description: 'Bank transfer or mobile money.' });

export enum ChannelStatusValue {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
}
registerEnumType(ChannelStatusValue, { name: 'ChannelStatus', description: 'Whether a channel takes new transactions.' });

@ObjectType('Country', { description: 'A supported cross-border country.' })
export class CountryType {
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

  static from(country: Country): CountryType {
    return Object.assign(new CountryType(), {
      name: country.name,
      countryCode: country.code,
      currency: country.currency,
      minorUnit: country.minorUnit,
      dialCode: country.dialCode,
    });
  }
}

@ObjectType('Channel', { description: 'A way to move money in a country, in one direction.' })
export class ChannelObjectType {
  @Field(() => String, { description: 'e.g. "ke_momo_deposit"; pass it as channel_id.' })
  channelId!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => ChannelTypeValue)
  channelType!: ChannelTypeValue;

  @Field(() => RampTypeValue)
  rampType!: RampTypeValue;

  @Field(() => DecimalScalar, { description: 'Smallest amount per transaction, in the local currency.' })
  minAmount!: string;

  @Field(() => DecimalScalar, { description: 'Largest amount per transaction, in the local currency.' })
  maxAmount!: string;

  @Field(() => ChannelStatusValue)
  status!: ChannelStatusValue;

  static from(channel: Channel): ChannelObjectType {
    return Object.assign(new ChannelObjectType(), {
      channelId: channel.id,
      countryCode: channel.countryCode,
      currency: channel.currency,
      channelType: channel.channelType as ChannelTypeValue,
      rampType: channel.rampType as RampTypeValue,
      minAmount: formatAmount(channel.minAmount, channel.minorUnit),
      maxAmount: formatAmount(channel.maxAmount, channel.minorUnit),
      status: channel.status as ChannelStatusValue,
    });
  }
}

@ObjectType('Network', { description: 'A bank or mobile money operator.' })
export class NetworkType {
  @Field(() => String, { description: 'e.g. "ke_mpesa"; pass it as network_id.' })
  networkId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'SWIFT BIC for a bank; the operator code for mobile money.' })
  code!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => ChannelTypeValue)
  channelType!: ChannelTypeValue;

  static from(network: Network): NetworkType {
    return Object.assign(new NetworkType(), {
      networkId: network.id,
      name: network.name,
      code: network.code,
      countryCode: network.countryCode,
      channelType: network.channelType as ChannelTypeValue,
    });
  }
}
