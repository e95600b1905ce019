import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { parseUuid } from '../shared/validation';
import { serializeMerchant } from '../modules/merchants/merchant.serializer';
import { exitWith, runWithServices } from './operator-cli';

const USAGE = `usage: npm run merchant:access -- disable|enable <merchant_id>
  disable   revoke every token the merchant holds and refuse new ones (its requests and sockets end)
  enable    let it get new tokens again (the revoked ones stay revoked)`;

/**
 * npm run merchant:access -- disable <merchant_id> | enable <merchant_id>
 * The same operation as POST /v1/admin/merchants/{id}/disable|enable. Running
 * instances learn of it from the token revocation table within
 * TOKEN_REVOCATION_POLL_MS, and at once through Redis when REDIS_URL is set.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } });
  const [command, merchantId, ...extra] = positionals;
  if (values.help || (command !== 'disable' && command !== 'enable') || !merchantId || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const id = parseUuid(merchantId, 'merchant_id');
  return runWithServices(true, async (services) => {
    const merchant = await services.oauth.setMerchantDisabled(id, command === 'disable', { actor: { type: 'operator', label: 'merchant:access' } });
    return serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant), { admin: true });
  });
}

exitWith('merchant:access', main());
