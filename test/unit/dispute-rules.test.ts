import {
  CLOSED_STATUSES,
  DISPUTE_STATUSES,
  NEEDS_RESPONSE,
  OPEN_STATUSES,
  canMove,
  changeEvents,
  creationEvents,
  fundsAfter,
  fundsMoves,
  isOpen,
  needsResponse,
} from '../../src/modules/disputes/dispute.rules';

/** Issue 39: the dispute's state machine and what each change does to its money (docs/disputes.md), pure. */
describe('dispute rules', () => {
  it('every status is open or closed, never both; only the two waiting for the merchant take a response', () => {
    for (const s of DISPUTE_STATUSES) expect([OPEN_STATUSES.includes(s), CLOSED_STATUSES.includes(s)].filter(Boolean)).toHaveLength(1);
    expect(NEEDS_RESPONSE).toEqual(['warning_needs_response', 'needs_response']);
    expect(DISPUTE_STATUSES.filter(needsResponse)).toEqual(['warning_needs_response', 'needs_response']);
    expect(DISPUTE_STATUSES.filter(isOpen)).toEqual(OPEN_STATUSES);
  });

  it('moves: an inquiry may become a chargeback; a chargeback is won or lost; a closed chargeback never moves', () => {
    expect(canMove('warning_needs_response', 'needs_response')).toBe(true);
    expect(canMove('warning_under_review', 'warning_closed')).toBe(true);
    expect(canMove('needs_response', 'under_review')).toBe(true);
    expect(canMove('under_review', 'won')).toBe(true);
    expect(canMove('needs_response', 'lost')).toBe(true);
    for (const closed of ['won', 'lost', 'prevented'] as const) for (const to of DISPUTE_STATUSES) expect(canMove(closed, to)).toBe(false);
    expect(canMove('needs_response', 'warning_needs_response')).toBe(false);
    expect(canMove('under_review', 'under_review')).toBe(false);
  });

  it('money: a chargeback holds once; won releases; lost withdraws (holding first when nothing was held); inquiries move nothing', () => {
    expect(fundsMoves('none', 'warning_needs_response')).toEqual([]);
    expect(fundsMoves('none', 'warning_closed')).toEqual([]);
    expect(fundsMoves('none', 'needs_response')).toEqual(['hold']);
    expect(fundsMoves('none', 'under_review')).toEqual(['hold']);
    expect(fundsMoves('held', 'under_review')).toEqual([]);
    expect(fundsMoves('held', 'won')).toEqual(['release']);
    expect(fundsMoves('held', 'lost')).toEqual(['withdraw']);
    expect(fundsMoves('none', 'lost')).toEqual(['hold', 'withdraw']);
    expect(fundsMoves('reinstated', 'lost')).toEqual([]);
    expect(fundsAfter('none', ['hold', 'withdraw'])).toBe('withdrawn');
    expect(fundsAfter('held', ['release'])).toBe('reinstated');
    expect(fundsAfter('none', [])).toBe('none');
  });

  it('events: what happened to the dispute, then to its money', () => {
    expect(creationEvents('needs_response', ['hold'])).toEqual(['dispute.created', 'dispute.funds_withdrawn']);
    expect(creationEvents('warning_needs_response', [])).toEqual(['dispute.created']);
    expect(creationEvents('lost', ['hold', 'withdraw'])).toEqual(['dispute.created', 'dispute.funds_withdrawn', 'dispute.closed']);
    expect(changeEvents(false, 'under_review', [])).toEqual(['dispute.updated']);
    expect(changeEvents(false, 'won', ['release'])).toEqual(['dispute.closed', 'dispute.funds_reinstated']);
    expect(changeEvents(false, 'lost', ['withdraw'])).toEqual(['dispute.closed']);
    expect(changeEvents(false, 'needs_response', ['hold'])).toEqual(['dispute.updated', 'dispute.funds_withdrawn']);
  });
});
