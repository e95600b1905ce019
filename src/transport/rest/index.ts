import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Services } from '../../container';
import type { RateLimits } from '../rate-limits';
import { pick } from '../pick';
import { requireBearer } from './auth';
import { registerIdempotency } from './idempotency';
import { openApiOptions } from './openapi/document';
import { openApiRoutes } from './openapi/openapi.routes';
import { adminRoutes } from './v1/admin.routes';
import { auditRoutes } from './v1/audit.routes';
import { customerRoutes } from './v1/customer.routes';
import { merchantRoutes } from './v1/merchant.routes';
import { checkoutSettingsRoutes } from './v1/checkout-settings.routes';
import { oauthRoutes } from './v1/oauth.routes';
import { ratesRoutes } from './v1/rates.routes';
import { referenceRoutes } from './v1/reference.routes';
import { payeesRoutes } from './v1/payees.routes';
import { payoutScheduleRoutes } from './v1/payout-schedule.routes';
import { paymentRoutes } from './v1/payment.routes';
import { checkoutRoutes } from './v1/checkout.routes';
import { payoutRoutes } from './v1/payout.routes';
import { disputeRoutes, sandboxDisputeRoutes } from './v1/dispute.routes';
import { sandbox3dsRoutes } from './v1/sandbox-3ds.routes';
import { sandboxRoutes, transactionRoutes } from './v1/transaction.routes';
import { webhookRoutes } from './v1/webhook.routes';
import { apiKeyRoutes } from './v1/api-key.routes';
import { payoutDestinationRoutes } from './v1/payout-destination.routes';
import { providerCallbackRoutes } from './v1/provider-callback.routes';
import { ledgerRoutes, sandboxLedgerRoutes } from './v1/ledger.routes';

/**
 * The /v1 REST compatibility layer. Each route module gets the services it names (its `UsedServices`), picked here from the bag. Public: /v1/oauth/*, /v1/admin/* (own key), the sandbox 3-D Secure
 * page (its handle is its key), providers' callbacks (their token is their key). Everything else: bearer.
 * Sandbox-only routes do not exist in production (404).
 */
export async function restV1(app: FastifyInstance, { services, config, rateLimits }: { services: Services; config: Config; rateLimits: RateLimits }) {
  // Idempotency-Key on the listed POSTs (idempotency.ts): attached as each route is registered, so first.
  registerIdempotency(app, services.idempotency);
  // The OpenAPI document is generated from the routes registered below, each described where it is
  // registered (openapi/operation.ts): @fastify/swagger collects them, document.ts says how.
  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(oauthRoutes, { services: pick(services, 'oauth'), rateLimits });
  if (config.adminApiKey)
    await app.register(adminRoutes, {
      services: pick(services, 'fees', 'kyc', 'ledger', 'merchants', 'oauth', 'reconciliation'),
      adminApiKey: config.adminApiKey,
      rateLimits,
    });
  // The cardholder's 3-D Secure page: public (the handle is its key), sandbox only.
  if (config.env === 'sandbox') await app.register(sandbox3dsRoutes, { services: pick(services, 'formTokens', 'payments', 'publicAddress') });
  // Providers' notifications: public (a per-transaction token says which), raw bodies (docs/providers.md).
  await app.register(providerCallbackRoutes, { services: pick(services, 'providerSignals') });
  // This layer's OpenAPI document and its docs page: public, generated once when the service is ready.
  await app.register(openApiRoutes);
  await app.register(async (protectedScope) => {
    requireBearer(protectedScope, services.oauth, rateLimits);
    await protectedScope.register(merchantRoutes, { services: pick(services, 'merchants') });
    await protectedScope.register(checkoutSettingsRoutes, { services: pick(services, 'merchants') });
    await protectedScope.register(referenceRoutes, { services: pick(services, 'reference') });
    await protectedScope.register(payeesRoutes, { services: pick(services, 'payees', 'merchants') });
    await protectedScope.register(ratesRoutes, { services: pick(services, 'rates') });
    await protectedScope.register(customerRoutes, { services: pick(services, 'customers', 'kyc') });
    const transactionServices = pick(services, 'collections', 'customers', 'reference', 'transactions', 'transactionQueries', 'transfers');
    await protectedScope.register(transactionRoutes, { services: transactionServices, rateLimits });
    await protectedScope.register(paymentRoutes, { services: pick(services, 'payments') });
    await protectedScope.register(checkoutRoutes, { services: pick(services, 'checkout', 'paymentLinks') });
    await protectedScope.register(webhookRoutes, { services: pick(services, 'merchants', 'webhooks') });
    await protectedScope.register(apiKeyRoutes, { services: pick(services, 'apiKeys') });
    await protectedScope.register(payoutDestinationRoutes, { services: pick(services, 'payoutDestinations') });
    const ledgerServices = pick(services, 'ledger', 'refunds', 'fundings');
    await protectedScope.register(ledgerRoutes, { services: ledgerServices, rateLimits });
    await protectedScope.register(payoutRoutes, { services: pick(services, 'payouts', 'reference'), rateLimits });
    await protectedScope.register(auditRoutes, { services: pick(services, 'auditQueries'), rateLimits });
    await protectedScope.register(payoutScheduleRoutes, { services: pick(services, 'payoutSchedules') });
    await protectedScope.register(disputeRoutes, { services: pick(services, 'disputes') });
    if (config.env === 'sandbox') {
      await protectedScope.register(sandboxDisputeRoutes, { services: pick(services, 'disputes') });
      await protectedScope.register(sandboxRoutes, { services: transactionServices });
      await protectedScope.register(sandboxLedgerRoutes, { services: ledgerServices });
    }
  });
}
