import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { afterCursor, pageRequestSchema, toPage, type Page, UUID_ID } from '../../shared/pagination';
import { parseInput } from '../../shared/validation';
import type { ReferenceService } from '../reference/reference.service';
import { Customer } from './customer.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'is not a real date');

const text = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const enrollCustomerSchema = z.object({
  customerid: text(100),
  first_name: text(100),
  last_name: text(100),
  email: z.email('must be a valid email address').max(254),
  phone_number: z.string({ error: 'is required' }).regex(/^\d{4,15}$/, 'must be 4 to 15 digits, without the dial code'),
  dial_code: z.string({ error: 'is required' }).regex(/^\+\d{1,4}$/, 'must be a plus sign and 1 to 4 digits, e.g. +254'),
  country_code: z.string({ error: 'is required' }).regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code, e.g. KE'),
  date_of_birth: isoDate.optional(),
});
export type EnrollCustomerInput = z.input<typeof enrollCustomerSchema>;

/** The customer as a transaction sees it: who pays or receives, and whether KYC allows it. */
export interface Payer {
  id: string;
  kycStatus: Customer['kycStatus'];
  firstName: string;
  lastName: string;
}

/** Customers are per merchant: every read is scoped by merchant, so another merchant's customer is NOT_FOUND. */
export class CustomerService {
  constructor(
    private readonly orm: Orm,
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly reference: ReferenceService,
  ) {}

  async enrollCustomer(merchantId: string, input: unknown): Promise<Customer> {
    const body = parseInput(enrollCustomerSchema, input);
    const country = this.reference.country(body.country_code);
    if (!country) {
      throw AppError.invalidRequest(`country_code ${body.country_code} is not supported`, [
        { field: 'country_code', issue: 'is not a supported country' },
      ]);
    }
    if (body.dial_code !== country.dialCode) {
      throw AppError.invalidRequest(`dial_code must be ${country.dialCode} for ${country.code}`, [
        { field: 'dial_code', issue: `must be ${country.dialCode} for ${country.code}` },
      ]);
    }
    if (body.date_of_birth && body.date_of_birth > this.clock.now().toISOString().slice(0, 10)) {
      throw AppError.invalidRequest('date_of_birth is in the future', [{ field: 'date_of_birth', issue: 'must not be in the future' }]);
    }
    const now = this.clock.now();
    const em = this.orm.em.fork();
    const customer = em.create(Customer, {
      merchantId,
      customerid: body.customerid,
      firstName: body.first_name,
      lastName: body.last_name,
      email: body.email,
      phoneNumber: body.phone_number,
      dialCode: body.dial_code,
      countryCode: body.country_code,
      dateOfBirth: body.date_of_birth ?? null,
      kycStatus: 'pending_kyc',
      createdAt: now,
      updatedAt: now,
    });
    try {
      await em.flush();
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      const existing = await this.orm.em.fork().findOne(Customer, { merchantId, customerid: body.customerid });
      throw new AppError('DUPLICATE_REQUEST', `A customer with customerid ${body.customerid} is already enrolled`, [
        { field: 'customerid', issue: `already enrolled${existing ? ` as customer_uuid ${existing.id}` : ''}` },
      ]);
    }
    return customer;
  }

  /**
   * What a transaction needs of its customer (hot path: one prepared statement,
   * no unit of work). Another merchant's customer is NOT_FOUND.
   */
  async getPayer(merchantId: string, customerUuid: string): Promise<Payer> {
    const [payer] = UUID.test(customerUuid)
      ? await this.sql.query<Payer>(
          'select id, kyc_status as "kycStatus", first_name as "firstName", last_name as "lastName" from customer where id = $1 and merchant_id = $2',
          [customerUuid, merchantId],
          'customer_payer',
        )
      : [];
    if (!payer) throw AppError.notFound('Customer');
    return payer;
  }

  async getCustomer(merchantId: string, customerUuid: string): Promise<Customer> {
    const customer = UUID.test(customerUuid) ? await this.orm.em.findOne(Customer, { id: customerUuid, merchantId }) : null;
    if (!customer) throw AppError.notFound('Customer');
    return customer;
  }

  /** Newest first, by keyset (created_at, id), so pages stay stable while customers are added. */
  async listCustomers(merchantId: string, input: unknown): Promise<Page<Customer>> {
    const { limit, after } = parseInput(pageRequestSchema, input);
    const where: Record<string, unknown> = { merchantId };
    Object.assign(where, afterCursor(after, UUID_ID));
    const rows = await this.orm.em.find(Customer, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 });
    return toPage(rows, limit);
  }
}
