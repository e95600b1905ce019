import { z } from 'zod';
import type { Sql } from '../../db/sql';
import { uniqueViolation } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedBytes } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { isoDateField, timestampField, withoutCardNumberIn } from '../../shared/fields';
import type { Logger } from '../../shared/logger';
import { Decimal, formatAmount, parseAmount } from '../../shared/money';
import { pageRequestSchema, type Page } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import type { AuditAction, AuditContext, AuditLog } from '../audit/audit-log';
import type { FeeSchedule } from '../ledger/fee-schedule';
import type { Outbox, StampedEvent } from '../outbox/outbox';
import type { ReferenceService } from '../reference/reference.service';
import type { TransactionQueries } from '../transactions/queries.service';
import type { PaymentTransaction } from '../transactions/transaction.record';
import { evidenceDueBy, reminderTimes } from './deadlines/dispute-deadlines';
import { EVIDENCE_TEXT_FIELDS, emptyEvidence, serializeDispute, type Dispute, type DisputeEvidence, type EvidenceFile } from './dispute.record';
import {
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  canMove,
  changeEvents,
  creationEvents,
  fundsAfter,
  fundsMoves,
  isOpen,
  needsResponse,
  type DisputeEventType,
  type DisputeReason,
  type DisputeStatus,
} from './dispute.rules';
import { DISPUTE_ID, DisputeExceedsPayment, type DisputeStore, type DisputeWrite } from './dispute.store';

/** The files a dispute's evidence names (the files module). */
export interface EvidenceFiles {
  /** The records of these files of the dispute; an id that is not one of them is refused (400 on `files`). */
  records(merchantId: string, disputeId: string, ids: readonly string[]): Promise<EvidenceFile[]>;
  /** Checks (type by content, at most 5 MB) and stores one file of the dispute. */
  upload(file: { merchantId: string; disputeId: string; filename: string; bytes: Buffer }): Promise<EvidenceFile>;
  /** One of the merchant's files and its bytes (NOT_FOUND otherwise). */
  get(merchantId: string, fileId: string): Promise<{ record: EvidenceFile & { disputeId: string }; bytes: Buffer }>;
}

/** The provider's side of a dispute (its connector's HandlesDisputes): the merchant's answer sent on. */
export interface DisputeAnswers {
  /** Sends the answer for a provider's dispute; nothing to send for the sandbox's. */
  answer(provider: string, providerDisputeId: string, action: 'accept' | 'decline', comment: string): Promise<void>;
}

/** A chargeback or inquiry as a provider reports it, with the payment it disputes found. */
export interface ReportedDispute {
  provider: string;
  providerDisputeId: string;
  payment: PaymentTransaction;
  amount: Decimal;
  status: DisputeStatus;
  providerStatus: string | null;
  reason: DisputeReason;
  dueBy: Date | null;
}

export interface DisputeServiceDeps {
  store: DisputeStore;
  sql: Sql;
  outbox: Pick<Outbox, 'stamp'>;
  queries: Pick<TransactionQueries, 'getTransaction'>;
  fees: Pick<FeeSchedule, 'fee'>;
  reference: Pick<ReferenceService, 'currencyMinorUnit' | 'listCountries'>;
  audit: Pick<AuditLog, 'statement'>;
  files: EvidenceFiles;
  answers: DisputeAnswers;
  clock: Clock;
  logger: Logger;
  /** After a change commits: wake the webhook deliveries, tell subscribers, publish the balance. */
  afterCommit: (d: Dispute, write: DisputeWrite) => void;
  /** Sends the due-soon email to the owners and the finance team. */
  remind: (d: Dispute) => Promise<void>;
  sandbox: boolean;
}

/** Evidence text: multi-line, bounded, without NUL and the other control characters but line breaks and tabs, never a card number. */
const evidenceText = withoutCardNumberIn(
  z
    .string({ error: 'must be a string' })
    .max(20_000, 'must be at most 20000 characters')
    .refine((t) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(t), 'must not contain control characters other than line breaks and tabs'), // eslint-disable-line no-control-regex
)
  .transform((t) => t.trim() || null)
  .nullish();

export const evidenceSchema = z.object({
  productDescription: evidenceText,
  customerCommunication: evidenceText,
  refundPolicy: evidenceText,
  serviceDate: isoDateField.nullish(),
  serviceDetails: evidenceText,
  uncategorizedText: evidenceText,
  files: z
    .array(z.string({ error: 'must be file ids' }).max(64), { error: 'must be a list of file ids' })
    .max(20, 'must name at most 20 files')
    .nullish(),
});
export type EvidenceCommand = Command<typeof evidenceSchema>;

export const disputeListSchema = pageRequestSchema.extend({
  status: z.enum(DISPUTE_STATUSES, { error: `must be one of ${DISPUTE_STATUSES.join(', ')}` }).nullish(),
  dueBefore: timestampField.nullish(),
  paymentReference: z.string().max(100, 'must be at most 100 characters').nullish(),
});
export type DisputeListQuery = Command<typeof disputeListSchema>;

export const sandboxDisputeSchema = z.object({
  paymentReference: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  reason: z.enum(DISPUTE_REASONS, { error: `must be one of ${DISPUTE_REASONS.join(', ')}` }),
  amount: z.unknown().optional(),
  /** An inquiry (a `warning_needs_response`, no money moves) instead of a chargeback. */
  inquiry: z.boolean({ error: 'must be true or false' }).nullish(),
});
export type SandboxDisputeCommand = Command<typeof sandboxDisputeSchema>;

export const simulateOutcomeSchema = z.object({ outcome: z.enum(['won', 'lost'], { error: 'must be won or lost' }) });
export type SimulateOutcomeCommand = Command<typeof simulateOutcomeSchema>;

const newDisputeId = () => `dp_${timeOrderedBytes(18).toString('base64url')}`;

/** How many due-soon reminders a dispute gets at most (24 h and 4 h before its deadline). */
const REMINDERS = 2;

/**
 * Disputes and chargebacks (issue 39, docs/disputes.md): opened by a provider's report or the sandbox, answered by the
 * merchant (evidence, submit, accept), decided by the provider (or the sandbox's simulation), accepted automatically
 * when the deadline passes unanswered. Each change is one database transaction with its money and events.
 */
export class DisputeService {
  constructor(private readonly deps: DisputeServiceDeps) {}

  async get(merchantId: string, id: string): Promise<Dispute> {
    if (!DISPUTE_ID.test(id)) throw AppError.notFound('Dispute');
    const d = await this.deps.store.find(merchantId, id);
    if (!d) throw AppError.notFound('Dispute');
    return d;
  }

  async list(merchantId: string, query: DisputeListQuery): Promise<Page<Dispute>> {
    const q = parseInput(disputeListSchema, query, 'query');
    return this.deps.store.list(merchantId, { limit: q.limit, after: q.after, status: q.status, dueBefore: q.dueBefore, paymentReference: q.paymentReference });
  }

  countNeedingResponse(merchantId: string): Promise<number> {
    return this.deps.store.countNeedingResponse(merchantId);
  }

  /** The sandbox's dispute of a successful card payment (POST /v1/sandbox/disputes): a chargeback, or an inquiry. */
  async simulate(merchantId: string, command: SandboxDisputeCommand, audit?: AuditContext): Promise<Dispute> {
    this.sandboxOnly();
    const body = parseInput(sandboxDisputeSchema, command);
    const payment = await this.payment(merchantId, body.paymentReference);
    const minorUnit = this.minorUnit(payment.currency);
    const left = payment.amount.minus(payment.refundedAmount);
    const amount = body.amount === undefined || body.amount === null ? left : parseAmount(body.amount, minorUnit);
    if (amount.gt(left) || left.lte(0)) {
      throw AppError.invalidField(
        'amount',
        `is more than what is left of the payment after its refunds, ${formatAmount(Decimal.max(left, 0), minorUnit)} ${payment.currency}`,
      );
    }
    return this.open(
      {
        provider: 'sandbox',
        providerDisputeId: null,
        payment,
        amount,
        status: body.inquiry ? 'warning_needs_response' : 'needs_response',
        providerStatus: null,
        reason: body.reason,
        dueBy: null,
      },
      audit && { audit, action: 'sandbox.dispute_created' },
    );
  }

  /**
   * A provider's report of a dispute: opened when new, moved to the reported status when known (a status it cannot
   * reach from where it is is logged and left). Returns the dispute as it stands.
   */
  async report(r: ReportedDispute): Promise<Dispute> {
    const known = await this.deps.store.findByProvider(r.provider, r.providerDisputeId);
    if (!known) {
      // What the payment has left after its refunds: a dispute and refunds never give back more than was captured.
      const left = r.payment.amount.minus(r.payment.refundedAmount);
      const amount = Decimal.min(r.amount, left);
      if (amount.lte(0)) {
        this.deps.logger.warn({ provider: r.provider, dispute: r.providerDisputeId }, 'a dispute of a payment refunded in full: not opened');
        throw new AppError('INVALID_STATE', 'The payment is refunded in full');
      }
      const opened = await this.open({ ...r, providerDisputeId: r.providerDisputeId, amount });
      return opened;
    }
    if (known.status === r.status) {
      if (known.providerStatus === r.providerStatus) return known;
      return (
        await this.deps.store.change(known.id, (c) => ({
          after: { ...c, providerStatus: r.providerStatus, updatedAt: this.deps.clock.now() },
          write: NO_WRITE,
        }))
      ).dispute;
    }
    if (!canMove(known.status, r.status)) {
      this.deps.logger.warn({ dispute: known.id, from: known.status, to: r.status }, 'a provider reported a dispute status it cannot reach from its own: left');
      return known;
    }
    return this.move(known.id, r.status, { providerStatus: r.providerStatus, dueBy: r.dueBy });
  }

  /** Adds to (or replaces fields of) the evidence while the dispute waits for a response. */
  async updateEvidence(merchantId: string, id: string, command: EvidenceCommand, audit?: AuditContext): Promise<Dispute> {
    const body = parseInput(evidenceSchema, command);
    const d = await this.get(merchantId, id);
    const files = body.files ? await this.deps.files.records(merchantId, d.id, body.files) : null;
    const result = await this.deps.store.change(d.id, (c) => {
      this.assertNeedsResponse(c);
      const evidence: DisputeEvidence = { ...c.evidence };
      for (const f of EVIDENCE_TEXT_FIELDS) if (body[f] !== undefined) evidence[f] = body[f] ?? null;
      if (files) evidence.files = files;
      const after = { ...c, evidence, updatedAt: this.deps.clock.now() };
      return { after, write: { moves: [], events: [this.event('dispute.updated', after)], audit: this.auditOf(audit, 'dispute.evidence_updated', after, c) } };
    });
    this.done(result);
    return result.dispute;
  }

  /** A file for the evidence (then named in `files` of the evidence), while the dispute takes a response; audited. */
  async uploadFile(merchantId: string, id: string, file: { filename: string; bytes: Buffer }, audit?: AuditContext): Promise<EvidenceFile> {
    const d = await this.get(merchantId, id);
    this.assertNeedsResponse(d);
    const stored = await this.deps.files.upload({ merchantId, disputeId: d.id, filename: file.filename, bytes: file.bytes });
    if (audit) {
      const entry = this.deps.audit.statement({
        merchantId,
        ...audit,
        action: 'dispute.file_uploaded',
        target: { type: 'dispute', id: d.id },
        after: { file_id: stored.id, filename: stored.filename, content_type: stored.contentType, size: stored.size },
      });
      await this.deps.sql.query(entry.text, entry.values);
    }
    return stored;
  }

  /** A file of one of the merchant's disputes, by the dispute's id and the file's. */
  async file(merchantId: string, id: string, fileId: string): Promise<{ record: EvidenceFile; bytes: Buffer }> {
    const d = await this.get(merchantId, id);
    const found = await this.deps.files.get(merchantId, fileId);
    if (found.record.disputeId !== d.id) throw AppError.notFound('File');
    return found;
  }

  /** Sends the evidence to the provider (once): the dispute goes under review. */
  async submit(merchantId: string, id: string, audit?: AuditContext): Promise<Dispute> {
    const d = await this.get(merchantId, id);
    this.assertNeedsResponse(d);
    if (d.submissionCount > 0) throw new AppError('INVALID_STATE', 'The evidence was submitted already: a dispute is answered once');
    const e = d.evidence;
    if (EVIDENCE_TEXT_FIELDS.every((f) => !e[f]) && e.files.length === 0) {
      throw AppError.invalidRequest('Add evidence before submitting it (POST /v1/disputes/{id}/evidence)', [{ field: 'evidence', issue: 'is empty' }]);
    }
    if (d.providerDisputeId) await this.deps.answers.answer(d.provider, d.providerDisputeId, 'decline', evidenceComment(e));
    const to: DisputeStatus = d.status === 'needs_response' ? 'under_review' : 'warning_under_review';
    const result = await this.deps.store.change(d.id, (c) => {
      if (c.submissionCount > 0 || !needsResponse(c.status)) return null;
      const after = { ...c, status: to, submissionCount: c.submissionCount + 1, updatedAt: this.deps.clock.now() };
      return { after, write: this.transition(c, after, audit, 'dispute.submitted') };
    });
    if (!result.changed) throw new AppError('INVALID_STATE', 'The dispute was answered meanwhile');
    this.done(result);
    return result.dispute;
  }

  /** Accepts the dispute: a chargeback is lost (its hold paid out); an inquiry is closed with no money moved. */
  async accept(merchantId: string, id: string, audit?: AuditContext): Promise<Dispute> {
    const d = await this.get(merchantId, id);
    this.assertNeedsResponse(d);
    if (d.providerDisputeId) await this.deps.answers.answer(d.provider, d.providerDisputeId, 'accept', 'The merchant accepts the dispute');
    const to: DisputeStatus = d.status === 'needs_response' ? 'lost' : 'warning_closed';
    const result = await this.deps.store.change(d.id, (c) => {
      if (!needsResponse(c.status)) return null;
      const now = this.deps.clock.now();
      const after = { ...c, status: to, updatedAt: now, closedAt: now, funds: c.funds };
      return { after, write: this.transition(c, after, audit, 'dispute.accepted') };
    });
    if (!result.changed) throw new AppError('INVALID_STATE', 'The dispute was answered meanwhile');
    this.done(result);
    return result.dispute;
  }

  /** The sandbox's decision after a submission (POST /v1/sandbox/disputes/{id}/simulate). */
  async simulateOutcome(merchantId: string, id: string, command: SimulateOutcomeCommand): Promise<Dispute> {
    this.sandboxOnly();
    const { outcome } = parseInput(simulateOutcomeSchema, command);
    const d = await this.get(merchantId, id);
    if (d.provider !== 'sandbox') throw new AppError('INVALID_STATE', 'Only a sandbox dispute can be decided by simulation');
    if (d.status !== 'under_review' && d.status !== 'warning_under_review') {
      throw new AppError('INVALID_STATE', `The dispute is ${d.status}: submit evidence first (a decision follows a submission)`);
    }
    const to: DisputeStatus = d.status === 'warning_under_review' ? (outcome === 'won' ? 'warning_closed' : 'needs_response') : outcome;
    return this.move(d.id, to, {});
  }

  /**
   * The deadlines (a run of the dispute sweep): a reminder 24 and 4 hours before, then, past the deadline with no
   * submission, the dispute accepted as Paystack does. In the sandbox, the always-disputed test card's payments are
   * disputed too.
   */
  async runDeadlines(limit = 100): Promise<{ reminded: number; accepted: number; opened: number }> {
    const now = this.deps.clock.now();
    let reminded = 0;
    let accepted = 0;
    const horizon = new Date(now.getTime() + 24 * 3600_000);
    for (const d of await this.deps.store.due(horizon, limit)) {
      if (d.evidenceDueBy && d.evidenceDueBy <= now) {
        if (await this.expire(d.id)) accepted++;
        continue;
      }
      if (await this.remindIfDue(d.id, now)) reminded++;
    }
    const opened = this.deps.sandbox ? await this.openSandboxCardDisputes(limit) : 0;
    return { reminded, accepted, opened };
  }

  /** Moves a dispute to `to` (a provider's report or the sandbox's decision), with what that does to its money. */
  private async move(id: string, to: DisputeStatus, p: { providerStatus?: string | null; dueBy?: Date | null }): Promise<Dispute> {
    // A stage that waits for the merchant again (an inquiry become a chargeback) counts its window from now, as an opening does.
    const known = needsResponse(to) && !p.dueBy ? await this.deps.store.find(null, id) : null;
    const stageDueBy = p.dueBy ?? (known ? await this.dueByOf(known, this.deps.clock.now()) : null);
    const result = await this.deps.store.change(id, (c) => {
      if (c.status === to || !canMove(c.status, to)) return null;
      const now = this.deps.clock.now();
      const evidenceDueBy = needsResponse(to) && !needsResponse(c.status) ? (stageDueBy ?? c.evidenceDueBy) : c.evidenceDueBy;
      const after: Dispute = {
        ...c,
        status: to,
        providerStatus: p.providerStatus === undefined ? c.providerStatus : p.providerStatus,
        evidenceDueBy,
        // A new stage (an inquiry become a chargeback) is answered anew: its reminders and its one submission.
        remindersSent: evidenceDueBy === c.evidenceDueBy ? c.remindersSent : 0,
        submissionCount: needsResponse(to) && !needsResponse(c.status) ? 0 : c.submissionCount,
        updatedAt: now,
        closedAt: isOpen(to) ? null : now,
      };
      return { after, write: this.transition(c, after) };
    });
    this.done(result);
    return result.dispute;
  }

  /** Opens a dispute with its hold (a chargeback) and its events. */
  private async open(
    r: Omit<ReportedDispute, 'providerDisputeId'> & { providerDisputeId: string | null },
    audited?: { audit: AuditContext; action: AuditAction },
  ) {
    const now = this.deps.clock.now();
    const payment = r.payment;
    const fee = await this.deps.fees.fee(payment.merchantId, 'dispute', payment.currency, r.amount);
    const base: Dispute = {
      id: newDisputeId(),
      merchantId: payment.merchantId,
      paymentId: payment.id,
      paymentReference: payment.reference,
      provider: r.provider,
      providerDisputeId: r.providerDisputeId,
      amount: r.amount,
      currency: payment.currency,
      fee,
      reason: r.reason,
      status: r.status,
      providerStatus: r.providerStatus,
      evidence: emptyEvidence(),
      evidenceDueBy: null,
      remindersSent: 0,
      submissionCount: 0,
      funds: 'none',
      createdAt: now,
      updatedAt: now,
      closedAt: isOpen(r.status) ? null : now,
    };
    const d: Dispute = { ...base, evidenceDueBy: needsResponse(r.status) ? (r.dueBy ?? (await this.dueByOf(base, now))) : null };
    const moves = fundsMoves('none', d.status);
    const opened: Dispute = { ...d, funds: fundsAfter('none', moves) };
    let inserted: Dispute | null;
    try {
      inserted = await this.deps.store.insert(opened, (row) => ({
        moves,
        events: creationEvents(row.status, moves).map((type) => this.event(type, row)),
        audit: audited && this.auditOf(audited.audit, audited.action, row, null),
      }));
    } catch (err) {
      if (uniqueViolation(err) === 'dispute_open_per_payment') throw new AppError('INVALID_STATE', 'The payment has an open dispute already');
      if (err instanceof DisputeExceedsPayment) throw new AppError('INVALID_STATE', 'The dispute is more than what is left of the payment after its refunds');
      throw err;
    }
    if (!inserted) {
      // The provider's dispute was opened meanwhile (a webhook and a poll at once).
      return (await this.deps.store.findByProvider(r.provider, r.providerDisputeId!))!;
    }
    this.done({ dispute: inserted, changed: true, write: { moves, events: [], audit: undefined } });
    return inserted;
  }

  /** What a change writes: the money's moves, the events (the dispute's, then its money's), the audit entry. */
  private transition(before: Dispute, after: Dispute, audit?: AuditContext, action?: AuditAction): DisputeWrite {
    const moves = fundsMoves(before.funds, after.status);
    after.funds = fundsAfter(before.funds, moves);
    return {
      moves,
      events: changeEvents(false, after.status, moves).map((type) => this.event(type, after)),
      audit: audit && action ? this.auditOf(audit, action, after, before) : undefined,
    };
  }

  /** Past its deadline with no submission: accepted, as Paystack does (a chargeback lost, an inquiry closed). */
  private async expire(id: string): Promise<boolean> {
    const result = await this.deps.store.change(id, (c) => {
      const now = this.deps.clock.now();
      if (!needsResponse(c.status) || !c.evidenceDueBy || c.evidenceDueBy > now) return null;
      const to: DisputeStatus = c.status === 'needs_response' ? 'lost' : 'warning_closed';
      const after: Dispute = { ...c, status: to, updatedAt: now, closedAt: now, providerStatus: c.providerStatus };
      return { after, write: this.transition(c, after, SYSTEM, 'dispute.accepted') };
    });
    if (result.changed) {
      this.deps.logger.info({ dispute: id, merchantId: result.dispute.merchantId }, 'dispute accepted automatically: its deadline passed without a response');
      this.done(result);
    }
    return result.changed;
  }

  /** The next reminder whose time has come, once: the event and the email. */
  private async remindIfDue(id: string, now: Date): Promise<boolean> {
    const result = await this.deps.store.change(id, (c) => {
      if (!needsResponse(c.status) || !c.evidenceDueBy || c.remindersSent >= REMINDERS) return null;
      const times = reminderTimes(c.evidenceDueBy, c.createdAt);
      // The reminders already past count as sent (a dispute opened 10 hours before its deadline has only the 4-hour one).
      const skipped = REMINDERS - times.length;
      const due = times.filter((t) => t <= now).length + skipped;
      if (due <= c.remindersSent) return null;
      const after = { ...c, remindersSent: due };
      return { after, write: { moves: [], events: [this.event('dispute.evidence_due_soon', after)] } };
    });
    if (!result.changed) return false;
    this.done(result);
    await this.deps
      .remind(result.dispute)
      .catch((err: Error) => this.deps.logger.error({ err: err.message, dispute: id }, 'the dispute’s due-soon email could not be sent'));
    return true;
  }

  /** Sandbox: payments made with the always-disputed test card, successful and not yet disputed, get a chargeback. */
  private async openSandboxCardDisputes(limit: number): Promise<number> {
    const rows = await this.deps.sql.query<{ merchant_id: string; reference: string }>(
      // The charge's key is its payment's id: cast on the few disputed charges' side, so the payment is found by its key.
      `select t.merchant_id, t.reference from sandbox_card_charge c
       join "transaction" t on t.id = (case when c.idempotency_key ~ '^[0-9a-f-]{36}$' then c.idempotency_key::uuid end)
       where c.disputed and t.status = 'successful' and not exists (select 1 from dispute d where d.payment_id = t.id)
       order by t.created_at limit $1`,
      [limit],
    );
    let opened = 0;
    for (const r of rows) {
      try {
        const payment = await this.payment(r.merchant_id, r.reference);
        await this.open({
          provider: 'sandbox',
          providerDisputeId: null,
          payment,
          amount: payment.amount.minus(payment.refundedAmount),
          status: 'needs_response',
          providerStatus: null,
          reason: 'fraudulent',
          dueBy: null,
        });
        opened++;
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message, payment: r.reference }, 'the test card’s dispute was not opened');
      }
    }
    return opened;
  }

  private async payment(merchantId: string, reference: string): Promise<PaymentTransaction> {
    const payment = await this.deps.queries.getTransaction(merchantId, reference).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Payment') : err;
    });
    if (payment.kind !== 'payment') throw AppError.notFound('Payment');
    if (payment.status !== 'successful' || payment.paymentMethod !== 'card') {
      throw new AppError(
        'INVALID_STATE',
        `The payment is ${payment.status === 'successful' ? `paid by ${payment.paymentMethod}` : payment.status}: only a successful card payment can be disputed`,
      );
    }
    return payment;
  }

  /** The deadline of a dispute opened now: the business-hour window of the merchant's country (docs/disputes.md). */
  private async dueByOf(d: Dispute, now: Date): Promise<Date> {
    const [row] = await this.deps.sql.query<{ country: string | null }>(`select country from merchant where id = $1`, [d.merchantId]);
    return evidenceDueBy(row?.country ?? this.countryOfCurrency(d.currency), now);
  }

  private countryOfCurrency(currency: string): string {
    const country = this.deps.reference.listCountries().find((c) => c.currency === currency);
    return country?.code ?? 'NG';
  }

  private event(type: DisputeEventType, d: Dispute): StampedEvent {
    return this.deps.outbox.stamp({ merchantId: d.merchantId, type, subjectId: d.id, payload: serializeDispute(d) });
  }

  private auditOf(audit: AuditContext | undefined, action: AuditAction, after: Dispute, before: Dispute | null) {
    if (!audit) return undefined;
    const view = (d: Dispute) => ({ status: d.status, submission_count: d.submissionCount, evidence: serializeDispute(d).evidence });
    return this.deps.audit.statement({
      merchantId: after.merchantId,
      ...audit,
      action,
      target: { type: 'dispute', id: after.id },
      before: before && view(before),
      after: view(after),
    });
  }

  private assertNeedsResponse(d: Dispute): void {
    if (!needsResponse(d.status)) throw new AppError('INVALID_STATE', `The dispute is ${d.status}: it no longer takes a response`);
  }

  private sandboxOnly(): void {
    if (!this.deps.sandbox) throw AppError.notFound('Route');
  }

  private minorUnit(currency: string): number {
    return this.deps.reference.currencyMinorUnit(currency) ?? 2;
  }

  private done(result: { dispute: Dispute; changed: boolean; write: DisputeWrite | null }): void {
    if (result.changed && result.write) this.deps.afterCommit(result.dispute, result.write);
  }
}

const NO_WRITE: DisputeWrite = { moves: [], events: [] };

/** The service itself, acting on a deadline. */
const SYSTEM: AuditContext = { actor: { type: 'system', id: null, label: 'dispute deadline', role: null } };

/** The evidence as one comment, for a provider whose API takes text (Flutterwave's decline comment). */
function evidenceComment(e: DisputeEvidence): string {
  const parts: string[] = [];
  const add = (label: string, value: string | null) => value && parts.push(`${label}: ${value}`);
  add('Product', e.productDescription);
  add('Customer communication', e.customerCommunication);
  add('Refund policy', e.refundPolicy);
  add('Service date', e.serviceDate);
  add('Service details', e.serviceDetails);
  add('Other', e.uncategorizedText);
  if (e.files.length) parts.push(`Files: ${e.files.map((f) => f.filename).join(', ')}`);
  return parts.join('\n').slice(0, 2000);
}
