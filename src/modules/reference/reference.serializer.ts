import { z } from 'zod';
import { toJsonMoney } from '../../shared/money';
import { countryCode, currency, money, record, type RecordOf } from '../../shared/records';
import type { Channel, Country, Network } from './reference.service';
import { CHANNEL_STATUSES, CHANNEL_TYPES, RAMP_TYPES } from './reference.types';

export const CountryRecord = record(
  'Country',
  z.object({
    name: z.string(),
    country_code: countryCode,
    currency,
    minor_unit: z.int(),
    dial_code: z.string(),
    example_mobile_number: z
      .string()
      .describe('A mobile number of the country as the service takes them (without the dial code or a leading 0): for examples and sandbox tests'),
  }),
);

export const ChannelRecord = record(
  'Channel',
  z.object({
    channel_id: z.string(),
    country_code: countryCode,
    currency,
    channel_type: z.enum(CHANNEL_TYPES),
    ramptype: z.enum(RAMP_TYPES),
    min_amount: money,
    max_amount: money,
    status: z.enum(CHANNEL_STATUSES),
  }),
);

export const NetworkRecord = record(
  'Network',
  z.object({
    network_id: z.string(),
    name: z.string(),
    code: z.string(),
    country_code: countryCode,
    channel_type: z.enum(CHANNEL_TYPES),
    local_code: z
      .string()
      .nullable()
      .describe('The code the country’s own payment system uses (Nigeria: the CBN/NIP code, e.g. 058; GET /v1/banks); null where none is listed'),
  }),
);

/** Lookups as REST shows them. Amounts are strings with exactly the currency's minor-unit decimals. */
export function serializeCountry(country: Country): RecordOf<typeof CountryRecord> {
  return {
    name: country.name,
    country_code: country.code,
    currency: country.currency,
    minor_unit: country.minorUnit,
    dial_code: country.dialCode,
    example_mobile_number: country.exampleMobileNumber,
  };
}

export function serializeChannel(channel: Channel): RecordOf<typeof ChannelRecord> {
  return {
    channel_id: channel.id,
    country_code: channel.countryCode,
    currency: channel.currency,
    channel_type: channel.channelType,
    ramptype: channel.rampType,
    min_amount: toJsonMoney(channel.minAmount),
    max_amount: toJsonMoney(channel.maxAmount),
    status: channel.status,
  };
}

export function serializeNetwork(network: Network): RecordOf<typeof NetworkRecord> {
  return {
    network_id: network.id,
    name: network.name,
    code: network.code,
    country_code: network.countryCode,
    channel_type: network.channelType,
    local_code: network.localCode,
  };
}
