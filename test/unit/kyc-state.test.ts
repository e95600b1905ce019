import { AppError } from '../../src/shared/errors';
import { KYC_STATUSES, nextKycStatus, overallKycStatus, type KycAction, type KycStatus } from '../../src/modules/kyc/kyc.state';
import { sandboxKycDecision } from '../../src/providers/sandbox/sandbox-kyc-reviewer';

const allowed: Array<[KycStatus, KycAction, KycStatus]> = [
  ['pending_kyc', 'submit', 'pending'],
  ['pending', 'approve', 'approved'],
  ['pending', 'reject', 'rejected'],
  ['rejected', 'submit', 'pending'],
];

describe('KYC state machine', () => {
  it.each(allowed)('%s --%s--> %s', (from, action, to) => {
    expect(nextKycStatus(from, action)).toBe(to);
  });

  const actions: KycAction[] = ['submit', 'approve', 'reject'];
  const forbidden = KYC_STATUSES.flatMap((from) => actions.filter((a) => !allowed.some(([f, act]) => f === from && act === a)).map((a) => [from, a] as const));

  it('forbids every other transition (8 of them)', () => {
    expect(forbidden).toHaveLength(8);
  });

  it.each(forbidden)('%s cannot %s: INVALID_STATE', (from, action) => {
    let thrown: unknown;
    try {
      nextKycStatus(from, action);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('INVALID_STATE');
    expect((thrown as AppError).httpStatus).toBe(409);
  });

  it('says why a submission is refused while pending or approved', () => {
    expect(() => nextKycStatus('pending', 'submit')).toThrow(/already in progress/);
    expect(() => nextKycStatus('approved', 'submit')).toThrow(/already KYC-approved/);
  });

  it('overall status mirrors the current status, approved only when approved', () => {
    for (const status of KYC_STATUSES) expect(overallKycStatus(status)).toBe(status);
  });
});

describe('sandbox KYC rule', () => {
  it.each([
    ['REJECT123', 'rejected'],
    ['REJECT', 'rejected'],
    ['A1234567', 'approved'],
    ['reject123', 'approved'],
    ['XREJECT', 'approved'],
  ])('id_number %s is %s', (idNumber, outcome) => {
    expect(sandboxKycDecision(idNumber).outcome).toBe(outcome);
  });

  it('gives a reason when it rejects', () => {
    expect(sandboxKycDecision('REJECT-1')).toEqual({ outcome: 'rejected', reason: 'identity_document_rejected' });
  });
});
