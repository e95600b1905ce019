import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { ExactDecimalType } from '../../db/decimal.type';
import type { Decimal } from '../../shared/money';
import type { ChannelStatus, ChannelType, RampType } from './reference.types';

/**
 * The reference tables. The data files under ./data are their source: the seeder
 * writes them at start, and ReferenceService reads them once into memory. Nothing
 * else writes these tables.
 */
@Entity({ tableName: 'currency' })
export class CurrencyRecord {
  @PrimaryKey({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'smallint' })
  minorUnit!: number;
}

@Entity({ tableName: 'country' })
export class CountryRecord {
  @PrimaryKey({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'text' })
  dialCode!: string;
}

@Entity({ tableName: 'channel' })
export class ChannelRecord {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  countryCode!: string;

  @Property({ type: 'text' })
  channelType!: ChannelType;

  @Property({ type: 'text', fieldName: 'ramptype' })
  rampType!: RampType;

  @Property({ type: ExactDecimalType })
  minAmount!: Decimal;

  @Property({ type: ExactDecimalType })
  maxAmount!: Decimal;

  @Property({ type: 'text' })
  status!: ChannelStatus;
}

@Entity({ tableName: 'network' })
export class NetworkRecord {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  countryCode!: string;

  @Property({ type: 'text' })
  channelType!: ChannelType;
}
