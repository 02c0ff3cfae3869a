import { certificateRecord } from '@odontia/shared/routes/medical-history';
import type { healthCertificateContracts } from '@odontia/shared/schemas/health-certificates';
import { certificateTemplates } from '@odontia/shared/schemas/health-certificates';
import { describe, expect, it } from 'vitest';
import { patientRecordApi } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { type Answer, expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

type CertificateAnswer = Answer<(typeof healthCertificateContracts)['one']>;

/** Health certificates (issue 24): the record contract, issue, never edited, void and re-issue, by code, PDF. */
describe.each(availableBackends())('health certificates on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const certificate = (overrides: Record<string, unknown> = {}) => ({
    kind: 'rest',
    date: '2026-03-10',
    professionalId: t.clinic.userId,
    addressee: 'Colegio San Martín',
    restFrom: '2026-03-10',
    restTo: '2026-03-12',
    diagnosis: 'Exodoncia de tercer molar',
    showDiagnosis: false,
    text: certificateTemplates.es.rest,
    notes: 'Entregado en mano',
    ...overrides,
  });
  const {
    url,
    create: issue,
    contract,
  } = patientRecordApi<CertificateAnswer['data']>(t, certificateRecord, () => certificate());

  describeRecordContract(t, {
    ...contract,
    table: 'health_certificates',
    update: {
      // Issued: only the internal notes change (the same template and values fill the same text).
      body: () => certificate({ notes: 'Copia enviada por correo' }),
      shows: { notes: 'Copia enviada por correo' },
    },
    history: { before: { notes: 'Entregado en mano' }, after: { notes: 'Copia enviada por correo' } },
    softDelete: { auditBefore: { kind: 'rest', notes: 'Entregado en mano' } },
  });

  it('issues a rest certificate: placeholders filled, diagnosis withheld, professional copied, CE- code, audited', async () => {
    const data = await issue();
    expect(data.verificationCode).toMatch(/^CE-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(data.text).toContain('A Colegio San Martín:');
    expect(data.text).toMatch(/durante 3 días, desde el 10 \S+ 2026 hasta el 12 \S+ 2026 inclusive/);
    expect(data.text).toContain('Diagnóstico: reservado a pedido del paciente.');
    expect(data.text).not.toContain('{{');
    expect(data.text).not.toContain('tercer molar');
    expect(data.professionalName).toMatch(/^Ana Pérez/);
    expect(data).toMatchObject({ kind: 'rest', voidedAt: null, replacesId: null, version: 1 });
    const shown = await issue(certificate({ showDiagnosis: true }));
    expect(shown.text).toContain('Diagnóstico: Exodoncia de tercer molar.');
    const events = await t.auditEvents('health_certificate_created');
    const event = events.find((row) => row.entityId === data.id);
    expect(event?.after).toMatchObject({ kind: 'rest', restTo: '2026-03-12', showDiagnosis: false });
  });

  it("starts from the clinic's own template of the kind: an edited one is what a new certificate is written from", async () => {
    const list = await t.call('GET', '/api/authorization-templates?kind=rest&active=true');
    expect(list.statusCode, list.body).toBe(200);
    const [template] = list.json().data;
    expect(template).toMatchObject({
      kind: 'rest',
      title: 'Certificado de reposo',
      body: certificateTemplates.es.rest,
    });
    const edited = await t.call('PUT', `/api/authorization-templates/${template.id}`, {
      body: {
        kind: 'rest',
        title: 'Reposo (clínica)',
        body: 'Sres. {{addressee}}: {{patient}} guardará reposo {{days}} ({{from}} a {{to}}). {{clinic}}.',
        active: true,
        version: template.version,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const again = await t.call('GET', '/api/authorization-templates?kind=rest&active=true');
    const [current] = again.json().data;
    expect(current).toMatchObject({ id: template.id, title: 'Reposo (clínica)', version: template.version + 1 });
    const data = await issue(certificate({ text: current.body }));
    expect(data.text).toMatch(/^Sres\. Colegio San Martín: .+ guardará reposo 3 días \(10 \S+ 2026 a 12 \S+ 2026\)\. /);
    expect(data.text).not.toContain('{{');
    // Consent lists never show it; another clinic does not see it.
    const consent = await t.call('GET', '/api/authorization-templates?kind=consent');
    expect(consent.json().data.some((row: { id: string }) => row.id === template.id)).toBe(false);
    const foreign = await t.call('GET', `/api/authorization-templates/${template.id}`, { token: t.other.token });
    expect(foreign.json().code).toBe('authorization_template_not_found');
  });

  it('says the patient’s sex in the text: "atendida", "apta" for a woman, "atendido" for a man (issue 34)', async () => {
    const woman = await t.newPatient(undefined, { firstName: 'Lucía', lastName: 'Fernández', sex: 'female' });
    const man = await t.newPatient(undefined, { firstName: 'Jorge', lastName: 'Ibáñez', sex: 'male' });
    const attendance = certificate({
      kind: 'attendance',
      visitTime: '10:30',
      text: certificateTemplates.es.attendance,
    });
    expect((await issue(attendance, woman)).text).toContain('Lucía Fernández, DNI');
    expect((await issue(attendance, woman)).text).toMatch(/fue atendida en /);
    expect((await issue(attendance, man)).text).toMatch(/fue atendido en /);
    const fitness = certificate({ kind: 'fitness', activity: 'natación', text: certificateTemplates.es.fitness });
    const fit = (await issue(fitness, woman)).text;
    expect(fit).toMatch(/fue examinada en .* se encuentra apta,/s);
    expect(fit).not.toContain('/a');
  });

  it("checks each kind's fields: rest needs both days in order, fitness an activity, a shown diagnosis a text", async () => {
    const fields = async (body: object) => {
      const response = await t.call('POST', url(), { body });
      expect(response.statusCode).toBe(400);
      return response
        .json()
        .details.fields.map((field: { path: string; code: string }) => `${field.path}:${field.code}`);
    };
    expect(await fields(certificate({ restFrom: null, restTo: '' }))).toEqual(['restFrom:required', 'restTo:required']);
    expect(await fields(certificate({ restTo: '2026-03-01' }))).toEqual(['restTo:invalid_value']);
    expect(await fields(certificate({ kind: 'fitness', activity: '' }))).toEqual(['activity:required']);
    expect(await fields(certificate({ showDiagnosis: true, diagnosis: null }))).toEqual(['diagnosis:required']);
    expect(await fields(certificate({ kind: 'attendance', visitTime: '25:00' }))).toEqual(['visitTime:invalid_format']);
    expect(await fields(certificate({ text: 'a\u0000b' }))).toEqual(['text:invalid_characters']);
    expect(await fields(certificate({ kind: 'nope' }))).toEqual(['kind:invalid_value']);
    expect(await fields(certificate({ date: '2026-02-30' }))).toEqual(['date:invalid_date']);
    const attendance = await issue(
      certificate({ kind: 'attendance', visitTime: '10:30', text: certificateTemplates.es.attendance }),
    );
    expect(attendance.text).toMatch(/el día 10 \S+ 2026 a las 10:30 horas/);
  });

  it('never edits an issued certificate: a printed field answers 409 health_certificate_issued and changes nothing', async () => {
    const data = await issue();
    for (const change of [{ restTo: '2026-03-20' }, { text: 'Otro texto' }, { showDiagnosis: true }]) {
      const response = await t.call('PUT', url(data.id), {
        body: { ...certificate({ text: data.text, ...change }), version: data.version },
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().code).toBe('health_certificate_issued');
    }
    const now = (await t.call('GET', url(data.id))).json<CertificateAnswer>().data;
    expect(now).toMatchObject({ version: 1, restTo: '2026-03-12', text: data.text });
  });

  it('voids with a reason (kept, marked, audited, once) and issues it again naming the voided one', async () => {
    const data = await issue();
    const voided = await t.call('POST', `${url(data.id)}/void`, { body: { reason: 'Fechas equivocadas', version: 1 } });
    expectAnswer(voided, 200, {
      code: 'health_certificate_voided',
      data: { voidReason: 'Fechas equivocadas', version: 2 },
    });
    expect(voided.json().data.voidedAt).toBeTruthy();
    const again = await t.call('POST', `${url(data.id)}/void`, { body: { reason: 'Otra vez', version: 2 } });
    expect(again.json().code).toBe('health_certificate_already_voided');
    const stale = await t.call('POST', `${url(data.id)}/void`, { body: { reason: 'Tarde', version: 1 } });
    expect(stale.json().code).toBe('version_conflict');
    const voids = await t.auditEvents('health_certificate_voided');
    expect(voids.filter((row) => row.entityId === data.id)).toHaveLength(1);
    const changes = (await t.call('GET', `${url(data.id)}/changes`)).json().data;
    expect(changes.map((change: { action: string }) => change.action)).toContain('health_certificate_voided');

    const reissued = await issue(certificate({ restTo: '2026-03-13', replacesId: data.id }));
    expect(reissued).toMatchObject({ replacesId: data.id, voidedAt: null });
    expect(reissued.verificationCode).not.toBe(data.verificationCode);
    // Only a voided certificate of this patient is replaced.
    const bad = await t.call('POST', url(), { body: certificate({ replacesId: reissued.id }) });
    expect(bad.json().details.fields).toEqual([{ path: 'replacesId', code: 'invalid_value' }]);
    const list = (await t.call('GET', url())).json().data.map((row: { id: string }) => row.id);
    expect(list).toEqual(expect.arrayContaining([data.id, reissued.id]));
  });

  it("finds a certificate by its code (any case), this clinic's only; malformed codes are 400", async () => {
    const data = await issue();
    const found = await t.call('GET', `/api/certificates/by-code/${data.verificationCode.toLowerCase()}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toMatchObject({ id: data.id, patientId: t.patientId, kind: 'rest' });
    expect(found.json().data.patientName).toBeTruthy();
    const theirs = await t.call('GET', `/api/certificates/by-code/${data.verificationCode}`, { token: t.other.token });
    expect(theirs.json().code).toBe('health_certificate_not_found');
    expect((await t.call('GET', '/api/certificates/by-code/CE-0000-1111')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/certificates/by-code/%00')).statusCode).toBe(400);
  });

  it('prints the certificate as a PDF, voided ones marked', async () => {
    const data = await issue();
    const pdf = await t.call('GET', `${url(data.id)}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    await t.call('POST', `${url(data.id)}/void`, { body: { reason: 'Error', version: 1 } });
    expect((await t.call('GET', `${url(data.id)}/pdf`)).statusCode).toBe(200);
  });
});
