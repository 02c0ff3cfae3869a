import type { clinicSettingsResponseSchema, numberingResponseSchema } from '@odontia/shared/schemas/clinic-settings';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookAppointment, hoursFromNow, reminderJobs } from '../../../test/reminders.ts';
import { type Answer, expectAnswer, type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The clinic's system settings and its sales' numbering (issue 19): validation, versions, levels, isolation, audit, effects. */

type SettingsAnswer = Answer<typeof clinicSettingsResponseSchema>;

async function current(t: TestClinicContext, token?: string) {
  const response = await t.call('GET', '/api/settings/clinic', token ? { token } : {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SettingsAnswer>().data;
}

async function numbering(t: TestClinicContext, token?: string) {
  const response = await t.call('GET', '/api/settings/numbering', token ? { token } : {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Answer<typeof numberingResponseSchema>>().data;
}

const pdfHead = Buffer.from('%PDF-1.4\n');
/** A PDF's first bytes and padding: its type is accepted, its size is what is tested. */
const paddedPdf = (bytes: number) => Buffer.concat([pdfHead, Buffer.alloc(bytes - pdfHead.length, 32)]);

async function multipart(name: string, content: Buffer) {
  const form = new FormData();
  form.append('metadata', JSON.stringify([{ fileType: 'x_ray' }]));
  form.append('files', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

describe.each(availableBackends())('system settings on %s', (backend) => {
  // The installation allows 3 MB a file: a clinic may ask for less.
  const t = useTestClinic(backend, { patient: true, env: { UPLOAD_MAX_MB: '3', UPLOAD_TOTAL_MAX_MB: '10' } });

  const save = async (body: Record<string, unknown>, token?: string) => {
    const settings = await current(t, token);
    const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...editable } = settings;
    return t.call('PUT', '/api/settings/clinic', { body: { ...editable, ...body }, ...(token ? { token } : {}) });
  };

  it('answers the clinic’s settings with the installation’s upload maximum', async () => {
    const data = await current(t);
    expect(data).toMatchObject({
      defaultLanguage: 'es',
      dateFormat: 'DD/MM/YYYY',
      lockAfterMinutes: 15,
      remindersEnabled: true,
      reminderLeadMinutes: 1440,
      uploadMaxMb: null,
      uploadMaxMbLimit: 3,
    });
    expect(data.timeZone).toBeTruthy();
    expect(data.version).toBeGreaterThanOrEqual(1);
  });

  it('validates each field with its code', async () => {
    const cases: [Record<string, unknown>, { path: string; code: string }][] = [
      [{ currency: 'bitcoin' }, { path: 'currency', code: 'invalid_value' }],
      [{ dateFormat: 'DD.MM.YY' }, { path: 'dateFormat', code: 'invalid_value' }],
      [{ defaultLanguage: 'de' }, { path: 'defaultLanguage', code: 'invalid_value' }],
      [{ timeZone: 'Marte/Olympus' }, { path: 'timeZone', code: 'invalid_value' }],
      [{ timeZone: '' }, { path: 'timeZone', code: 'required' }],
      [{ timeZone: 'Europe/Madrid\u0000' }, { path: 'timeZone', code: 'invalid_characters' }],
      [{ lockAfterMinutes: 0 }, { path: 'lockAfterMinutes', code: 'too_small' }],
      [{ lockAfterMinutes: 241 }, { path: 'lockAfterMinutes', code: 'too_big' }],
      [{ lockAfterMinutes: 2.5 }, { path: 'lockAfterMinutes', code: 'invalid_number' }],
      [{ reminderLeadMinutes: 30 }, { path: 'reminderLeadMinutes', code: 'too_small' }],
      [{ uploadMaxMb: 0 }, { path: 'uploadMaxMb', code: 'too_small' }],
      [{ uploadMaxMb: 4 }, { path: 'uploadMaxMb', code: 'too_big' }],
      [{ brandColor: 'teal' }, { path: 'brandColor', code: 'invalid_format' }],
      [{ brandColor: '#0f766' }, { path: 'brandColor', code: 'invalid_format' }],
      [{ brandColor: '#0f766e0' }, { path: 'brandColor', code: 'invalid_format' }],
      [{ brandColor: '0f766e' }, { path: 'brandColor', code: 'invalid_format' }],
      [{ brandColor: '#0f766e\u0000' }, { path: 'brandColor', code: 'invalid_characters' }],
    ];
    for (const [body, field] of cases) {
      const response = await save(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().details.fields, JSON.stringify(body)).toEqual([expect.objectContaining(field)]);
    }
    expect((await save({ uploadMaxMb: 4 })).json().details.fields[0]).toMatchObject({ max: 3 });
  });

  it('saves with the version, audits what changed, answers 409 when stale and leaves another clinic alone', async () => {
    const before = await current(t);
    const otherBefore = await current(t, t.other.token);
    const saved = await save({
      timeZone: 'Europe/Madrid',
      currency: 'euro',
      defaultLanguage: 'pt',
      dateFormat: 'YYYY-MM-DD',
    });
    expectAnswer(saved, 200, {
      code: 'system_setting_updated',
      data: {
        timeZone: 'Europe/Madrid',
        currency: 'euro',
        defaultLanguage: 'pt',
        dateFormat: 'YYYY-MM-DD',
        version: before.version + 1,
      },
    });
    const [event] = (await t.auditEvents('system_setting_updated')).slice(-1);
    expect(event).toMatchObject({
      entity: 'account',
      entityId: t.clinic.accountId,
      before: { timeZone: before.timeZone, defaultLanguage: 'es', version: before.version },
      after: { timeZone: 'Europe/Madrid', defaultLanguage: 'pt', dateFormat: 'YYYY-MM-DD' },
    });
    expect(Object.keys(event?.after ?? {})).not.toContain('lockAfterMinutes');

    const stale = await t.call('PUT', '/api/settings/clinic', {
      body: { ...saved.json<SettingsAnswer>().data, lockAfterMinutes: 99, version: before.version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { version: before.version + 1 } },
    });
    expect((await current(t)).lockAfterMinutes).toBe(before.lockAfterMinutes);
    expect(await current(t, t.other.token)).toEqual(otherBefore);
    // The profile's time zone follows.
    expect((await t.call('GET', '/api/auth/system/me')).json().data.account.timeZone).toBe('Europe/Madrid');
  });

  it('is for settings.manage only, on every route', async () => {
    for (const level of ['supervisor', 'user'] as const) {
      await t.asLevel(level, async () => {
        expect((await t.call('GET', '/api/settings/clinic')).statusCode).toBe(403);
        expect((await t.call('PUT', '/api/settings/clinic', { body: {} })).statusCode).toBe(403);
        expect((await t.call('GET', '/api/settings/numbering')).statusCode).toBe(403);
        const put = await t.call('PUT', '/api/settings/numbering', {
          body: { pointOfSale: '1', documentType: 'invoice', nextNumber: 5 },
        });
        expect(put.json().code).toBe('forbidden');
      });
    }
  });

  it('locks an idle session after the clinic’s new lock minutes', async () => {
    const clinic = await t.newClinic();
    const settings = await current(t, clinic.token);
    const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...editable } = settings;
    const saved = await t.call('PUT', '/api/settings/clinic', {
      token: clinic.token,
      body: { ...editable, lockAfterMinutes: 5 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (await t.call('GET', '/api/auth/system/me', { token: clinic.token })).json().data.settings.lockAfterMinutes,
    ).toBe(5);
    await t.db.orm.execute(
      sql`update sessions set last_activity_at = now() - interval '6 minutes' where user_id = ${clinic.userId}`,
    );
    const idle = await t.call('GET', '/api/settings/clinic', { token: clinic.token });
    expect(idle.statusCode).toBe(401);
    expect(idle.json().code).toBe('session_locked');
  });

  it('plans reminders with the new lead time, and none when they are off', async () => {
    expect((await save({ reminderLeadMinutes: 120, remindersEnabled: true })).statusCode).toBe(200);
    const patientId = await t.newPatient(undefined, { email: `recordatorio.${Date.now()}@correo.test` });
    const startsAt = hoursFromNow(72);
    const id = await bookAppointment(t.db, {
      accountId: t.clinic.accountId,
      patientId,
      professionalId: t.clinic.userId,
      startsAt,
      plan: true,
    });
    const [job] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(job?.runAt.getTime()).toBe(startsAt.getTime() - 120 * 60_000);

    // A new lead applies to appointments booked or moved from now on, and the answer says so:
    // the reminder already planned keeps its time.
    const newLead = await save({ reminderLeadMinutes: 300 });
    expect(newLead.json()).toMatchObject({
      code: 'reminders_apply_to_new_bookings',
      data: { reminderLeadMinutes: 300 },
    });
    const [kept] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(kept?.runAt.getTime()).toBe(startsAt.getTime() - 120 * 60_000);
    expect((await save({ lockAfterMinutes: 20 })).json()).toMatchObject({ code: 'system_setting_updated' });

    expect((await save({ remindersEnabled: false })).statusCode).toBe(200);
    const later = await bookAppointment(t.db, {
      accountId: t.clinic.accountId,
      patientId,
      professionalId: t.clinic.userId,
      startsAt: hoursFromNow(80),
      plan: true,
    });
    expect(await reminderJobs(t.db, t.clinic.accountId, later)).toHaveLength(0);
    expect((await save({ remindersEnabled: true, reminderLeadMinutes: 1440 })).statusCode).toBe(200);
  });

  it('refuses a file above the clinic’s upload limit, within the installation’s', async () => {
    const upload = async (name: string, bytes: number) => {
      const body = await multipart(name, paddedPdf(bytes));
      return t.call('POST', `/api/patients/${t.patientId}/files`, {
        headers: { 'content-type': body.contentType },
        body: body.payload,
      });
    };
    expect((await save({ uploadMaxMb: 1 })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/files/limits')).json()).toMatchObject({ maxFileMb: 1, maxTotalMb: 10 });
    const refused = await upload('panorámica.pdf', 1.5 * 1024 * 1024);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'file_too_large', details: { file: 'panorámica.pdf', max: 1 } });
    // Another clinic keeps the installation's limit.
    expect(
      (await t.call('GET', '/api/files/limits', { token: t.other.token })).json<{ maxFileMb: number }>().maxFileMb,
    ).toBe(3);

    expect((await save({ uploadMaxMb: null })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/files/limits')).json<{ maxFileMb: number }>().maxFileMb).toBe(3);
    expect((await upload('panorámica.pdf', 1.5 * 1024 * 1024)).statusCode).toBe(201);
  });

  it('gives a new user and a new patient the clinic’s default language and date format', async () => {
    expect((await save({ defaultLanguage: 'fr', dateFormat: 'MM/DD/YYYY' })).statusCode).toBe(200);
    const email = `nuevo.${Date.now()}@clinica.test`;
    const invited = await t.call('POST', '/api/users', { body: { completeName: 'Jean Martin', email, level: 'user' } });
    expect(invited.statusCode, invited.body).toBe(201);
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ system_language: string; date_format: string }>(
        sql`select system_language, date_format from users where email = ${email}`,
      ),
    );
    expect(rows[0]).toEqual({ system_language: 'fr', date_format: 'MM/DD/YYYY' });
    expect(t.mailer.sent.at(-1)?.to).toBe(email);

    const patient = await t.call('POST', '/api/patients', {
      body: { firstName: 'Amélie', lastName: 'Dubois', sex: 'female', birthdate: '1990-05-06' },
    });
    expect(patient.statusCode, patient.body).toBe(201);
    expect(patient.json().data.language).toBe('fr');
    const chosen = await t.call('POST', '/api/patients', {
      body: { firstName: 'Ana', lastName: 'Souza', sex: 'female', birthdate: '1990-05-06', language: 'pt' },
    });
    expect(chosen.json().data.language).toBe('pt');
    expect((await save({ defaultLanguage: 'es', dateFormat: 'DD/MM/YYYY' })).statusCode).toBe(200);
  });

  describe('numbering', () => {
    const pointOfSale = async (code: string, active = true) => {
      const created = await t.call('POST', '/api/points-of-sale', { body: { code, name: `Caja ${code}`, active } });
      expect(created.statusCode, created.body).toBe(201);
    };
    const setNext = (body: Record<string, unknown>, token?: string) =>
      t.call('PUT', '/api/settings/numbering', { body, ...(token ? { token } : {}) });
    const issueInvoice = async (pointOfService: string) => {
      const response = await t.call('POST', '/api/sales', {
        body: {
          documentType: 'invoice',
          patientId: t.patientId,
          pointOfService,
          date: '2026-03-10',
          currency: 'euro',
          issue: true,
          lines: [{ description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21' }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data as { number: string; status: string };
    };

    it('lists each active point of sale and type with the last issued and next number', async () => {
      await pointOfSale('7');
      await pointOfSale('8', false);
      const rows = await numbering(t);
      const mine = rows.filter((row) => row.pointOfSale.code === '0007');
      expect(mine.map((row) => row.documentType)).toEqual([
        'budget',
        'proforma_invoice',
        'delivery_note',
        'invoice',
        'debit_note',
        'credit_note',
        'receipt',
      ]);
      expect(mine.every((row) => row.lastIssued === 0 && row.nextNumber === 1)).toBe(true);
      expect(rows.some((row) => row.pointOfSale.code === '0008')).toBe(false);
      expect(await numbering(t, t.other.token)).toEqual([]);
    });

    it('sets the next number (audited); the next issue takes it; never at or below an issued number', async () => {
      await pointOfSale('9');
      const first = await issueInvoice('0009');
      expect(first.number).toBe('0009-00000001');

      const refused = await setNext({ pointOfSale: '9', documentType: 'invoice', nextNumber: 1 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'next_number_not_above_issued', details: { lastIssued: 1 } });

      const set = await setNext({ pointOfSale: '9', documentType: 'invoice', nextNumber: 1500 });
      expectAnswer(set, 200, {
        code: 'system_setting_updated',
        data: { pointOfSale: { code: '0009' }, documentType: 'invoice', lastIssued: 1, nextNumber: 1500 },
      });
      const [event] = (await t.auditEvents('sale_numbering_updated')).slice(-1);
      expect(event).toMatchObject({
        entity: 'point_of_sale',
        before: { documentType: 'invoice', nextNumber: 2 },
        after: { documentType: 'invoice', nextNumber: 1500 },
      });
      // Lowering it again is fine while nothing at or above it was issued.
      expect((await setNext({ pointOfSale: '9', documentType: 'invoice', nextNumber: 1000 })).statusCode).toBe(200);
      const second = await issueInvoice('0009');
      expect(second.number).toBe('0009-00001000');
      const row = (await numbering(t)).find((r) => r.pointOfSale.code === '0009' && r.documentType === 'invoice');
      expect(row).toMatchObject({ lastIssued: 1000, nextNumber: 1001 });
      expect((await setNext({ pointOfSale: '9', documentType: 'invoice', nextNumber: 1000 })).json().code).toBe(
        'next_number_not_above_issued',
      );
      // Another type of the same point of sale is its own sequence.
      const budget = await setNext({ pointOfSale: '9', documentType: 'budget', nextNumber: 40 });
      expect(budget.json().data).toMatchObject({ lastIssued: 0, nextNumber: 40 });

      // The integrity report does not take the jumped numbers for missing documents: it lists them apart.
      const report = await t.call('GET', '/api/sales/integrity?pointOfService=9');
      expect(report.statusCode, report.body).toBe(200);
      expect(report.json().data).toMatchObject({ ok: true });
      expect(report.json().data.pointsOfSale[0]).toMatchObject({
        pointOfService: '0009',
        gaps: [],
        skipped: [
          { documentType: 'budget', from: 1, to: 39 },
          { documentType: 'invoice', from: 2, to: 999 },
        ],
      });
      // A number missing for another reason still shows as a gap.
      await t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.execute(sql`update sale_sequences set last_number = 1002
          where point_of_service = '0009' and document_type = 'invoice'`),
      );
      const broken = (await t.call('GET', '/api/sales/integrity?pointOfService=9')).json().data;
      expect(broken.ok).toBe(false);
      expect(broken.pointsOfSale[0].gaps).toEqual([{ documentType: 'invoice', from: 1001, to: 1002 }]);
    });

    it('refuses an unknown or inactive point of sale, another clinic’s, and invalid input', async () => {
      await pointOfSale('11', false);
      expect((await setNext({ pointOfSale: '11', documentType: 'invoice', nextNumber: 5 })).json()).toMatchObject({
        code: 'point_of_sale_inactive',
      });
      expect(
        (await setNext({ pointOfSale: '7', documentType: 'invoice', nextNumber: 5 }, t.other.token)).json().code,
      ).toBe('point_of_sale_inactive');
      const cases: [Record<string, unknown>, { path: string; code: string }][] = [
        [
          { pointOfSale: 'A1', documentType: 'invoice', nextNumber: 5 },
          { path: 'pointOfSale', code: 'invalid_format' },
        ],
        [
          { pointOfSale: '7', documentType: 'purchase_order', nextNumber: 5 },
          { path: 'documentType', code: 'invalid_value' },
        ],
        [
          { pointOfSale: '7', documentType: 'invoice', nextNumber: 0 },
          { path: 'nextNumber', code: 'too_small' },
        ],
        [
          { pointOfSale: '7', documentType: 'invoice', nextNumber: 100_000_000 },
          { path: 'nextNumber', code: 'too_big' },
        ],
      ];
      for (const [body, field] of cases) {
        const response = await setNext(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().details.fields).toEqual([expect.objectContaining(field)]);
      }
    });
  });
});
