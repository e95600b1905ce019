import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { parseUuid } from '../shared/validation';
import { exitWith, runWithServices } from './operator-cli';

const USAGE = `usage: npm run ledger:adjust -- <merchant_id> --currency NGN --amount=-250.00 --reason "…" --reference ADJ-42
Posts an operator adjustment against the external-funds account: a positive amount credits the merchant's
available balance, a negative one debits it (never below zero; write it --amount=-250.00). The same reference posts once:
again with the same currency and amount it posts nothing ("posted": false); with another it is refused (DUPLICATE_REQUEST, exit 1).`;

/** npm run ledger:adjust: the operator's adjustment (docs/ledger.md), the CLI twin of POST /v1/admin/merchants/{id}/adjustments. */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      currency: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
      reference: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [merchantId, ...extra] = positionals;
  if (values.help || !merchantId || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  return runWithServices(true, async (services) => {
    // Currencies and their minor units.
    await services.reference.load();
    const { balance, posted } = await services.ledger.adjust(
      parseUuid(merchantId, 'merchantId'),
      { currency: values.currency, amount: values.amount, reason: values.reason ?? '', reference: values.reference ?? '' },
      { actor: { type: 'operator', label: 'ledger:adjust' } },
    );
    return {
      posted,
      balance: { currency: balance.currency, available: balance.available.toFixed(), pending: balance.pending.toFixed(), reserved: balance.reserved.toFixed() },
    };
  });
}

exitWith('ledger:adjust', main());
