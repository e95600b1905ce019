import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ExactDecimalType } from '../../db/decimal.type';
import type { Decimal } from '../../shared/money';
import { Merchant } from '../merchants/merchant.entity';

/** A priced conversion, valid for 60 s; a transfer may lock its rate by quote_id. */
@Entity({ tableName: 'fx_quote' })
export class FxQuote {
  /** `qt_` + 24 hex characters (96 random bits). */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Merchant, { mapToPk: true, fieldName: 'merchant_id', index: true })
  merchantId!: string;

  @Property({ type: 'text' })
  sourceCurrency!: string;

  @Property({ type: 'text' })
  destinationCurrency!: string;

  @Property({ type: ExactDecimalType })
  sourceAmount!: Decimal;

  @Property({ type: ExactDecimalType })
  destinationAmount!: Decimal;

  @Property({ type: ExactDecimalType })
  rate!: Decimal;

  @Property({ type: ExactDecimalType })
  fee!: Decimal;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  /** The transaction that consumed it (a quote locks its rate for one transfer), set by that transaction's insert. */
  @Property({ type: 'uuid', nullable: true })
  usedBy?: string | null = null;
}
