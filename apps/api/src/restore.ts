import { EnvError, loadEnv } from './env.ts';
import { runRestoreCommand } from './features/backup/commands.ts';

/** `npm run restore -- …` (issue 20): see features/backup/commands.ts. */
let env: ReturnType<typeof loadEnv>;
try {
  env = loadEnv();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}
const code = await runRestoreCommand(process.argv.slice(2), {
  env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exit(code);
