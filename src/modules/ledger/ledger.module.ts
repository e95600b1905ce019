import type { Subscribable } from '../../events/domain-event';
import { Decimal } from '../../shared/money';
import type { AuditLog } from '../audit/audit-log';
import { defineModule, type ModuleInfra } from '../module';
import type { RatesService } from '../rates/rates.service';
import type { ReferenceService } from '../reference/reference.service';
import { FeeSchedule, parseFeeDefaults } from './fee-schedule';
import { LedgerService } from './ledger.service';
import { LedgerTopic } from './ledger.topics';

/**
 * Merchants' fees: a module of its own because the rates module prices with them and the ledger
 * needs the rates' currencies (fees → rates → ledger, no cycle).
 */
export const feesModule = defineModule({
  name: 'fees',
  topics: [LedgerTopic.FeeScheduleChanged],
  create: ({ config, sql, pubsub, logger }: Pick<ModuleInfra, 'config' | 'sql' | 'pubsub' | 'logger'>, { reference }: { reference: ReferenceService }) => {
    const fees = new FeeSchedule({ sql, pubsub, defaults: parseFeeDefaults(config.feeDefaults), minorUnitOf: (c) => reference.currencyMinorUnit(c), logger });
    return { services: { fees }, start: () => fees.start(), stop: () => fees.stop() };
  },
});

/**
 * The books. A new merchant's accounts open on `merchant.created`, before its credentials are
 * answered (in the sandbox, its opening balance; a transfer right after needs it): an in-process
 * event awaited by the creation, not a job (which would answer the credentials before the balance
 * exists) nor opened lazily (a check on every transaction's hot path). A crash between the two is
 * made good at the next sandbox start (openUnopenedMerchants).
 */
export const ledgerModule = defineModule({
  name: 'ledger',
  topics: [LedgerTopic.BalanceChanged],
  create: (
    { config, sql, clock, pubsub, logger, metrics }: Pick<ModuleInfra, 'config' | 'sql' | 'clock' | 'pubsub' | 'logger' | 'metrics'>,
    {
      reference,
      rates,
      merchantCreated,
      audit,
    }: { reference: ReferenceService; rates: RatesService; merchantCreated: Subscribable<{ merchantId: string }>; audit: AuditLog },
  ) => {
    const ledger = new LedgerService({
      sql,
      clock,
      pubsub,
      minorUnitOf: (c) => reference.currencyMinorUnit(c),
      supportedCurrencies: () =>
        reference
          .listCurrencies()
          .map((c) => c.code)
          .filter((c) => rates.isSupportedCurrency(c)),
      openingBalance: config.env === 'sandbox' ? new Decimal(config.sandboxOpeningBalance) : new Decimal(0),
      logger,
      audit,
      verified: metrics?.ledgerVerified,
    });
    merchantCreated.on(({ merchantId }) => ledger.openMerchant(merchantId));
    return { services: { ledger } };
  },
});
