import { z } from 'zod';
import { Decimal as DecimalJs, toJsonMoney, type Decimal } from '../../shared/money';
import { currency, money, nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import { DISPUTE_REASONS, DISPUTE_STATUSES, type DisputeFunds, type DisputeReason, type DisputeStatus } from './dispute.rules';

/** A file attached to a dispute's evidence, as the evidence keeps it (its bytes are in the file store). */
export interface EvidenceFile {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

/** The merchant's answer: Stripe's typed text fields, and files. */
export interface DisputeEvidence {
  productDescription: string | null;
  customerCommunication: string | null;
  refundPolicy: string | null;
  /** YYYY-MM-DD: when the goods were shipped or the service given. */
  serviceDate: string | null;
  /** Shipping (carrier, tracking) or service details. */
  serviceDetails: string | null;
  uncategorizedText: string | null;
  files: EvidenceFile[];
}

export const EVIDENCE_TEXT_FIELDS = [
  'productDescription',
  'customerCommunication',
  'refundPolicy',
  'serviceDate',
  'serviceDetails',
  'uncategorizedText',
] as const;

export const emptyEvidence = (): DisputeEvidence => ({
  productDescription: null,
  customerCommunication: null,
  refundPolicy: null,
  serviceDate: null,
  serviceDetails: null,
  uncategorizedText: null,
  files: [],
});

export interface Dispute {
  /** `dp_…` */
  id: string;
  merchantId: string;
  paymentId: string;
  paymentReference: string;
  provider: string;
  providerDisputeId: string | null;
  amount: Decimal;
  currency: string;
  fee: Decimal;
  reason: DisputeReason;
  status: DisputeStatus;
  providerStatus: string | null;
  evidence: DisputeEvidence;
  evidenceDueBy: Date | null;
  remindersSent: number;
  submissionCount: number;
  funds: DisputeFunds;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

const text = z.string().nullable();

export const DisputeFileRecord = record(
  'DisputeFile',
  z.object({
    id: z.string().describe('`file_…`'),
    filename: z.string(),
    content_type: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
    size: z.number().int().describe('Bytes'),
  }),
  'A file of a dispute’s evidence (GET /v1/disputes/{id}/files/{file_id} downloads it).',
);

export const DisputeRecord = record(
  'Dispute',
  z.object({
    id: z.string().describe('`dp_…`'),
    object: z.literal('dispute'),
    payment_reference: z.string().describe('The disputed card payment'),
    amount: money.describe('What the cardholder disputes'),
    currency,
    fee: money.describe('The dispute fee (your pricing): held with the amount while a chargeback is open, charged if it is lost'),
    reason: z.enum(DISPUTE_REASONS),
    status: z.enum(DISPUTE_STATUSES).describe('Stripe’s statuses: warning_* are inquiries (no money moves)'),
    provider: z.string(),
    provider_status: text.describe('The provider’s own status, raw'),
    evidence_due_by: nullableTimestamp.describe('Submit evidence before this, or the dispute is accepted (lost) automatically'),
    evidence: z.object({
      product_description: text,
      customer_communication: text,
      refund_policy: text,
      service_date: text.describe('YYYY-MM-DD'),
      service_details: text.describe('Shipping (carrier, tracking number) or service details'),
      uncategorized_text: text,
      files: z.array(DisputeFileRecord),
    }),
    submission_count: z.number().int(),
    funds: z.enum(['none', 'held', 'reinstated', 'withdrawn']).describe('Where the disputed money is'),
    created_at: timestamp,
    updated_at: timestamp,
    closed_at: nullableTimestamp,
  }),
  'A cardholder’s dispute of a card payment: an inquiry or a chargeback. Also the payload of dispute.* webhooks.',
);

export function serializeEvidenceFile(f: EvidenceFile): RecordOf<typeof DisputeFileRecord> {
  return { id: f.id, filename: f.filename, content_type: f.contentType as RecordOf<typeof DisputeFileRecord>['content_type'], size: f.size };
}

export function serializeDispute(d: Dispute): RecordOf<typeof DisputeRecord> {
  const e = d.evidence;
  return {
    id: d.id,
    object: 'dispute',
    payment_reference: d.paymentReference,
    amount: toJsonMoney(d.amount),
    currency: d.currency,
    fee: toJsonMoney(d.fee),
    reason: d.reason,
    status: d.status,
    provider: d.provider,
    provider_status: d.providerStatus,
    evidence_due_by: d.evidenceDueBy?.toISOString() ?? null,
    evidence: {
      product_description: e.productDescription,
      customer_communication: e.customerCommunication,
      refund_policy: e.refundPolicy,
      service_date: e.serviceDate,
      service_details: e.serviceDetails,
      uncategorized_text: e.uncategorizedText,
      files: e.files.map(serializeEvidenceFile),
    },
    submission_count: d.submissionCount,
    funds: d.funds,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    closed_at: d.closedAt?.toISOString() ?? null,
  };
}

/** A dispute as pub/sub carries it (JSON: decimals as strings, times as ISO strings). */
export type DisputeWire = Omit<Dispute, 'amount' | 'fee' | 'evidenceDueBy' | 'createdAt' | 'updatedAt' | 'closedAt'> & {
  amount: string;
  fee: string;
  evidenceDueBy: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
};

export function disputeToWire(d: Dispute): DisputeWire {
  return {
    ...d,
    amount: d.amount.toFixed(),
    fee: d.fee.toFixed(),
    evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    closedAt: d.closedAt?.toISOString() ?? null,
  };
}

export function disputeFromWire(w: DisputeWire): Dispute {
  const date = (s: string | null) => (s === null ? null : new Date(s));
  return {
    ...w,
    amount: new DecimalJs(w.amount),
    fee: new DecimalJs(w.fee),
    evidenceDueBy: date(w.evidenceDueBy),
    createdAt: new Date(w.createdAt),
    updatedAt: new Date(w.updatedAt),
    closedAt: date(w.closedAt),
  };
}
