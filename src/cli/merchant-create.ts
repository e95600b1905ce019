import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { serializeCredentials } from '../modules/merchants/merchant.serializer';
import { invitationEmail } from '../modules/team/invitation.service';
import { exitWith, runWithServices } from './operator-cli';

/**
 * npm run merchant:create -- --name "Acme" [--owner-email owner@acme.example]
 * Prints the new merchant's credentials as JSON on stdout (logs go to stderr).
 */
const USAGE = `usage: npm run merchant:create -- --name "Acme Ltd" [--owner-email owner@acme.example]

Creates a merchant in the database the service uses (DATABASE_URL, or the embedded one under
DATA_DIR, shared with a running service) and prints its credentials as JSON on stdout:
client_id, client_secret and webhook_secret. The secrets are shown this once; keep them.

--owner-email invites the merchant's owner: an email with a link, valid 7 days, to set a password
and sign in to the dashboard (production needs SMTP_URL and MAIL_FROM in this shell). The owner then
makes API keys and invites the team from the dashboard.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  // Checked before anything is written: a bad address creates no merchant.
  const ownerEmail = values['owner-email'] === undefined ? undefined : invitationEmail(values['owner-email']);
  return runWithServices(false, async (services) => {
    // The new merchant's sandbox opening balance is per supported currency (merchant.created → the ledger).
    await services.reference.load();
    const created = await services.merchants.createMerchant({ name: values.name ?? '' }, { actor: { type: 'operator', label: 'merchant:create' } });
    if (ownerEmail === undefined) return serializeCredentials(created);
    const invitation = await services.invitations.inviteOwner(created.merchant.id, { email: ownerEmail }, 'merchant:create');
    return {
      ...serializeCredentials(created),
      owner_invitation: { email: invitation.email, role: invitation.role, expires_at: invitation.expiresAt.toISOString() },
    };
  });
}

exitWith('merchant:create', main());
