import { type ErrorBody, type ErrorCode, type FailureCode, type FieldError, statusOf } from '@odontia/shared/errors';
import { isFieldCode } from '@odontia/shared/validation';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';
import { isDatabaseUnavailable } from '../lib/database-unavailable.ts';
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
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'the database is unreachable: 503');
        reply.header('retry-after', '2');
        return send(reply, 'service_unavailable', { reason: 'database_unreachable' });
      }
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
