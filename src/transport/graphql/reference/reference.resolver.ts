import { Arg, Query, Resolver } from 'type-graphql';
import type { ReferenceService, ChannelType, RampType } from '../../../modules/reference/reference.service';
import { ChannelTypeEnum, RampTypeEnum } from '../enums';
import { ChannelObject, CountryObject, NetworkObject } from './reference.types';
import { Requires, SIGNED_IN } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { reference: ReferenceService };

/** Cross-border lookups; the same service calls as GET /v1/crossborder/{countries,channels,networks}. */
@Resolver()
export class ReferenceResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires(SIGNED_IN)
  @Query(() => [CountryObject], { description: 'Every supported country.' })
  countries(): CountryObject[] {
    return this.services.reference.listCountries().map(CountryObject.from);
  }

  @Requires(SIGNED_IN)
  @Query(() => [ChannelObject], { description: 'The channels of a country for one direction. Unsupported country: NOT_FOUND.' })
  channels(@Arg('countryCode', () => String) countryCode: string, @Arg('rampType', () => RampTypeEnum) rampType: RampType): ChannelObject[] {
    return this.services.reference.lookupChannels({ countryCode, rampType }).map(ChannelObject.from);
  }

  @Requires(SIGNED_IN)
  @Query(() => [NetworkObject], { description: 'The banks or mobile money operators of a country. Unsupported country: NOT_FOUND.' })
  networks(@Arg('countryCode', () => String) countryCode: string, @Arg('channel', () => ChannelTypeEnum) channel: ChannelType): NetworkObject[] {
    return this.services.reference.lookupNetworks({ countryCode, channel }).map(NetworkObject.from);
  }
}
