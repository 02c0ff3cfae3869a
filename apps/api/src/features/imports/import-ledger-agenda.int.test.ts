import { randomUUID } from 'node:crypto';
import { instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerLedgerMismatches } from '../../../test/commercial.ts';
import { importUploadBody } from '../../../test/import-files.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * Issue 42's opening balances and appointments, on both databases: the patients of a source first,
 * then their balances (a Latin-1 file, its own column names, a decimal comma) and appointments (a
 * UTF-8 file) naming them by the same source's ids. Broken rows are refused with their reasons, the
 * balance enters the patient's current account (balance, ledger, the ledger's invariant), the
 * appointments sit at their instants in the clinic's zone, the same files again change nothing,
 * and everything written is audited with its import run.
 */

describe.each(availableBackends())('importing balances and appointments on %s', (backend) => {
  const t = useTestClinic(backend, { env: { IMPORT_CHUNK_ROWS: '4' } });
  const zone = 'Europe/Madrid';
  const source = `Clinic Cloud ${randomUUID().slice(0, 6)}`;

  async function settle(id: string) {
    for (let round = 0; round < 60; round++) {
      const run = (await t.call('GET', `/api/imports/${id}`)).json().data;
      if (run.state !== 'checking' && run.state !== 'importing') return run;
      await t.app.jobs.runDue();
    }
    throw new Error('import did not settle');
  }

  /** Uploads, checks with `mapping` (or the suggested one), imports: the checked and the finished run. */
  async function importFile(kind: string, content: Buffer, mapping?: Record<string, number>) {
    const body = await importUploadBody({ kind, source, name: `${kind}.csv`, content });
    const uploaded = await t.call('POST', '/api/imports', {
      headers: { 'content-type': body.contentType },
      body: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const preview = uploaded.json().data;
    const check = await t.call('POST', `/api/imports/${preview.run.id}/check`, {
      body: { encoding: preview.encoding, mapping: mapping ?? preview.suggestedMapping },
    });
    expect(check.statusCode, check.body).toBe(200);
    const checked = await settle(preview.run.id);
    expect(checked.state).toBe('checked');
    const rows = async (phase: string) =>
      (await t.call('GET', `/api/imports/${preview.run.id}/rows?phase=${phase}&pageSize=100`)).json().data as {
        line: number;
        externalId: string | null;
        outcome: string;
        recordId: string | null;
        reasons: { field: string; code: string }[];
      }[];
    const checkedRows = await rows('check');
    const run = await t.call('POST', `/api/imports/${preview.run.id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    const done = await settle(preview.run.id);
    return { preview, checked, checkedRows, done, importedRows: await rows('import') };
  }

  const outcomes = (rows: { line: number; outcome: string; reasons: { field: string; code: string }[] }[]) =>
    Object.fromEntries(
      rows.map((row) => [
        row.line,
        row.outcome === 'refused'
          ? row.reasons.map((reason) => `${reason.field}:${reason.code}`).join(',')
          : row.outcome,
      ]),
    );

  const nextYear = new Date().getUTCFullYear() + 1;
  const patientsCsv = Buffer.from(
    [
      'Nº Historia;Apellidos;Nombre;F. Nacimiento;Sexo',
      'H-1;Saldoimport Núñez;María;01/02/1980;M',
      'H-2;Saldoimport Peña;Íñigo;03/04/1975;H',
      'H-3;Saldoimport Gil;Lucía;05/06/1990;M',
      'H-4;Saldoimport Ruiz;Pedro;07/08/1985;H',
      'H-5;Saldoimport Sanz;Elena;09/10/1970;M',
      '',
    ].join('\r\n'),
    'utf8',
  );

  it('imports patients, then their opening balances into the current account, once', async () => {
    await t.db.withSystem((tx) =>
      tx.execute(sql`update accounts set time_zone = ${zone} where id = ${t.clinic.accountId}::uuid`),
    );
    const patients = await importFile('patients', patientsCsv);
    expect(patients.done.counts).toMatchObject({ created: 5, refused: 0 });

    // Latin-1 (Windows-1252) bytes, the other system's own headers: mapped by hand.
    const balancesCsv = Buffer.from(
      [
        'Nº Historia;Importe pendiente;Fecha;Concepto',
        'H-1;12.500,50;31/12/2025;Ortodoncia pendiente',
        'H-2;-300,00;30/12/2025;Señal a cuenta',
        'H-9;100;30/12/2025;Paciente que no vino',
        'H-3;12.5.0;30/12/2025;Importe roto',
        'H-4;50;32/13/2025;Fecha rota',
        'H-1;12.500,50;31/12/2025;Repetido',
        'H-5;0,00;30/12/2025;Sin saldo',
        '',
      ].join('\r\n'),
      'latin1',
    );
    const mapping = { patientExternalId: 0, amount: 1, date: 2, concept: 3 };
    const first = await importFile('balances', balancesCsv, mapping);
    expect(first.preview.run.detectedEncoding).toBe('windows-1252');
    expect(first.checked.counts).toEqual({ created: 2, updated: 0, unchanged: 1, refused: 4 });
    expect(outcomes(first.checkedRows)).toEqual({
      2: 'created',
      3: 'created',
      4: 'patientExternalId:patient_not_imported',
      5: 'amount:invalid_number',
      6: 'date:invalid_date',
      7: 'externalId:duplicate_in_file',
      8: 'unchanged',
    });
    expect(first.done).toMatchObject({ state: 'done', counts: { created: 2, unchanged: 1, refused: 4 } });

    // The patient owes 12,500.50 and the other has 300 in their favour: the current accounts say so.
    const listed = await t.call('GET', '/api/current-accounts/customers?q=Saldoimport&pageSize=50');
    expect(listed.statusCode, listed.body).toBe(200);
    const byName = new Map(
      listed.json().data.map((row: { name: string; balance: string }) => [row.name, row] as const),
    );
    const owing = byName.get('Saldoimport Núñez, María') as { customerId: string; balance: string };
    expect(owing).toMatchObject({ balance: '12500.50' });
    expect(byName.get('Saldoimport Peña, Íñigo')).toMatchObject({ balance: '-300.00' });
    const ledger = await t.call(
      'GET',
      `/api/current-accounts/customers/${owing.customerId}/ledger?startDate=2025-01-01&endDate=${nextYear}-12-31`,
    );
    expect(ledger.statusCode, ledger.body).toBe(200);
    expect(ledger.json().data.closingBalance).toBe('12500.50');
    expect(JSON.stringify(ledger.json().data)).toContain('Saldo inicial importado');
    expect(await customerLedgerMismatches(t)).toEqual([]);
    const events = await t.auditEvents('opening_balance_imported');
    expect(events).toHaveLength(2);
    expect(events[0]?.after).toMatchObject({ amount: '12500.50', importRunId: first.preview.run.id });

    // The same file again changes nothing; another amount for an imported balance is refused.
    const again = await importFile('balances', balancesCsv, mapping);
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: 3, refused: 4 });
    const changed = await importFile(
      'balances',
      Buffer.from('Historia;Importe pendiente\r\nH-1;13.000,00\r\nH-3;25,5\r\n', 'latin1'),
      { patientExternalId: 0, amount: 1 },
    );
    expect(outcomes(changed.importedRows)).toEqual({ 2: 'amount:balance_already_imported', 3: 'created' });
    expect(await t.auditEvents('opening_balance_imported')).toHaveLength(3);
    const after = await t.call('GET', '/api/current-accounts/customers?q=Saldoimport&pageSize=50');
    expect(after.json().data.find((row: { customerId: string }) => row.customerId === owing.customerId).balance).toBe(
      '12500.50',
    );
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  it("imports past and future appointments at their instants in the clinic's zone, once", async () => {
    const professional = await t.created<{ id: string; email: string }>('/api/users', {
      body: { completeName: 'Dra. María José Núñez', email: `mj.${randomUUID()}@clinica.test`, level: 'user' },
    });
    const second = await t.created<{ id: string }>('/api/users', {
      body: { completeName: 'Jorge Gil', email: `jorge.${randomUUID()}@clinica.test`, level: 'user' },
    });
    const future = `10/06/${nextYear}`;
    const appointmentsCsv = Buffer.from(
      [
        'Cita,Paciente,Día,Hora,Minutos,Fin,Odontólogo,Tratamiento,Situación,Notas',
        `C-1,H-1,03/11/2025,09:30,30,,maria jose nunez,Revisión,Atendida,Primera visita`,
        `C-2,H-2,03/11/2025,11:00,45,,JORGE GIL,Limpieza,No asistió,`,
        `C-3,H-3,04/11/2025,9:00,,09:40,Jorge Gil,Empaste,Cancelada,Llamó`,
        `C-4,H-1,${future},10:00,,10:45,${professional.email},Control,Programada,`,
        `C-5,H-2,03/11/2025,09:45,30,,María José Núñez,Solapada,Atendida,`,
        `C-6,H-3,05/11/2025,10:00,30,,Dr. Nadie,Revisión,,`,
        `C-7,H-9,05/11/2025,10:00,30,,Jorge Gil,Revisión,,`,
        `C-8,H-4,31/02/2025,10:00,30,,Jorge Gil,Revisión,,`,
        `C-1,H-4,06/11/2025,10:00,30,,Jorge Gil,Repetida,,`,
        '',
      ].join('\n'),
      'utf8',
    );
    const mapping = {
      externalId: 0,
      patientExternalId: 1,
      date: 2,
      startTime: 3,
      durationMinutes: 4,
      endTime: 5,
      professional: 6,
      reason: 7,
      status: 8,
      notes: 9,
    };
    const first = await importFile('appointments', appointmentsCsv, mapping);
    expect(first.preview.run.detectedEncoding).toBe('utf-8');
    expect(outcomes(first.checkedRows)).toEqual({
      2: 'created',
      3: 'created',
      4: 'created',
      5: 'created',
      6: 'startTime:appointment_overlaps',
      7: 'professional:professional_not_found',
      8: 'patientExternalId:patient_not_imported',
      9: 'date:invalid_date',
      10: 'externalId:duplicate_in_file',
    });
    expect(first.done).toMatchObject({ state: 'done', counts: { created: 4, unchanged: 0, refused: 5 } });

    const ids = Object.fromEntries(first.importedRows.map((row) => [row.line, row.recordId]));
    const stored = await t.db.withTenant(t.clinic.accountId, async (tx) => {
      const { rows } = await tx.execute<{
        id: string;
        professional_id: string;
        starts_at: string | Date;
        ends_at: string | Date;
        status: string;
        cancel_reason: string | null;
        reason: string | null;
        reminder_state: string;
        time_zone: string;
      }>(
        sql`select id, professional_id, starts_at, ends_at, status, cancel_reason, reason, reminder_state, time_zone
            from appointments where account_id = ${t.clinic.accountId}::uuid and id in (${sql.join(
              [2, 3, 4, 5].map((line) => sql`${ids[line]}::uuid`),
              sql`, `,
            )})`,
      );
      return new Map(rows.map((row) => [row.id, row]));
    });
    const at = (wall: string) => instantOfClinicWallTime(wall, zone)?.toISOString();
    const iso = (value: string | Date) => new Date(value).toISOString();
    const one = (line: number) => {
      const row = stored.get(ids[line] as string);
      if (!row) throw new Error(`line ${line} not stored`);
      return { ...row, starts_at: iso(row.starts_at), ends_at: iso(row.ends_at) };
    };
    // November in Madrid is UTC+1, June UTC+2.
    expect(one(2)).toMatchObject({
      professional_id: professional.id,
      starts_at: '2025-11-03T08:30:00.000Z',
      ends_at: '2025-11-03T09:00:00.000Z',
      status: 'completed',
      reason: 'Revisión',
      reminder_state: 'none',
      time_zone: zone,
    });
    expect(one(3)).toMatchObject({ professional_id: second.id, status: 'cancelled', cancel_reason: 'no_show' });
    expect(one(4)).toMatchObject({
      starts_at: at('2025-11-04T09:00'),
      ends_at: at('2025-11-04T09:40'),
      status: 'cancelled',
      cancel_reason: 'other',
    });
    expect(one(5)).toMatchObject({
      starts_at: `${nextYear}-06-10T08:00:00.000Z`,
      ends_at: `${nextYear}-06-10T08:45:00.000Z`,
      status: 'scheduled',
    });
    const events = await t.auditEvents('appointment_created');
    const imported = events.filter((event) => (event.after as { importRunId?: string })?.importRunId);
    expect(imported).toHaveLength(4);
    expect(imported[0]?.after).toMatchObject({ importRunId: first.preview.run.id, externalId: 'C-1' });

    const again = await importFile('appointments', appointmentsCsv, mapping);
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: 4, refused: 5 });
    expect(outcomes(again.importedRows)[6]).toBe('startTime:appointment_overlaps');
    expect(
      (await t.auditEvents('appointment_created')).filter(
        (event) => (event.after as { importRunId?: string })?.importRunId,
      ),
    ).toHaveLength(4);
    const done = await t.auditEvents('import_run_finished');
    expect(done.map((event) => (event.after as { kind: string }).kind)).toEqual(
      expect.arrayContaining(['patients', 'balances', 'appointments']),
    );
  });
});
