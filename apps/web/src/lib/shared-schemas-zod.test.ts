import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * packages/shared/src/validation.ts configures zod for the browser (no JIT: the CSP forbids eval) before any schema is
 * built; that holds only if every module that builds schemas imports it, directly or through a
 * module that does (common.ts, records.ts, clinical.ts).
 */
describe('shared schema modules', () => {
  it('each imports validation.ts, directly or through one that does', () => {
    const folder = path.resolve(import.meta.dirname, '../../../../packages/shared/src/schemas');
    const throughValidation =
      /from '\.\.\/validation\.ts'|import '\.\.\/validation\.ts'|from '\.\/(common|records|clinical)\.ts'/;
    const offenders = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => readFileSync(path.join(folder, file), 'utf8').includes("from 'zod'"))
      .filter((file) => !throughValidation.test(readFileSync(path.join(folder, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
