/**
 * `npm run bench -- dashboard [--pglite] [--patients N] [--attendances N] [--appointments N]
 *   [--documents N] [--collections N] [--customers N] [--professionals N] [--runs N] [--keep]
 *   [--reuse NAME] [--no-export]`
 *
 * Seeds one big clinic (Buenos Aires, pesos): 100,000 patients with 1,000,000 attendances over
 * three years (the patients bench's seed), 10 professionals with 200,000 appointments (the agenda
 * bench's seed), and 1,000,000 sales documents with 800,000 collections for 20,000 of the patients
 * (the sales bench's seed); the kept day figures rebuilt from the rows once. Then it prints the
 * server-side p50/p95 (the real route through app.inject: authentication, the transaction,
 * validation, the answer) of the whole dashboard (GET /api/dashboard) for this month so far (the
 * default), the last 30 days and the last year, as the administrator (every widget); the first
 * page of every report for the last year (GET /api/reports/:reportId); and the sales VAT book of
 * the last month and of the year exported as XLSX through the job queue (the sales span one year:
 * ~900,000 rows; `--documents 1120000` makes it 1,000,000), with the process's peak memory while
 * each runs.
 * Goals on PostgreSQL: the dashboard p95 under 150 ms, each report's first page under 500 ms, the
 * export in bounded memory.
 * `--reuse NAME` times again a database an earlier `--keep` run kept (no seeding; opening it
 * applies the newer migrations). `--no-export` skips the two XLSX exports (several minutes on the
 * big clinic) when only the dashboard's and the reports' times are wanted.
 */
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { reportIds } from '@odontia/shared/schemas/reports';
import type { Database } from '../src/db/client.ts';
import { seedAgenda } from './agenda-seed.ts';
import {
  type BenchClinic,
  benchCaller,
  benchOptions,
  benchTimer,
  createBenchClinic,
  findBenchClinic,
  keepDayFigures,
  report,
  runBench,
  seconds,
  vacuumAnalyze,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';
import { seedPatients } from './patients-seed.ts';
import { seedSales } from './sales-seed.ts';

const given = benchOptions(
  100,
  {
    patients: 100_000,
    attendances: 1_000_000,
    appointments: 200_000,
    documents: 1_000_000,
    collections: 800_000,
    customers: 20_000,
    professionals: 10,
  },
  {
    /** Time again on a database an earlier run kept (`--keep` prints its name): no seeding. */
    reuse: { type: 'string' },
    /** Skip the two XLSX exports at the end (minutes on the big clinic). */
    'no-export': { type: 'boolean', default: false },
  },
);
const { options, runs } = given;
/** The customers are some of the patients. */
const sizes = { ...given.sizes, customers: Math.min(given.sizes.customers, given.sizes.patients) };
const zone = 'America/Argentina/Buenos_Aires';
const count = (value: number) => value.toLocaleString('en');

/** The big clinic: patients and attendances, the agenda, a year of sales; the day figures rebuilt. */
async function seed(db: Database, clinic: BenchClinic, today: string): Promise<void> {
  await seedPatients(db, clinic, {
    patients: sizes.patients,
    attendances: sizes.attendances,
    heavy: 1000,
    heavyPatients: 5,
    spanDays: 3 * 365,
  });
  const started = performance.now();
  await seedAgenda(db, clinic, {
    professionals: sizes.professionals,
    appointments: sizes.appointments,
    zone,
    today,
  });
  console.log(
    `  ${sizes.professionals} professionals and ${count(sizes.appointments)} appointments in ${seconds(started)}`,
  );
  // A year of sales: the year's VAT book is the big export.
  await seedSales(db, clinic, {
    customers: sizes.customers,
    documents: sizes.documents,
    collections: sizes.collections,
    today,
    spanDays: 365,
  });
  // Each seed rebuilt the figures of what it wrote; once more over everything, as after a load.
  const rebuilt = performance.now();
  await keepDayFigures(db.orm, clinic.accountId);
  await vacuumAnalyze(db, ['appointments', 'users', 'patients', 'day_figures', 'day_figure_changes']);
  console.log(`  day figures rebuilt from every row in ${seconds(rebuilt)}`);
}

async function main() {
  await withBenchDatabase(
    options,
    (backend) =>
      options.reuse
        ? `dashboard bench on ${backend}, the database ${options.reuse} kept by an earlier run (its sizes are that run's)`
        : `dashboard bench on ${backend}: ${count(sizes.patients)} patients, ${count(sizes.attendances)} attendances, ${count(sizes.appointments)} appointments, ${count(sizes.documents)} sales documents, ${count(sizes.collections)} collections`,
    async (db) => {
      const today = clinicToday(zone);
      const clinic = options.reuse ? await findBenchClinic(db) : await createBenchClinic(db);
      if (!options.reuse) await seed(db, clinic, today);
      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: false });
        const time = benchTimer(runs);
        const periods = [
          { label: 'this month so far (the default)', query: '' },
          { label: 'the last 30 days', query: `?from=${addDays(today, -29)}&to=${today}` },
          { label: 'the last year', query: `?from=${addDays(today, -364)}&to=${today}` },
        ];
        for (const period of periods) {
          let attendances = 0;
          const times = await time(async () => {
            const answer = (await call('GET', `/api/dashboard${period.query}`)) as {
              data: { clinical: { attendances: { current: number } } };
            };
            attendances = answer.data.clinical.attendances.current;
          });
          report(`the whole dashboard, ${period.label} (${count(attendances)} attendances in the period)`, times);
        }

        const year = `from=${addDays(today, -364)}&to=${today}`;
        const reportTime = benchTimer(Math.min(runs, 20));
        for (const reportId of reportIds) {
          let total = 0;
          const times = await reportTime(async () => {
            const answer = (await call('GET', `/api/reports/${reportId}?${year}&page=1&pageSize=50`)) as {
              total: number;
            };
            total = answer.total;
          });
          report(`report ${reportId}, first page of 50 for the last year (${count(total)} rows)`, times);
        }

        // The sales VAT book as XLSX, for a month and for the year: a job writes it in chunks. The
        // process's resident size and V8's live heap are sampled until the job is done (the download
        // after it is app.inject's whole-body buffer, not the export's); bounded memory is the year's
        // peak no higher than the month's, for ten times the rows.
        const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
        const exportXlsx = async (label: string, from: string) => {
          const started = performance.now();
          const before = process.memoryUsage();
          let peak = before.rss;
          let peakHeap = before.heapUsed;
          const sampler = setInterval(() => {
            const now = process.memoryUsage();
            peak = Math.max(peak, now.rss);
            peakHeap = Math.max(peakHeap, now.heapUsed);
          }, 50);
          try {
            const queued = (await call(
              'POST',
              '/api/reports/sales-vat-book/exports',
              { from, to: today, format: 'xlsx' },
              201,
            )) as { data: { id: string } };
            let state: { state: string; rowsWritten: number } = { state: 'queued', rowsWritten: 0 };
            while (state.state !== 'done' && state.state !== 'failed') {
              await new Promise((resolve) => setTimeout(resolve, 250));
              state = ((await call('GET', `/api/reports/exports/${queued.data.id}`)) as { data: typeof state }).data;
            }
            clearInterval(sampler);
            const took = seconds(started);
            if (state.state !== 'done') throw new Error(`the export ended ${state.state}`);
            const file = await app.inject({
              method: 'GET',
              url: `/api/reports/exports/${queued.data.id}/file`,
              headers,
            });
            console.log(
              `XLSX export of the sales VAT book for ${label} (${count(state.rowsWritten)} rows, ${mb(file.rawPayload.length)}): ${took}; resident memory ${mb(before.rss)} before, peak ${mb(peak)} (+${mb(peak - before.rss)}); V8 heap in use ${mb(before.heapUsed)} before, peak ${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)})`,
            );
          } finally {
            clearInterval(sampler);
          }
        };
        if (!options['no-export']) {
          await exportXlsx('the last month', addDays(today, -29));
          await exportXlsx('the last year', addDays(today, -364));
        }
      });
    },
  );
}

runBench(main);
