// `npm start`: builds the web app when its sources are newer than the build, then serves the
// API and the web app on one port, in this same process (so SIGTERM/SIGINT reach the server).
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');
const webSources = [
  path.join(webDir, 'src'),
  path.join(webDir, 'public'),
  path.join(webDir, 'index.html'),
  path.join(webDir, 'vite.config.ts'),
  path.join(webDir, 'precompress.ts'),
  path.join(webDir, 'package.json'),
  path.join(root, 'packages/shared/src'),
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return webSources.some((source) => newestChange(source) > builtAt);
}

if (!process.env.WEB_DIST_DIR && webBuildIsStale()) {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The web app did not build; see above.');
    process.exit(result.status ?? 1);
  }
}

register();
await import('../apps/api/src/server.ts');
