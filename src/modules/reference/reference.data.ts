import { z } from 'zod';
import { Decimal, parseAmount } from '../../shared/money';
import { buildNetworkPrefixPlans, type NetworkPrefixPlans } from '../../shared/network-prediction';
import { numberingPlan } from '../../shared/phone-numbers';
import channelsFile from './data/channels.json';
import countriesFile from './data/countries.json';
import currenciesFile from './data/currencies.json';
import networkPrefixesFile from './data/network-prefixes.json';
import networksFile from './data/networks.json';
import { CHANNEL_STATUSES, CHANNEL_TYPES, RAMP_TYPES, type ChannelStatus, type ChannelType, type RampType } from './reference.types';

/**
 * The reference data files (./data/*.json) as the seeder writes them into the
 * database. They are checked here, at start, so a typo in a data file stops the
 * service instead of surfacing as a wrong lookup answer.
 */
const currencyFileSchema = z.object({
  code: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().min(1),
  minor_unit: z.number().int().min(0).max(4),
});
const countryFileSchema = z.object({
  country_code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/),
  dial_code: z.string().regex(/^\+[1-9]\d{0,3}$/),
});
const channelFileSchema = z.object({
  channel_id: z.string().regex(/^[a-z0-9_]+$/),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  channel_type: z.enum(CHANNEL_TYPES),
  ramptype: z.enum(RAMP_TYPES),
  min_amount: z.string(),
  max_amount: z.string(),
  status: z.enum(CHANNEL_STATUSES),
});
const networkFileSchema = z.object({
  network_id: z.string().regex(/^[a-z0-9_]+$/),
  name: z.string().min(1),
  code: z.string().min(1),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  channel_type: z.enum(CHANNEL_TYPES),
});

export interface ReferenceDataSet {
  currencies: Array<{ code: string; name: string; minorUnit: number }>;
  countries: Array<{ code: string; name: string; currency: string; dialCode: string }>;
  channels: Array<{
    id: string;
    countryCode: string;
    channelType: ChannelType;
    rampType: RampType;
    minAmount: Decimal;
    maxAmount: Decimal;
    status: ChannelStatus;
  }>;
  networks: Array<{ id: string; name: string; code: string; countryCode: string; channelType: ChannelType }>;
}

export interface ReferenceFiles {
  currencies: unknown;
  countries: unknown;
  channels: unknown;
  networks: unknown;
}

export const BUNDLED_REFERENCE_FILES: ReferenceFiles = {
  currencies: currenciesFile,
  countries: countriesFile,
  channels: channelsFile,
  networks: networksFile,
};

function parseFile<S extends z.ZodType>(name: string, schema: S, content: unknown): Array<z.output<S>> {
  const result = z.array(schema).safeParse(content);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Reference data ${name}.json is invalid: ${problems}`);
  }
  return result.data;
}

function uniqueOrThrow(name: string, keys: string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) throw new Error(`Reference data ${name}.json lists ${key} twice`);
    seen.add(key);
  }
}

/** Parses and cross-checks the reference files; throws a plain Error naming the first problem. */
export function readReferenceData(files: ReferenceFiles = BUNDLED_REFERENCE_FILES): ReferenceDataSet {
  const currencies = parseFile('currencies', currencyFileSchema, files.currencies);
  const countries = parseFile('countries', countryFileSchema, files.countries);
  const channels = parseFile('channels', channelFileSchema, files.channels);
  const networks = parseFile('networks', networkFileSchema, files.networks);

  uniqueOrThrow(
    'currencies',
    currencies.map((c) => c.code),
  );
  uniqueOrThrow(
    'countries',
    countries.map((c) => c.country_code),
  );
  uniqueOrThrow(
    'channels',
    channels.map((c) => c.channel_id),
  );
  uniqueOrThrow(
    'channels',
    channels.map((c) => `${c.country_code}/${c.channel_type}/${c.ramptype}`),
  );
  uniqueOrThrow(
    'networks',
    networks.map((n) => n.network_id),
  );
  uniqueOrThrow(
    'networks',
    networks.map((n) => `${n.country_code}/${n.channel_type}/${n.code}`),
  );

  const minorUnits = new Map(currencies.map((c) => [c.code, c.minor_unit]));
  const countryCurrency = new Map<string, string>();
  for (const country of countries) {
    if (!minorUnits.has(country.currency)) throw new Error(`Country ${country.country_code} uses unknown currency ${country.currency}`);
    // Phone numbers of the country are read under its dial code's plan (shared/data/numbering-plans.json).
    if (!numberingPlan(country.dial_code)) throw new Error(`Country ${country.country_code}: dial code ${country.dial_code} has no numbering plan`);
    countryCurrency.set(country.country_code, country.currency);
  }
  const channelOut = channels.map((channel) => {
    const currency = countryCurrency.get(channel.country_code);
    if (!currency) throw new Error(`Channel ${channel.channel_id} names unknown country ${channel.country_code}`);
    const minorUnit = minorUnits.get(currency)!;
    const amount = (value: string, field: string) => {
      try {
        return parseAmount(value, minorUnit, field);
      } catch (err) {
        throw new Error(`Channel ${channel.channel_id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    const minAmount = amount(channel.min_amount, 'min_amount');
    const maxAmount = amount(channel.max_amount, 'max_amount');
    if (minAmount.gt(maxAmount)) throw new Error(`Channel ${channel.channel_id}: min_amount exceeds max_amount`);
    return {
      id: channel.channel_id,
      countryCode: channel.country_code,
      channelType: channel.channel_type,
      rampType: channel.ramptype,
      minAmount,
      maxAmount,
      status: channel.status,
    };
  });
  for (const network of networks) {
    if (!countryCurrency.has(network.country_code)) throw new Error(`Network ${network.network_id} names unknown country ${network.country_code}`);
  }

  return {
    currencies: currencies.map((c) => ({ code: c.code, name: c.name, minorUnit: c.minor_unit })),
    countries: countries.map((c) => ({ code: c.country_code, name: c.name, currency: c.currency, dialCode: c.dial_code })),
    channels: channelOut,
    networks: networks.map((n) => ({
      id: n.network_id,
      name: n.name,
      code: n.code,
      countryCode: n.country_code,
      channelType: n.channel_type,
    })),
  };
}

const networkPrefixesFileSchema = z.object({
  about: z.string(),
  countries: z.array(
    z.object({
      country_code: z.string().regex(/^[A-Z]{2}$/),
      source: z.string().min(1),
      networks: z.array(z.object({ code: z.string().min(1), prefixes: z.array(z.string().regex(/^\d{1,5}$/)).min(1) })).min(1),
    }),
  ),
});

/**
 * The mobile money networks' number prefixes (./data/network-prefixes.json), for predicting a
 * payer's network from the number typed on the checkout page. Checked against the reference data
 * (`data`, the bundled files by default): every country is known, every code is one of the
 * country's momo networks, and no prefix is listed twice in a country (a prefix that names two
 * networks, or one inside another's of a second network, would make the prediction arbitrary).
 */
export function readNetworkPrefixes(content: unknown = networkPrefixesFile, data: ReferenceDataSet = readReferenceData()): NetworkPrefixPlans {
  const result = networkPrefixesFileSchema.safeParse(content);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Reference data network-prefixes.json is invalid: ${problems}`);
  }
  const countries = result.data.countries;
  uniqueOrThrow(
    'network-prefixes',
    countries.map((c) => c.country_code),
  );
  for (const country of countries) {
    const where = `network-prefixes.json ${country.country_code}`;
    if (!data.countries.some((c) => c.code === country.country_code)) throw new Error(`${where}: unknown country`);
    const momo = new Set(data.networks.filter((n) => n.countryCode === country.country_code && n.channelType === 'momo').map((n) => n.code));
    const prefixes: string[] = [];
    for (const network of country.networks) {
      if (!momo.has(network.code)) throw new Error(`${where}: ${network.code} is not a mobile money network of the country`);
      prefixes.push(...network.prefixes);
    }
    uniqueOrThrow(where, prefixes);
    const owner = new Map(country.networks.flatMap((n) => n.prefixes.map((p) => [p, n.code] as const)));
    for (const [prefix, code] of owner) {
      for (const [other, otherCode] of owner) {
        if (other !== prefix && other.startsWith(prefix) && otherCode !== code)
          throw new Error(`${where}: ${other} (${otherCode}) is inside ${prefix} (${code})`);
      }
    }
  }
  return buildNetworkPrefixPlans(
    countries.map((c) => ({ countryCode: c.country_code, networks: c.networks.map((n) => ({ code: n.code, prefixes: n.prefixes })) })),
  );
}
