/**
 * `node --import tsx apps/api/bench/clinical.ts [--pglite] [--exams N] [--items N] [--runs N] [--keep]` (issue 41,
 * `npm run bench -- clinical`: the server's part; scripts/bench.mjs then times the chart's render in
 * Chromium).
 *
 * Opening a patient's clinical chart: each request the patient's tabs make, timed through the real
 * app (app.inject: authentication, the transaction, RLS, validation, the answer's serialisation),
 * for a patient with `--exams` full-mouth periodontal exams (default 20) and an accepted treatment
 * plan of `--items` items (default 60), printed beside the same requests for a patient with one of
 * each, measured in the same run. Goal on PostgreSQL: p95 ≤ 50 ms per request.
 *
 * To measure another request of the chart: add a `seeder` that writes its data for both patients
 * (through the API, or the services for what the API builds in several steps, as the treatment
 * plan's) and names what the request needs, and a `NamedRequest` whose `path` reads it.
 */
import { emptyTooth, isMultiRooted, type PerioTooth, perioSites, teethOfDentition } from '@odontia/shared/perio';
import type { Database } from '../src/db/client.ts';
import {
  type BenchClinic,
  benchCaller,
  benchOptions,
  benchTimer,
  createBenchClinic,
  measureConditions,
  ms,
  percentile,
  report,
  runBench,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';
import { seedClinicalPlan } from './clinical-plan-seed.ts';

const { options, sizes, runs } = benchOptions(100, { exams: 20, items: 60 });

type Call = ReturnType<typeof benchCaller>;
/** What the seeders wrote for one patient, by name (ids the requests' paths use). */
export type Fixture = { patientId: string; userId: string } & Record<string, string>;

/** Where the seeders write: the bench's database and its clinic (for seeders that go through the services). */
interface SeedTarget {
  db: Database;
  clinic: BenchClinic;
}

/** Writes a kind of clinical data for a patient (`size`: the big patient's or the baseline's). */
type Seeder = (
  call: Call,
  fixture: Fixture,
  size: 'big' | 'baseline',
  target: SeedTarget,
) => Promise<Record<string, string>>;

/** One request the chart makes when a patient is opened. */
interface NamedRequest {
  name: string;
  path: (fixture: Fixture) => string;
}

/** A full-mouth exam: every site probed, some bleeding and plaque, deeper on the molars. */
function fullMouth(seed: number): PerioTooth[] {
  return teethOfDentition('adult').map((number) => {
    const tooth = emptyTooth(number);
    for (const [index, site] of perioSites.entries()) {
      const value = (number * 7 + index * 3 + seed) % 11;
      tooth.sites[site] = {
        depth: (isMultiRooted(number) ? 3 : 2) + (value % 4),
        margin: -(value % 3),
        bleeding: value % 3 === 0,
        plaque: value % 4 === 0,
        suppuration: value === 10,
      };
    }
    tooth.mobility = number % 9 === 0 ? 1 : 0;
    if (isMultiRooted(number) && number % 5 === 0) tooth.furcation = 1;
    return tooth;
  });
}

const seeders: Seeder[] = [
  // Periodontal exams: `--exams` for the big patient (all closed but the newest), one for the baseline.
  async (call, fixture, size) => {
    const count = size === 'big' ? sizes.exams : 1;
    const ids: string[] = [];
    for (let exam = 0; exam < count; exam += 1) {
      const day = new Date(Date.UTC(2024, 0, 1) + exam * 45 * 86_400_000).toISOString().slice(0, 10);
      const created = await call(
        'POST',
        `/api/patients/${fixture.patientId}/perio-exams`,
        { date: day, professionalId: fixture.userId, dentition: 'adult', teeth: fullMouth(exam) },
        201,
      );
      ids.push(created.data.id);
      if (exam < count - 1)
        await call('POST', `/api/patients/${fixture.patientId}/perio-exams/${created.data.id}/close`, {
          version: created.data.version,
        });
    }
    return { newestPerioExam: ids.at(-1) as string, previousPerioExam: (ids.at(-2) ?? ids[0]) as string };
  },
  // A treatment plan: 60 items for the big patient (a third of its sessions carried out), 1 for the baseline.
  async (_call, fixture, size, { db, clinic }) => {
    const { planId } = await seedClinicalPlan(db, clinic, fixture.patientId, {
      items: size === 'big' ? sizes.items : 1,
    });
    return { planId };
  },
];

/** What the Periodontograma tab asks for when it opens (and the exam it compares with). */
const requests: NamedRequest[] = [
  { name: 'perio exams (history)', path: (f) => `/api/patients/${f.patientId}/perio-exams` },
  { name: 'perio teeth present', path: (f) => `/api/patients/${f.patientId}/perio-teeth` },
  { name: 'newest perio exam', path: (f) => `/api/patients/${f.patientId}/perio-exams/${f.newestPerioExam}` },
  { name: 'perio exam compared', path: (f) => `/api/patients/${f.patientId}/perio-exams/${f.previousPerioExam}` },
  // What the Plan de tratamiento tab asks for: the plans with their progress, then the plan it opens.
  { name: 'treatment plans (with progress)', path: (f) => `/api/patients/${f.patientId}/treatment-plans` },
  { name: 'treatment plan opened', path: (f) => `/api/patients/${f.patientId}/treatment-plans/${f.planId}` },
];

runBench(() =>
  withBenchDatabase(
    options,
    (backend) =>
      `clinical chart (issue 41) on ${backend}: a patient with ${sizes.exams} full-mouth perio exams and a ${sizes.items}-item treatment plan beside one with 1 of each, ${runs} runs per request`,
    async (db) => {
      const clinic = await createBenchClinic(db);
      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: false });
        const patient = async (lastName: string) =>
          (
            await call(
              'POST',
              '/api/patients',
              { firstName: 'Benchmark', lastName, sex: 'female', birthdate: '1970-05-01' },
              201,
            )
          ).data.id as string;
        const fixtures: Record<'big' | 'baseline', Fixture> = {
          big: { patientId: await patient('Periodonto'), userId: clinic.userId },
          baseline: { patientId: await patient('Base'), userId: clinic.userId },
        };
        const seeding = performance.now();
        for (const size of ['big', 'baseline'] as const)
          for (const seed of seeders)
            Object.assign(fixtures[size], await seed(call, fixtures[size], size, { db, clinic }));
        console.log(`seeded through the API in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
        const conditions = await measureConditions(db, [
          'perio_exams',
          'treatment_plan_items',
          'treatment_plan_sessions',
          'odontogram_entries',
          'patients',
        ]);
        const time = benchTimer(runs);
        const totals: Record<'big' | 'baseline', number[]> = { big: [], baseline: [] };
        for (const request of requests) {
          for (const size of ['baseline', 'big'] as const) {
            const times = await time(() => call('GET', request.path(fixtures[size])));
            report(
              `${request.name}, ${size === 'big' ? `${sizes.exams} exams, ${sizes.items}-item plan` : 'baseline (1 exam, 1 item)'}`,
              times,
              'requests',
              size === 'big' && !options.pglite ? 50 : undefined,
            );
            times.forEach((value, index) => {
              totals[size][index] = (totals[size][index] ?? 0) + value;
            });
          }
        }
        console.log(
          `the ${requests.length} requests one after the other: p95 ${ms(percentile(totals.big, 95))} with ${sizes.exams} exams and ${sizes.items} items, ${ms(percentile(totals.baseline, 95))} with 1 of each`,
        );
        await conditions.print();
      });
    },
  ),
);
