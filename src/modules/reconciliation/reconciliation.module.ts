import type { AuditLog } from '../audit/audit-log';
import { defineModule, type ModuleInfra } from '../module';
import type { Rails } from '../rails/rails';
import type { ProviderSignals } from '../transactions/provider-signals.service';
import { ReconciliationDaily } from './reconciliation.daily';
import { RECONCILIATION_JOBS, type ReconciliationJobQueue } from './reconciliation.jobs';
import { ReconciliationService } from './reconciliation.service';
import { ReconciliationStore } from './reconciliation.store';

type ReconciliationInfra = Pick<ModuleInfra, 'config' | 'sql' | 'clock' | 'logger' | 'metrics'> & { jobs: ReconciliationJobQueue };

interface ReconciliationModuleDeps {
  rails: Pick<Rails, 'router'>;
  providerSignals: Pick<ProviderSignals, 'ask'>;
  audit: AuditLog;
}

/**
 * Reconciliation with the providers (issue 38, point 5; docs/reconciliation.md): the service (runs, their items, an
 * operator's resolution), the daily job chain (RECONCILIATION_ENABLED), and the open-exceptions gauge's source.
 */
export const reconciliationModule = defineModule({
  name: 'reconciliation',
  jobs: RECONCILIATION_JOBS,
  create: (infra: ReconciliationInfra, { rails, providerSignals, audit }: ReconciliationModuleDeps) => {
    const { config, sql, clock, logger, jobs, metrics } = infra;
    const store = new ReconciliationStore({ sql, audit });
    const reconciliation = new ReconciliationService({
      store,
      connector: (name) => rails.router.connector(name),
      connectorNames: () => rails.router.all().map((c) => c.name),
      ask: (transactionId) => providerSignals.ask(transactionId),
      clock,
      logger,
    });
    const reconciliationDaily = new ReconciliationDaily({ service: reconciliation, jobs, clock, logger, enabled: config.reconciliationEnabled });
    metrics?.readReconciliation(() => store.openExceptions());
    return { services: { reconciliation, reconciliationDaily }, start: () => reconciliationDaily.start() };
  },
});
