import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { countryCodeField, dialCodeField, isoDateField, phoneNumberField, requiredText, withoutCardNumberIn } from '../../shared/fields';
import { requireNationalNumber } from '../../shared/phone-numbers';
import { afterCursor, pageRequestSchema, toPage, type Page, type PageQuery, UUID_ID } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import type { ReferenceService } from '../reference/reference.service';
import { Customer } from './customer.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** CONTRACT §4's enrollment, in the domain's names. */
export const enrollCustomerSchema = z.object({
  customerId: requiredText(100),
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: withoutCardNumberIn(z.email('must be a valid email address').max(254, 'must be at most 254 characters')),
  phoneNumber: phoneNumberField,
  dialCode: dialCodeField,
  countryCode: countryCodeField,
  dateOfBirth: isoDateField.nullish(),
});
export type EnrollCustomerCommand = Command<typeof enrollCustomerSchema>;

/** The customer as a transaction sees it: who pays or receives, and whether KYC allows it. */
export interface Payer {
  id: string;
  kycStatus: Customer['kycStatus'];
  firstName: string;
  lastName: string;
}

/** Customers are per merchant: every read is scoped by merchant, so another merchant's customer is NOT_FOUND. */
/** The payer's one prepared statement (also run by the bench's engine floor, bench/baseline/engine-floor.ts). */
export async function readPayer(sql: Sql, merchantId: string, customerUuid: string): Promise<Payer | undefined> {
  const [payer] = await sql.query<Payer>(
    'select id, kyc_status as "kycStatus", first_name as "firstName", last_name as "lastName" from customer where id = $1 and merchant_id = $2',
    [customerUuid, merchantId],
    'customer_payer',
  );
  return payer;
}

/** What CustomerService is built with (its module's factory passes it). */
export interface CustomerServiceDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  reference: ReferenceService;
}

export class CustomerService {
  constructor(private readonly deps: CustomerServiceDeps) {}

  async enrollCustomer(merchantId: string, command: EnrollCustomerCommand): Promise<Customer> {
    const body = parseInput(enrollCustomerSchema, command);
    const country = this.deps.reference.country(body.countryCode);
    if (!country) throw AppError.invalidField('countryCode', 'is not a supported country');
    if (body.dialCode !== country.dialCode) throw AppError.invalidField('dialCode', `must be ${country.dialCode} for ${country.code}`);
    // Kept as the national number (CONTRACT §6a): +254 712 345 678, 254712345678 and 0712345678 are 712345678.
    const phoneNumber = requireNationalNumber(body.phoneNumber, country.dialCode, 'phoneNumber', 'phone');
    if (body.dateOfBirth && body.dateOfBirth > this.deps.clock.now().toISOString().slice(0, 10)) {
      throw AppError.invalidField('dateOfBirth', 'must not be in the future');
    }
    const now = this.deps.clock.now();
    const em = this.deps.orm.em.fork();
    const customer = em.create(Customer, {
      merchantId,
      customerid: body.customerId,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      phoneNumber,
      dialCode: body.dialCode,
      countryCode: body.countryCode,
      dateOfBirth: body.dateOfBirth ?? null,
      kycStatus: 'pending_kyc',
      createdAt: now,
      updatedAt: now,
    });
    try {
      await em.flush();
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      const existing = await this.deps.orm.em.fork().findOne(Customer, { merchantId, customerid: body.customerId });
      throw AppError.duplicateField('customerId', `is already enrolled${existing ? ` (customer ${existing.id})` : ''}`);
    }
    return customer;
  }

  /**
   * What a transaction needs of its customer (hot path: one prepared statement,
   * no unit of work). Another merchant's customer is NOT_FOUND.
   */
  async getPayer(merchantId: string, customerUuid: string): Promise<Payer> {
    const payer = UUID.test(customerUuid) ? await readPayer(this.deps.sql, merchantId, customerUuid) : undefined;
    if (!payer) throw AppError.notFound('Customer');
    return payer;
  }

  async getCustomer(merchantId: string, customerUuid: string): Promise<Customer> {
    const customer = UUID.test(customerUuid) ? await this.deps.orm.em.findOne(Customer, { id: customerUuid, merchantId }) : null;
    if (!customer) throw AppError.notFound('Customer');
    return customer;
  }

  /** Several of the merchant's customers at once (one query); ids that are not theirs are simply absent. */
  async customersByIds(merchantId: string, customerUuids: readonly string[]): Promise<Customer[]> {
    const ids = [...new Set(customerUuids.filter((id) => UUID.test(id)))];
    if (ids.length === 0) return [];
    return this.deps.orm.em.find(Customer, { id: { $in: ids }, merchantId });
  }

  /** Newest first, by keyset (created_at, id), so pages stay stable while customers are added. */
  async listCustomers(merchantId: string, query: PageQuery): Promise<Page<Customer>> {
    const { limit, after } = parseInput(pageRequestSchema, query, 'query');
    const where: Record<string, unknown> = { merchantId };
    Object.assign(where, afterCursor(after, UUID_ID));
    const rows = await this.deps.orm.em.find(Customer, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 });
    return toPage(rows, limit);
  }
}
