import 'reflect-metadata';
import { exitWith, runWithServices } from './operator-cli';

/**
 * npm run ledger:verify: recomputes every account from its entries and checks the books whole
 * (LedgerService.verify). Prints the report as JSON; exits 1 when anything is wrong, so it can
 * gate a deploy or a migration.
 */
let clean = true;
exitWith(
  'ledger:verify',
  runWithServices(false, async (services) => {
    const report = await services.ledger.verify(services.transactions.expectedLegs());
    clean = report.problems.length === 0;
    return { ok: clean, ...report };
  }).then((code) => (code === 0 && !clean ? 1 : code)),
);
