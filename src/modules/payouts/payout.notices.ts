import type { Sql } from '../../db/sql';
import type { Logger } from '../../shared/logger';
import type { PublicAddress } from '../../shared/public-address';
import type { Mailer } from '../mail/mailer';
import { payoutFailed } from '../mail/templates';
import type { PayoutService } from './payout.service';

/** Emails about payouts: a failure, to every owner of the merchant (issue 38). */
export class PayoutNotices {
  constructor(private readonly deps: { sql: Sql; mailer: Mailer; payouts: Pick<PayoutService, 'get'>; publicAddress: PublicAddress; logger: Logger }) {}

  async failed(merchantId: string, payoutId: string): Promise<void> {
    const payout = await this.deps.payouts.get(merchantId, payoutId);
    const owners = await this.deps.sql.query<{ email: string; name: string }>(
      `select u.email, m.name from membership ms join app_user u on u.id = ms.user_id join merchant m on m.id = ms.merchant_id
       where ms.merchant_id = $1 and ms.role = 'owner' order by ms.created_at, ms.id`,
      [merchantId],
    );
    const content = (name: string) =>
      payoutFailed({
        merchantName: name,
        amount: `${payout.amount.toFixed()} ${payout.currency}`,
        reason: payout.failureReason ?? 'failed',
        link: `${this.deps.publicAddress.url}/dashboard/payouts/${encodeURIComponent(payout.id)}`,
      });
    for (const owner of owners) await this.deps.mailer.send({ to: owner.email, ...content(owner.name) });
    this.deps.logger.info({ merchantId, payout: payoutId, owners: owners.length }, 'payout failure emailed to the owners');
  }
}
