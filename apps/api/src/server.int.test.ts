import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freePort } from '../test/free-port.ts';
import { createTestApp } from '../test/test-app.ts';

const serverEntry = path.resolve(import.meta.dirname, 'server.ts');

interface RunningServer {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): RunningServer {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, server: RunningServer): Promise<void> {
  // Generous: a cold start (tsx, PGlite initdb, migrations, demo seed) on a busy 2-core machine.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no health answer:\n${server.output()}`);
}

/** server.ts as an operator runs it: embedded database on disk, signals, restarts. */
describe('server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-server-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves on PGlite, stops cleanly on SIGTERM and SIGINT, and starts again on the same files', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' };

    const first = startServer(env);
    await waitForHealth(port, first);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('stopped cleanly');
    // An empty embedded database gets the demo clinic, and the log gives its sign-in.
    expect(first.output()).toContain('Demo clinic created: sign in as administrador@sonrisa.demo');

    // The files PGlite left must open again, with the migrations already applied.
    const second = startServer(env);
    await waitForHealth(port, second);
    const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', database: 'pglite' });
    expect(second.output()).toContain('Demo clinic ready: sign in as administrador@sonrisa.demo');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('stopped cleanly');
  }, 240_000);

  it.runIf(process.env.DATABASE_URL)(
    'WEB_CONCURRENCY=2 on PostgreSQL: two server processes share the port; SIGTERM stops both, then the primary',
    async () => {
      const serverUrl = process.env.DATABASE_URL as string;
      const name = `odontia_test_cluster_${process.pid}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      try {
        const port = await freePort();
        const server = startServer({
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          WEB_CONCURRENCY: '2',
          SEED_DEMO: 'false',
        });
        await waitForHealth(port, server);
        // Both children of the primary are up (each logs that it is ready once it listens).
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && (server.output().match(/Odontia is ready/g) ?? []).length < 2) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect((server.output().match(/Odontia is ready/g) ?? []).length).toBe(2);
        // Ready for the balancer: a child answering while the other still holds the migrations' lock
        // says 503 migrations_running (as it should), so the check is repeated for a few seconds.
        let ready = 0;
        for (const started = Date.now(); Date.now() - started < 15_000 && ready !== 200; ) {
          ready = (await fetch(`http://127.0.0.1:${port}/api/ready`)).status;
          if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(ready).toBe(200);
        expect(server.output()).toContain('Odontia: 2 server processes on port');
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        expect((server.output().match(/stopped cleanly/g) ?? []).length).toBe(2);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    180_000,
  );

  it('refuses WEB_CONCURRENCY above 1 on the embedded database', async () => {
    const server = startServer({ WEB_CONCURRENCY: '2', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('WEB_CONCURRENCY must be 1 without DATABASE_URL');
  });

  it('refuses to start on a bad variable with one line naming it', async () => {
    const server = startServer({ PORT: 'ochenta', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    const lines = server.output().trim().split('\n');
    expect(lines).toEqual(['Invalid configuration: PORT must be a port number (got "ochenta")']);
  });

  it('finishes a request in flight before closing', async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { app, close } = await createTestApp({
      configure(instance) {
        instance.get('/api/test/slow', { config: { permission: 'public' } }, async () => {
          arrived();
          await new Promise((resolve) => setTimeout(resolve, 400));
          return { data: 'done' };
        });
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const inFlight = fetch(`http://127.0.0.1:${port}/api/test/slow`);
    // Close only once the request is being handled (a fixed wait is too short on a busy machine).
    await requestArrived;
    const closing = close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(z.object({ data: z.literal('done') }).parse(await response.json())).toEqual({ data: 'done' });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });
});
