/**
 * The one application error type. Both doors turn it into a response: the REST
 * error handler (envelope + HTTP status) and the GraphQL error formatter
 * (extensions.code). Nothing else decides how an error looks to a client.
 */
export const ERROR_HTTP_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_TOKEN: 401,
  INVALID_CLIENT: 401,
  KYC_REQUIRED: 403,
  NOT_FOUND: 404,
  DUPLICATE_REQUEST: 409,
  INVALID_STATE: 409,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

export interface ErrorDetail {
  field: string;
  issue: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (details && details.length > 0) this.details = details;
  }

  get httpStatus(): number {
    return ERROR_HTTP_STATUS[this.code];
  }

  static invalidRequest(message: string, details?: ErrorDetail[]): AppError {
    return new AppError('INVALID_REQUEST', message, details);
  }

  static invalidToken(message = 'The access token is missing, invalid or expired'): AppError {
    return new AppError('INVALID_TOKEN', message);
  }

  static invalidClient(): AppError {
    return new AppError('INVALID_CLIENT', 'Client authentication failed');
  }

  /** The right credentials, of a merchant an operator has disabled. */
  static merchantDisabled(): AppError {
    return new AppError('INVALID_CLIENT', 'Client authentication failed: this merchant is disabled');
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
}

/** What a client may see of any error: AppErrors as they are, anything else as a bare SERVER_ERROR. */
export function toPublicError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('SERVER_ERROR', 'An unexpected error occurred');
}
