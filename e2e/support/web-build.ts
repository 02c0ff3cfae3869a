import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';

/*
 * The servers of a run serve a private copy of apps/web/dist. The server reads index.html once at
 * start, so a `npm run build` in the same checkout during a run (another terminal, an editor task)
 * would leave it pointing at hashed chunks that no longer exist and fail every later test.
 */

/** Copies the web build (`npm run test:e2e` builds it first) to `target`. */
export function snapshotWebBuild(repoRoot: string, target: string): string {
  const dist = path.join(repoRoot, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error('[e2e] No web build in apps/web/dist: run `npm run build` (npm run test:e2e does it first).');
  }
  rmSync(target, { recursive: true, force: true });
  cpSync(dist, target, { recursive: true });
  return target;
}
