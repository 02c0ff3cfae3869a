import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorBody, type ErrorCode, type FailureCode, type FieldError, statusOf } from '@odontia/shared/errors';
import { isFieldCode } from '@odontia/shared/validation';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { currencyConstraints, isNumericOverflow, violatedConstraint } from '../db/errors.ts';
import { AppError } from '../lib/app-error.ts';
import { isDatabaseUnavailable, isTransactionConflict } from '../lib/database-unavailable.ts';
import { messageOf } from '../lib/messages.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's code for an unexpected failure of this route's action (default internal_server_error). */
    failureCode?: FailureCode;
  }
}

/**
 * One place where errors become answers: `{ code, message, details? }`. Validation errors list
 * the fields; a database that cannot be reached (restarting, a dropped connection) answers 503
 * service_unavailable with Retry-After; anything unexpected is logged with its stack and answers a bare 500 — the route's
 * `config.failureCode` or internal_server_error; no stack, no SQL, no driver message ever
 * reaches the client.
 */
export const errorHandling = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        const retryAfter = error.details?.retryAfterSeconds;
        if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
        return send(reply, error.code, error.details);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        // The one header a contract asks for is an idempotent write's key (plugins/routes.ts).
        if (error.validationContext === 'headers') return send(reply, 'idempotency_key_required');
        const fields: FieldError[] = error.validation.map((issue) => {
          const code = isFieldCode(issue.message) ? issue.message : 'invalid_value';
          return {
            path: fieldPath(error.validationContext, issue.instancePath),
            code,
            ...(limitCodes.has(code) ? limitsOf(issue.params) : {}),
          };
        });
        return send(reply, 'validation_error', { fields });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response does not match its contract');
        return send(reply, 'internal_server_error');
      }
      // Two transactions waited for each other (a deadlock) or one could not be serialised:
      // nothing of this request was kept and trying again succeeds (issue 35, item 5).
      if (isTransactionConflict(error)) {
        request.log.warn({ err: error }, 'transaction conflict: 503');
        reply.header('retry-after', '1');
        return send(reply, 'service_unavailable', { reason: 'transaction_conflict' });
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'the database is unreachable: 503');
        reply.header('retry-after', '2');
        return send(reply, 'service_unavailable', { reason: 'database_unreachable' });
      }
      // The contracts keep amounts and their totals within the columns (amount-bounds.ts); a sum
      // they cannot see (across records) that still passes numeric(14,2) is the user's, not a fault.
      if (isNumericOverflow(error)) {
        request.log.warn({ err: { code: '22003', message: error.message } }, 'amount out of range');
        return send(reply, 'amount_too_big');
      }
      // Issue 35: the services say these first; the database's keys answer the same for any path
      // that did not (another currency, a budget line that is not the customer's).
      const constraint = violatedConstraint(error);
      if (constraint && currencyConstraints.has(constraint)) return send(reply, 'currency_not_clinic');
      if (constraint === 'document_lines_source_line_fk') return send(reply, 'budget_line_not_found');
      const clientCode = clientErrorCode(error);
      if (clientCode) {
        request.log.info({ err: { code: error.code, message: error.message } }, 'client error');
        return send(reply, clientCode);
      }
      request.log.error({ err: error }, 'unexpected error');
      return send(reply, request.routeOptions.config?.failureCode ?? 'internal_server_error');
    });
  },
  { name: 'error-handling' },
);

export function send(reply: FastifyReply, code: ErrorCode, details?: ErrorBody['details']): FastifyReply {
  const body: ErrorBody = { code, message: messageOf(code), ...(details ? { details } : {}) };
  return reply.status(statusOf(code)).type('application/json; charset=utf-8').send(body);
}

/** The code of a router refusal Fastify hands to `frameworkErrors`. */
export function frameworkErrorCode(fastifyCode: string | undefined): ErrorCode {
  if (fastifyCode === 'FST_ERR_MAX_PARAM_LENGTH') return 'uri_too_long';
  if (fastifyCode === 'FST_ERR_BAD_URL') return 'bad_request';
  return 'internal_server_error';
}

/**
 * What the HTTP parser refuses before Fastify sees a request (a request line or headers over
 * Node's limit, a timeout, a malformed request), written on the socket in the error shape;
 * Fastify's default writes `{ error, message, statusCode }`.
 */
export function clientErrorAnswer(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'bad_request';
  const status = statusOf(code);
  const body = JSON.stringify({ code, message: messageOf(code) } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * The limit a text's length or a number broke (zod's `maximum`/`minimum` of a too_big/too_small
 * issue), so the form can say "Máximo 80 caracteres" rather than "too long". Not for lists or
 * dates: their codes say it.
 */
const limitCodes = new Set(['too_long', 'too_short', 'too_big', 'too_small']);

function limitsOf(params: unknown): Pick<FieldError, 'max' | 'min'> {
  if (!params || typeof params !== 'object') return {};
  const { origin, maximum, minimum } = params as { origin?: unknown; maximum?: unknown; minimum?: unknown };
  if (origin !== 'string' && origin !== 'number' && origin !== 'int') return {};
  const limits: Pick<FieldError, 'max' | 'min'> = {};
  if ((typeof maximum === 'number' || typeof maximum === 'bigint') && Number.isFinite(Number(maximum))) {
    limits.max = Number(maximum);
  }
  if ((typeof minimum === 'number' || typeof minimum === 'bigint') && Number.isFinite(Number(minimum))) {
    limits.min = Number(minimum);
  }
  return limits;
}

/** `body.email` style paths; the body context is implied. */
function fieldPath(context: string | undefined, instancePath: string): string {
  const inner = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (!context || context === 'body') return inner;
  return inner ? `${context}.${inner}` : context;
}

/** Errors raised by Fastify itself for a bad request (bad JSON, wrong media type, too large…). */
function clientErrorCode(error: FastifyError): ErrorCode | undefined {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    default:
      return 'bad_request';
  }
}
