import type { FastifyInstance } from 'fastify';
import type { CustomerService } from '../../../modules/customers/customer.service';
import type { KycService } from '../../../modules/kyc/kyc.service';
import { CustomerRecord, serializeCustomer } from '../../../modules/customers/customer.serializer';
import { enrollCustomerSchema } from '../../../modules/customers/customer.service';
import { KycRecordSchema, serializeKycRecord } from '../../../modules/kyc/kyc.serializer';
import { localIdTypeSummaries } from '../../../modules/kyc/id-documents';
import { submitKycSchema } from '../../../modules/kyc/kyc.service';
import { pageRequestSchema } from '../../../shared/pagination';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { customers: CustomerService; kyc: KycService };

const enrollCustomer = operation({
  operationId: 'enrollCustomer',
  tag: 'Customers',
  access: 'bearer',
  permission: 'customers:write',
  summary: 'Enroll a customer',
  description: 'The customer starts as `pending_kyc`. `customerid` is unique per merchant; `dial_code` must be the country’s.',
  body: {
    name: 'EnrollCustomerRequest',
    schema: enrollCustomerSchema,
    example: {
      customerid: 'c-001',
      first_name: 'Amina',
      last_name: 'Otieno',
      email: 'amina@example.com',
      phone_number: '712345678',
      dial_code: '+254',
      country_code: 'KE',
      date_of_birth: '1990-04-12',
    },
  },
  fields: {
    phone_number: {
      description:
        'The national number: digits only, without the dial code or a leading 0 (712345678 for +254). `0712345678`, `254712345678` and ' +
        '`+254 712 345 678` are accepted and stored as `712345678`; another form is a 400 naming the expected one.',
    },
  },
  ok: { status: 201, message: 'Customer enrolled', data: CustomerRecord },
  errors: { DUPLICATE_REQUEST: 'customerid already enrolled (`details` names the existing customer_uuid)' },
});

const getCustomer = operation({
  operationId: 'getCustomer',
  tag: 'Customers',
  access: 'bearer',
  permission: 'customers:read',
  summary: 'Get a customer',
  params: { uuid: 'The customer_uuid' },
  ok: { message: 'Customer retrieved', data: CustomerRecord },
  errors: { NOT_FOUND: 'no customer of yours has this uuid' },
});

const listCustomers = operation({
  operationId: 'listCustomers',
  tag: 'Customers',
  access: 'bearer',
  permission: 'customers:read',
  summary: 'List your customers, newest first',
  query: pageRequestSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Customers retrieved', data: CustomerRecord, list: 'page' },
});

const submitKyc = operation({
  operationId: 'submitKyc',
  tag: 'Customers',
  access: 'bearer',
  permission: 'customers:write',
  summary: 'Submit KYC for review',
  description:
    'The status becomes `pending`; the review decides `approved` or `rejected` (event `customer.kyc.approved|rejected`). In the sandbox an id_number starting with `REJECT` is rejected.',
  params: { uuid: 'The customer_uuid' },
  body: {
    name: 'SubmitKycRequest',
    schema: submitKycSchema,
    example: {
      id_type: 'national_id',
      id_number: 'A12345678',
      id_country: 'KE',
      date_of_birth: '1990-04-12',
      address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE' },
    },
  },
  fields: {
    id_type: {
      description:
        '`passport`, `national_id` and `drivers_license`: any country’s, the number as written. The others are local documents, each taken only ' +
        'with its own `id_country` and in its format (else a 400 naming `id_country` or `id_number`); the number is kept in its one form. ' +
        localIdTypeSummaries()
          .map(({ idType, summary }) => `\`${idType}\`: ${summary}`)
          .join('; ') +
        '.',
    },
  },
  ok: { message: 'KYC submitted for review', data: KycRecordSchema },
  errors: { NOT_FOUND: 'no customer of yours has this uuid', INVALID_STATE: 'a review is pending, or the customer is already approved' },
});

const getKyc = operation({
  operationId: 'getKyc',
  tag: 'Customers',
  access: 'bearer',
  permission: 'customers:read',
  summary: 'Get a customer’s KYC status',
  params: { uuid: 'The customer_uuid' },
  ok: { message: 'KYC status retrieved', data: KycRecordSchema },
  errors: { NOT_FOUND: 'no customer of yours has this uuid' },
});

type UuidParams = { Params: { uuid: string } };

/** Customers and KYC (spec §1 call order, steps 1–3); registered in the bearer-protected scope. */
export async function customerRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post('/customer/enroll', enrollCustomer.route, async (request, reply) => {
    const customer = await services.customers.enrollCustomer(authOf(request).merchantId, fromRest(request.body));
    return enrollCustomer.send(reply, serializeCustomer(customer));
  });

  app.get<UuidParams>('/customer/:uuid', getCustomer.route, async (request, reply) => {
    const customer = await services.customers.getCustomer(authOf(request).merchantId, request.params.uuid);
    return getCustomer.send(reply, serializeCustomer(customer));
  });

  app.get<{ Querystring: { limit?: string; after?: string } }>('/customers', listCustomers.route, async (request, reply) => {
    const page = await services.customers.listCustomers(authOf(request).merchantId, fromRest(request.query));
    return listCustomers.send(
      reply,
      page.items.map((i) => serializeCustomer(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.post<UuidParams>('/customer/:uuid/kyc', submitKyc.route, async (request, reply) => {
    const record = await services.kyc.submitKyc(authOf(request).merchantId, request.params.uuid, fromRest(request.body));
    return submitKyc.send(reply, serializeKycRecord(record));
  });

  app.get<UuidParams>('/customer/:uuid/kyc', getKyc.route, async (request, reply) => {
    const record = await services.kyc.getKyc(authOf(request).merchantId, request.params.uuid);
    return getKyc.send(reply, serializeKycRecord(record));
  });
}
