/**
 * The one application error type. Both doors turn it into a response: the REST
 * error handler (envelope + HTTP status) and the GraphQL error formatter
 * (extensions.code). Nothing else decides how an error looks to a client.
 */
export const ERROR_HTTP_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_TOKEN: 401,
  INVALID_CLIENT: 401,
  INSUFFICIENT_FUNDS: 402,
  KYC_REQUIRED: 403,
  /** The caller is known but its role (or its API key's) does not allow this. */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DUPLICATE_REQUEST: 409,
  INVALID_STATE: 409,
  /** No provider serves the route here (production: none configured for it). */
  ROUTE_UNAVAILABLE: 422,
  /** A transfer's beneficiary_name is not the name the provider resolved for the account (CONTRACT §6b): nothing written or sent. */
  BENEFICIARY_NAME_MISMATCH: 422,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  /** Every provider of the route is failing right now (circuit breaker open): try again shortly. */
  PROVIDER_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

export interface ErrorDetail {
  field: string;
  issue: string;
}

/**
 * What a debit lacked (INSUFFICIENT_FUNDS, issue 41), said beside its field's issue: the available balance, what the
 * debit needed from it (a transfer's amount plus its fee) and what is missing, as decimal strings with the currency's
 * minor unit.
 */
export interface Shortfall {
  currency: string;
  available: string;
  needed: string;
  missing: string;
}

/** How one door names a field of the domain (`card.expYear` → REST `card.exp_year`). */
export type FieldNamer = (field: string) => string;

/** What a client is told of an error, in its door's names. */
export interface ErrorView {
  message: string;
  details?: ErrorDetail[];
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  /** For RATE_LIMITED: when to try again, in seconds (REST sends it as Retry-After). */
  retryAfterS?: number;
  /**
   * Set when the message is made of the details (`Invalid query: limit must be at most 100`):
   * the words before them. Each door then says it again in its own field names.
   */
  private readonly subject?: string | null;

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[], subject?: string | null) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (details && details.length > 0) this.details = details;
    if (subject !== undefined) this.subject = subject;
  }

  get httpStatus(): number {
    return ERROR_HTTP_STATUS[this.code];
  }

  /** 429 RATE_LIMITED with the seconds to wait (a limit the service keeps itself, not a RateLimits budget). */
  static rateLimited(message: string, retryAfterS: number): AppError {
    const err = new AppError('RATE_LIMITED', message);
    err.retryAfterS = retryAfterS;
    return err;
  }

  /** A request error whose message is written out, not made of field names (those go in `details`, if any). */
  static invalidRequest(message: string, details?: ErrorDetail[]): AppError {
    return new AppError('INVALID_REQUEST', message, details);
  }

  /**
   * Fields the domain names (camelCase, `card.expYear`) that are wrong. The message is
   * made of them, so each door can name them as its clients know them: see `view`.
   * One field: `dialCode must be +254 for KE`; with a subject: `Invalid query: limit …; after …`.
   */
  static invalidFields(details: ErrorDetail[], subject: string | null = null): AppError {
    return new AppError('INVALID_REQUEST', fieldMessage(details, subject), details, subject);
  }

  /** One wrong field: `AppError.invalidField('dialCode', 'must be +254 for KE')`. */
  static invalidField(field: string, issue: string): AppError {
    return AppError.invalidFields([{ field, issue }]);
  }

  /** A field whose value is already taken (409), said like a wrong field: `customerId is already enrolled`. */
  static duplicateField(field: string, issue: string): AppError {
    const details = [{ field, issue }];
    return new AppError('DUPLICATE_REQUEST', fieldMessage(details, null), details, null);
  }

  /** The message and details in one door's field names. */
  view(nameOf: FieldNamer): ErrorView {
    if (!this.details) return { message: this.message };
    // Whatever else a detail says (a shortfall's figures) is said as it is; only the field is named per door.
    const details = this.details.map((d) => ({ ...d, field: nameOf(d.field) }));
    const message = this.subject === undefined ? this.message : fieldMessage(details, this.subject);
    return { message, details };
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

  /** 403: authenticated, but the role does not allow the action (docs/access.md). */
  static forbidden(message: string): AppError {
    return new AppError('FORBIDDEN', message);
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
}

function fieldMessage(details: ErrorDetail[], subject: string | null): string {
  const list = details.map((d) => `${d.field} ${d.issue}`).join('; ');
  return subject === null ? list : `Invalid ${subject}: ${list}`;
}

/** What a client may see of any error: AppErrors as they are, anything else as a bare SERVER_ERROR. */
export function toPublicError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('SERVER_ERROR', 'An unexpected error occurred');
}
