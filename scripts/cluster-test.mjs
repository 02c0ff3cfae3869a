// `npm run test:cluster` (issue 20): two Odontia instances behind HAProxy (docs/deployment/haproxy.cfg,
// as shipped) on one PostgreSQL database, all on loopback, and the scenarios that prove nothing an
// instance needs lives in another's memory:
//   - the sign-in throttle is shared: the 11th failure, wherever it lands, answers 429;
//   - a sign-out on one instance is refused on the other at the next request;
//   - one idempotency key sent to both instances at once makes one collection;
//   - both instances run the job queue and each appointment reminder is sent exactly once;
//   - SIGTERM under steady load: the instance drains (readiness 503, then closes) and no request fails;
//   - kill -9 under a steady load of reads and writes: no acknowledged write is lost, the survivor
//     keeps answering, and the killed instance starts again clean;
//   - PostgreSQL restarted under load (pg_ctl restart -m fast): requests answer 200 or 503, never a
//     500 or a hang, and the same instances serve again within seconds, never restarted;
//   - a streaming replica (pg_basebackup) serves the dashboard and the lists (DATABASE_REPLICA_URL),
//     and with its replay paused a client still reads its own write (through the primary) while
//     another client reads the replica's older state, until replay resumes.
// The PostgreSQL is its own (scripts/cluster-kit.mjs: initdb on a free port), so restarting it
// disturbs nothing else. It prints what it measured and tears everything down (processes, the
// cluster's folder, files). Needs PostgreSQL's server binaries and haproxy.
import './check-node.mjs';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  call,
  createPostgres,
  demoAdmin,
  freePort,
  haproxyInstalled,
  origin,
  signIn,
  sleep,
  startHaproxy,
  startInstance as startServer,
  steadyLoad,
  stopProcess,
  waitReady,
} from './cluster-kit.mjs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'odontia-cluster-'));
const ports = { lb: await freePort(), a: await freePort(), b: await freePort() };

const failures = [];
let passedChecks = 0;
const check = (condition, what) => {
  console.log(`  ${condition ? 'ok  ' : 'FAIL'} ${what}`);
  if (condition) passedChecks += 1;
  else failures.push(what);
};

/** CI adds up every runner's counts (scripts/test-counts.mjs): each check is one test. */
function writeCounts() {
  const dir = process.env.ODONTIA_TEST_COUNTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `cluster-${process.pid}.json`),
    JSON.stringify({ passed: passedChecks, failed: failures.length }),
  );
}

let postgres;
const processes = {};
let haproxy;

/** Instance `a` or `b`, on the cluster's primary and replica, its DATA_DIR shared. */
function startInstance(name, seed) {
  return startServer(name, {
    PORT: String(ports[name]),
    DATABASE_URL: postgres.primary.url(),
    DATABASE_REPLICA_URL: postgres.replica.url(),
    DATA_DIR: dataDir,
    SHUTDOWN_DRAIN_MS: '2500',
    SEED_DEMO: seed ? 'true' : 'false',
    JOBS_POLL_MS: '250',
  });
}

async function main() {
  if (!haproxyInstalled()) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  let started = performance.now();
  postgres = await createPostgres({ replica: true });
  console.log(
    `cluster test: PostgreSQL on ${postgres.primary.port} and its streaming replica on ${postgres.replica.port} (ready in ${((performance.now() - started) / 1000).toFixed(1)} s), instances on ${ports.a} and ${ports.b}, HAProxy on ${ports.lb}`,
  );

  // A migrates and seeds the demo clinic; B starts on the migrated database.
  started = performance.now();
  processes.a = startInstance('a', true);
  await waitReady(ports.a, processes.a);
  processes.b = startInstance('b', false);
  await waitReady(ports.b, processes.b);
  console.log(`  both instances ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  haproxy = startHaproxy(ports.lb, [ports.a, ports.b]);
  await waitReady(ports.lb, haproxy);
  await sleep(3000); // both servers pass `rise 2` checks (inter 1s)

  console.log('shared sign-in throttle (PostgreSQL auth_failures), through HAProxy (round robin):');
  const stranger = `nadie-${randomUUID()}@sonrisa.demo`;
  const address = `203.0.113.${1 + Math.floor(Math.random() * 200)}`;
  const statuses = [];
  for (let attempt = 0; attempt < 11; attempt++) {
    const answer = await call(ports.lb, 'POST', '/api/auth/sign-in', {
      body: { email: stranger, password: 'no-es-esta-123', remember: false },
      headers: { 'x-forwarded-for': address },
    });
    statuses.push(answer.status);
  }
  check(
    statuses.slice(0, 10).every((status) => status === 401),
    `10 failures answer 401 (${statuses.slice(0, 10).join(' ')})`,
  );
  check(statuses[10] === 429, `the 11th answers 429 (got ${statuses[10]})`);

  console.log('session revocation shared:');
  const token = await signIn(ports.a);
  check(
    (await call(ports.b, 'GET', '/api/auth/system/me', { token })).status === 200,
    'a session made on A works on B',
  );
  check((await call(ports.b, 'POST', '/api/auth/sign-out', { token, body: {} })).status === 200, 'signed out on B');
  const after = await call(ports.a, 'GET', '/api/auth/system/me', { token });
  check(after.status === 401, `A refuses it at the next request (got ${after.status})`);

  console.log('one idempotency key sent to both instances at once:');
  const session = await signIn(ports.lb);
  const patients = await call(ports.lb, 'GET', '/api/patients?page=1&pageSize=1', { token: session });
  const patientId = patients.json.data[0].id;
  const key = `cluster-${randomUUID()}`;
  const collection = {
    patientId,
    date: new Date().toISOString().slice(0, 10),
    amount: '1234.56',
    currency: 'argentine_peso',
    method: 'cash_payment',
  };
  const answers = await Promise.all(
    [ports.a, ports.b, ports.a, ports.b].map((port) =>
      call(port, 'POST', '/api/collections', { token: session, body: collection, headers: { 'idempotency-key': key } }),
    ),
  );
  const ids = new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.json.data.id));
  check(
    answers.every((answer) => answer.status === 201 || answer.status === 409),
    `every answer 201 (or 409 while the first is in flight): ${answers.map((answer) => answer.status).join(' ')}`,
  );
  check(ids.size === 1, `one collection (${ids.size} ids)`);

  console.log('appointment reminders: both instances run the job queue, each reminder is sent once:');
  const signedIn = await call(ports.lb, 'POST', '/api/auth/sign-in', { body: { ...demoAdmin, remember: false } });
  const professionalId = signedIn.json.data.user.id;
  const addresses = [];
  const refusals = [];
  // Half-hour slots from three hours ahead, inside the clinic's reminder lead time (so each reminder is
  // due at once). The demo clinic's own agenda fills some of them, and which depends on the hour the
  // run starts: a slot the demo already holds answers 409 and the next one is tried.
  const halfHour = 30 * 60_000;
  let slot = Math.ceil(Date.now() / halfHour) * halfHour + 6 * halfHour;
  for (let index = 0; index < 12; index++) {
    const email = `recordatorio-${randomUUID().slice(0, 8)}@clinica.test`;
    const patient = await call(ports.lb, 'POST', '/api/patients', {
      token: session,
      body: { firstName: 'Recordatorio', lastName: `Cluster ${index}`, sex: 'female', birthdate: '1980-01-01', email },
    });
    for (let tries = 0; tries < 24; tries++, slot += halfHour) {
      const booked = await call(ports.lb, 'POST', '/api/appointments', {
        token: session,
        body: {
          patientId: patient.json.data.id,
          professionalId,
          startsAt: new Date(slot).toISOString(),
          endsAt: new Date(slot + halfHour).toISOString(),
          allowOutsideSchedule: true,
        },
      });
      if (booked.status === 201) {
        addresses.push(email);
        slot += halfHour;
        break;
      }
      if (booked.json?.code !== 'appointment_overlaps') {
        refusals.push(`${patient.status}/${booked.status} ${booked.json?.code ?? ''}`);
        break;
      }
    }
  }
  const outbox = path.join(dataDir, 'outbox');
  const mailsTo = () => {
    const counts = Object.fromEntries(addresses.map((address) => [address, 0]));
    for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
      const text = readFileSync(path.join(outbox, file), 'utf8');
      for (const address of addresses) if (text.includes(address)) counts[address]++;
    }
    return counts;
  };
  const reminded = performance.now();
  while (Object.values(mailsTo()).some((count) => count === 0) && performance.now() - reminded < 30_000)
    await sleep(250);
  await sleep(2000); // a second send would have happened by now (both workers poll every 250 ms)
  const counts = Object.values(mailsTo());
  check(
    addresses.length === 12,
    `12 appointments booked with a reminder due now (${addresses.length}) ${refusals.join(', ')}`,
  );
  check(
    counts.every((count) => count === 1),
    `each reminder sent exactly once (${counts.join(' ')}), all within ${((performance.now() - reminded - 2000) / 1000).toFixed(1)} s`,
  );

  console.log('SIGTERM under steady load (readiness off, drain, close):');
  const reads = (worker) =>
    call(ports.lb, 'GET', `/api/patients?page=${1 + (worker % 5)}&pageSize=20`, { token: session }).then((answer) => ({
      ok: answer.status === 200,
      status: answer.status,
    }));
  const loading = steadyLoad(9000, 8, reads);
  await sleep(2000);
  started = performance.now();
  processes.b.child.kill('SIGTERM');
  const bExit = await processes.b.exited;
  const drained = (performance.now() - started) / 1000;
  const load = await loading;
  check(bExit === 0, `B exited 0 after ${drained.toFixed(1)} s`);
  check(
    load.errors === 0,
    `${load.requests} requests through HAProxy, ${load.errors} failed ${JSON.stringify(load.statuses)}`,
  );
  processes.b = startInstance('b', false);
  await waitReady(ports.b, processes.b);
  await sleep(3000);

  console.log('kill -9 under a steady load of reads and writes:');
  const mixed = async (worker, index) => {
    if (index % 3 === 0) {
      const answer = await call(ports.lb, 'POST', '/api/patients', {
        token: session,
        body: {
          firstName: 'Carga',
          lastName: `Cluster ${worker}-${index}-${randomUUID().slice(0, 8)}`,
          sex: 'female',
          birthdate: '1990-01-01',
        },
      });
      return {
        ok: answer.status === 201,
        status: answer.status,
        write: answer.status === 201 ? answer.json.data.id : undefined,
      };
    }
    return reads(worker);
  };
  const killing = steadyLoad(8000, 8, mixed);
  await sleep(2500);
  processes.a.child.kill('SIGKILL');
  const killed = await killing;
  await processes.a.exited;
  check(
    killed.errors <= 8,
    `${killed.requests} requests, ${killed.errors} failed (at most those in flight on A: 8) ${JSON.stringify(killed.statuses)}`,
  );
  let lost = 0;
  for (const id of killed.writes) {
    const answer = await call(ports.b, 'GET', `/api/patients/${id}`, { token: session });
    if (answer.status !== 200) lost++;
  }
  check(lost === 0, `${killed.writes.length} acknowledged writes, ${lost} lost`);
  started = performance.now();
  processes.a = startInstance('a', false);
  await waitReady(ports.a, processes.a);
  check(true, `A started again clean in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await sleep(3000);

  console.log('PostgreSQL restarted under load (pg_ctl restart -m fast):');
  const pids = [processes.a.child.pid, processes.b.child.pid];
  const timeline = [];
  const timedReads = async (worker) => {
    const at = performance.now();
    const answer = await call(ports.lb, 'GET', `/api/patients?page=${1 + (worker % 5)}&pageSize=20`, {
      token: session,
      signal: AbortSignal.timeout(10_000),
    });
    timeline.push({ at, status: answer.status, code: answer.json?.code });
    return { ok: answer.status === 200, status: answer.status };
  };
  const restarting = steadyLoad(12_000, 8, timedReads);
  await sleep(2500);
  const restartAt = performance.now();
  await postgres.primary.restart();
  const restartedIn = (performance.now() - restartAt) / 1000;
  const during = await restarting;
  const unexpected = timeline.filter((entry) => entry.status !== 200 && entry.status !== 503);
  const fromInstances = timeline.filter((entry) => entry.code === 'service_unavailable').length;
  const failedAt = timeline.filter((entry) => entry.status !== 200).map((entry) => entry.at);
  const recovered = failedAt.length === 0 ? 0 : (Math.max(...failedAt) - restartAt) / 1000;
  check(
    unexpected.length === 0 && !('network' in during.statuses) && !('TimeoutError' in during.statuses),
    `${during.requests} requests, ${during.errors} not 200: all 503 (${fromInstances} service_unavailable from an instance, the rest HAProxy's while none was ready); no 500, no hang ${JSON.stringify(during.statuses)}`,
  );
  check(
    recovered < 10,
    `PostgreSQL restarted in ${restartedIn.toFixed(1)} s; the last failed request began ${recovered.toFixed(1)} s after the restart did`,
  );
  check(
    processes.a.child.pid === pids[0] &&
      processes.b.child.pid === pids[1] &&
      processes.a.child.exitCode === null &&
      processes.b.child.exitCode === null,
    'the same two instance processes serve: neither needed a restart',
  );
  const afterRestart = await call(ports.lb, 'GET', '/api/patients?page=1&pageSize=5', { token: session });
  check(afterRestart.status === 200, `a request after it answers 200 (got ${afterRestart.status})`);

  console.log('reads on the streaming replica (DATABASE_REPLICA_URL):');
  const replica = new pg.Client({ connectionString: postgres.replica.url() });
  await replica.connect();
  try {
    const commits = async () =>
      Number(
        (await replica.query(`select xact_commit from pg_stat_database where datname = 'odontia'`)).rows[0].xact_commit,
      );
    await sleep(600); // the statistics are flushed every half second or so
    const before = await commits();
    for (let index = 0; index < 30; index++) await call(ports.lb, 'GET', '/api/dashboard', { token: session });
    // Idle backends flush their statistics within ~10 s: wait for them.
    let served = 0;
    for (let waited = 0; waited < 15_000 && served < 30; waited += 500) {
      await sleep(500);
      served = (await commits()) - before;
    }
    check(served >= 30, `30 dashboards through HAProxy: ${served} transactions committed on the replica`);

    await replica.query('select pg_wal_replay_pause()');
    const surname = `Réplica ${randomUUID().slice(0, 8)}`;
    const write = await fetch(`${origin(ports.lb)}/api/patients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: JSON.stringify({ firstName: 'Lectura', lastName: surname, sex: 'female', birthdate: '1990-01-01' }),
    });
    const lsn = write.headers.get('x-odontia-lsn');
    check(write.status === 201 && Boolean(lsn), `a write answers 201 and the WAL position to wait for (${lsn})`);
    const search = `/api/patients?q=${encodeURIComponent(surname)}`;
    const found = async (headers) =>
      ((await call(ports.lb, 'GET', search, { token: session, headers })).json?.data ?? []).length > 0;
    check(await found({ 'x-odontia-lsn': lsn }), 'replay paused: the writer reads its own write (the primary answers)');
    check(!(await found({})), 'replay paused: another client reads the replica, which has not replayed it yet');
    await replica.query('select pg_wal_replay_resume()');
    const resumed = performance.now();
    let seen = false;
    while (!seen && performance.now() - resumed < 10_000) {
      seen = await found({});
      if (!seen) await sleep(50);
    }
    check(seen, `replay resumed: the replica shows it after ${((performance.now() - resumed) / 1000).toFixed(2)} s`);
  } finally {
    await replica.end();
  }
}

async function teardown() {
  for (const proc of [haproxy, ...Object.values(processes)]) await stopProcess(proc);
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  await main();
} catch (error) {
  failures.push(error.message);
  console.error(error);
  for (const proc of [haproxy, ...Object.values(processes)])
    if (proc) console.error(`--- ${proc.name}:\n${proc.output.slice(-4000)}`);
} finally {
  await teardown();
}
writeCounts();
if (failures.length > 0) {
  console.error(`cluster test: ${failures.length} failed`);
  process.exit(1);
}
console.log('cluster test: all passed');
