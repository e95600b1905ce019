import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import type { Customer } from '../../../modules/customers/customer.entity';
import { overallKycStatus } from '../../../modules/kyc/kyc.state';
import { serializeKycRecord } from '../../../modules/kyc/kyc.serializer';
import { authOf } from '../auth';
import { pageMeta, sendSuccess } from '../envelope';
import { fromRest } from '../field-names';

function serializeCustomer(customer: Customer) {
  return {
    customer_uuid: customer.id,
    customerid: customer.customerid,
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email,
    phone_number: customer.phoneNumber,
    dial_code: customer.dialCode,
    country_code: customer.countryCode,
    date_of_birth: customer.dateOfBirth,
    kyc_status: customer.kycStatus,
    overall_kyc_status: overallKycStatus(customer.kycStatus),
    created_at: customer.createdAt.toISOString(),
    updated_at: customer.updatedAt.toISOString(),
  };
}

type UuidParams = { Params: { uuid: string } };

/** Customers and KYC (spec §1 call order, steps 1–3); registered in the bearer-protected scope. */
export async function customerRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post('/customer/enroll', async (request, reply) => {
    const customer = await services.customers.enrollCustomer(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, 'Customer enrolled', serializeCustomer(customer), 201);
  });

  app.get<UuidParams>('/customer/:uuid', async (request, reply) => {
    const customer = await services.customers.getCustomer(authOf(request).merchantId, request.params.uuid);
    return sendSuccess(reply, 'Customer retrieved', serializeCustomer(customer));
  });

  app.get<{ Querystring: { limit?: string; after?: string } }>('/customers', async (request, reply) => {
    const page = await services.customers.listCustomers(authOf(request).merchantId, fromRest(request.query));
    return sendSuccess(
      reply,
      'Customers retrieved',
      page.items.map((i) => serializeCustomer(i.node)),
      200,
      pageMeta(page),
    );
  });

  app.post<UuidParams>('/customer/:uuid/kyc', async (request, reply) => {
    const record = await services.kyc.submitKyc(authOf(request).merchantId, request.params.uuid, fromRest(request.body));
    return sendSuccess(reply, 'KYC submitted for review', serializeKycRecord(record));
  });

  app.get<UuidParams>('/customer/:uuid/kyc', async (request, reply) => {
    const record = await services.kyc.getKyc(authOf(request).merchantId, request.params.uuid);
    return sendSuccess(reply, 'KYC status retrieved', serializeKycRecord(record));
  });
}
