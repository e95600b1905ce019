import type { Decimal } from '../../shared/money';

export const RAMP_TYPES = ['deposit', 'withdrawal'] as const;
/** Direction of a channel: deposit (collection) or withdrawal (transfer). */
export type RampType = (typeof RAMP_TYPES)[number];

export const CHANNEL_TYPES = ['bank', 'momo'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** `unavailable`: the channel is active but no provider serves it here (production without its connector). */
export const CHANNEL_STATUSES = ['active', 'inactive', 'unavailable'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export interface Currency {
  /** ISO 4217 code. */
  code: string;
  name: string;
  /** ISO 4217 exponent: the number of decimals an amount in this currency may have. */
  minorUnit: number;
}

export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
  /** ISO 4217 code of the country's currency. */
  currency: string;
  minorUnit: number;
  /** International dialling prefix, with the plus sign. */
  dialCode: string;
  /** A mobile number of the country as the service takes them (its national significant number, from the numbering plan). */
  exampleMobileNumber: string;
}

export interface Channel {
  /** Stable and readable: `<country>_<channel type>_<ramptype>`, e.g. `ke_momo_deposit`. */
  id: string;
  countryCode: string;
  currency: string;
  /** Of the currency; min/max amounts are formatted to it. */
  minorUnit: number;
  channelType: ChannelType;
  rampType: RampType;
  minAmount: Decimal;
  maxAmount: Decimal;
  status: ChannelStatus;
}

export interface Network {
  /** Stable and readable: `<country>_<name>`, e.g. `ke_mpesa`. */
  id: string;
  name: string;
  /** SWIFT BIC (8 characters) for a bank; the operator's short code for mobile money. */
  code: string;
  countryCode: string;
  channelType: ChannelType;
  /** The code the country's own payment system uses (banks.json: Nigeria's CBN/NIP code, Kenya's bank code…); null where none is listed. */
  localCode: string | null;
}

/** A bank or wallet by its local code (banks.json): what GET /v1/banks lists and account resolution takes. */
export interface Bank {
  /** Nigeria: the CBN/NIP institution code (`058`, `50211`, `999992`); Kenya: the CBK bank code; South Africa: the universal branch code. */
  code: string;
  name: string;
  countryCode: string;
  type: 'bank' | 'mobile_money';
  /** The network (networks.json) it is, when the service routes to it; null: listed by code only. */
  networkId: string | null;
  /** Where the codes come from. */
  source: string;
}
