import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A real server process (`node --import tsx apps/api/src/server.ts`, as scripts/cluster-kit.mjs
 * starts them) for the tests and benches that need several instances on one database, or one to
 * kill -9 mid-work (issue 38's messages bench and cluster test).
 */

const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');

export interface ServerProcess {
  name: string;
  port: number;
  origin: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string | null>;
}

export function startServerProcess(name: string, port: number, env: Record<string, string>): ServerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { name, port, origin: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}

/** Waits for GET /api/ready to answer 200. */
export async function waitServerReady(server: ServerProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited:\n${server.output()}`);
    try {
      if ((await fetch(`${server.origin}/api/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name}: not ready in ${timeoutMs} ms:\n${server.output()}`);
}

const running = (server: ServerProcess) => server.child.exitCode === null && server.child.signalCode === null;

/** SIGTERM (jobs in flight finish), SIGKILL after `graceMs`. */
export async function stopServerProcess(server: ServerProcess | undefined, graceMs = 15_000): Promise<void> {
  if (!server || !running(server)) return;
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([server.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  if (running(server)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** kill -9: no shutdown, no rollback but the database's own when the connections drop. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  if (!running(server)) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** The CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "pid (comm) ".
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
