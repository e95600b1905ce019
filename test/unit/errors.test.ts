import { AppError, ERROR_HTTP_STATUS, toPublicError, type ErrorCode } from '../../src/shared/errors';

/** CONTRACT §1: code → HTTP status, including the two added codes. */
const CONTRACT_STATUS: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  INVALID_TOKEN: 401,
  INVALID_CLIENT: 401,
  INSUFFICIENT_FUNDS: 402,
  KYC_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DUPLICATE_REQUEST: 409,
  INVALID_STATE: 409,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  ROUTE_UNAVAILABLE: 422,
  PROVIDER_UNAVAILABLE: 503,
  BENEFICIARY_NAME_MISMATCH: 422,
};

describe('ERROR_HTTP_STATUS', () => {
  it('has exactly the codes of the contract', () => {
    expect(Object.keys(ERROR_HTTP_STATUS).sort()).toEqual(Object.keys(CONTRACT_STATUS).sort());
  });

  it.each(Object.entries(CONTRACT_STATUS))('maps %s to HTTP %i', (code, status) => {
    expect(ERROR_HTTP_STATUS[code as ErrorCode]).toBe(status);
    expect(new AppError(code as ErrorCode, 'x').httpStatus).toBe(status);
  });
});

describe('AppError', () => {
  it('carries code, message and non-empty details only', () => {
    const withDetails = AppError.invalidRequest('bad', [{ field: 'amount', issue: 'must be > 0' }]);
    expect(withDetails).toBeInstanceOf(Error);
    expect(withDetails.code).toBe('INVALID_REQUEST');
    expect(withDetails.message).toBe('bad');
    expect(withDetails.details).toEqual([{ field: 'amount', issue: 'must be > 0' }]);
    expect(AppError.invalidRequest('bad', []).details).toBeUndefined();
  });

  it('has helpers for the common codes', () => {
    expect(AppError.invalidToken().code).toBe('INVALID_TOKEN');
    expect(AppError.invalidToken().httpStatus).toBe(401);
    expect(AppError.invalidClient().code).toBe('INVALID_CLIENT');
    const notFound = AppError.notFound('Customer');
    expect(notFound.code).toBe('NOT_FOUND');
    expect(notFound.message).toBe('Customer not found');
  });
});

describe('toPublicError', () => {
  it('passes AppErrors through unchanged', () => {
    const err = new AppError('DUPLICATE_REQUEST', 'reference already used');
    expect(toPublicError(err)).toBe(err);
  });

  it.each([
    ['an Error', new Error('relation "merchant" does not exist at SELECT * FROM merchant')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'boom: password=hunter2'],
    ['undefined', undefined],
    ['an error-like object with a code', { code: 'NOT_FOUND', message: 'fake' }],
  ])('hides %s behind a generic SERVER_ERROR', (_label, thrown) => {
    const err = toPublicError(thrown);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('SERVER_ERROR');
    expect(err.httpStatus).toBe(500);
    expect(err.message).toBe('An unexpected error occurred');
    expect(err.details).toBeUndefined();
    if (thrown instanceof Error) expect(err.message).not.toContain(thrown.message);
  });
});
