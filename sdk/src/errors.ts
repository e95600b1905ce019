import type { components } from './generated/openapi';

/** The service's error envelope: `{status: "error", code, message, details?}`. */
export type ErrorEnvelope = components['schemas']['Error'];
export type ErrorCode = ErrorEnvelope['code'];

const isEnvelope = (body: unknown): body is ErrorEnvelope =>
  typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'error' && typeof (body as { code?: unknown }).code === 'string';

/** An answer in the error envelope (or an unexpected one), as an exception: `code` says what happened. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'UNEXPECTED_RESPONSE',
    message: string,
    readonly details: ErrorEnvelope['details'] = undefined,
    /** The answer's `x-request-id`, to quote when asking about it. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }

  static from(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id');
    if (isEnvelope(body)) return new ApiError(response.status, body.code, body.message, body.details, requestId);
    return new ApiError(response.status, 'UNEXPECTED_RESPONSE', `HTTP ${response.status} without the error envelope`, undefined, requestId);
  }
}

/** What openapi-fetch answers: `data` (the success envelope) or `error`, and the response. */
type Result<D> = { data?: { data: D }; error?: unknown; response: Response };

/** The success envelope's `data`, typed by the operation; an error answer is thrown as an ApiError. */
export function unwrap<R extends Result<unknown>>(result: R): NonNullable<R['data']>['data'] {
  if (result.data !== undefined) return result.data.data;
  throw ApiError.from(result.response, result.error);
}
