import type { FieldError } from '@odontia/shared/errors';
import { hasInvalidCharacters } from '@odontia/shared/validation';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { send } from './errors.ts';

/** Enough to show the user where; a body of thousands of bad strings does not need them all. */
const maxReportedFields = 20;

/**
 * The shared text rule (`hasInvalidCharacters`: NUL, lone UTF-16 surrogates) applied to every
 * string a request carries, before its contract: path parameters, query and JSON body, keys
 * included. The contracts already refuse them field by field (`safeText`, checked for every
 * request contract by validation.test.ts); this net keeps a route whose schema forgot it, or that
 * reads a field its contract does not know, from reaching the database with one. Same answer as
 * the contract's: 400 validation_error with `{ path, code: 'invalid_characters' }`.
 */
export const inputText = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request, reply) => {
      const fields = [
        ...invalidTextFields(request.params, 'params'),
        ...invalidTextFields(request.query, 'querystring'),
        ...invalidTextFields(request.body, ''),
      ].slice(0, maxReportedFields);
      if (fields.length > 0) return send(reply, 'validation_error', { fields });
    });
  },
  { name: 'input-text', dependencies: ['error-handling'] },
);

/** Where a value holds invalid text, as `a.b.0.c` paths under `context`; iterative, so depth is no risk. */
export function invalidTextFields(value: unknown, context: string): FieldError[] {
  const found: FieldError[] = [];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  const pending: [unknown, string][] = [[value, context]];
  while (pending.length > 0 && found.length < maxReportedFields) {
    const [current, path] = pending.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (hasInvalidCharacters(current)) found.push({ path, code: 'invalid_characters' });
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        pending.push([item, join(path, String(index))]);
      });
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (hasInvalidCharacters(key)) found.push({ path: join(path, '(key)'), code: 'invalid_characters' });
        else pending.push([item, join(path, key)]);
      }
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}
