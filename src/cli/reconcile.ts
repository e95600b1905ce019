import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { dayWindow } from '../modules/reconciliation/reconciliation.service';
import { systemClock } from '../shared/clock';
import { exitWith, runWithServices } from './operator-cli';

/**
 * npm run recon -- --connector flutterwave --date 2026-12-01: reconciles one connector's UTC day with the provider's
 * records (docs/reconciliation.md), as the daily job does; `--date` defaults to yesterday. Prints the run as JSON
 * (its counts per class and clearing figures; `--items` adds every exception). A day reconciled already is not
 * reconciled again: the existing run is printed. Exits 1 when the run found exceptions or failed, so it can gate a
 * close of the books. It never moves money.
 */
const { values } = parseArgs({
  options: { connector: { type: 'string' }, date: { type: 'string' }, items: { type: 'boolean' } },
  strict: true,
});
let clean = true;
exitWith(
  'recon',
  runWithServices(
    false,
    async (services) => {
      if (!values.connector) throw new Error(`--connector is required (${services.reconciliation.connectors().join(', ')})`);
      const window = dayWindow(values.date, systemClock.now());
      const outcome = await services.reconciliation.reconcile(values.connector, window);
      if (!outcome.run) return { ran: false, reason: outcome.ran ? null : outcome.reason };
      const { run, items } = await services.reconciliation.getRun(outcome.run.id);
      const exceptions = items.filter((i) => i.class !== 'matched' && i.class !== 'in_flight');
      clean = run.status === 'completed' && exceptions.every((i) => i.resolvedAt !== null);
      return {
        ran: outcome.ran,
        ...(outcome.ran ? {} : { reason: outcome.reason }),
        run_id: run.id,
        connector: run.connector,
        window: { from: run.windowFrom.toISOString(), to: run.windowTo.toISOString() },
        status: run.status,
        counts: run.counts,
        clearing: run.clearing,
        open_exceptions: exceptions.filter((i) => i.resolvedAt === null).length,
        ...(values.items
          ? {
              exceptions: exceptions.map((i) => ({
                item_id: i.id,
                class: i.class,
                reference: i.transactionReference,
                provider_reference: i.providerReference,
              })),
            }
          : {}),
      };
    },
    { environment: 'database' },
  ).then((code) => (code === 0 && !clean ? 1 : code)),
);
