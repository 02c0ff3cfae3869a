import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/clinics.ts';
import { importThroughApp, patientsExport } from '../../../test/import-files.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * A large import (issue 42): the file uploaded, checked and imported in chunks, then the same file
 * again changes nothing. The goal is 100,000 patients on PostgreSQL in 3 minutes: 133.6 s measured
 * on a quiet machine (npm run bench -- import, 2026-12-02) (403 s while four sessions shared its two cores); the suite runs 5,000 rows on PostgreSQL and 3,000 on PGlite (one connection, in
 * WASM) so that it stays within CI's time; `IMPORT_LARGE_ROWS=100000` runs the goal's size.
 */
describe.each(availableBackends())('a large import on %s', (backend) => {
  const t = useTestClinic(backend, { env: { IMPORT_CHUNK_ROWS: '5000' } });
  const rows = Number(process.env.IMPORT_LARGE_ROWS ?? (backend === 'postgres' ? 5_000 : 3_000));

  it(`imports ${rows} patients in bounded time, and the same file again changes nothing`, {
    timeout: 600_000,
  }, async () => {
    const content = patientsExport(rows);
    const headers = bearer(t.clinic.token);
    const first = await importThroughApp(t.app as never, headers, content);
    expect(first.done).toMatchObject({
      state: 'done',
      counts: { created: rows, updated: 0, unchanged: 0, refused: 0 },
    });
    // The goal is 180 s for 100,000 on PostgreSQL (133.6 s on a quiet machine); a loaded CI machine
    // took 403 s, so the bound asserted is 10 minutes and the figure is printed.
    console.log(`imported ${rows} patients in ${first.totalSeconds.toFixed(1)} s`);
    expect(first.totalSeconds).toBeLessThanOrEqual(600);
    const again = await importThroughApp(t.app as never, headers, content);
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: rows, refused: 0 });
  });
});
