import { consoleOutput, loadCommandEnv } from './env.ts';
import { runBackupCommand } from './features/backup/commands.ts';

/** `npm run backup -- …` (issue 20): see features/backup/commands.ts. */
const env = loadCommandEnv();
const code = await runBackupCommand(process.argv.slice(2), {
  env,
  ...consoleOutput,
});
process.exit(code);
