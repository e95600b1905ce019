import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toPublicError } from '../../shared/errors';
import { RateLimitedError, rateLimitHeaders } from '../rate-limits';
import { StreamsBusyError } from '../stream-slots';
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

/**
 * Errors Fastify meets while routing, before any hook: a path with broken percent-encoding,
 * or a path parameter over maxParamLength. The envelope, not Fastify's own JSON.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const error = AppError.invalidRequest(tooLong ? 'A path parameter is too long' : 'The URL is not valid (bad percent-encoding)');
  return reply.code(tooLong ? 414 : 400).send(errorBody(error));
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (it writes the answer
 * itself on the raw socket): a request or its headers not received in time (408),
 * headers or a URL too large (431), or bytes that are not HTTP (400). The same
 * envelope, with the transport's status; the connection is then closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request was not received in time; the connection is closed']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers (with the URL) are too large']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify(errorBody(AppError.invalidRequest(message)));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** REST door: one place turns any error into the spec's error envelope. */
export function registerRestErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A route may set its own limit (a provider's callback: 64 KiB); the error names the one that applied.
    const appError = err instanceof AppError ? err : fromFrameworkError(err, request.routeOptions?.bodyLimit ?? bodyLimit);
    if (!appError) request.log.error({ err }, 'unhandled error');
    const publicError = appError ?? toPublicError(err);
    if (publicError.code === 'INVALID_TOKEN') reply.header('www-authenticate', 'Bearer error="invalid_token"');
    if (publicError instanceof RateLimitedError) reply.headers(rateLimitHeaders(publicError.state, true));
    if (publicError instanceof StreamsBusyError) reply.header('retry-after', String(publicError.retryAfterS));
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
