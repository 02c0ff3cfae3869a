// `npm run openapi -- [file]`: writes the API's OpenAPI document (what /api/docs/json serves) to
// a file (default openapi.json), from the app on an in-memory database; CI lints it with Redocly.
import './check-node.mjs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { buildApp } = await import('../apps/api/src/app.ts');
const { openDatabase } = await import('../apps/api/src/db/client.ts');
const { loadEnv } = await import('../apps/api/src/env.ts');

const output = process.argv[2] ?? 'openapi.json';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'odontia-openapi-'));
try {
  const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST_DIR: dataDir });
  const db = await openDatabase({});
  const app = await buildApp({ env, db });
  const answer = await app.inject({ method: 'GET', url: `${env.BASE_PATH}api/docs/json` });
  if (answer.statusCode !== 200) throw new Error(`GET /api/docs/json answered ${answer.statusCode}`);
  writeFileSync(output, `${JSON.stringify(answer.json(), null, 2)}\n`);
  await app.close();
  await db.close();
  console.log(`OpenAPI document written to ${output}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
