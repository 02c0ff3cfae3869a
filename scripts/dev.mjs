// `npm run dev`: the API with reload on change (tsx watch) and the Vite dev server with hot
// reload, which proxies /api to the API. Ctrl+C (or SIGTERM) stops both.
import './check-node.mjs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
// Each child leads its own process group, so stopping reaches the processes they start too.
const options = { env, stdio: 'inherit', detached: true };
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'apps/api/src/server.ts'], { ...options, cwd: root }),
  spawn(bin('vite'), [], { ...options, cwd: path.join(root, 'apps/web') }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
