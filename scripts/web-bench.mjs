// `npm run bench -- web [--runs N] [--baseline DIST_DIR] [--pages a,b] [--form-factors mobile,desktop] [--save DIR]`
//
// Lighthouse (performance only) on the web app as a receptionist's PC loads it (issue 34): the
// sign-in page, then, signed in as the demo clinic's administrator, the dashboard, the agenda and
// a patient's history; mobile (Lighthouse's default: a mid-range phone, simulated slow 4G and 4×
// CPU) and desktop; the median of `--runs` runs (default 3). Each run is a cold load: the
// browser's HTTP cache is cleared before it, the session (localStorage) is kept.
//
// The server is the real one (`node scripts/start.mjs`, which builds the web app when its sources
// changed) on a fresh, empty DATA_DIR: the embedded database with the demo clinic. With
// `--baseline <dir>` a second server of this checkout serves another build (e.g. `npm run build`
// of an older commit, copied aside) in the same run, page by page next to this one, so a busy
// moment of the machine hits both alike. A build without `.br`/`.gz` copies is served uncompressed.
//
// Chromium is the system's (/usr/bin/chromium, or CHROME_PATH / CHROMIUM_PATH); nothing is
// downloaded. Goals: mobile performance ≥ 90 on sign-in and ≥ 75 signed in; CLS ≤ 0.05 everywhere.
// `--check` exits non-zero when a goal is missed (CI runs it without: a shared machine's scores vary).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  args: process.argv.slice(3),
  options: {
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '3' },
    baseline: { type: 'string' },
    pages: { type: 'string', default: 'sign-in,dashboard,agenda,history' },
    'form-factors': { type: 'string', default: 'mobile,desktop' },
    check: { type: 'boolean', default: false },
    // Every Lighthouse report as JSON (<page>-<form factor>-<server>-<run>.json), to read what limits a page.
    save: { type: 'string' },
  },
});
const runs = Math.max(1, Number(options.runs));
const pageNames = options.pages.split(',');
const formFactors = options['form-factors'].split(',');
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const credentials = { email: 'administrador@sonrisa.demo', password: 'sonrisa-demo-2026' };

const goals = {
  performance: (page, formFactor) => (formFactor !== 'mobile' ? null : page === 'sign-in' ? 90 : 75),
  cls: 0.05,
};

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer(label, distDir) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-web-'));
  const port = await freePort();
  // The embedded database on the empty DATA_DIR (a DATABASE_URL of the shell would share one).
  const { DATABASE_URL: _unused, WEB_DIST_DIR: _alsoUnused, ...env } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(distDir ? { WEB_DIST_DIR: distDir } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  // A fresh demo clinic on a busy machine (and a build first, when the sources changed) takes a while.
  const started = performance.now();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the ${label} server exited before answering`);
      try {
        if ((await fetch(`${origin}/api/health`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 900_000) throw new Error(`no health answer from the ${label} server in 900 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { label, origin, stop };
}

/** A demo patient with a history (the one with the most attendances among the first listed). */
async function historyPatient(origin) {
  const signIn = await fetch(`${origin}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, remember: false }),
  });
  if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}`);
  const { token } = (await signIn.json()).data;
  const headers = { authorization: `Bearer ${token}` };
  const list = await fetch(`${origin}/api/patients?pageSize=20`, { headers });
  const patients = (await list.json()).data;
  let best = { id: patients[0]?.id, attendances: -1 };
  for (const patient of patients) {
    const page = await fetch(`${origin}/api/patients/${patient.id}/attendances?pageSize=1`, { headers });
    const total = page.ok ? (await page.json()).total : 0;
    if (total > best.attendances) best = { id: patient.id, attendances: total };
  }
  if (!best.id) throw new Error('the demo clinic has no patients');
  await fetch(`${origin}/api/auth/sign-out`, { method: 'POST', headers });
  return best.id;
}

/** Signs the browser in on `origin` through the sign-in form: the token lands in its localStorage. */
async function signInBrowser(browser, origin) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/auth/sign-in`, { waitUntil: 'networkidle0' });
    await page.type('input[type="email"]', credentials.email);
    await page.type('input[type="password"]', credentials.password);
    await Promise.all([
      page.waitForFunction(() => !location.pathname.includes('/auth/'), { timeout: 60_000 }),
      page.click('button[type="submit"]'),
    ]);
  } finally {
    await page.close();
  }
}

async function clearHttpCache(browser) {
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  await session.send('Network.clearBrowserCache');
  await page.close();
}

/**
 * Lighthouse's own trace recording fails now and then on a busy machine (NO_NAVSTART, NO_FCP, NO_LCP:
 * "please run Lighthouse again"); such a run measured nothing, so it is run again, at most twice.
 * Any other runtime error, or the same one three times, fails the bench.
 */
const retriedTraceErrors = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST']);
const traceAttempts = 3;

async function audit(browser, port, url, formFactor) {
  let lhr;
  for (let attempt = 1; ; attempt++) {
    await clearHttpCache(browser);
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    lhr = result.lhr;
    const error = lhr.runtimeError;
    if (!error) break;
    if (!retriedTraceErrors.has(error.code) || attempt === traceAttempts) {
      throw new Error(`${url}: ${error.code} ${error.message}`);
    }
    console.log(
      `\n${url} (${formFactor}): ${error.code}, Lighthouse's trace failed; run ${attempt + 1} of ${traceAttempts}`,
    );
  }
  const numeric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl ?? url;
  if (!url.includes('/auth/') && finalUrl.includes('/auth/')) throw new Error(`${url} was sent to ${finalUrl}`);
  const figures = {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    fcp: numeric('first-contentful-paint'),
    bytes: numeric('total-byte-weight'),
    scripts: lhr.audits['bootup-time']?.details?.items
      ?.filter((item) => item.url?.includes('/assets/'))
      .sort((a, b) => b.total - a.total)
      .slice(0, 3)
      .map((item) => `${path.basename(new URL(item.url).pathname)} ${Math.round(item.total)} ms`),
  };
  return { figures, lhr };
}

const median = (values) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : Number.NaN;
};

async function main() {
  if (!existsSync(chromePath)) throw new Error(`no Chromium at ${chromePath} (set CHROME_PATH)`);
  if (options.baseline && !existsSync(path.join(options.baseline, 'index.html'))) {
    throw new Error(`--baseline ${options.baseline} holds no built web app (index.html)`);
  }
  console.log(
    `web bench: Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ` +
      `${chromePath}, median of ${runs} ${runs === 1 ? 'run' : 'runs'}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
  const servers = [];
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--lang=es-AR',
    ],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  try {
    servers.push(await startServer('this checkout', undefined));
    if (options.baseline) servers.push(await startServer('baseline', path.resolve(options.baseline)));
    for (const server of servers) server.patient = await historyPatient(server.origin);
    const paths = {
      'sign-in': () => '/auth/sign-in',
      dashboard: () => '/dashboard',
      agenda: () => '/calendar',
      history: (server) => `/patients/${server.patient}/mh`,
    };
    const results = new Map(); // `${server}|${page}|${formFactor}` → runs
    for (const pageName of pageNames) {
      if (!paths[pageName]) throw new Error(`unknown page ${pageName} (use ${Object.keys(paths).join(', ')})`);
      // The sign-in page is measured signed out; the others after one sign-in per origin.
      if (pageName !== 'sign-in') {
        for (const server of servers) {
          if (!server.signedIn) await signInBrowser(browser, server.origin);
          server.signedIn = true;
        }
      }
      for (let run = 0; run < runs; run += 1) {
        for (const formFactor of formFactors) {
          for (const server of servers) {
            const key = `${server.label}|${pageName}|${formFactor}`;
            const { figures, lhr } = await audit(
              browser,
              chrome.port,
              `${server.origin}${paths[pageName](server)}`,
              formFactor,
            );
            if (options.save) {
              await mkdir(options.save, { recursive: true });
              const name = `${pageName}-${formFactor}-${server.label.replaceAll(' ', '-')}-${run + 1}.json`;
              await writeFile(path.join(options.save, name), JSON.stringify(lhr));
            }
            results.set(key, [...(results.get(key) ?? []), figures]);
            process.stdout.write('.');
          }
        }
      }
    }
    process.stdout.write('\n');
    print(servers, results);
  } finally {
    await browser.disconnect().catch(() => {});
    chrome.kill();
    for (const server of servers) await server.stop();
  }
}

function print(servers, results) {
  const header = ['page', 'form factor', 'server', 'score', 'goal', 'LCP s', 'TBT ms', 'CLS', 'goal', 'FCP s', 'KiB'];
  const rows = [];
  let missed = 0;
  for (const pageName of pageNames) {
    for (const formFactor of formFactors) {
      for (const server of servers) {
        const figures = results.get(`${server.label}|${pageName}|${formFactor}`) ?? [];
        const m = (key) => median(figures.map((f) => f[key]));
        const score = m('score');
        const cls = m('cls');
        const scoreGoal = goals.performance(pageName, formFactor);
        const scoreOk = scoreGoal === null || score >= scoreGoal;
        const clsOk = cls <= goals.cls;
        if (server.label === 'this checkout' && (!scoreOk || !clsOk)) missed += 1;
        rows.push([
          pageName,
          formFactor,
          server.label,
          `${score}${runs > 1 ? ` (${figures.map((f) => f.score).join('/')})` : ''}`,
          scoreGoal === null ? '' : `≥ ${scoreGoal} ${scoreOk ? 'ok' : 'MISSED'}`,
          (m('lcp') / 1000).toFixed(1),
          Math.round(m('tbt')),
          cls.toFixed(3),
          `≤ ${goals.cls} ${clsOk ? 'ok' : 'MISSED'}`,
          (m('fcp') / 1000).toFixed(1),
          Math.round(m('bytes') / 1024),
        ]);
      }
    }
  }
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  // What the main thread spends its time on, on the slowest signed-in mobile page of this checkout.
  for (const pageName of pageNames) {
    const figures = results.get(`this checkout|${pageName}|mobile`) ?? results.get(`this checkout|${pageName}|desktop`);
    const scripts = figures?.[0]?.scripts;
    if (scripts?.length) console.log(`  ${pageName}: heaviest scripts (CPU, first run): ${scripts.join(', ')}`);
  }
  console.log(
    `goals: mobile performance ≥ 90 on sign-in, ≥ 75 signed in; CLS ≤ ${goals.cls} — ${missed ? `${missed} missed` : 'all met'}`,
  );
  if (missed && options.check) process.exitCode = 1;
}

await main();
