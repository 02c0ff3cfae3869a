// `npm run bench <startup|bundle|inventory|patients|http|installation|agenda|portal|purchasing|sales|dashboard|messages|einvoice|clinic-money|odontogram|clinical|import|cluster|web|all>`: prints the figures of the issues.
//   startup  time from `npm start` (node scripts/start.mjs) to the first 200 of /api/health,
//            on an empty DATA_DIR (PGlite initdb + migrations) and on a reused one
//   bundle   gzip size of the JavaScript Chromium loads for /auth/sign-in (budget 150 KB) and for the
//            patient portal's pages (issue 37: the clinic's page, its booking, the portal; 120 KB each)
//   inventory  search-as-you-type and 5-item stock decrement p50/p95 on 50,000 items and
//            2,000,000 movements (apps/api/bench/inventory.ts; `-- --pglite` for the embedded database)
//   patients   search, the heaviest history and saving an attendance on 100,000 patients and
//            1,000,000 attendances (apps/api/bench/patients.ts; also `-- --pglite`)
//   http     requests/s and p50/p99 over real HTTP (the server of `npm start` on PostgreSQL, autocannon at
//            16 connections) of one patient, the patient search and /api/health, against the same
//            statements sent straight through pg (apps/api/bench/http.ts; `-- --server-root <dir>`
//            also benches another checkout's server)
//   installation  whether a clinic pays for the others' data: one clinic's searches and heaviest
//            history alone, then among 300 clinics (6,000,000 patients, 3,000,000 items), PostgreSQL
//            only; the p95 ratio per operation (goal within 1.2×) (apps/api/bench/installation.ts)
//   agenda   a week view for all professionals, the free-slots search and booking (p50/p95) on
//            10 professionals and 200,000 appointments over three years (apps/api/bench/agenda.ts;
//            also `-- --pglite`; goal p95 < 30 ms week, < 20 ms booking on PostgreSQL)
//   portal   online booking (issue 37): the free slots of 30 days for all professionals (the public
//            route) and the booking write, on the agenda bench's clinic (apps/api/bench/portal.ts; also
//            `-- --pglite`; goal p95 ≤ 50 ms free slots, ≤ 30 ms booking on PostgreSQL)
//   purchasing  the providers' current accounts list, one provider's ledger for a year and registering a
//            20-line invoice (p50/p95) on 200 providers, 200,000 purchase documents and 150,000 payments
//            (apps/api/bench/purchasing.ts; also `-- --pglite`; goal p95 < 50, 30 and 40 ms on PostgreSQL)
//   sales    issuing a 10-line invoice, one customer's sales list, a customer's statement for a year and
//            the customers' current accounts (p50/p95) on 1,000,000 sales and 800,000 collections
//            (apps/api/bench/sales.ts; also `-- --pglite`; goal p95 < 30, 30, 50 and 80 ms on PostgreSQL)
//   dashboard  the whole dashboard (p50/p95) for this month, 30 days and a year on 100,000 patients,
//            1,000,000 attendances, 200,000 appointments and 1,000,000 sales documents
//            (apps/api/bench/dashboard.ts; also `-- --pglite`; goal p95 < 150 ms on PostgreSQL)
//   messages  20,000 SMS and WhatsApp reminders due at once across 200 clinics (issue 38), through the
//            local fake provider, with one server process and then two (real processes on a fresh
//            PostgreSQL database): seconds until all are sent, messages/s, sent twice, delivery webhooks
//            (apps/api/bench/messages.ts; `-- --clinics N --reminders N`; goal ≤ 120 s with two, none twice)
//   einvoice  10,000 invoices issued through the API across 20 clinics under ARCA homologation (issue 39),
//            authorised through the queue by the local fake ARCA (its own process), with one server process
//            and then two (real processes on a fresh PostgreSQL database): p50/p95 from the issue to
//            authorised, authorised/s, each authorised once and numbered 1…n as the fake holds it, WSAA
//            logins (apps/api/bench/einvoice.ts; `-- --clinics N --invoices N --rate N --poll-ms N`; no goal)
//   clinic-money  issue 40's three figures, each beside its small baseline, PostgreSQL: closing a register
//            of 10,000 movements (goal p95 ≤ 200 ms), settling a month of 100,000 invoice lines (≤ 2 s),
//            a payer's presentation of 50,000 lines as a job (≤ 5 s) (apps/api/bench/clinic-money.ts;
//            `-- --smoke` small sizes, `-- --pglite`)
//   clinical  issue 41: opening a patient's clinical chart — each request the Periodontograma and Plan de
//            tratamiento tabs make, server-side p95 through the real app on PostgreSQL for a patient with 20
//            full-mouth perio exams and a 60-item plan, beside one with 1 of each (apps/api/bench/clinical.ts: a
//            list of named requests, goal p95 ≤ 50 ms; `-- --pglite`, `-- --exams N`, `-- --items N`,
//            `-- --runs N`), then the perio chart's render in Chromium (data → painted
//            frame, on opening the tab, BENCH_RUNS default 10; goal ≤ 100 ms)
//   import   issue 42: importing 100,000 patients through the wizard's API (upload, dry run, import) beside
//            a 1,000-row baseline in the same run: seconds and peak memory, then the same file again
//            (apps/api/bench/import.ts; `-- --pglite`, `-- --rows N`; goal ≤ 3 minutes, memory bounded)
//   cluster  a mixed workload through HAProxy with one instance, two, and WEB_CONCURRENCY=2:
//            requests/s, p50/p99, errors and the CPU of each process (scripts/cluster-bench.mjs;
//            `-- --seconds N --clients N --patients N`)
//   web      Lighthouse (performance) on sign-in, the dashboard, the agenda and a patient's history, signed
//            in, mobile and desktop, median of 3: score, LCP, TBT, CLS against the goals (scripts/web-bench.mjs;
//            `-- --runs N --baseline <another build's dist>`; the system Chromium)
//   odontogram  time from the chart's data arriving to the frame after the chart is painted, in
//            Chromium, for 52 teeth (mixed dentition) and 200 past entries: on opening the tab
//            (page reloads) and on moving along the timeline; p50/p95 (BENCH_RUNS, default 10)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'apps/web/dist');
const budgetKb = 150;
/** The patient portal's own entry (issue 37): the most a portal page may load. */
const portalBudgetKb = 120;
/** The portal's first pages a patient opens, from the clinic's public page or a mail. */
const portalPages = ['c/sonrisa', 'c/sonrisa/book', 'portal/sign-in', 'portal', 'portal/clinics', 'portal/password'];
const runs = Number(process.env.BENCH_RUNS ?? 3);

function ensureWebBuild() {
  if (existsSync(path.join(distDir, 'index.html'))) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(1);
}

function startServer(dataDir, port) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, exited };
}

async function timeToHealth(port, child) {
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited before answering');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error('no health answer in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stopServer(server) {
  server.child.kill('SIGTERM');
  const code = await server.exited;
  if (code !== 0) throw new Error(`the server exited with ${code} on SIGTERM`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function benchStartup() {
  ensureWebBuild();
  const port = 3900 + Math.floor(Math.random() * 90);
  const empty = [];
  const reused = [];
  for (let run = 0; run < runs; run += 1) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-'));
    try {
      let server = startServer(dataDir, port);
      empty.push(await timeToHealth(port, server.child));
      await stopServer(server);
      server = startServer(dataDir, port);
      reused.push(await timeToHealth(port, server.child));
      await stopServer(server);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const show = (values) =>
    `${(median(values) / 1000).toFixed(2)} s (median of ${values.length}: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')})`;
  console.log(`startup to first 200 of /api/health, empty DATA_DIR:  ${show(empty)}`);
  console.log(`startup to first 200 of /api/health, reused DATA_DIR: ${show(reused)}`);
}

/** The JavaScript files Chromium loads for `pagePath`, largest first, with their gzip sizes printed. */
async function scriptsOf(browser, port, pagePath) {
  const page = await browser.newPage({ locale: 'es-ES' });
  const scripts = new Set();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
  });
  await page.goto(`http://127.0.0.1:${port}/${pagePath}`, { waitUntil: 'networkidle' });
  await page.close();
  let total = 0;
  const rows = [];
  for (const pathname of scripts) {
    const file = path.join(distDir, pathname.replace(/^\//, ''));
    const gzip = gzipSync(readFileSync(file), { level: 9 }).length;
    total += gzip;
    rows.push([gzip, path.basename(file)]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  console.log(`/${pagePath}:`);
  for (const [size, name] of rows) console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${name}`);
  return { total, files: rows.map(([, name]) => name) };
}

async function benchBundle() {
  ensureWebBuild();
  const { chromium } = await import('@playwright/test');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-'));
  const port = 3990 + Math.floor(Math.random() * 9);
  const server = startServer(dataDir, port);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    await timeToHealth(port, server.child);
    const signIn = await scriptsOf(browser, port, 'auth/sign-in');
    const heavy = signIn.files.filter((name) => /apexcharts|fullcalendar/i.test(name));
    console.log(
      `sign-in page JavaScript: ${signIn.files.length} files, ${(signIn.total / 1024).toFixed(1)} KB gzip (budget ${budgetKb} KB)`,
    );
    console.log(`charts or calendar loaded on sign-in: ${heavy.length ? heavy.join(', ') : 'no'}`);
    if (signIn.total > budgetKb * 1024 || heavy.length) process.exitCode = 1;
    for (const pagePath of portalPages) {
      const portal = await scriptsOf(browser, port, pagePath);
      // The portal must never load the staff app's chunks (apps/web/chunk-groups.ts).
      const staff = portal.files.filter((name) => /^(?:start|public|app|index)-[\w-]{7,8}\.js$/.test(name));
      console.log(
        `portal /${pagePath} JavaScript: ${portal.files.length} files, ${(portal.total / 1024).toFixed(1)} KB gzip (budget ${portalBudgetKb} KB)${staff.length ? `; staff app chunks: ${staff.join(', ')}` : ''}`,
      );
      if (portal.total > portalBudgetKb * 1024 || staff.length) process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Runs node with `args` in the checkout, showing its output; its failure fails this run. */
function runNode(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}

/** The cluster's mixed workload through HAProxy (issue 20): scripts/cluster-bench.mjs. */
function benchCluster() {
  runNode([path.join(root, 'scripts/cluster-bench.mjs'), ...process.argv.slice(3)]);
}

/** Lighthouse on the web app (issue 34): scripts/web-bench.mjs. */
function benchWeb() {
  runNode([path.join(root, 'scripts/web-bench.mjs'), ...process.argv.slice(2)]);
}

/** The value at the p-th percentile (nearest rank). */
function percentileOf(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** "p50 …, p95 … (N runs: …)" of render times in milliseconds. */
function renderFigures(values) {
  return `p50 ${percentileOf(values, 50).toFixed(1)} ms, p95 ${percentileOf(values, 95).toFixed(1)} ms (${values.length} runs: ${values.map((v) => v.toFixed(1)).join(', ')})`;
}

/**
 * A render benchmark in Chromium against the built app on a fresh embedded demo: starts the server
 * on `portBase` + 0…8, signs in through the API (`api(method, url, body)` with the demo
 * administrator's token) for `seed` to write the data, then signs in on a page and hands it to
 * `measure`. Everything is stopped and removed after.
 */
async function withDemoPage(portBase, seed, measure) {
  ensureWebBuild();
  const { chromium } = await import('@playwright/test');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-'));
  const port = portBase + Math.floor(Math.random() * 9);
  const server = startServer(dataDir, port);
  const origin = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    await timeToHealth(port, server.child);
    const email = 'administrador@sonrisa.demo';
    const password = 'sonrisa-demo-2026';
    const call = async (method, url, token, body) => {
      const response = await fetch(`${origin}/api/${url}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const token = (await call('POST', 'auth/sign-in', null, { email, password, remember: false })).data.token;
    const api = (method, url, body) => call(method, url, token, body);
    const seeded = await seed(api);
    const page = await browser.newPage({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/auth/sign-in`);
    await page.locator('input[type="email"]').fill(email);
    await page.locator('input[type="password"]').fill(password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
    await measure({ page, origin, api, seeded });
  } finally {
    await browser.close();
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Times `open(run)` `runs` times by the page's own `performance` entry `name` (data arrival → frame
 * after paint), one new entry per open. `navigates`: each open loads a new document (its entries
 * start again from none) and a first, untimed open warms the caches (chunks, catalogs).
 */
async function timeRenders(page, name, runs, open, { navigates }) {
  const renders = () => page.evaluate((entry) => performance.getEntriesByName(entry).map((e) => e.duration), name);
  const times = [];
  const warm = navigates ? 1 : 0;
  for (let run = 0; run < runs + warm; run += 1) {
    const count = navigates ? 0 : (await renders()).length;
    await open(run);
    await page.waitForFunction(
      ({ entry, before }) => performance.getEntriesByName(entry).length > before,
      { entry: name, before: count },
      { timeout: 30_000 },
    );
    if (run >= warm) times.push((await renders()).at(-1));
  }
  return times;
}

/**
 * A smoke run (CI's 3 runs, after the other lanes on a busy machine) shows the benchmark still
 * runs and catches a render gone ten times slower; the goal itself is judged on a real run.
 */
function judgeRender(times, runs, benchName) {
  const smoke = runs < 10;
  if (percentileOf(times, 50) > (smoke ? 1000 : 100)) process.exitCode = 1;
  else if (smoke && percentileOf(times, 50) > 100)
    console.log(`(smoke run: the goal is judged on a real run, npm run bench -- ${benchName})`);
}

/** The odontogram's render figure (issue 6): data arrival → frame after paint, measured by the page itself. */
async function benchOdontogram() {
  const runs = Number(process.env.BENCH_RUNS ?? 10);
  await withDemoPage(
    3980,
    async (api) => {
      const patient = (
        await api('POST', 'patients', {
          firstName: 'Benchmark',
          lastName: 'Odontograma',
          sex: 'female',
          birthdate: '2015-03-01',
        })
      ).data.id;
      // 200 entries in 40 visits of 5 marks, over the last 400 days, on permanent and primary teeth.
      const teeth = [
        ...[1, 2, 3, 4].flatMap((q) => [1, 2, 3, 4, 5, 6, 7, 8].map((t) => q * 10 + t)),
        ...[5, 6, 7, 8].flatMap((q) => [1, 2, 3, 4, 5].map((t) => q * 10 + t)),
      ];
      const zones = ['occlusal', 'mesial', 'distal', 'buccal', 'lingual'];
      const zoneStatuses = ['caries', 'filling', 'sealant', 'fractured'];
      const pieceStatuses = ['crown', 'root_canal', 'implant', 'missing', 'to_extract', 'provisional', 'bridge'];
      let n = 0;
      for (let visit = 0; visit < 40; visit += 1) {
        const marks = [];
        const used = new Set();
        while (marks.length < 5) {
          const tooth = teeth[(n * 7) % teeth.length];
          const piece = n % 6 === 5;
          const zone = piece ? null : zones[n % zones.length];
          n += 1;
          if (used.has(`${tooth}:${zone}`)) continue;
          used.add(`${tooth}:${zone}`);
          marks.push({
            tooth,
            zone,
            status: piece ? pieceStatuses[n % pieceStatuses.length] : zoneStatuses[n % zoneStatuses.length],
          });
        }
        const chartedAt = new Date(Date.now() - (400 - visit * 10) * 86_400_000).toISOString();
        await api('POST', `patients/${patient}/odontogram/entries`, { chartedAt, marks });
      }
      return patient;
    },
    async ({ page, origin, api, seeded: patient }) => {
      const open = await timeRenders(
        page,
        'odontogram:render',
        runs,
        () => page.goto(`${origin}/patients/${patient}/mh?tab=odontogram`),
        { navigates: true },
      );
      const drawn = await page.locator('[data-testid="odontogram-chart"] [data-tooth]').count();
      const stops = Number(await page.getByTestId('timeline-slider').getAttribute('max'));
      const timeline = await timeRenders(
        page,
        'odontogram:render',
        runs,
        (run) => page.getByTestId('timeline-slider').fill(String((run * 7) % stops)),
        { navigates: false },
      );
      const entries = (await api('GET', `patients/${patient}/odontogram/entries?pageSize=1`)).total;
      console.log(`odontogram: ${drawn} teeth drawn, ${entries} entries, ${stops} timeline stops`);
      console.log(`odontogram render on opening the tab (data → painted frame): ${renderFigures(open)}`);
      console.log(`odontogram render on a timeline step (data → painted frame): ${renderFigures(timeline)}`);
      console.log('goal: under 100 ms');
      judgeRender(open, runs, 'odontogram');
    },
  );
}

/** The perio chart's render figure (issue 41): data arrival → frame after paint, as the odontogram's. */
async function benchPerioRender() {
  const runs = Number(process.env.BENCH_RUNS ?? 10);
  await withDemoPage(
    3970,
    async (api) => {
      const me = (await api('GET', 'auth/system/me')).data.id;
      const patient = (
        await api('POST', 'patients', {
          firstName: 'Benchmark',
          lastName: 'Periodontograma',
          sex: 'female',
          birthdate: '1970-03-01',
        })
      ).data.id;
      // 20 full-mouth exams (32 teeth × 6 sites), the newest a draft: the tab opens on it.
      const teethNumbers = [1, 2, 3, 4].flatMap((q) => [1, 2, 3, 4, 5, 6, 7, 8].map((t) => q * 10 + t));
      const sites = ['distobuccal', 'buccal', 'mesiobuccal', 'distolingual', 'lingual', 'mesiolingual'];
      for (let exam = 0; exam < 20; exam += 1) {
        const teeth = teethNumbers.map((tooth) => ({
          tooth,
          mobility: tooth % 9 === 0 ? 1 : 0,
          sites: Object.fromEntries(
            sites.map((site, index) => {
              const value = (tooth * 7 + index * 3 + exam) % 11;
              return [
                site,
                { depth: 2 + (value % 5), margin: -(value % 3), bleeding: value % 3 === 0, plaque: value % 4 === 0 },
              ];
            }),
          ),
        }));
        const date = new Date(Date.UTC(2024, 0, 1) + exam * 40 * 86_400_000).toISOString().slice(0, 10);
        const created = (
          await api('POST', `patients/${patient}/perio-exams`, { date, professionalId: me, dentition: 'adult', teeth })
        ).data;
        if (exam < 19) await api('POST', `patients/${patient}/perio-exams/${created.id}/close`, { version: 1 });
      }
      return patient;
    },
    async ({ page, origin, seeded: patient }) => {
      const open = await timeRenders(
        page,
        'perio:render',
        runs,
        () => page.goto(`${origin}/patients/${patient}/mh?tab=perio`),
        { navigates: true },
      );
      const cells = await page.getByTestId('perio-cell').count();
      console.log(`perio chart: ${cells} sites drawn, 20 exams in the history`);
      console.log(`perio chart render on opening the tab (data → painted frame): ${renderFigures(open)}`);
      console.log('goal: under 100 ms');
      judgeRender(open, runs, 'clinical');
    },
  );
}

/** Issue 41's figures: the chart's requests on the server (apps/api/bench/clinical.ts), then the perio chart's render. */
async function benchClinical() {
  apiBench('clinical')();
  await benchPerioRender();
}

/** A benchmark of the API (apps/api/bench/<name>.ts), with the arguments after its name. */
function apiBench(name) {
  return () => runNode(['--import', 'tsx', `apps/api/bench/${name}.ts`, ...process.argv.slice(3)]);
}

const which = process.argv[2] ?? 'all';
const benches = {
  startup: benchStartup,
  bundle: benchBundle,
  inventory: apiBench('inventory'),
  patients: apiBench('patients'),
  http: apiBench('http'),
  installation: apiBench('installation'),
  agenda: apiBench('agenda'),
  portal: apiBench('portal'),
  purchasing: apiBench('purchasing'),
  sales: apiBench('sales'),
  dashboard: apiBench('dashboard'),
  messages: apiBench('messages'),
  einvoice: apiBench('einvoice'),
  'clinic-money': apiBench('clinic-money'),
  import: apiBench('import'),
  odontogram: benchOdontogram,
  clinical: benchClinical,
  cluster: benchCluster,
  web: benchWeb,
};
if (which !== 'all' && !benches[which]) {
  console.error(
    `Unknown bench "${which}". Use: npm run bench [startup|bundle|inventory|patients|http|installation|agenda|portal|purchasing|sales|dashboard|messages|einvoice|clinic-money|odontogram|clinical|import|cluster|web|all]`,
  );
  process.exit(2);
}
for (const [name, bench] of Object.entries(benches)) {
  if (which === 'all' || which === name) await bench();
}
