import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/clinics.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * The import wizard's API (issue 42) on both databases: a Windows-1252 export of another system
 * (detected, and garbled when read as UTF-8), broken rows refused with their reasons, duplicated
 * external ids, the same file twice = nothing changes, a changed row = an update (audited),
 * another clinic untouched, only an administrator.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const gesdentFile = path.join(here, '../../../../../e2e/fixtures/gesdent-pacientes.csv');

export async function importForm(parts: { kind?: string; source?: string; name: string; content: Buffer }) {
  const form = new FormData();
  form.append('kind', parts.kind ?? 'patients');
  form.append('source', parts.source ?? 'GesDent');
  form.append('file', new Blob([new Uint8Array(parts.content)], { type: 'text/csv' }), parts.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

describe.each(availableBackends())('imports on %s', (backend) => {
  const t = useTestClinic(backend, { env: { IMPORT_CHUNK_ROWS: '7' } });

  async function upload(content: Buffer, options: { token?: string; source?: string; name?: string } = {}) {
    const body = await importForm({
      name: options.name ?? 'pacientes.csv',
      content,
      ...(options.source ? { source: options.source } : {}),
    });
    return t.call('POST', '/api/imports', {
      ...(options.token ? { token: options.token } : {}),
      headers: { 'content-type': body.contentType },
      body: body.payload,
    });
  }

  async function settle(id: string, token?: string) {
    for (let round = 0; round < 50; round++) {
      const response = await t.call('GET', `/api/imports/${id}`, token ? { token } : {});
      const run = response.json().data;
      if (run.state !== 'checking' && run.state !== 'importing') return run;
      await t.app.jobs.runDue();
    }
    throw new Error('import did not settle');
  }

  /** Uploads, checks with the suggested mapping (plus `extra`), imports: the final run. */
  async function importAll(content: Buffer, extra: Record<string, number> = {}, token?: string) {
    const uploaded = await upload(content, token ? { token } : {});
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const preview = uploaded.json().data;
    const check = await t.call('POST', `/api/imports/${preview.run.id}/check`, {
      ...(token ? { token } : {}),
      body: { encoding: preview.encoding, mapping: { ...preview.suggestedMapping, ...extra } },
    });
    expect(check.statusCode, check.body).toBe(200);
    const checked = await settle(preview.run.id, token);
    expect(checked.state).toBe('checked');
    const run = await t.call('POST', `/api/imports/${preview.run.id}/run`, token ? { token } : {});
    expect(run.statusCode, run.body).toBe(200);
    return { checked, done: await settle(preview.run.id, token), preview };
  }

  const csv = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');

  it('detects Windows-1252, shows the garbled reading of UTF-8 and suggests the mapping from the headers', async () => {
    const content = await readFile(gesdentFile);
    const response = await upload(content);
    expect(response.statusCode, response.body).toBe(201);
    const preview = response.json().data;
    expect(preview.run.detectedEncoding).toBe('windows-1252');
    expect(preview.sample[0][1]).toBe('Núñez Peña');
    expect(preview.columns[0]).toBe('Cód. Paciente');
    expect(preview.suggestedMapping).toMatchObject({
      externalId: 0,
      lastName: 1,
      firstName: 2,
      ssn: 3,
      birthdate: 4,
      sex: 5,
      phone: 6,
      city: 8,
      obs: 9,
    });
    // "Correo-e" is no known name: the user maps it.
    expect(preview.suggestedMapping.email).toBeUndefined();
    const asUtf8 = await t.call('GET', `/api/imports/${preview.run.id}/preview?encoding=utf-8`);
    expect(asUtf8.statusCode).toBe(200);
    expect(asUtf8.json().data.sample[0][1]).not.toBe('Núñez Peña');
    expect(asUtf8.json().data.sample[0][1]).toContain('\uFFFD');
  });

  it('checks row by row, refuses broken rows with reasons, imports, and the same file again changes nothing', async () => {
    const content = await readFile(gesdentFile);
    const { checked, done, preview } = await importAll(content, { email: 7 });
    expect(checked.counts).toEqual({ created: 18, updated: 0, unchanged: 0, refused: 3 });
    const refused = await t.call('GET', `/api/imports/${preview.run.id}/rows?phase=check&outcome=refused`);
    expect(refused.json().data).toEqual([
      expect.objectContaining({
        line: 18,
        externalId: 'G-017',
        reasons: [{ field: 'birthdate', code: 'invalid_date' }],
      }),
      expect.objectContaining({ line: 19, externalId: 'G-018', reasons: [{ field: 'lastName', code: 'required' }] }),
      expect.objectContaining({
        line: 22,
        externalId: 'G-020',
        reasons: [{ field: 'externalId', code: 'duplicate_in_file' }],
      }),
    ]);
    expect(done).toMatchObject({ state: 'done', progress: 100, counts: { created: 18, refused: 3 } });
    const patients = await t.call('GET', '/api/patients?q=Núñez');
    expect(patients.json().data[0]).toMatchObject({
      lastName: 'Núñez Peña',
      firstName: 'María José',
      sex: 'female',
      birthdate: '1975-02-14',
      email: 'mjose@example.com',
      city: 'Logroño',
    });
    const refusedCsv = await t.call('GET', `/api/imports/${preview.run.id}/refused.csv`);
    expect(refusedCsv.statusCode).toBe(200);
    expect(refusedCsv.body).toContain('F. Nacimiento: Fecha no válida');
    expect(refusedCsv.body).toContain('Apellidos: Este campo es obligatorio');
    expect(refusedCsv.body).toContain('Ruiz');
    const runs = await t.auditEvents('import_run_finished');
    expect(runs.at(-1)?.after).toMatchObject({ created: 18, refused: 3 });
    expect((await t.auditEvents('patient_created')).length).toBeGreaterThanOrEqual(18);

    // The same file again: the saved mapping is proposed and nothing changes.
    const again = await upload(content);
    expect(again.json().data.mappingFrom).toBe('saved');
    expect(again.json().data.suggestedMapping.email).toBe(7);
    const second = await importAll(content);
    expect(second.done.counts).toEqual({ created: 0, updated: 0, unchanged: 18, refused: 3 });

    // One row changed: an update, audited.
    const changed = Buffer.from(content.toString('latin1').replace('Prefiere tardes', 'Prefiere mañanas'), 'latin1');
    const third = await importAll(changed);
    expect(third.done.counts).toEqual({ created: 0, updated: 1, unchanged: 17, refused: 3 });
    const updates = await t.auditEvents('patient_updated');
    expect(updates.at(-1)?.after).toMatchObject({ obs: 'Prefiere mañanas' });

    // The wizard's history: newest first, with who uploaded each, paginated.
    const history = await t.call('GET', '/api/imports?pageSize=2');
    expect(history.statusCode, history.body).toBe(200);
    const listed = history.json();
    expect(listed.total).toBeGreaterThanOrEqual(3);
    expect(listed.data).toHaveLength(2);
    expect(listed.data[0]).toMatchObject({ id: third.preview.run.id, state: 'done', counts: { updated: 1 } });
    expect(listed.data[0].createdByName).toEqual(expect.any(String));
    expect(listed.data[1].id).toBe(second.preview.run.id);
  });

  it('reads UTF-8 with a BOM, tabs, quoted fields, ISO dates, XLSX, and refuses hostile text', async () => {
    const tsv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      csv([
        'ID\tApellidos\tNombre\tF. Nacimiento\tSexo\tObservaciones',
        'T-1\t"Müller; ""Max"""\tJörg\t1980-05-06\tmale\t"línea 1\nlínea 2"',
        'T-2\tBad\tDate\t2999-01-01\tF\t',
        'T-3\tNul\tChar\t01/01/1980\tF\tabc\u0000def',
        'T-4\tSin\tSexo\t01/01/1980\tX\t',
      ]),
    ]);
    const { checked, preview } = await importAll(tsv);
    expect(preview.run.detectedEncoding).toBe('utf-8');
    expect(checked.counts).toMatchObject({ created: 1, refused: 3 });
    const rows = (await t.call('GET', `/api/imports/${preview.run.id}/rows?phase=check`)).json().data;
    expect(rows.map((row: { reasons: unknown }) => row.reasons)).toEqual([
      [],
      [{ field: 'birthdate', code: 'date_in_future' }],
      [{ field: 'obs', code: 'invalid_characters' }],
      [{ field: 'sex', code: 'invalid_value' }],
    ]);
    const muller = (await t.call('GET', '/api/patients?q=Jörg')).json().data[0];
    expect(muller).toMatchObject({ lastName: 'Müller; "Max"', obs: 'línea 1\nlínea 2' });

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Pacientes');
    sheet.addRow(['Nº Historia', 'Apellidos', 'Nombre', 'Fecha de nacimiento', 'Sexo']);
    sheet.addRow(['X-1', 'Hoja', 'Cálculo', new Date(Date.UTC(1970, 0, 2)), 'Mujer']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const fromXlsx = await importAll(xlsx);
    expect(fromXlsx.preview.run.format).toBe('xlsx');
    expect(fromXlsx.done.counts).toMatchObject({ created: 1, refused: 0 });
    expect((await t.call('GET', '/api/patients?q=Cálculo')).json().data[0]).toMatchObject({ birthdate: '1970-01-02' });
  });

  it('refuses bad uploads and mappings with their codes', async () => {
    const empty = await upload(Buffer.alloc(0));
    expect(empty.json().code).toBe('import_file_unreadable');
    const brokenXlsx = await upload(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    expect(brokenXlsx.statusCode).toBe(400);
    expect(brokenXlsx.json().code).toBe('import_file_unreadable');
    // A cut-off upload: the body stops before its closing boundary.
    const body = await importForm({ name: 'a.csv', content: csv(['ID;Apellidos', '1;A']) });
    const cut = await t.call('POST', '/api/imports', {
      headers: { 'content-type': body.contentType },
      body: body.payload.subarray(0, body.payload.length - 30),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().code).toBe('invalid_multipart_body');
    const uploaded = (await upload(csv(['Apellidos;Nombre', 'A;B']))).json().data;
    const noId = await t.call('POST', `/api/imports/${uploaded.run.id}/check`, {
      body: { encoding: 'utf-8', mapping: { lastName: 0, firstName: 1 } },
    });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().code).toBe('import_mapping_invalid');
    const early = await t.call('POST', `/api/imports/${uploaded.run.id}/run`);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('import_wrong_state');
    const template = await t.call('GET', '/api/import-templates/patients');
    expect(template.statusCode).toBe(200);
    expect(template.body).toContain('Nº Historia;Apellidos;Nombre');
  });

  it("never touches another clinic's data and answers 403 below administrator", async () => {
    const { preview } = await importAll(
      csv(['ID;Apellidos;Nombre;F. Nacimiento;Sexo', 'O-1;Otra;Clínica;01/01/1980;H']),
    );
    const foreign = await t.call('GET', `/api/imports/${preview.run.id}`, { token: t.other.token });
    expect(foreign.statusCode).toBe(404);
    const foreignRows = await t.call('GET', `/api/imports/${preview.run.id}/rows`, { token: t.other.token });
    expect(foreignRows.statusCode).toBe(404);
    // The other clinic imports the same source and ids: its own patients, ours unchanged.
    const theirs = await importAll(
      csv(['ID;Apellidos;Nombre;F. Nacimiento;Sexo', 'O-1;Otra;Clínica;01/01/1980;H']),
      {},
      t.other.token,
    );
    expect(theirs.done.counts).toMatchObject({ created: 1 });
    const count = await t.db.withSystem((tx) =>
      tx.execute(sql`select count(*)::int as n from patients where last_name = 'Otra' and first_name = 'Clínica'`),
    );
    expect((count.rows[0] as { n: number }).n).toBe(2);
    for (const level of ['supervisor', 'user'] as const) {
      const refused = await t.asLevel(level, () => upload(csv(['ID', '1'])));
      expect(refused.statusCode).toBe(403);
      const template = await t.asLevel(level, () => t.call('GET', '/api/import-templates/patients'));
      expect(template.statusCode).toBe(403);
    }
    void bearer;
  });
});
