import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { PublicAddress } from '../../../shared/public-address';
import type { Mailer } from '../../mail/mailer';
import { payoutDestinationChange } from '../../mail/templates';
import { NOTIFIED_ROLES } from './destination.rules';

type ChangeDetails = Omit<Parameters<typeof payoutDestinationChange>[0], 'link'>;

/**
 * Tells every owner and admin of a lone member's change, before it commits: a change that nobody was told of must
 * not stand, so a message that cannot be sent refuses the change (503) and rolls it back.
 */
export async function notifyOwners(
  deps: { mailer: Mailer; logger: Logger; publicAddress: PublicAddress },
  team: ReadonlyArray<{ email: string; role: string }>,
  details: ChangeDetails,
): Promise<void> {
  const content = payoutDestinationChange({ ...details, link: `${deps.publicAddress.url}/dashboard/payouts` });
  for (const to of team.filter((m) => (NOTIFIED_ROLES as readonly string[]).includes(m.role)).map((m) => m.email)) {
    try {
      await deps.mailer.send({ to, ...content });
    } catch {
      deps.logger.warn({ currency: details.currency }, 'payout destination change: an owner or admin could not be emailed, the change is not made');
      throw new AppError('PROVIDER_UNAVAILABLE', 'The owners and admins could not be emailed about this change, so it was not made; try again shortly');
    }
  }
}
