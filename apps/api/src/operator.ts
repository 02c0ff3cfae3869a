import path from 'node:path';
import { openDatabase } from './db/client.ts';
import { consoleOutput, loadCommandEnv } from './env.ts';
import { runOperator } from './features/account/operator.ts';

/**
 * `npm run operator -- …` (issue 19): the operator's commands against the installation's database,
 * DATABASE_URL or the embedded PGlite in DATA_DIR as `npm start` opens it (stop the server first
 * when it uses PGlite: one process owns its files).
 */
const env = loadCommandEnv();
const db = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: path.join(env.DATA_DIR, 'db') });
let code = 1;
try {
  code = await runOperator(process.argv.slice(2), {
    db,
    terms: { plans: env.PLANS, graceDays: env.ACCOUNT_GRACE_DAYS },
    ...consoleOutput,
  });
} finally {
  await db.close();
}
process.exit(code);
