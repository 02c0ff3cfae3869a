// The real parts of a cluster on loopback, shared by `npm run test:cluster` (scripts/cluster-test.mjs)
// and `npm run bench -- cluster` (scripts/cluster-bench.mjs): a PostgreSQL of our own (initdb on a
// free port, as the postgres user when run as root) and its streaming replica, Odontia instances,
// and HAProxy with the shipped docs/deployment/haproxy.cfg.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const demoAdmin = { email: 'administrador@sonrisa.demo', password: 'sonrisa-demo-2026' };
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const origin = (port) => `http://127.0.0.1:${port}`;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A child process whose output is kept (printed when something fails). */
export function launch(name, command, args, env) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = {
    name,
    child,
    output: '',
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code))),
  };
  child.stdout.on('data', (chunk) => (proc.output += chunk));
  child.stderr.on('data', (chunk) => (proc.output += chunk));
  return proc;
}

/** Stops a process (SIGTERM, SIGKILL after 15 s) if it still runs. */
export async function stopProcess(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  await Promise.race([proc.exited, sleep(15_000)]);
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
}

/** PostgreSQL's server binaries (Debian keeps them out of PATH), the newest version's. */
function pgBinary(name) {
  const found = spawnSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1']).stdout;
  const dir = String(found).trim();
  return dir ? path.join(dir, name) : name;
}

const asRoot = process.getuid?.() === 0;
const postgresCommand = (name, args) =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', pgBinary(name), ...args]] : [pgBinary(name), args];

/** Runs a PostgreSQL command (as the postgres user when we are root: initdb refuses root). */
function asPostgres(name, args) {
  const [command, commandArgs] = postgresCommand(name, args);
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${name} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The same without blocking this process (a load keeps going while PostgreSQL restarts). */
function asPostgresAsync(name, args) {
  const [command, commandArgs] = postgresCommand(name, args);
  const child = spawn(command, commandArgs, { stdio: 'ignore' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} ${args.join(' ')}: exit ${code}`)))),
  );
}

/**
 * A PostgreSQL of our own on a free port, a database `odontia` in it, and optionally a streaming
 * replica (pg_basebackup -R). Restarting it disturbs nothing else on the machine.
 */
export async function createPostgres({ replica = false } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'odontia-cluster-pg-'));
  if (asRoot) spawnSync('chown', ['postgres', dir]);
  const server = (name, port) => {
    const data = path.join(dir, name);
    const ctlArgs = (...args) => ['-D', data, '-l', path.join(dir, `${name}.log`), '-w', '-t', '60', ...args];
    return {
      port,
      data,
      url: (database = 'odontia') => `postgres://postgres@127.0.0.1:${port}/${database}`,
      start: () =>
        asPostgres('pg_ctl', ctlArgs('-o', `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`, 'start')),
      stop: () => asPostgres('pg_ctl', ctlArgs('-m', 'immediate', 'stop')),
      restart: () => asPostgresAsync('pg_ctl', ctlArgs('-m', 'fast', 'restart')),
      /** The server's backends and its postmaster (the CPU they use). */
      pids() {
        const postmaster = Number(String(spawnSync('head', ['-1', path.join(data, 'postmaster.pid')]).stdout).trim());
        const children = String(spawnSync('pgrep', ['-P', String(postmaster)]).stdout)
          .split('\n')
          .filter(Boolean)
          .map(Number);
        return [postmaster, ...children];
      },
    };
  };
  const primary = server('primary', await freePort());
  const started = [];
  const cluster = {
    dir,
    primary,
    replica: undefined,
    async stop() {
      for (const one of started.reverse()) {
        try {
          one.stop();
        } catch (error) {
          console.error(error.message);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  asPostgres('initdb', [
    '-D',
    primary.data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  primary.start();
  started.push(primary);
  const admin = new pg.Client({ connectionString: primary.url('postgres') });
  await admin.connect();
  await admin.query('create database odontia');
  await admin.end();
  if (replica) {
    cluster.replica = server('replica', await freePort());
    // --checkpoint=fast: now, not after the primary's next spread checkpoint (a minute and a half here).
    asPostgres('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
      ...['-D', cluster.replica.data, '-R', '-X', 'stream', '--checkpoint=fast'],
    ]);
    cluster.replica.start();
    started.push(cluster.replica);
  }
  return cluster;
}

/** An Odontia server process (`node --import tsx apps/api/src/server.ts`) with these settings. */
export function startInstance(name, env) {
  return launch(name, process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/** HAProxy with the shipped configuration, in front of two server ports (the same twice: one instance). */
export function startHaproxy(lbPort, [a, b]) {
  return launch('haproxy', 'haproxy', ['-db', '-f', 'docs/deployment/haproxy.cfg'], {
    ODONTIA_LB_PORT: String(lbPort),
    ODONTIA_A_PORT: String(a),
    ODONTIA_B_PORT: String(b),
  });
}

export function haproxyInstalled() {
  return spawnSync('haproxy', ['-v']).status === 0;
}

/** Waits for GET /api/ready to answer 200 on a port. */
export async function waitReady(port, proc, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc && proc.child.exitCode !== null) throw new Error(`${proc.name} exited:\n${proc.output}`);
    try {
      if ((await fetch(`${origin(port)}/api/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no readiness on ${port}${proc ? `:\n${proc.output}` : ''}`);
}

/** One JSON request; answers the status and the parsed body. */
export async function call(port, method, url, { token, body, headers = {}, signal } = {}) {
  const response = await fetch(`${origin(port)}${url}`, {
    method,
    ...(signal ? { signal } : {}),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, headers: response.headers };
}

/** The demo administrator's bearer token. */
export async function signIn(port) {
  const answer = await call(port, 'POST', '/api/auth/sign-in', { body: { ...demoAdmin, remember: false } });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.data.token;
}

/**
 * `workers` loops for `ms`; `work(worker, index)` answers `{ ok, status, write? }`. Answers the
 * counts, the failures by status, the acknowledged writes and each request's duration (ms).
 */
export async function steadyLoad(ms, workers, work) {
  const until = Date.now() + ms;
  const result = { requests: 0, errors: 0, statuses: {}, writes: [], durations: [] };
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; Date.now() < until; index++) {
        result.requests++;
        const started = performance.now();
        try {
          const outcome = await work(worker, index);
          if (!outcome.ok) {
            result.errors++;
            result.statuses[outcome.status] = (result.statuses[outcome.status] ?? 0) + 1;
          }
          if (outcome.write) result.writes.push(outcome.write);
        } catch (error) {
          result.errors++;
          const kind = error.name === 'TimeoutError' ? 'TimeoutError' : (error.cause?.code ?? 'network');
          result.statuses[kind] = (result.statuses[kind] ?? 0) + 1;
        }
        result.durations.push(performance.now() - started);
      }
    }),
  );
  return result;
}
