import { z } from 'zod';
import type { Orm } from '../../db/orm';
import { AppError } from '../../shared/errors';
import { countryCodeField, lowerCased, upperCased } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';
import { pagePrefixTable, predictNetwork, type NetworkPrefixPlans, type PagePrefixTable } from '../../shared/network-prediction';
import { numberingPlan } from '../../shared/phone-numbers';
import { readBanks } from './banks.data';
import { readNetworkPrefixes } from './reference.data';
import { ChannelRecord, CountryRecord, CurrencyRecord, NetworkRecord } from './reference.entities';
import {
  CHANNEL_TYPES,
  RAMP_TYPES,
  type Bank,
  type Channel,
  type ChannelType,
  type Country,
  type Currency,
  type Network,
  type RampType,
} from './reference.types';

export type { Bank, Channel, ChannelStatus, ChannelType, Country, Currency, Network, RampType } from './reference.types';

/** Lookups match case-insensitively: "ke" is KE, "Deposit" is deposit. */
export const channelsQuerySchema = z.object({
  countryCode: upperCased(countryCodeField),
  rampType: lowerCased(z.enum(RAMP_TYPES, { error: 'must be deposit or withdrawal' })),
});
export type ChannelsQuery = Command<typeof channelsQuerySchema>;

export const networksQuerySchema = z.object({
  countryCode: upperCased(countryCodeField),
  channel: lowerCased(z.enum(CHANNEL_TYPES, { error: 'must be bank or momo' })),
});
export type NetworksQuery = Command<typeof networksQuerySchema>;

export const banksQuerySchema = z.object({ country: upperCased(countryCodeField) });
export type BanksQuery = Command<typeof banksQuerySchema>;

interface Snapshot {
  currencies: Map<string, Currency>;
  countries: Country[];
  countryByCode: Map<string, Country>;
  channels: Channel[];
  channelById: Map<string, Channel>;
  networks: Network[];
  networkById: Map<string, Network>;
  banks: Bank[];
}

/** A mobile number of the dial code's country, from its numbering plan (every served dial code has one: checked at start). */
function exampleMobileNumber(dialCode: string): string {
  const plan = numberingPlan(dialCode);
  if (!plan) throw new Error(`Reference data: no numbering plan for the dial code ${dialCode}`);
  return plan.example;
}

/**
 * Countries, currencies, channels and networks. The data is static (seeded from
 * the data files at start), so it is read from its tables once, by load(), and
 * every lookup after that is in memory. The plain accessors are for other
 * services; the `lookup…` operations are for the doors and validate their input.
 */
export class ReferenceService {
  private snapshot?: Snapshot;
  /** Whether a provider serves a channel's network here (routing); every channel is served until told. */
  private served: (channel: Channel, network: Network) => boolean = () => true;
  private readonly availability = new Map<string, boolean>();
  /** Each momo country's network prefixes (network-prefixes.json), read once at load(). */
  private prefixes: NetworkPrefixPlans = new Map();

  constructor(private readonly deps: { orm: Orm }) {}

  /** Reads the reference tables into memory; called once at start (after seeding). */
  async load(): Promise<void> {
    const em = this.deps.orm.em.fork();
    const [currencyRows, countryRows, channelRows, networkRows] = await Promise.all([
      em.find(CurrencyRecord, {}, { orderBy: { code: 'asc' } }),
      em.find(CountryRecord, {}, { orderBy: { name: 'asc' } }),
      em.find(ChannelRecord, {}, { orderBy: { id: 'asc' } }),
      em.find(NetworkRecord, {}, { orderBy: { name: 'asc' } }),
    ]);
    const currencies = new Map(currencyRows.map((c) => [c.code, { code: c.code, name: c.name, minorUnit: c.minorUnit }]));
    const minorUnitOf = (code: string) => {
      const currency = currencies.get(code);
      if (!currency) throw new Error(`Reference data: currency ${code} is not in the currency table`);
      return currency.minorUnit;
    };
    const countries: Country[] = countryRows.map((c) => ({
      code: c.code,
      name: c.name,
      currency: c.currency,
      minorUnit: minorUnitOf(c.currency),
      dialCode: c.dialCode,
      exampleMobileNumber: exampleMobileNumber(c.dialCode),
    }));
    const countryByCode = new Map(countries.map((c) => [c.code, c]));
    const channels: Channel[] = channelRows.map((c) => {
      const currency = countryByCode.get(c.countryCode)!.currency;
      return {
        id: c.id,
        countryCode: c.countryCode,
        currency,
        minorUnit: minorUnitOf(currency),
        channelType: c.channelType,
        rampType: c.rampType,
        minAmount: c.minAmount,
        maxAmount: c.maxAmount,
        status: c.status,
      };
    });
    const countryOfNetwork = new Map(networkRows.map((n) => [n.id, n.countryCode]));
    const banks = readBanks((id) => countryOfNetwork.get(id)).sort((a, b) => a.countryCode.localeCompare(b.countryCode) || a.name.localeCompare(b.name));
    const localCodes = new Map(banks.flatMap((b) => (b.networkId ? [[b.networkId, b.code] as const] : [])));
    const networks: Network[] = networkRows.map((n) => ({
      id: n.id,
      name: n.name,
      code: n.code,
      countryCode: n.countryCode,
      channelType: n.channelType,
      localCode: localCodes.get(n.id) ?? null,
    }));
    this.prefixes = readNetworkPrefixes();
    this.snapshot = {
      currencies,
      countries,
      countryByCode,
      channels,
      channelById: new Map(channels.map((c) => [c.id, c])),
      networks,
      networkById: new Map(networks.map((n) => [n.id, n])),
      banks,
    };
  }

  private get data(): Snapshot {
    if (!this.snapshot) throw new Error('ReferenceService.load() has not run');
    return this.snapshot;
  }

  /** The mobile money network (its code) a national number's prefix belongs to; null when the prefix says nothing. */
  predictNetwork(countryCode: string, nationalNumber: string): string | null {
    return predictNetwork(this.prefixes, countryCode, nationalNumber);
  }

  /** The prefixes the checkout page's script predicts the network with as the payer types (null: none for the country). */
  prefixTable(countryCode: string): PagePrefixTable | null {
    const country = this.country(countryCode);
    const plan = country ? numberingPlan(country.dialCode) : undefined;
    return country && plan ? pagePrefixTable(this.prefixes, countryCode, country.dialCode, plan.trunkPrefix) : null;
  }

  /** Every supported country, by name. */
  listCountries(): Country[] {
    return [...this.data.countries];
  }

  country(code: string): Country | undefined {
    return this.data.countryByCode.get(code);
  }

  currency(code: string): Currency | undefined {
    return this.data.currencies.get(code);
  }

  /** Every supported currency, by code. */
  listCurrencies(): Currency[] {
    return [...this.data.currencies.values()];
  }

  /** The ISO 4217 exponent of a supported currency; undefined for any other. */
  currencyMinorUnit(currency: string): number | undefined {
    return this.data.currencies.get(currency)?.minorUnit;
  }

  channels(countryCode: string, rampType: RampType): Channel[] {
    return this.data.channels.filter((c) => c.countryCode === countryCode && c.rampType === rampType);
  }

  channel(id: string): Channel | undefined {
    return this.data.channelById.get(id);
  }

  networks(countryCode: string, channelType: ChannelType): Network[] {
    return this.data.networks.filter((n) => n.countryCode === countryCode && n.channelType === channelType);
  }

  network(id: string): Network | undefined {
    return this.data.networkById.get(id);
  }

  /** A country's banks and wallets by their local codes (banks.json), by name; empty where none are listed. */
  banks(countryCode: string): Bank[] {
    return this.data.banks.filter((b) => b.countryCode === countryCode);
  }

  /** The bank or wallet with this local code in the country. */
  bank(countryCode: string, code: string): Bank | undefined {
    return this.data.banks.find((b) => b.countryCode === countryCode && b.code === code);
  }

  /**
   * The local code of the bank a provider opened an account at (a bankInfo's `localCode`): the network with this code
   * (the sandbox's SWIFT codes), else the country's bank of that name, letters and digits compared in any case
   * (Flutterwave's "WEMA BANK" is Wema Bank, 035); null when neither is listed.
   */
  localCodeOf(countryCode: string, bankCode: string, bankName: string): string | null {
    const network = this.data.networks.find((n) => n.countryCode === countryCode && n.channelType === 'bank' && n.code === bankCode);
    if (network?.localCode) return network.localCode;
    const plain = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
    return this.banks(countryCode).find((b) => plain(b.name) === plain(bankName))?.code ?? null;
  }

  /** GET /v1/banks, query banks: a supported country's banks (NOT_FOUND for a country the service does not cover). */
  lookupBanks(command: BanksQuery): Bank[] {
    const query = parseInput(banksQuerySchema, command, 'query');
    return this.banks(this.countryOrThrow(query.country).code);
  }

  /** A country's channels of one direction (GET /v1/crossborder/channels, query channels). */
  lookupChannels(command: ChannelsQuery): Channel[] {
    const query = parseInput(channelsQuerySchema, command, 'query');
    return this.channels(this.countryOrThrow(query.countryCode).code, query.rampType).map((c) =>
      c.status === 'active' && !this.isServed(c) ? { ...c, status: 'unavailable' as const } : c,
    );
  }

  /** Routing's answer to "does a provider serve this channel's network?", set once at start (the answers are kept). */
  useRouting(served: (channel: Channel, network: Network) => boolean): void {
    this.served = served;
    this.availability.clear();
  }

  /** Active channels no provider serves here (readiness says so: /health/ready). */
  unservedChannels(): Channel[] {
    return this.data.channels.filter((c) => c.status === 'active' && !this.isServed(c));
  }

  /** A channel is served when a provider serves any of its networks. */
  private isServed(channel: Channel): boolean {
    let served = this.availability.get(channel.id);
    if (served === undefined) {
      served = this.networks(channel.countryCode, channel.channelType).some((n) => this.served(channel, n));
      this.availability.set(channel.id, served);
    }
    return served;
  }

  /** A country's banks or operators (GET /v1/crossborder/networks, query networks). */
  lookupNetworks(command: NetworksQuery): Network[] {
    const query = parseInput(networksQuerySchema, command, 'query');
    return this.networks(this.countryOrThrow(query.countryCode).code, query.channel);
  }

  /** A well-formed code of a country the service does not cover is NOT_FOUND, not a bad request. */
  private countryOrThrow(code: string): Country {
    const country = this.country(code);
    if (!country) throw new AppError('NOT_FOUND', `Country ${code} is not supported`);
    return country;
  }
}
