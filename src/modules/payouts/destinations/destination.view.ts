import type { ReferenceService } from '../../reference/reference.service';
import type { ChannelType } from '../../reference/reference.types';
import { maskedAccount, type DestinationStatus } from './destination.rules';
import type { DestinationRow } from './destination.store';

/** A destination as the merchant's team sees it: never the whole account number. */
export interface PayoutDestination {
  id: string;
  currency: string;
  accountType: ChannelType;
  countryCode: string;
  networkId: string;
  /** The bank's or wallet network's name. */
  institution: string;
  masked: string;
  accountName: string;
  /** Whether the holder's name was checked against the business name (false: the merchant had none to compare). */
  nameChecked: boolean;
  status: DestinationStatus;
  /** When it took or takes effect: a lone member's change, at the end of its cooling-off. */
  effectiveAt: Date | null;
  createdAt: Date;
  activatedAt: Date | null;
  replacedAt: Date | null;
  canceledAt: Date | null;
  createdBy: { id: string; email: string | null };
  approvedBy: { id: string; email: string | null } | null;
  canceledBy: { id: string; email: string | null } | null;
}

/** How a stored destination is shown: its institution by name (reference data), its account masked. */
export class DestinationViews {
  constructor(private readonly reference: ReferenceService) {}

  institution(row: Pick<DestinationRow, 'networkId'>): string {
    return this.reference.network(row.networkId)?.name ?? row.networkId;
  }

  masked(row: Pick<DestinationRow, 'networkId' | 'accountNumber'>): string {
    return maskedAccount(this.institution(row), row.accountNumber);
  }

  view(r: DestinationRow): PayoutDestination {
    const person = (id: string | null, email: string | null) => (id === null ? null : { id, email });
    return {
      id: r.id,
      currency: r.currency,
      accountType: r.accountType,
      countryCode: r.countryCode,
      networkId: r.networkId,
      institution: this.institution(r),
      masked: this.masked(r),
      accountName: r.accountName,
      nameChecked: r.nameChecked,
      status: r.status,
      effectiveAt: r.effectiveAt,
      createdAt: r.createdAt,
      activatedAt: r.activatedAt,
      replacedAt: r.replacedAt,
      canceledAt: r.canceledAt,
      createdBy: { id: r.createdBy, email: r.createdByEmail },
      approvedBy: person(r.approvedBy, r.approvedByEmail),
      canceledBy: person(r.canceledBy, r.canceledByEmail),
    };
  }
}
