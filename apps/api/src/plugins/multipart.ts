import multipart, { type FastifyMultipartBaseOptions, type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

/**
 * `multipart/form-data` for the routes that register it (issue 14): `@fastify/multipart` plus
 * the checks it leaves to us. A body the parser cannot read — no boundary, a bad one, a part
 * without headers, cut short before its closing boundary — is the client's fault: 400
 * `invalid_multipart_body`, never the parser's bare error as a 500.
 */

/** RFC 2046 §5.1.1: 1 to 70 characters of a small set, not ending in a space. */
const boundaryPattern = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary parameter of a multipart Content-Type, quoted or not; undefined when absent or invalid. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;"]*))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  return boundary !== undefined && boundaryPattern.test(boundary) ? boundary : undefined;
}

/**
 * What a failure while reading the request's parts means for the client. Fastify's own errors
 * with a 4xx status (a premature close, a parts limit) and ours (AppError, the idle timeout)
 * keep theirs; anything else the parser raised is a body it could not read.
 */
export function multipartFailure(error: unknown): unknown {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof AppError || (typeof status === 'number' && status >= 400 && status < 500)) return error;
  return new AppError('invalid_multipart_body', undefined, { cause: error });
}

/**
 * The parts of the request, with the parser's failures as `multipartFailure` says. A request
 * already gone before its parts are asked for fails at once instead of waiting for bytes that
 * will not come.
 */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  if (request.raw.destroyed && !request.raw.complete) throw new AppError('bad_request');
  try {
    for await (const part of request.parts()) yield part;
  } catch (error) {
    throw multipartFailure(error);
  }
}

export const multipartBodies = fp(
  async (app: FastifyInstance, options: { limits: NonNullable<FastifyMultipartBaseOptions['limits']> }) => {
    await app.register(multipart, {
      // The routes meter every file themselves (and name the one too large); busboy's own limits
      // only stop a file from being read much further than that.
      throwFileSizeLimit: false,
      limits: options.limits,
    });
    // Before the handler reads a byte: busboy would only fail once the parts are asked for.
    app.addHook('preValidation', async (request) => {
      if (request.isMultipart() && multipartBoundary(request.headers['content-type']) === undefined) {
        throw new AppError('invalid_multipart_body');
      }
    });
  },
  { name: 'multipart-bodies' },
);
