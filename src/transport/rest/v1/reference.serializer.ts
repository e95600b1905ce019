import type { Channel, Country, Network } from '../../../modules/reference/reference.service';
import { toJsonMoney } from '../../../shared/money';

/** Lookups as REST shows them. Amounts are strings with exactly the currency's minor-unit decimals. */
export function serializeCountry(country: Country) {
  return {
    name: country.name,
    country_code: country.code,
    currency: country.currency,
    minor_unit: country.minorUnit,
    dial_code: country.dialCode,
  };
}

export function serializeChannel(channel: Channel) {
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

export function serializeNetwork(network: Network) {
  return {
    network_id: network.id,
    name: network.name,
    code: network.code,
    country_code: network.countryCode,
    channel_type: network.channelType,
  };
}
