import { Arg, Query, Resolver } from 'type-graphql';
import type { Services } from '../../../container';
import { ChannelObjectType, ChannelTypeValue, CountryType, NetworkType, RampTypeValue } from './reference.type';

/** Cross-border lookups; the same service calls as GET /v1/crossborder/{countries,channels,networks}. */
@Resolver()
export class ReferenceResolver {
  constructor(private readonly services: Services) {}

  @Query(() => [CountryType], { description: 'Every supported country.' })
  countries(): CountryType[] {
    return this.services.reference.listCountries().map(CountryType.from);
  }

  @Query(() => [ChannelObjectType], { description: 'The channels of a country for one direction. Unsupported country: NOT_FOUND.' })
  channels(
    @Arg('countryCode', () => String) countryCode: string,
    @Arg('rampType', () => RampTypeValue) rampType: RampTypeValue,
  ): ChannelObjectType[] {
    return this.services.reference.lookupChannels({ country_code: countryCode, ramptype: rampType }).map(ChannelObjectType.from);
  }

  @Query(() => [NetworkType], { description: 'The banks or mobile money operators of a country. Unsupported country: NOT_FOUND.' })
  networks(
    @Arg('countryCode', () => String) countryCode: string,
    @Arg('channel', () => ChannelTypeValue) channel: ChannelTypeValue,
  ): NetworkType[] {
    return this.services.reference.lookupNetworks({ country_code: countryCode, channel }).map(NetworkType.from);
  }
}
