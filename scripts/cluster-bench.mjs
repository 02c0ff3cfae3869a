// `npm run bench -- cluster [--seconds 20] [--clients 16] [--patients 1000]` (issue 20): a mixed
// workload through HAProxy (docs/deployment/haproxy.cfg) on a PostgreSQL of our own, with one
// instance, two instances, and one instance of WEB_CONCURRENCY=2: requests/s, p50/p99, errors, and
// the CPU of each server process, of PostgreSQL, of HAProxy and of this load generator, to show
// where the limit of this machine is. The mix, per request: patient search as you type 40 %,
// opening a patient's history (patient and attendances) 20 %, the invoices list 15 %, saving an
// attendance 15 %, booking an appointment 10 % (a taken slot answers 409: counted apart, not an
// error).
import './check-node.mjs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  call,
  createPostgres,
  freePort,
  haproxyInstalled,
  signIn,
  sleep,
  startHaproxy,
  startInstance,
  steadyLoad,
  stopProcess,
  waitReady,
} from './cluster-kit.mjs';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '16' },
    patients: { type: 'string', default: '1000' },
  },
});
const seconds = Number(options.seconds);
const clients = Number(options.clients);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'odontia-cluster-bench-'));
const surnames = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Díaz',
];
const ticksPerSecond = 100; // Linux's USER_HZ

/** CPU seconds (user + system) a process has used, from /proc; 0 once it is gone. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // After "pid (comm) ", utime and stime are the 12th and 13th fields.
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** The pids of a process and its children (a WEB_CONCURRENCY primary and its server processes). */
function withChildren(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [pid, ...children.flatMap(withChildren)];
  } catch {
    return [pid];
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  if (!haproxyInstalled()) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const postgres = await createPostgres();
  const lbPort = await freePort();
  const ports = [await freePort(), await freePort()];
  const instance = (index, env = {}) =>
    startInstance(`server ${index + 1}`, {
      PORT: String(ports[index]),
      DATABASE_URL: postgres.primary.url(),
      DATA_DIR: dataDir,
      SEED_DEMO: index === 0 ? 'true' : 'false',
      ...env,
    });
  let running = [];
  let haproxy;
  try {
    // The demo clinic and `patients` more, through the API.
    running = [instance(0)];
    await waitReady(ports[0], running[0]);
    const token = await signIn(ports[0]);
    const me = (await call(ports[0], 'GET', '/api/auth/system/me', { token })).json.data;
    const professionalId = me.user?.id ?? me.id;
    const made = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < Number(options.patients); index += 8) {
          const answer = await call(ports[0], 'POST', '/api/patients', {
            token,
            body: {
              firstName: 'Paciente',
              lastName: `${surnames[index % surnames.length]} ${index}`,
              sex: index % 2 ? 'female' : 'male',
              birthdate: '1985-06-15',
            },
          });
          if (answer.status === 201) made.push(answer.json.data.id);
        }
      }),
    );
    const patients = (await call(ports[0], 'GET', '/api/patients?page=1&pageSize=100', { token })).json.data
      .map((patient) => patient.id)
      .concat(made);
    await stopProcess(running[0]);
    running = [];
    console.log(
      `cluster bench: PostgreSQL of its own, ${patients.length} patients; ${clients} clients for ${seconds} s per set-up through HAProxy, on ${os.cpus().length} cores`,
    );

    const pick = (list) => list[Math.floor(Math.random() * list.length)];
    let conflicts = 0;
    const work = async () => {
      const roll = Math.random() * 100;
      const patientId = pick(patients);
      let answer;
      if (roll < 40) {
        const word = pick(surnames);
        answer = await call(
          lbPort,
          'GET',
          `/api/patients?q=${encodeURIComponent(word.slice(0, 2 + Math.floor(Math.random() * 4)))}&pageSize=20`,
          { token },
        );
      } else if (roll < 60) {
        const [patient, history] = await Promise.all([
          call(lbPort, 'GET', `/api/patients/${patientId}`, { token }),
          call(lbPort, 'GET', `/api/patients/${patientId}/attendances?page=1&pageSize=20`, { token }),
        ]);
        answer = patient.status !== 200 ? patient : history;
      } else if (roll < 75) {
        answer = await call(lbPort, 'GET', '/api/sales?page=1&pageSize=20', { token });
      } else if (roll < 90) {
        answer = await call(lbPort, 'POST', `/api/patients/${patientId}/attendances`, {
          token,
          body: {
            date: new Date(Date.now() - Math.floor(Math.random() * 86_400_000 * 30)).toISOString(),
            attendanceType: 'dentistry',
            professionalId,
            titleResume: 'Control',
            billable: false,
          },
        });
      } else {
        const day = new Date(Date.UTC(2027, 0, 1) + Math.floor(Math.random() * 2000) * 86_400_000);
        day.setUTCHours(11 + Math.floor(Math.random() * 10), Math.random() < 0.5 ? 0 : 30);
        answer = await call(lbPort, 'POST', '/api/appointments', {
          token,
          body: {
            patientId,
            professionalId,
            startsAt: day.toISOString(),
            endsAt: new Date(day.getTime() + 30 * 60_000).toISOString(),
            allowOutsideSchedule: true,
          },
        });
        if (answer.status === 409) {
          conflicts++;
          return { ok: true, status: 409 };
        }
      }
      return { ok: answer.status < 300, status: answer.status };
    };

    const setups = [
      { label: 'one instance', servers: [[0, {}]], targets: [0, 0] },
      {
        label: 'two instances',
        servers: [
          [0, {}],
          [1, {}],
        ],
        targets: [0, 1],
      },
      { label: 'one instance, WEB_CONCURRENCY=2', servers: [[0, { WEB_CONCURRENCY: '2' }]], targets: [0, 0] },
    ];
    for (const setup of setups) {
      running = setup.servers.map(([index, env]) => instance(index, { ...env, SEED_DEMO: 'false' }));
      for (const [index] of setup.servers)
        await waitReady(ports[index], running[setup.servers.findIndex(([i]) => i === index)]);
      haproxy = startHaproxy(
        lbPort,
        setup.targets.map((index) => ports[index]),
      );
      await waitReady(lbPort, haproxy);
      await sleep(2500); // every server passes its checks
      await steadyLoad(3000, clients, work); // warm-up
      conflicts = 0;
      const processes = {
        servers: running.map((proc) => withChildren(proc.child.pid)),
        postgres: postgres.primary.pids(),
        haproxy: [haproxy.child.pid],
      };
      const before = {
        servers: processes.servers.map((pids) => pids.map(cpuSeconds)),
        postgres: processes.postgres.map(cpuSeconds),
        haproxy: cpuSeconds(haproxy.child.pid),
        generator: process.cpuUsage(),
      };
      const started = performance.now();
      const result = await steadyLoad(seconds * 1000, clients, work);
      const wall = (performance.now() - started) / 1000;
      const percent = (cpu) => `${Math.round((cpu / wall) * 100)} %`;
      const serverCpu = processes.servers.flatMap((pids, at) =>
        pids.map((pid, index) => ({ pid, cpu: cpuSeconds(pid) - (before.servers[at]?.[index] ?? 0) })),
      );
      // A WEB_CONCURRENCY primary only hands out connections: its children serve.
      const serving = serverCpu.filter((entry) => entry.cpu > 0.05 * wall || serverCpu.length === 1);
      const postgresCpu = processes.postgres.reduce(
        (total, pid, index) => total + cpuSeconds(pid) - (before.postgres[index] ?? 0),
        0,
      );
      const generator = process.cpuUsage(before.generator);
      const sorted = [...result.durations].sort((a, b) => a - b);
      console.log(
        `${setup.label}: ${Math.round(result.requests / wall)} req/s, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, errors ${result.errors}${result.errors ? ` ${JSON.stringify(result.statuses)}` : ''}, taken slots ${conflicts}; CPU: server processes ${serving.map((entry) => percent(entry.cpu)).join(' + ')}, PostgreSQL ${percent(postgresCpu)}, HAProxy ${percent(cpuSeconds(haproxy.child.pid) - before.haproxy)}, load generator ${percent((generator.user + generator.system) / 1e6)}`,
      );
      await stopProcess(haproxy);
      for (const proc of running) await stopProcess(proc);
      running = [];
    }
    console.log(
      `(100 % is one core; this machine has ${os.cpus().length}: when the processes together use them all, the machine is the limit, not the application tier)`,
    );
  } finally {
    await stopProcess(haproxy);
    for (const proc of running) await stopProcess(proc);
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
