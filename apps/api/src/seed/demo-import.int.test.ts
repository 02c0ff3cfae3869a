import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';
import { demoImport } from './demo-import.ts';

describe('demo clinic import history (issue 42)', () => {
  const demo = useDemoClinic();
  const get = async (url: string) => (await demo.get(url)).json();

  it("shows the previous system's export checked, its refused rows with reasons, and imports it for real", async () => {
    const history = (await get('/api/imports')).data as {
      id: string;
      source: string;
      state: string;
      detectedEncoding: string;
      counts: { created: number; refused: number };
      createdByName: string;
    }[];
    expect(history).toHaveLength(1);
    const [run] = history;
    expect(run).toMatchObject({
      source: demoImport.source,
      state: 'checked',
      detectedEncoding: 'windows-1252',
      counts: { created: demoImport.toCreate, refused: demoImport.refused },
      createdByName: 'Laura Gómez',
    });
    const refused = (await get(`/api/imports/${run?.id}/rows?outcome=refused`)).data as {
      line: number;
      reasons: { field: string; code: string }[];
    }[];
    expect(refused.map((row) => [row.line, row.reasons.map((reason) => reason.field)])).toEqual([
      [8, ['birthdate']],
      [9, ['sex']],
    ]);
    // Nothing written by the dry run: the demo's 30 patients, none of the file's yet.
    expect((await get(`/api/patients?q=${encodeURIComponent('Castaño')}`)).total).toBe(0);
    // "Importar" on the demo really brings them in.
    const started = await demo.post(`/api/imports/${run?.id}/run`);
    expect(started.statusCode, started.body).toBe(200);
    for (let round = 0; round < 10; round++) {
      if ((await get(`/api/imports/${run?.id}`)).data.state === 'done') break;
      await demo.runJobs();
    }
    const done = (await get(`/api/imports/${run?.id}`)).data;
    expect(done).toMatchObject({
      state: 'done',
      counts: { created: demoImport.toCreate, refused: demoImport.refused },
    });
    const [hector] = (await get(`/api/patients?q=${encodeURIComponent('Castaño')}`)).data as {
      firstName: string;
      birthdate: string;
    }[];
    expect(hector).toMatchObject({ firstName: 'Héctor Raúl', birthdate: '1958-05-05' });
  });
});
