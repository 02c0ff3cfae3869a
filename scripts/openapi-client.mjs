// `npm run openapi:client -- [openapi.json]`: generates a typed client's types from the API's
// OpenAPI document with openapi-typescript and type-checks a client's workflow against them
// (scripts/openapi-client/workflow.ts: sign in, create a patient, issue an invoice, download its
// PDF as a Blob). Without a file it writes the document first (`npm run openapi`). Issue 35.
import './check-node.mjs';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'odontia-openapi-client-'));
try {
  let document = process.argv[2] && path.resolve(process.argv[2]);
  if (!document) {
    document = path.join(dir, 'openapi.json');
    execFileSync(process.execPath, [path.join(root, 'scripts/openapi.mjs'), document], { stdio: 'inherit' });
  }
  const ast = await openapiTS(pathToFileURL(document));
  writeFileSync(path.join(dir, 'api.d.ts'), astToString(ast));
  copyFileSync(path.join(root, 'scripts/openapi-client/workflow.ts'), path.join(dir, 'workflow.ts'));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        noUnusedLocals: false,
      },
      files: ['api.d.ts', 'workflow.ts'],
    }),
  );
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'inherit' });
  } catch {
    console.error(`The workflow does not type-check against the generated client (kept in ${dir}).`);
    process.exitCode = 1;
  }
  if (!process.exitCode) console.log('The typed client (openapi-typescript) type-checks the workflow.');
} finally {
  if (!process.exitCode) rmSync(dir, { recursive: true, force: true });
}
