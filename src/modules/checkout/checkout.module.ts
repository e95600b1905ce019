import type { Route } from '../../providers/connector';
import { systemClock } from '../../shared/clock';
import type { PublicAddress } from '../../shared/public-address';
import type { AuditLog } from '../audit/audit-log';
import { defineModule, type ModuleInfra } from '../module';
import type { Outbox } from '../outbox/outbox';
import type { Rails } from '../rails/rails';
import type { ReferenceService } from '../reference/reference.service';
import { domesticMethods } from '../transactions/kinds/payment/domestic.checks';
import type { ProviderSignals } from '../transactions/provider-signals.service';
import type { TransactionQueries } from '../transactions/queries.service';
import { checkoutCompletionSql } from './checkout.follow-ups';
import { CHECKOUT_JOBS, CheckoutJob, type CheckoutJobQueue } from './checkout.jobs';
import { CheckoutMerchants } from './checkout.merchants';
import { CheckoutService, type CheckoutPayments } from './checkout.service';
import { CheckoutStore } from './checkout.store';
import { PaymentLinkService } from './payment-link.service';
import { PaymentLinkStore } from './payment-link.store';

type CheckoutInfra = Pick<ModuleInfra, 'sql' | 'clock' | 'logger'> & { jobs: CheckoutJobQueue };

interface CheckoutDeps {
  reference: ReferenceService;
  outbox: Outbox;
  audit: AuditLog;
  publicAddress: PublicAddress;
  payments: CheckoutPayments;
  rails: Pick<Rails, 'router'>;
  transactionQueries: Pick<TransactionQueries, 'findById'>;
  /** Asked about an earlier prompt when the payer asks for a new one (CheckoutService.pay). */
  providerSignals: Pick<ProviderSignals, 'settle'>;
}

/** How often the expiry sweep runs (one run per slot in the whole cluster; slots are real time on purpose: the job runner's). */
const EXPIRY_SWEEP_EVERY_MS = 30_000;

/**
 * Hosted checkout (issue 37): sessions and payment links. A successful payment of a session adds, in
 * its own statement, the job that completes the session (the outbox follow-up); a sweep job, keyed by
 * its 30 s slot so that one runs in the whole cluster, expires due sessions and adds its next run.
 */
export const checkoutModule = defineModule({
  name: 'checkout',
  jobs: CHECKOUT_JOBS,
  outboxFollowUps: ({ jobs }: Pick<CheckoutInfra, 'jobs'>) => checkoutCompletionSql(jobs),
  create: (infra: CheckoutInfra, deps: CheckoutDeps) => {
    const { sql, clock, logger, jobs } = infra;
    const { reference, outbox, audit, publicAddress, payments, rails, transactionQueries, providerSignals } = deps;
    const serves = (route: Route) => rails.router.serves(route);
    const methods = (country: string, currency: string) => domesticMethods(reference, serves, country, currency);
    const merchants = new CheckoutMerchants({ sql, reference, serves });
    const scheduleSweep = (slot: number) =>
      jobs.add([
        {
          name: CheckoutJob.ExpireSessions,
          payload: { slot },
          key: `${CheckoutJob.ExpireSessions}:${slot}`,
          delayMs: Math.max(0, slot * EXPIRY_SWEEP_EVERY_MS - systemClock.now().getTime()),
        },
      ]);
    const checkout = new CheckoutService({
      store: new CheckoutStore({ sql, outbox, jobs }),
      merchants,
      payments,
      methods,
      queries: transactionQueries,
      signals: providerSignals,
      outbox,
      publicAddress,
      clock,
      logger,
      scheduleSweep,
    });
    const paymentLinks = new PaymentLinkService({ store: new PaymentLinkStore({ sql, audit }), checkout, merchants, methods, publicAddress, clock });
    return {
      services: { checkout, paymentLinks },
      // The chain of sweeps, from the next slot (the same key from every instance: one job).
      start: () => scheduleSweep(Math.floor(systemClock.now().getTime() / EXPIRY_SWEEP_EVERY_MS) + 1),
    };
  },
});
