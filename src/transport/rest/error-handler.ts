import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toPublicError } from '../../shared/errors';
import { errorBody } from './envelope';
import { describePath } from './request-path';

/**
 * Fastify raises its own errors before a handler runs (body parsing, size,
 * content type). They are client errors and become INVALID_REQUEST with a message
 * that says what to fix; anything else unexpected is logged and becomes a bare
 * SERVER_ERROR.
 */
function fromFrameworkError(err: FastifyError, bodyLimit: number): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return AppError.invalidRequest('Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return AppError.invalidRequest(`Request body exceeds the limit of ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppError.invalidRequest('Body is empty but Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return AppError.invalidRequest('Content-Length does not match the body');
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return AppError.invalidRequest('Malformed JSON body');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return AppError.invalidRequest('Invalid request');
  }
  return undefined;
}

/** REST door: one place turns any error into the spec's error envelope. */
export function registerRestErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = err instanceof AppError ? err : fromFrameworkError(err, bodyLimit);
    if (!appError) request.log.error({ err }, 'unhandled error');
    const publicError = appError ?? toPublicError(err);
    if (publicError.code === 'INVALID_TOKEN') reply.header('www-authenticate', 'Bearer error="invalid_token"');
    // GraphQL clients expect GraphQL's shape even when the body never reached Apollo.
    if (request.url.startsWith('/graphql')) {
      return reply.code(publicError.httpStatus).send({
        errors: [{ message: publicError.message, extensions: { code: publicError.code, http: { status: publicError.httpStatus } } }],
      });
    }
    return reply.code(publicError.httpStatus).send(errorBody(publicError));
  });

  app.setNotFoundHandler((request, reply) => {
    const err = AppError.notFound(`Route ${request.method} ${describePath(request)}`);
    return reply.code(err.httpStatus).send(errorBody(err));
  });
}
