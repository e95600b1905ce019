import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { exitWith, runWithServices } from './operator-cli';

/**
 * npm run ledger:verify: recomputes every account from its entries and checks the books whole
 * (LedgerService.verify). Read-only, so it can run against a replica. Prints the report as JSON;
 * exits 1 when anything is wrong, so it can gate a deploy or a migration.
 *
 * `-- --since-last-run`: the periodic check instead (what was posted since its last run, and its
 * checkpoint advanced; it writes, so not on a replica), with how long each check took.
 *
 * What each transaction must have posted depends on the environment (its settlement delay), so the
 * environment is the database's own (its deployment stamp, issue 34), whatever the shell says when
 * PAYMENTS_ENV is unset; a PAYMENTS_ENV set to another is refused.
 */
const { values } = parseArgs({ options: { 'since-last-run': { type: 'boolean' } }, strict: true });
let clean = true;
exitWith(
  'ledger:verify',
  runWithServices(
    false,
    async (services) => {
      const rules = services.transactions.expectedLegs();
      if (values['since-last-run']) {
        const report = await services.ledger.verifySinceLastRun(rules);
        if (report === null) return { ok: true, skipped: 'another instance advanced the checkpoint from the same run' };
        clean = report.problems.length === 0;
        return { ok: clean, ...report };
      }
      const report = await services.ledger.verify(rules);
      clean = report.problems.length === 0;
      return { ok: clean, ...report };
    },
    { environment: 'database' },
  ).then((code) => (code === 0 && !clean ? 1 : code)),
);
