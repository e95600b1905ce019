import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { serializeMerchant } from '../modules/merchants/merchant.serializer';
import { exitWith, runWithServices } from './operator-cli';

const USAGE = `usage: npm run demo:credentials [-- --rotate-secret] [-- --reset-owner-password]

Sandbox only. Prints the sandbox demo merchant's credentials again (the merchant the first start
created and printed once), as JSON on stdout, from the database the service uses (DATABASE_URL,
or the embedded one under DATA_DIR, shared with a running service):
  client_id and webhook_secret (the current one, unsealed), and owner_email, the email its owner
  signs in to the dashboard with.

The client secret cannot be shown again: only its hash is stored.
  --rotate-secret  issue a new client secret and print it with the rest. This is a rotation, as
                   the dashboard's: the old client secret stops working at once, on every instance
                   (a token request with it is 401 INVALID_CLIENT), and so does every token issued
                   with the key (access and refresh tokens). The audit log records it
                   (api_key.rotated, by the operator's demo:credentials).
  --reset-owner-password
                   set a new random password for the owner and print it (owner_password); the
                   old one stops working and every dashboard session of the owner ends.
`;

/** What is said on stderr after the JSON, in plain words: what was (not) shown, and what a rotation did. */
function notes(rotated: boolean, merchantId: string, disabled: boolean, passwordReset: boolean): string[] {
  const said = rotated
    ? [
        'client_secret is NEW: the old one was replaced and stops working now (401 INVALID_CLIENT). It is shown this once; keep it.',
        'Tokens issued with the key before are ended too: access and refresh tokens are refused from now on (401).',
      ]
    : [
        'client_secret is not shown: only its hash is stored, so it cannot be shown again.',
        'To get a new one, run `npm run demo:credentials -- --rotate-secret`: it replaces the old secret, which stops working at once.',
      ];
  said.push(
    passwordReset
      ? 'owner_password is NEW: the old one stopped working and the owner’s dashboard sessions ended. It is shown this once; keep it.'
      : 'The owner’s password is not shown (only its hash is kept): `-- --reset-owner-password` sets a new one.',
  );
  if (disabled) said.push(`This merchant is disabled: no token is issued to it until npm run merchant:access -- enable ${merchantId}.`);
  return said;
}

/**
 * npm run demo:credentials [-- --rotate-secret]
 * The sandbox's demo merchant's credentials, printed again. The webhook secret is sealed, so it is
 * shown; the client secret is a hash, so it is only replaced, on request.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    strict: true,
    options: { 'rotate-secret': { type: 'boolean' }, 'reset-owner-password': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length > 0) {
    (values.help ? process.stdout : process.stderr).write(USAGE);
    return values.help ? 0 : 2;
  }
  // Before the database: production has no demo merchant, and this opens and writes nothing there.
  if (loadConfig().env !== 'sandbox') {
    throw new Error(
      'only the sandbox (PAYMENTS_ENV=sandbox) has a demo merchant; in production a merchant’s secrets are shown once, when it is created (npm run merchant:create), and nothing here shows them again',
    );
  }
  const rotate = values['rotate-secret'] === true;
  const resetPassword = values['reset-owner-password'] === true;
  let said: string[] = [];
  // Broadcast when tokens end (a rotation, a password reset), so running instances refuse them at once.
  const code = await runWithServices(rotate || resetPassword, async ({ merchants, apiKeys, demoOwner }) => {
    const demo = await merchants.demoMerchant();
    if (!demo) {
      throw new Error(
        'This database has no demo merchant: the sandbox creates one only at its first start on an empty database. Create a merchant with npm run merchant:create -- --name "…"',
      );
    }
    // Unsealed first: under another ENCRYPTION_KEY nothing is rotated.
    const webhookSecret = unsealed(() => merchants.webhookSecretOf(demo));
    // The dashboard's rotation (ApiKeys), by the operator: the key's tokens end, one audit entry.
    const clientSecret = rotate ? (await apiKeys.rotateFirstKey(demo.id, { actor: { type: 'operator', label: 'demo:credentials' } })).clientSecret : undefined;
    const owner = resetPassword ? await demoOwner.resetPassword(demo.id) : null;
    said = notes(rotate, demo.id, demo.disabledAt !== null, owner !== null);
    return {
      ...serializeMerchant(demo, merchants.webhookSecretOverlapUntil(demo)),
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      webhook_secret: webhookSecret,
      owner_email: owner?.email ?? (await demoOwner.ownerEmail(demo.id)),
      ...(owner ? { owner_password: owner.password } : {}),
    };
  });
  process.stderr.write(said.map((line) => `${line}\n`).join(''));
  return code;
}

/** The webhook secret, or a plain word on why it cannot be opened (not the cipher's). */
function unsealed(open: () => string): string {
  try {
    return open();
  } catch {
    throw new Error(
      'The webhook secret cannot be unsealed with this ENCRYPTION_KEY: run this with the service’s (when it is unset, the one in DATA_DIR/keys.json: the service’s DATA_DIR). Nothing was changed',
    );
  }
}

exitWith('demo:credentials', main());
