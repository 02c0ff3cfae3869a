import path from 'node:path';
import { openDatabase } from './db/client.ts';
import { EnvError, loadEnv } from './env.ts';
import { runOperator } from './features/account/operator.ts';

/**
 * `npm run operator -- …` (issue 19): the operator's commands against the installation's database,
 * DATABASE_URL or the embedded PGlite in DATA_DIR as `npm start` opens it (stop the server first
 * when it uses PGlite: one process owns its files).
 */
let env: ReturnType<typeof loadEnv>;
try {
  env = loadEnv();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}
const db = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: path.join(env.DATA_DIR, 'db') });
let code = 1;
try {
  code = await runOperator(process.argv.slice(2), {
    db,
    terms: { plans: env.PLANS, graceDays: env.ACCOUNT_GRACE_DAYS },
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
} finally {
  await db.close();
}
process.exit(code);
