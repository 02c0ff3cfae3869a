// `npm run sbom [-- <file>]`: writes the bill of materials of what a clinic runs (CycloneDX JSON from
// `npm sbom`, production dependencies only; default file sbom.cdx.json) and fails when a dependency's
// licence does not let clinics use the product commercially. The allowed licences and why are in
// docs/decisions.md ("Software bill of materials").
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.resolve(process.cwd(), process.argv[2] ?? 'sbom.cdx.json');

/** Permissive licences, and LGPL for libvips, which sharp loads as a separate shared library. */
const allowed = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'CC-BY-4.0',
  'Zlib',
  'Unlicense',
  'Python-2.0',
  'MPL-2.0',
  'LGPL-3.0-or-later',
]);

/** Packages whose package.json names no licence, with the licence of their LICENSE file, as reviewed. */
const reviewed = new Map([['png-js@1.1.0', 'MIT']]);

const sbom = spawnSync('npm', ['sbom', '--sbom-format', 'cyclonedx', '--omit', 'dev'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (sbom.status !== 0) {
  console.error(sbom.stderr);
  process.exit(sbom.status ?? 1);
}
writeFileSync(output, sbom.stdout);
const bom = JSON.parse(sbom.stdout);

/** Every licence id of an SPDX expression, and whether the expression is satisfied by `allowed`. */
function expressionAllowed(expression) {
  const alternatives = expression.replace(/[()]/g, ' ').split(/\s+OR\s+/);
  return alternatives.some((alternative) =>
    alternative
      .split(/\s+AND\s+/)
      .map((id) => id.trim())
      .every((id) => allowed.has(id)),
  );
}

const refused = [];
let checked = 0;
for (const component of bom.components ?? []) {
  if ((component.purl ?? '').startsWith('pkg:npm/%40odontia/')) continue; // our own workspaces
  checked += 1;
  const key = `${component.name}@${component.version}`;
  const licences = (component.licenses ?? []).map(
    (entry) => entry.expression ?? entry.license?.id ?? entry.license?.name ?? '',
  );
  if (licences.length === 0 && reviewed.has(key)) licences.push(reviewed.get(key));
  const ok = licences.length > 0 && licences.every((licence) => expressionAllowed(licence));
  if (!ok) refused.push(`${key}: ${licences.join(', ') || 'no licence declared'}`);
}

console.log(`SBOM (CycloneDX ${bom.specVersion}): ${checked} components in ${path.relative(process.cwd(), output)}`);
if (refused.length > 0) {
  console.error(
    `Licences not allowed for commercial use by clinics (see docs/decisions.md):\n  ${refused.join('\n  ')}`,
  );
  process.exit(1);
}
console.log('Every licence allows clinics to use the product commercially.');
