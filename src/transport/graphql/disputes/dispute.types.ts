import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Dispute, EvidenceFile } from '../../../modules/disputes/dispute.record';
import { DISPUTE_REASONS, DISPUTE_STATUSES, type DisputeReason, type DisputeStatus } from '../../../modules/disputes/dispute.rules';
import type { EvidenceCommand } from '../../../modules/disputes/dispute.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { formatAmount, type Decimal } from '../../../shared/money';
import { domainEnum } from '../enums';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

export const DisputeStatusEnum = domainEnum(
  DISPUTE_STATUSES,
  'DisputeStatus',
  'Stripe’s statuses. Inquiries: WARNING_NEEDS_RESPONSE → WARNING_UNDER_REVIEW → WARNING_CLOSED (or a chargeback). Chargebacks: NEEDS_RESPONSE → UNDER_REVIEW → WON | LOST.',
);
const DisputeReasonEnum = domainEnum(DISPUTE_REASONS, 'DisputeReason');
export const DisputeOutcomeEnum = domainEnum(['won', 'lost'] as const, 'DisputeOutcome');

type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;
const money = (amount: Decimal, currency: string, units: MinorUnits) => formatAmount(amount, units.currencyMinorUnit(currency) ?? 2);

@ObjectType('DisputeFile', { description: 'A file of a dispute’s evidence (REST GET /v1/disputes/{id}/files/{file_id} downloads it).' })
export class DisputeFileObject {
  @Field(() => ID, { description: '`file_…`' }) id!: string;
  @Field(() => String) filename!: string;
  @Field(() => String, { description: 'application/pdf, image/png or image/jpeg' }) contentType!: string;
  @Field(() => Int, { description: 'Bytes' }) size!: number;

  static from(f: EvidenceFile): DisputeFileObject {
    return Object.assign(new DisputeFileObject(), f);
  }
}

@ObjectType('DisputeEvidence', { description: 'The merchant’s answer.' })
export class DisputeEvidenceObject {
  @Field(() => String, { nullable: true }) productDescription!: string | null;
  @Field(() => String, { nullable: true }) customerCommunication!: string | null;
  @Field(() => String, { nullable: true }) refundPolicy!: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) serviceDate!: string | null;
  @Field(() => String, { nullable: true, description: 'Shipping (carrier, tracking number) or service details' }) serviceDetails!: string | null;
  @Field(() => String, { nullable: true }) uncategorizedText!: string | null;
  @Field(() => [DisputeFileObject]) files!: DisputeFileObject[];
}

@ObjectType('Dispute', { description: 'A cardholder’s dispute of a card payment: an inquiry or a chargeback.' })
export class DisputeObject {
  @Field(() => ID, { description: '`dp_…`' }) id!: string;
  @Field(() => String, { description: 'The disputed card payment' }) paymentReference!: string;
  @Field(() => DecimalScalar) amount!: string;
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar, { description: 'The dispute fee: held with the amount while a chargeback is open, charged if it is lost.' }) fee!: string;
  @Field(() => DisputeReasonEnum) reason!: DisputeReason;
  @Field(() => DisputeStatusEnum) status!: DisputeStatus;
  @Field(() => String) provider!: string;
  @Field(() => String, { nullable: true, description: 'The provider’s own status, raw.' }) providerStatus!: string | null;
  @Field(() => Date, { nullable: true, description: 'Submit evidence before this, or the dispute is accepted (lost) automatically.' })
  evidenceDueBy!: Date | null;
  @Field(() => DisputeEvidenceObject) evidence!: DisputeEvidenceObject;
  @Field(() => Int) submissionCount!: number;
  @Field(() => String, { description: 'Where the disputed money is: none, held, reinstated or withdrawn.' }) funds!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
  @Field(() => Date, { nullable: true }) closedAt!: Date | null;

  static from(d: Dispute, units: MinorUnits): DisputeObject {
    return Object.assign(new DisputeObject(), {
      ...d,
      amount: money(d.amount, d.currency, units),
      fee: money(d.fee, d.currency, units),
      evidence: Object.assign(new DisputeEvidenceObject(), { ...d.evidence, files: d.evidence.files.map(DisputeFileObject.from) }),
    });
  }
}

@ObjectType('DisputeConnection')
export class DisputeConnection extends Connection(DisputeObject, 'Dispute') {}

@InputType('DisputeEvidenceInput', { description: 'Each field given replaces its value (null clears it); fields left out stay. fileIds replaces the list.' })
export class DisputeEvidenceInput {
  @Field(() => String, { nullable: true }) productDescription?: string | null;
  @Field(() => String, { nullable: true }) customerCommunication?: string | null;
  @Field(() => String, { nullable: true }) refundPolicy?: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) serviceDate?: string | null;
  @Field(() => String, { nullable: true }) serviceDetails?: string | null;
  @Field(() => String, { nullable: true }) uncategorizedText?: string | null;
  @Field(() => [ID], { nullable: true, description: 'Files uploaded with uploadDisputeFile (or REST).' }) fileIds?: string[] | null;

  /** In the service's names. */
  static command(input: DisputeEvidenceInput): EvidenceCommand {
    const { fileIds, ...text } = input;
    return fileIds === undefined ? { ...text } : { ...text, files: fileIds };
  }
}

@InputType('SimulateDisputeInput')
export class SimulateDisputeInput {
  @Field(() => String) paymentReference!: string;
  @Field(() => DisputeReasonEnum) reason!: DisputeReason;
  @Field(() => DecimalScalar, { nullable: true, description: 'Defaults to what is left of the payment after its refunds.' }) amount?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'An inquiry (no money moves) instead of a chargeback.' }) inquiry?: boolean | null;
}
