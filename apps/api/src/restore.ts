import { consoleOutput, loadCommandEnv } from './env.ts';
import { runRestoreCommand } from './features/backup/commands.ts';

/** `npm run restore -- …` (issue 20): see features/backup/commands.ts. */
const env = loadCommandEnv();
const code = await runRestoreCommand(process.argv.slice(2), {
  env,
  ...consoleOutput,
});
process.exit(code);
