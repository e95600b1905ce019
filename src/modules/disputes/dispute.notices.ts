import type { Sql } from '../../db/sql';
import type { Logger } from '../../shared/logger';
import { formatAmount } from '../../shared/money';
import type { PublicAddress } from '../../shared/public-address';
import type { Mailer } from '../mail/mailer';
import { disputeEvidenceDueSoon } from '../mail/templates';
import type { Dispute } from './dispute.record';

/** Emails about disputes: the evidence due soon, to the merchant's owners and finance team (issue 39). */
export class DisputeNotices {
  constructor(private readonly deps: { sql: Sql; mailer: Mailer; publicAddress: PublicAddress; logger: Logger; minorUnit: (currency: string) => number }) {}

  async dueSoon(d: Dispute): Promise<void> {
    const people = await this.deps.sql.query<{ email: string; name: string }>(
      `select u.email, m.name from membership ms join app_user u on u.id = ms.user_id join merchant m on m.id = ms.merchant_id
       where ms.merchant_id = $1 and ms.role in ('owner', 'finance') order by ms.created_at, ms.id`,
      [d.merchantId],
    );
    const content = (merchantName: string) =>
      disputeEvidenceDueSoon({
        merchantName,
        amount: `${formatAmount(d.amount, this.deps.minorUnit(d.currency))} ${d.currency}`,
        paymentReference: d.paymentReference,
        dueBy: d.evidenceDueBy ? `${d.evidenceDueBy.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'its deadline',
        link: `${this.deps.publicAddress.url}/dashboard/disputes/${encodeURIComponent(d.id)}`,
      });
    for (const p of people) await this.deps.mailer.send({ to: p.email, ...content(p.name) });
    this.deps.logger.info({ merchantId: d.merchantId, dispute: d.id, recipients: people.length }, 'dispute evidence due soon: emailed');
  }
}
