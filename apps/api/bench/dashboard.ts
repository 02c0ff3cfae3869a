/**
 * `npm run bench -- dashboard [--pglite] [--patients N] [--attendances N] [--appointments N]
 *   [--documents N] [--collections N] [--customers N] [--professionals N] [--runs N] [--keep]`
 *
 * Seeds one big clinic (Buenos Aires, pesos): 100,000 patients with 1,000,000 attendances over
 * three years (the patients bench's seed), 10 professionals with 200,000 appointments (the agenda
 * bench's seed), and 1,000,000 sales documents with 800,000 collections for 20,000 of the patients
 * (the sales bench's seed); the kept day figures rebuilt from the rows once. Then it prints the
 * server-side p50/p95 (the real route through app.inject: authentication, the transaction,
 * validation, the answer) of the whole dashboard (GET /api/dashboard) for this month so far (the
 * default), the last 30 days and the last year, as the administrator (every widget).
 * Goal on PostgreSQL: p95 under 150 ms.
 */
import { parseArgs } from 'node:util';
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { seedAgenda } from './agenda-seed.ts';
import {
  benchCaller,
  benchTimer,
  createBenchClinic,
  keepDayFigures,
  openBenchDatabase,
  report,
  seconds,
  startBenchApp,
  vacuumAnalyze,
} from './bench-kit.ts';
import { seedPatients } from './patients-seed.ts';
import { seedSales } from './sales-seed.ts';

const { values: options } = parseArgs({
  options: {
    pglite: { type: 'boolean', default: false },
    patients: { type: 'string', default: '100000' },
    attendances: { type: 'string', default: '1000000' },
    appointments: { type: 'string', default: '200000' },
    documents: { type: 'string', default: '1000000' },
    collections: { type: 'string', default: '800000' },
    customers: { type: 'string', default: '20000' },
    professionals: { type: 'string', default: '10' },
    runs: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = {
  patients: Number(options.patients),
  attendances: Number(options.attendances),
  appointments: Number(options.appointments),
  documents: Number(options.documents),
  collections: Number(options.collections),
  customers: Math.min(Number(options.customers), Number(options.patients)),
  professionals: Number(options.professionals),
};
const runs = Number(options.runs);
const zone = 'America/Argentina/Buenos_Aires';
const count = (value: number) => value.toLocaleString('en');

async function main() {
  const backend = options.pglite ? 'PGlite (embedded, in memory)' : 'PostgreSQL';
  console.log(
    `dashboard bench on ${backend}: ${count(sizes.patients)} patients, ${count(sizes.attendances)} attendances, ${count(sizes.appointments)} appointments, ${count(sizes.documents)} sales documents, ${count(sizes.collections)} collections`,
  );
  const { db, drop } = await openBenchDatabase(options);
  try {
    const clinic = await createBenchClinic(db);
    const today = clinicToday(zone);
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
    await seedSales(db, clinic, {
      customers: sizes.customers,
      documents: sizes.documents,
      collections: sizes.collections,
      today,
    });
    // Each seed rebuilt the figures of what it wrote; once more over everything, as after a load.
    const rebuilt = performance.now();
    await keepDayFigures(db.orm, clinic.accountId);
    await vacuumAnalyze(db, ['appointments', 'users', 'patients', 'day_figures', 'day_figure_changes']);
    console.log(`  day figures rebuilt from every row in ${seconds(rebuilt)}`);

    const { app, headers, close } = await startBenchApp(db, clinic);
    try {
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
    } finally {
      await close();
    }
  } finally {
    await drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
