/**
 * `npm run bench -- patients [--pglite] [--patients N] [--attendances N] [--heavy N] [--runs N] [--keep]`
 *
 * Seeds one clinic with 100,000 patients and 1,000,000 attendances (three patients with
 * 1,500 each, the rest spread evenly), then prints the server-side p50/p95 (the real routes,
 * app.inject) of:
 *   - search as you type: 3-letter prefixes, middle-of-word fragments and ID numbers;
 *   - the list without a search, in name order: its first page, a page deep in it, by first name;
 *   - opening the history of the heaviest patient: the patient and the first page of each tab
 *     (attendances, diagnoses, laboratory), asked together as the page does;
 *   - saving an attendance that uses two supplies (stock taken in the same transaction).
 * Goal on PostgreSQL on the CI machine: search p95 < 20 ms, heavy history < 50 ms, save < 30 ms.
 */
import { sql } from 'drizzle-orm';
import {
  benchBackend,
  benchOptions,
  createBenchClinic,
  openBenchDatabase,
  report,
  startBenchApp,
} from './bench-kit.ts';
import { patientFragments, patientIdNumbers, patientPrefixes, patientTwoWords, seedPatients } from './patients-seed.ts';

const { options, sizes, runs } = benchOptions(300, { patients: 100_000, attendances: 1_000_000, heavy: 1_500 });
const heavyCount = Math.min(sizes.heavy, Math.floor(sizes.attendances / 4));
const heavyPatients = 3;

async function main() {
  const backend = benchBackend(options);
  console.log(
    `patients bench on ${backend}: ${sizes.patients.toLocaleString('en')} patients, ` +
      `${sizes.attendances.toLocaleString('en')} attendances (${heavyPatients} patients with ${heavyCount} each)`,
  );
  const { db, drop } = await openBenchDatabase(options);
  try {
    const clinic = await createBenchClinic(db);
    await seedPatients(db, clinic, {
      patients: sizes.patients,
      attendances: sizes.attendances,
      heavy: heavyCount,
      heavyPatients,
    });
    const { app, headers, close } = await startBenchApp(db, clinic);
    const get = async (url: string) => {
      const response = await app.inject({ method: 'GET', url, headers });
      if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
      return response.json();
    };

    async function timeSearch(terms: string[]): Promise<{ times: number[]; matches: number }> {
      const times: number[] = [];
      let matches = 0;
      for (let run = 0; run < runs; run += 1) {
        const term = terms[run % terms.length] as string;
        const started = performance.now();
        const page = await get(`/api/patients?q=${encodeURIComponent(term)}&pageSize=20`);
        times.push(performance.now() - started);
        matches += page.total;
      }
      return { times, matches: Math.round(matches / runs) };
    }

    await timeSearch(['gon', 'mar']); // warm-up
    for (const [label, terms] of [
      ['3-letter prefix', patientPrefixes],
      ['middle-of-word fragment or two words', [...patientFragments, ...patientTwoWords.slice(0, 2)]],
      ['ID number', patientIdNumbers],
    ] as const) {
      const { times, matches } = await timeSearch([...terms]);
      report(`search as you type, ${label} (${terms.join(', ')}; ~${matches} matches each)`, times);
    }

    // The list without a search, in name order (the default) and a page deep in it: one walk of
    // patients_name_idx, never the clinic's patients sorted whole.
    for (const [label, url] of [
      ['the list, first page (by last name)', '/api/patients?pageSize=20'],
      ['the list, page 50 (by last name)', '/api/patients?pageSize=20&page=50'],
      ['the list, first page by first name', '/api/patients?pageSize=20&sort=firstName'],
    ] as const) {
      await get(url); // warm-up
      const times: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now();
        await get(url);
        times.push(performance.now() - started);
      }
      report(label, times);
    }

    // The heaviest patient's history: the patient and the first page of each tab, together.
    const [heaviest] = (
      await db.orm.execute<{ id: string; n: string }>(sql`
        select patient_id as id, count(*)::text as n from attendances where account_id = ${clinic.accountId}
        group by patient_id order by count(*) desc limit 1`)
    ).rows;
    if (!heaviest) throw new Error('no attendances were seeded');
    const base = `/api/patients/${heaviest.id}`;
    const historyTimes: number[] = [];
    for (let run = 0; run < runs + 10; run += 1) {
      const started = performance.now();
      await Promise.all([
        get(base),
        get(`${base}/attendances?page=1&pageSize=20`),
        get(`${base}/diagnoses?page=1&pageSize=20`),
        get(`${base}/laboratories?page=1&pageSize=20`),
      ]);
      if (run >= 10) historyTimes.push(performance.now() - started);
    }
    report(
      `opening the history of the heaviest patient (${Number(heaviest.n).toLocaleString('en')} attendances; ` +
        'patient + first page of attendances, diagnoses and laboratory)',
      historyTimes,
      'openings',
    );

    // Saving an attendance that takes two supplies from stock.
    const supplies: string[] = [];
    for (const name of ['Guantes de nitrilo bench', 'Eyectores bench']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/supplies',
        headers,
        payload: {
          name,
          costPrice: '10',
          basePrice: '20',
          taxRate: '21',
          totalStock: 1_000_000,
          minStock: 0,
          reorderStock: 0,
        },
      });
      if (response.statusCode !== 201) throw new Error(`creating a supply answered ${response.body}`);
      supplies.push(response.json().data.id);
    }
    const { rows: patientRows } = await db.orm.execute<{ id: string }>(
      sql`select id from patients where account_id = ${clinic.accountId} order by random() limit 1000`,
    );
    const saveTimes: number[] = [];
    for (let run = 0; run < runs + 10; run += 1) {
      const patientId = patientRows[run % patientRows.length]?.id;
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/api/patients/${patientId}/attendances`,
        headers,
        payload: {
          date: new Date().toISOString(),
          attendanceType: 'dentistry',
          professionalId: clinic.userId,
          titleResume: 'Obturación pieza 36',
          billable: true,
          attendanceFee: '15000',
          lines: [{ description: 'Obturación con composite', quantity: 1, price: '25000' }],
          supplies: supplies.map((itemId) => ({ itemId, quantity: 2 })),
        },
      });
      if (run >= 10) saveTimes.push(performance.now() - started);
      if (response.statusCode !== 201) throw new Error(`saving an attendance answered ${response.body}`);
    }
    report('saving an attendance with two supplies (stock taken in the same transaction)', saveTimes, 'saves');
    await close();
  } finally {
    await drop();
  }
}

await main();
