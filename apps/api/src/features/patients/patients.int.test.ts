import { patientRoutes } from '@odontia/shared/routes/patients';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClinic, type TestClinic } from '../../../test/clinics.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { declaredCollection, describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, type Method, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';
import { listPatients } from './patients.repository.ts';

/** Patients: records, numbering, duplicates, search, soft delete, conflicts, history, isolation (issue 5). */
describe.each(availableBackends())('patients on %s', (backend) => {
  const t = useTestClinic(backend);
  // The kept day figures (migration 0020) after every scenario.
  afterEach(async () => {
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  let counter = 0;
  const patient = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      firstName: 'Paciente',
      lastName: `Prueba ${counter}`,
      sex: 'female',
      birthdate: '1985-06-15',
      ...overrides,
    };
  };
  type PatientBody = { id: string; version: number; skuPatient: string; [key: string]: unknown };
  async function create(body: object, token = t.clinic.token): Promise<PatientBody> {
    return t.created('/api/patients', { token, body });
  }

  describeRecordContract(t, {
    entity: 'patient',
    ...declaredCollection(patientRoutes.list),
    table: 'patients',
    body: () => patient(),
    update: {
      body: () => patient({ obs: 'Prefiere turnos por la mañana' }),
      shows: { obs: 'Prefiere turnos por la mañana' },
    },
    history: { before: { obs: null }, after: { obs: 'Prefiere turnos por la mañana' } },
    softDelete: { auditBefore: { sex: 'female', version: 1 } },
    permissions: { read: 'patients.read', write: 'patients.write' },
  });

  describe('records', () => {
    it('creates a patient with the next number, computed age, author names and an audit row', async () => {
      const response = await t.call('POST', '/api/patients', {
        body: patient({
          firstName: '  María ',
          lastName: 'González',
          email: 'Maria.Gonzalez@Correo.test',
          phoneArea: '+54',
          phone: '11 4567-8901',
          ssn: '30.123.456',
          allergies: 'Penicilina',
        }),
      });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.code).toBe('patient_created');
      expect(body.data).toMatchObject({
        firstName: 'María',
        lastName: 'González',
        email: 'maria.gonzalez@correo.test',
        phoneArea: '+54',
        phone: '11 4567-8901',
        ssn: '30.123.456',
        sex: 'female',
        birthdate: '1985-06-15',
        active: true,
        allergies: 'Penicilina',
        chronicConditions: null,
        obs: null,
        version: 1,
      });
      expect(body.data.skuPatient).toMatch(/^P-\d{6}$/);
      expect(body.data.createdByName).toMatch(/^Ana Pérez/);
      expect(body.data.updatedByName).toMatch(/^Ana Pérez/);
      expect(body.data).not.toHaveProperty('searchText');
      // Age: whole years; the birthday of this year may or may not have passed.
      const today = new Date();
      const expected = today.getUTCFullYear() - 1985 - (today.toISOString().slice(5, 10) < '06-15' ? 1 : 0);
      expect(Math.abs(body.data.age - expected)).toBeLessThanOrEqual(1);
      const got = await t.call('GET', `/api/patients/${body.data.id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json().data).toEqual(body.data);
      const audit = await t.auditEvents('patient_created');
      const event = audit.find((row) => row.entityId === body.data.id);
      expect(event).toMatchObject({
        entity: 'patient',
        patientId: body.data.id,
        userId: t.clinic.userId,
        before: null,
      });
      expect(event?.after).toMatchObject({ firstName: 'María', ssn: '30.123.456', skuPatient: body.data.skuPatient });
    });

    it('numbers patients per clinic from P-000001', async () => {
      const first = await createTestClinic(t.app, t.mailer);
      const second = await createTestClinic(t.app, t.mailer);
      const a1 = await create(patient(), first.token);
      const b1 = await create(patient(), second.token);
      const a2 = await create(patient(), first.token);
      const a3 = await create(patient(), first.token);
      expect([a1.skuPatient, a2.skuPatient, a3.skuPatient]).toEqual(['P-000001', 'P-000002', 'P-000003']);
      expect(b1.skuPatient).toBe('P-000001');
      // Concurrent creations never share a number.
      const many = await Promise.all(Array.from({ length: 8 }, () => create(patient(), second.token)));
      expect(new Set(many.map((row) => row.skuPatient)).size).toBe(8);
      expect(many.map((row) => row.skuPatient).sort()).toEqual(
        Array.from({ length: 8 }, (_, index) => `P-00000${index + 2}`),
      );
    });

    it('validates every field with field codes', async () => {
      const fieldsOf = async (body: object) => {
        const response = await t.call('POST', '/api/patients', { body });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().code).toBe('validation_error');
        // The first code of each field (a later refinement may add another).
        const codes: Record<string, string> = {};
        for (const field of response.json().details.fields as { path: string; code: string }[]) {
          codes[field.path] ??= field.code;
        }
        return codes;
      };
      expect(await fieldsOf({})).toMatchObject({
        firstName: 'required',
        lastName: 'required',
        sex: 'required',
        birthdate: 'required',
      });
      expect(await fieldsOf(patient({ firstName: '  ', lastName: '' }))).toMatchObject({
        firstName: 'required',
        lastName: 'required',
      });
      expect(await fieldsOf(patient({ sex: 'other' }))).toMatchObject({ sex: 'invalid_value' });
      expect(await fieldsOf(patient({ birthdate: '2001-02-30' }))).toMatchObject({ birthdate: 'invalid_date' });
      expect(await fieldsOf(patient({ birthdate: '15/06/1985' }))).toMatchObject({ birthdate: 'invalid_date' });
      expect(await fieldsOf(patient({ birthdate: '2999-01-01' }))).toMatchObject({ birthdate: 'date_in_future' });
      expect(await fieldsOf(patient({ email: 'maria@' }))).toMatchObject({ email: 'invalid_email' });
      expect(await fieldsOf(patient({ phone: '12ab' }))).toMatchObject({ phone: 'invalid_phone' });
      expect(await fieldsOf(patient({ phoneArea: 'x54' }))).toMatchObject({ phoneArea: 'invalid_phone' });
      expect(await fieldsOf(patient({ firstName: 'x'.repeat(81) }))).toMatchObject({ firstName: 'too_long' });
      // Blank optional fields are no value.
      const blank = await create(patient({ email: ' ', phone: '', ssn: '', obs: '' }));
      expect(blank).toMatchObject({ email: null, phone: null, ssn: null, obs: null });
      const update = await t.call('PUT', `/api/patients/${blank.id}`, { body: patient() });
      expect(update.statusCode).toBe(400);
      expect(update.json().details.fields).toEqual(expect.arrayContaining([{ path: 'version', code: 'required' }]));
      expect((await t.call('GET', '/api/patients/not-a-uuid')).statusCode).toBe(400);
    });

    it("keeps the patient's document language (es by default), validates it and audits a change", async () => {
      const created = await create(patient({ firstName: 'Idioma', lastName: 'Por defecto' }));
      expect(created).toMatchObject({ language: 'es' });
      const bad = await t.call('POST', '/api/patients', { body: patient({ language: 'de' }) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields).toEqual([{ path: 'language', code: 'invalid_value' }]);
      const updated = await t.call('PUT', `/api/patients/${created.id}`, {
        body: {
          ...patient({ firstName: 'Idioma', lastName: 'Por defecto' }),
          language: 'fr',
          version: 1,
        },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().data.language).toBe('fr');
      expect((await t.call('GET', `/api/patients/${created.id}`)).json().data.language).toBe('fr');
      const audit = await t.auditEvents('patient_updated');
      const event = audit.filter((row) => row.entityId === created.id).at(-1);
      expect(event?.before).toEqual({ language: 'es' });
      expect(event?.after).toEqual({ language: 'fr' });
      const changes = await t.call('GET', `/api/patients/${created.id}/changes`);
      expect(changes.json().data[0]).toMatchObject({ before: { language: 'es' }, after: { language: 'fr' } });
    });

    it('refuses an ID number taken in the clinic (any case) naming the patient; free again once deleted', async () => {
      const first = await create(patient({ firstName: 'José', lastName: 'Pérez Núñez', ssn: 'AB-123' }));
      const again = await t.call('POST', '/api/patients', { body: patient({ ssn: 'ab-123' }) });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'duplicate_ssn',
        details: { existingId: first.id, existingName: 'José Pérez Núñez' },
      });
      // On edit too, but a patient keeps their own number.
      const other = await create(patient({ ssn: 'CD-456' }));
      const taken = await t.call('PUT', `/api/patients/${other.id}`, {
        body: {
          ...patient({ ssn: 'AB-123' }),
          version: other.version,
        },
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().details.existingId).toBe(first.id);
      const own = await t.call('PUT', `/api/patients/${first.id}`, {
        body: {
          ...patient({ firstName: 'José', lastName: 'Pérez Núñez', ssn: 'AB-123' }),
          version: first.version,
        },
      });
      expect(own.statusCode, own.body).toBe(200);
      // Another clinic may have the same number.
      const otherClinic = await createTestClinic(t.app, t.mailer);
      await create(patient({ ssn: 'AB-123' }), otherClinic.token);
      // Once the first is deleted, the number is free.
      expect((await t.call('DELETE', `/api/patients/${first.id}`)).statusCode).toBe(200);
      await create(patient({ ssn: 'AB-123' }));
    });

    it('a unique-index race still answers duplicate_ssn', async () => {
      const raceClinic = await createTestClinic(t.app, t.mailer);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          t.call('POST', '/api/patients', { token: raceClinic.token, body: patient({ ssn: 'RACE-1' }) }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const answer of answers.filter((a) => a.statusCode === 409)) {
        expect(answer.json().code).toBe('duplicate_ssn');
      }
    });

    it('updates with the version, audits only what changed; a stale version answers the current values', async () => {
      const created = await create(patient({ firstName: 'Lucía', lastName: 'Fernández', phone: '11 5555-0000' }));
      const body = { ...patient({ firstName: 'Lucía', lastName: 'Fernández', phone: '11 5555-1111' }) };
      const updated = await t.call('PUT', `/api/patients/${created.id}`, {
        body: {
          ...body,
          chronicConditions: 'Hipertensión',
          version: 1,
        },
      });
      expectAnswer(updated, 200, {
        code: 'patient_updated',
        data: { phone: '11 5555-1111', chronicConditions: 'Hipertensión', version: 2, skuPatient: created.skuPatient },
      });
      const audit = await t.auditEvents('patient_updated');
      const event = audit.filter((row) => row.entityId === created.id).at(-1);
      expect(event?.patientId).toBe(created.id);
      expect(event?.before).toEqual({ phone: '11 5555-0000', chronicConditions: null });
      expect(event?.after).toEqual({ phone: '11 5555-1111', chronicConditions: 'Hipertensión' });

      const stale = await t.call('PUT', `/api/patients/${created.id}`, {
        body: {
          ...body,
          phone: '11 9999-9999',
          version: 1,
        },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({
        code: 'version_conflict',
        details: { current: { id: created.id, phone: '11 5555-1111', chronicConditions: 'Hipertensión', version: 2 } },
      });
      expect((await t.call('GET', `/api/patients/${created.id}`)).json().data.phone).toBe('11 5555-1111');
    });

    it('deletes softly: 404 everywhere afterwards, the row kept with who and when, the audit keeps the before', async () => {
      const created = await create(patient({ firstName: 'Ramón', lastName: 'Borrado', ssn: 'DEL-1' }));
      const deleted = await t.call('DELETE', `/api/patients/${created.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ code: 'patient_deleted' });
      for (const [method, url] of [
        ['GET', `/api/patients/${created.id}`],
        ['PUT', `/api/patients/${created.id}`],
        ['DELETE', `/api/patients/${created.id}`],
        ['GET', `/api/patients/${created.id}/changes`],
      ] as [Method, string][]) {
        const response = await t.call(method, url, method === 'PUT' ? { body: { ...patient(), version: 2 } } : {});
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().code).toBe('patient_not_found');
      }
      const list = await t.call('GET', '/api/patients?q=borrado');
      expect(list.json()).toMatchObject({ total: 0, data: [] });
      const listAll = await t.call('GET', '/api/patients?pageSize=100');
      expect(listAll.json().data.map((row: { id: string }) => row.id)).not.toContain(created.id);
      const { rows } = await t.db.orm.execute<{ deleted_at: Date | null; deleted_by: string; version: number }>(
        sql`select deleted_at, deleted_by, version from patients where id = ${created.id}`,
      );
      expect(rows[0]?.deleted_at).not.toBeNull();
      expect(rows[0]).toMatchObject({ deleted_by: t.clinic.userId, version: 2 });
      const audit = await t.auditEvents('patient_deleted');
      const event = audit.find((row) => row.entityId === created.id);
      expect(event?.patientId).toBe(created.id);
      expect(event?.before).toMatchObject({ firstName: 'Ramón', lastName: 'Borrado', ssn: 'DEL-1', version: 1 });
      // The app role cannot physically delete a patient.
      await expect(
        t.db.withTenant(t.clinic.accountId, (tx) => tx.execute(sql`delete from patients where id = ${created.id}`)),
      ).rejects.toThrow();
    });

    it('lists the history of changes newest first, with user names, paginated', async () => {
      const created = await create(patient({ firstName: 'Historia', lastName: 'Clínica' }));
      await t.call('PUT', `/api/patients/${created.id}`, {
        body: {
          ...patient({ firstName: 'Historia', lastName: 'Clínica', obs: 'Prefiere turnos por la mañana' }),
          version: 1,
        },
      });
      const changes = await t.call('GET', `/api/patients/${created.id}/changes`);
      expect(changes.statusCode, changes.body).toBe(200);
      const page = changes.json();
      expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
      expect(page.data.map((row: { action: string }) => row.action)).toEqual(['patient_updated', 'patient_created']);
      expect(page.data[0]).toMatchObject({
        userId: t.clinic.userId,
        before: { obs: null },
        after: { obs: 'Prefiere turnos por la mañana' },
      });
      expect(page.data[0].userName).toMatch(/^Ana Pérez/);
      expect(page.data[1]).toMatchObject({ before: null, after: { firstName: 'Historia' } });
      const second = await t.call('GET', `/api/patients/${created.id}/changes?page=2&pageSize=1`);
      expect(second.json()).toMatchObject({ total: 2, data: [{ action: 'patient_created' }] });
      // The delete is the newest version, kept in the audit (the history itself answers 404 once deleted).
      await t.call('DELETE', `/api/patients/${created.id}`);
      const events = await t.db.withTenant(t.clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.filter((row) => row.entityId === created.id).map((row) => row.action)).toEqual([
        'patient_created',
        'patient_updated',
        'patient_deleted',
      ]);
    });
  });

  describe('list and search', () => {
    let searchClinic: TestClinic;
    beforeAll(async () => {
      searchClinic = await createTestClinic(t.app, t.mailer);
      const people = [
        {
          firstName: 'María',
          lastName: 'González',
          ssn: '28111222',
          email: 'maria.g@correo.test',
          birthdate: '1970-03-01',
        },
        { firstName: 'José', lastName: 'Pérez Núñez', ssn: '30999888', phone: '11 4321-0001', birthdate: '2015-09-20' },
        { firstName: 'Lucía', lastName: 'Fernández', ssn: '35777666', birthdate: '1990-12-31', active: false },
        { firstName: 'Martín', lastName: 'Gonzaga', ssn: '40555444', birthdate: '1955-01-15' },
        { firstName: 'Ana', lastName: 'Marín', birthdate: '2001-07-07', sex: 'female' },
      ];
      for (const person of people) await create(patient({ sex: 'male', ...person }), searchClinic.token);
    });
    const list = async (query: string) => {
      const response = await t.call('GET', `/api/patients?${query}`, { token: searchClinic.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        data: { id: string; firstName: string; lastName: string; skuPatient: string }[];
        total: number;
        page: number;
        pageSize: number;
      };
    };
    const names = async (query: string) => (await list(query)).data.map((row) => `${row.firstName} ${row.lastName}`);

    it('lists by last name then first name, paginated, with the total', async () => {
      const page = await list('pageSize=2');
      expect(page).toMatchObject({ total: 5, page: 1, pageSize: 2 });
      expect(page.data.map((row) => row.lastName)).toEqual(['Fernández', 'Gonzaga']);
      expect(await names('page=2&pageSize=2')).toEqual(['María González', 'Ana Marín']);
      expect(await names('page=3&pageSize=2')).toEqual(['José Pérez Núñez']);
      expect(await list('page=9&pageSize=2')).toMatchObject({ total: 5, data: [] });
      expect((await t.call('GET', '/api/patients?pageSize=101', { token: searchClinic.token })).statusCode).toBe(400);
      expect((await t.call('GET', '/api/patients?sort=ssn', { token: searchClinic.token })).statusCode).toBe(400);
      expect((await t.call('GET', '/api/patients?active=maybe', { token: searchClinic.token })).statusCode).toBe(400);
    });

    it('searches every word, without accents or case, in either order and by fragments', async () => {
      expect(await names('q=gonz%20mar')).toEqual(['Martín Gonzaga', 'María González']);
      expect(await names('q=gonzalez%20maria')).toEqual(['María González']);
      expect(await names('q=MARIA%20GONZ')).toEqual(['María González']);
      expect(await names('q=nunez')).toEqual(['José Pérez Núñez']);
      expect(await names('q=ernand')).toEqual(['Lucía Fernández']);
      expect(await names('q=marin')).toEqual(['Ana Marín']);
      expect(await names('q=30999888')).toEqual(['José Pérez Núñez']);
      expect(await names('q=999')).toEqual(['José Pérez Núñez']);
      expect(await names('q=maria.g%40correo')).toEqual(['María González']);
      expect(await names('q=4321-0001')).toEqual(['José Pérez Núñez']);
      const jose = (await list('q=jose')).data[0];
      expect(await names(`q=${jose?.skuPatient.toLowerCase()}`)).toEqual(['José Pérez Núñez']);
      // Short words (no index) search the same way.
      expect(await names('q=ma')).toEqual(['Martín Gonzaga', 'María González', 'Ana Marín']);
      expect(await list('q=zzz')).toMatchObject({ total: 0, data: [] });
      expect(await list('q=%25')).toMatchObject({ total: 0, data: [] });
      // Paginated search counts every match.
      expect(await list('q=gon&pageSize=1')).toMatchObject({ total: 2, data: [{ lastName: 'Gonzaga' }] });
      expect(await list('q=gon&page=3&pageSize=1')).toMatchObject({ total: 2, data: [] });
      // Other clinics' patients are never found.
      expect(await list('q=paciente')).toMatchObject({ total: 0, data: [] });
    });

    it('a search goes back to the clinic context within its transaction', async () => {
      const settings = await t.db.withTenant(searchClinic.accountId, async (tx) => {
        const found = await listPatients(tx, searchClinic.accountId, { q: 'gonz', page: 1, pageSize: 5 }, new Date());
        const { rows } = await tx.execute<{ role: string; account: string; count: number }>(
          sql`select current_setting('role') as role, current_setting('app.account_id') as account,
                (select count(distinct account_id)::int from patients) as count`,
        );
        return { total: found.total, ...rows[0] };
      });
      expect(settings).toEqual({ total: 2, role: 'odontia_app', account: searchClinic.accountId, count: 1 });
    });

    it('a search with more than 1,000 matches says "more than 1,000" and still pages in name order', async () => {
      const crowd = await createTestClinic(t.app, t.mailer);
      // 1,100 Gonzálezes (some inactive, some deleted) and one other patient, straight into the table.
      await t.db.withSystem((tx) =>
        tx.execute(sql`
          insert into patients (account_id, id, sku_patient, first_name, last_name, sex, birthdate, active,
            deleted_at, created_by, updated_by)
          select ${crowd.accountId}::uuid, gen_random_uuid(), 'P-' || lpad(i::text, 6, '0'),
            (array['Ana', 'Zoe', 'Luis', 'Bea'])[1 + i % 4], (array['González', 'Gonzaga', 'Argonz'])[1 + i % 3],
            'female', date '1980-01-01', i % 10 <> 0, case when i % 25 = 0 then now() end,
            ${crowd.userId}::uuid, ${crowd.userId}::uuid
          from generate_series(1, 1100) as i
          union all
          select ${crowd.accountId}::uuid, gen_random_uuid(), 'P-999999', 'Aarón', 'Abad', 'male', date '1990-01-01',
            true, null, ${crowd.userId}::uuid, ${crowd.userId}::uuid`),
      );
      const expected = async (order: string, active: boolean | null, offset: number) => {
        const { rows } = await t.db.withSystem((tx) =>
          tx.execute<{ id: string }>(sql`
            select id from patients where account_id = ${crowd.accountId} and deleted_at is null
              and last_name ilike '%gonz%' and (${active}::boolean is null or active = ${active}::boolean)
            order by ${sql.raw(order)} limit 20 offset ${offset}`),
        );
        return rows.map((row) => row.id);
      };
      const search = async (query: string) => {
        const response = await t.call('GET', `/api/patients?${query}`, { token: crowd.token });
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as { data: { id: string }[]; total: number; totalIsLowerBound?: boolean };
      };
      const byName = 'last_name, first_name, id';
      const page1 = await search('q=gonz');
      expect(page1).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(page1.data.map((row) => row.id)).toEqual(await expected(byName, null, 0));
      expect((await search('q=gonz&page=3')).data.map((row) => row.id)).toEqual(await expected(byName, null, 40));
      const activeOnly = await search('q=gonz&active=true');
      expect(activeOnly.data.map((row) => row.id)).toEqual(await expected(byName, true, 0));
      // Another order sorts every match (no index walks it) and is just as right.
      const descending = await search('q=GONZ&sort=-lastName');
      expect(descending).toMatchObject({ total: 1000, totalIsLowerBound: true });
      expect(descending.data.map((row) => row.id)).toEqual(
        await expected('last_name desc, first_name desc, id', null, 0),
      );
      // Fewer matches than the cap are counted exactly.
      expect(await search('q=gonzaga&active=false')).toMatchObject({ total: 30 });
      expect((await search('q=gonzaga&active=false')).totalIsLowerBound).toBeUndefined();
      // The walk's planner settings end with the search.
      const settings = await t.db.withTenant(crowd.accountId, async (tx) => {
        await listPatients(tx, crowd.accountId, { q: 'gonz', page: 1, pageSize: 5 }, new Date());
        const { rows } = await tx.execute<Record<string, string>>(
          sql`select current_setting('role') as role, current_setting('enable_indexscan') as indexscan,
                current_setting('enable_bitmapscan') as bitmapscan, current_setting('enable_seqscan') as seqscan`,
        );
        return rows[0];
      });
      expect(settings).toEqual({ role: 'odontia_app', indexscan: 'on', bitmapscan: 'on', seqscan: 'on' });
    });

    it('filters active and inactive; sorts by any allowed column', async () => {
      expect(await names('active=false')).toEqual(['Lucía Fernández']);
      expect((await list('active=true')).total).toBe(4);
      expect(await names('q=luc&active=true')).toEqual([]);
      expect(await names('sort=-lastName')).toEqual([
        'José Pérez Núñez',
        'Ana Marín',
        'María González',
        'Martín Gonzaga',
        'Lucía Fernández',
      ]);
      expect(await names('sort=birthdate')).toEqual([
        'Martín Gonzaga',
        'María González',
        'Lucía Fernández',
        'Ana Marín',
        'José Pérez Núñez',
      ]);
      expect(await names('sort=firstName&pageSize=2')).toEqual(['Ana Marín', 'José Pérez Núñez']);
      const bySku = (await list('sort=-skuPatient')).data.map((row) => row.skuPatient);
      expect(bySku).toEqual([...bySku].sort().reverse());
      expect((await list('sort=-createdAt')).data[0]?.lastName).toBe('Marín');
      expect((await list('sort=updatedAt&q=gonz')).total).toBe(2);
    });
  });
});
