import { readFileSync } from 'node:fs';
import path from 'node:path';
import { userLevels } from '@odontia/shared/enums';
import { can, permissionActions } from '@odontia/shared/permissions';
import { describe, expect, it } from 'vitest';

/** docs/permissions.md shows the matrix of packages/shared/src/permissions.ts: they must agree. */
export function permissionTable(): string {
  const header = `| Action | ${userLevels.join(' | ')} |`;
  const rule = `|---|${userLevels.map(() => ':-:').join('|')}|`;
  const rows = permissionActions.map(
    (action) => `| \`${action}\` | ${userLevels.map((level) => (can(level, action) ? '✓' : '—')).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}

describe('docs/permissions.md', () => {
  it('shows the same matrix as the code', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/permissions.md'), 'utf8');
    const table = /<!-- matrix:start -->\n([\s\S]*?)\n<!-- matrix:end -->/.exec(doc)?.[1];
    expect(table, 'regenerate the table between the matrix markers').toBe(permissionTable());
  });
});
