import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../shared/contract';
import { isDatabaseUnavailable } from '../db/client';
import {
  BadGatewayError,
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  LockedError,
  NotFoundError,
  TooManyRequestsError,
  UnauthenticatedError,
  ValidationError,
} from '../lib/errors';

export function errorBody(status: number, message: string, errors: Record<string, string[]> | undefined, requestId: string): ErrorBody {
  return { error: { code: status, http_code: status, message, ...(errors ? { errors } : {}), request_id: requestId } };
}

/** An error in the house shape, with the request's id in the body and in `X-Request-Id` (set here too: a request the router refused never ran the hooks). */
export function sendError(reply: FastifyReply, status: number, message: string, errors?: Record<string, string[]>) {
  return reply
    .code(status)
    .header('X-Request-Id', reply.request.id)
    .type('application/json; charset=utf-8')
    .send(errorBody(status, message, errors, reply.request.id));
}

function fieldLabel(field: string): string {
  const last =
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? field;
  return last.replace(/_/g, ' ');
}

type ValidationIssue = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };

/** Zod issues as the house format: messages per field, keyed by the request's own names (dot paths for nested ones). */
function fieldErrors(issues: ValidationIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = path || 'body';
    let message = issue.message ?? 'The value is invalid.';
    if (path === '' && issue.keyword === 'invalid_type') message = 'The request body must be a JSON object.';
    else if (issue.keyword === 'invalid_type' && /received undefined/.test(message)) message = `The ${fieldLabel(field)} field is required.`;
    else if (issue.keyword === 'invalid_type' && message.startsWith('Invalid input'))
      message = `The ${fieldLabel(field)} must be of type ${String(issue.params.expected ?? 'the documented type')}.`;
    (errors[field] ??= []).push(message);
  }
  return errors;
}

const domainStatus = (error: DomainError): number => {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ValidationError) return 422;
  if (error instanceof ConflictError) return 409;
  if (error instanceof LockedError) return 423;
  if (error instanceof UnauthenticatedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof GoneError) return 410;
  if (error instanceof TooManyRequestsError) return 429;
  if (error instanceof BadGatewayError) return 502;
  return 400;
};

/** A JSON body whose bytes are not UTF-8 (the JSON parser refuses it before anything reads it). */
export class InvalidUtf8Error extends Error {
  static readonly code = 'HERALD_INVALID_UTF8';
  readonly code = InvalidUtf8Error.code;
  readonly statusCode = 400;
  constructor() {
    super('The request body is not valid UTF-8.');
  }
}

/** How much of a refused body is read and dropped before the 413 (beyond it, or after the time, the connection is cut). */
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 10_000;

/** Reads and drops the rest of a request body, up to a bound; resolves when it ended, or the bound was reached (the socket is then destroyed after the answer). */
function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DISCARD_BYTES) {
        raw.pause();
        finish();
      }
    };
    const timer = setTimeout(finish, DISCARD_MS);
    raw.on('data', onData);
    raw.on('end', finish);
    raw.on('error', finish);
    raw.on('close', finish);
    raw.resume();
  });
}

/** How long a client told 503 (the database is away) should wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Every error leaves in one shape (docs/api-conventions.md); a 5xx never carries internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const status = domainStatus(error);
      if (error instanceof TooManyRequestsError) reply.header('Retry-After', String(error.retryAfterSeconds));
      return sendError(reply, status, error.message, error instanceof ValidationError ? error.fields : undefined);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed identifier in the path is an unknown resource, not a validation failure.
      if (error.validationContext === 'params') return sendError(reply, 404, 'The requested resource was not found.');
      return sendError(reply, 422, 'The given data was invalid.', fieldErrors(error.validation));
    }
    if (!isResponseSerializationError(error)) {
      switch (error.code) {
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          // Read (and drop) what the client is still sending before answering, as nginx's lingering
          // close does: a client that sends its whole body before reading (fetch) then reads the 413
          // instead of finding the connection reset under it. The connection closes after.
          return discardBody(request.raw).then(() => {
            reply.header('connection', 'close');
            return sendError(reply, 413, 'The request body is too large.');
          });
        case InvalidUtf8Error.code:
          return sendError(reply, 400, 'The request body is not valid UTF-8.');
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return sendError(reply, 415, 'The request body must be sent as application/json.');
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          return sendError(reply, 400, 'The request body is not valid JSON.');
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return sendError(reply, error.statusCode, error.statusCode === 400 ? 'The request is malformed.' : error.message);
      }
    }
    // Safety net: text PostgreSQL cannot store (the contract refuses it field by field first).
    const pgCode = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? error.code;
    if (pgCode === '22021' || pgCode === '22P05') return sendError(reply, 422, 'The request contains characters that cannot be stored.');
    // The database is down or restarting: the client may try again shortly (a 500 would say Herald is broken).
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'request failed: the database is unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(reply, 503, 'The service is unavailable: its database cannot be reached right now. Try again shortly.');
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'Server Error');
  });
}
