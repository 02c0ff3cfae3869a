import { certificateTemplates } from '@odontia/shared/schemas/health-certificates';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../test/clinics.ts';
import { addTreatment, saveBookingRules } from '../../../test/online-booking.ts';
import { bookAppointment, hoursFromNow } from '../../../test/reminders.ts';
import { insertIssuedSale } from '../../../test/sales-factory.ts';
import { type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * The portal's isolation probe (issue 37), like the clinics' one: over EVERY /api/portal route, a
 * patient sees only their own rows — another patient of the same clinic and a patient of another
 * clinic get 404 for each other's ids — a staff token is no patient (403), a customer token is no
 * staff member (403 on every staff route), and the database itself refuses other patients' rows.
 */

interface PortalPatient {
  patientId: string;
  token: string;
  /** The patient's documents as `kind/id`, and appointments' ids. */
  documents: string[];
  appointments: string[];
}

let counter = 0;
const unknownId = '00000000-0000-4000-8000-000000000000';

async function portalPatient(t: TestClinicContext, clinic: TestClinic): Promise<PortalPatient> {
  counter += 1;
  const email = `probe.${Date.now().toString(36)}.${counter}@example.com`;
  const patientId = await t.newPatient(clinic.token, { email });
  const invited = await t.call('POST', `/api/patients/${patientId}/portal-access`, { token: clinic.token });
  expect(invited.statusCode, invited.body).toBe(200);
  const opened = await t.call('POST', `/api/public/portal-links/${t.mailer.tokenFor(email)}`, { token: null });
  expect(opened.statusCode, opened.body).toBe(200);
  const appointment = await bookAppointment(t.db, {
    accountId: clinic.accountId,
    patientId,
    professionalId: clinic.userId,
    startsAt: hoursFromNow(72 + counter),
    plan: false,
  });
  const certificate = await t.call('POST', `/api/patients/${patientId}/certificates`, {
    token: clinic.token,
    body: {
      kind: 'rest',
      date: '2026-03-10',
      professionalId: clinic.userId,
      addressee: 'Colegio San Martín',
      restFrom: '2026-03-10',
      restTo: '2026-03-12',
      diagnosis: 'Exodoncia',
      showDiagnosis: false,
      text: certificateTemplates.es.rest,
    },
  });
  expect(certificate.statusCode, certificate.body).toBe(201);
  const sale = await insertIssuedSale(t, { patientId, net: '100.00', dueDate: '2026-01-01' }, clinic);
  return {
    patientId,
    token: opened.json().data.token,
    documents: [`certificate/${certificate.json().data.id}`, `sale/${sale.id}`],
    appointments: [appointment],
  };
}

/** Every id a portal answer names, anywhere in its body. */
const idsIn = (body: string) =>
  new Set(body.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);

describe.each(availableBackends())('portal isolation on %s', (backend) => {
  const t = useTestClinic(backend);
  let mine: PortalPatient;
  let neighbour: PortalPatient;
  let elsewhere: PortalPatient;
  let bookable: string;

  beforeAll(async () => {
    mine = await portalPatient(t, t.clinic);
    neighbour = await portalPatient(t, t.clinic);
    elsewhere = await portalPatient(t, t.other);
    // Online booking (issue 37) on, for one treatment with the clinic's professional.
    bookable = await addTreatment(t, 'Revisión', 30);
    await saveBookingRules(t, { enabled: true, treatmentIds: [bookable], professionalIds: [t.clinic.userId] });
  });

  /** What each /api/portal route is probed with: its URL for a patient, or for a document of theirs. */
  const probes: Record<string, (owner: PortalPatient) => { method: 'GET' | 'PUT' | 'POST'; urls: string[] }> = {
    'GET /api/portal/me': () => ({ method: 'GET', urls: ['/api/portal/me'] }),
    'GET /api/portal/appointments': () => ({ method: 'GET', urls: ['/api/portal/appointments'] }),
    'GET /api/portal/documents': () => ({ method: 'GET', urls: ['/api/portal/documents'] }),
    'GET /api/portal/balance': () => ({ method: 'GET', urls: ['/api/portal/balance'] }),
    'GET /api/portal/documents/:kind/:id/pdf': (owner) => ({
      method: 'GET',
      urls: owner.documents.map((document) => `/api/portal/documents/${document}/pdf`),
    }),
    'PUT /api/portal/password': () => ({ method: 'PUT', urls: ['/api/portal/password'] }),
    // Online booking (issue 37).
    'GET /api/portal/free-slots': () => ({ method: 'GET', urls: [`/api/portal/free-slots?treatmentId=${bookable}`] }),
    'POST /api/portal/bookings': () => ({ method: 'POST', urls: ['/api/portal/bookings'] }),
    ...Object.fromEntries(
      ['confirm', 'cancel', 'reschedule'].map((action) => [
        `POST /api/portal/appointments/:id/${action}`,
        (owner: PortalPatient) => ({
          method: 'POST' as const,
          urls: owner.appointments.map((id) => `/api/portal/appointments/${id}/${action}`),
        }),
      ]),
    ),
    // The right of access (issue 42): its own test (features/access-exports) proves another patient's id is 404.
    'POST /api/portal/access-exports': () => ({ method: 'POST', urls: ['/api/portal/access-exports'] }),
    'GET /api/portal/access-exports/latest': () => ({ method: 'GET', urls: ['/api/portal/access-exports/latest'] }),
    'GET /api/portal/access-exports/:exportId': () => ({
      method: 'GET',
      urls: [`/api/portal/access-exports/${unknownId}`],
    }),
    'GET /api/portal/access-exports/:exportId/file': () => ({
      method: 'GET',
      urls: [`/api/portal/access-exports/${unknownId}/file`],
    }),
  };
  const idRoutes = new Set(['GET /api/portal/documents/:kind/:id/pdf']);
  const archiveRoutes = new Set([
    'GET /api/portal/access-exports/:exportId',
    'GET /api/portal/access-exports/:exportId/file',
  ]);

  const portalRoutes = () =>
    t.app.apiRoutes
      .filter((route) => route.url.startsWith('/api/portal/'))
      .flatMap((route) => route.method.split(',').map((method) => `${method} ${route.url}`))
      .filter((route) => !route.startsWith('HEAD '));

  it('probes every /api/portal route (a new one must join the probe)', () => {
    expect(portalRoutes().sort()).toEqual(Object.keys(probes).sort());
  });

  it("answers each patient their own rows only: another patient's ids never appear", async () => {
    for (const route of Object.keys(probes).filter(
      (route) => route.startsWith('GET') && !idRoutes.has(route) && !archiveRoutes.has(route),
    )) {
      const url = probes[route]?.(mine).urls[0] as string;
      const answer = await t.call('GET', url, { token: mine.token });
      expect(answer.statusCode, `${route}: ${answer.body}`).toBe(200);
      const seen = idsIn(answer.body);
      for (const other of [neighbour, elsewhere]) {
        for (const id of [other.patientId, ...other.appointments, ...other.documents.map((doc) => doc.split('/')[1])])
          expect(seen.has(id as string), `${route} shows ${id}`).toBe(false);
      }
    }
    const documents = (await t.call('GET', '/api/portal/documents', { token: mine.token })).json().data as {
      kind: string;
      id: string;
    }[];
    expect(documents.map((doc) => `${doc.kind}/${doc.id}`).sort()).toEqual([...mine.documents].sort());
    const appointments = (await t.call('GET', '/api/portal/appointments', { token: mine.token })).json().data;
    expect(appointments.upcoming.map((row: { id: string }) => row.id)).toEqual(mine.appointments);
    expect(appointments.upcoming[0]).toMatchObject({ canCancel: true, status: 'scheduled' });
    const balance = (await t.call('GET', '/api/portal/balance', { token: mine.token })).json().data;
    expect(balance).toMatchObject({ balance: '121.00', currency: 'argentine_peso' });
    expect(balance.documents).toHaveLength(1);
  });

  it("serves the patient's own PDFs and answers 404 to another patient's, in this clinic or another", async () => {
    for (const [route, probe] of Object.entries(probes).filter(([route]) => idRoutes.has(route))) {
      for (const url of probe(mine).urls) {
        const own = await t.call('GET', url, { token: mine.token });
        expect(own.statusCode, `${route}: ${own.body}`).toBe(200);
        expect(own.headers['content-type']).toBe('application/pdf');
        for (const intruder of [neighbour, elsewhere]) {
          const refused = await t.call('GET', url, { token: intruder.token });
          expect(refused.statusCode, `${url} as another patient`).toBe(404);
        }
      }
    }
  });

  it("answers 404 to another patient's appointment on the booking routes, in this clinic or another", async () => {
    const body = { startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString() };
    for (const action of ['confirm', 'cancel', 'reschedule']) {
      for (const url of probes[`POST /api/portal/appointments/:id/${action}`]?.(mine).urls ?? []) {
        for (const intruder of [neighbour, elsewhere]) {
          const refused = await t.call('POST', url, { token: intruder.token, body });
          expect(refused.statusCode, `${url} as another patient: ${refused.body}`).toBe(404);
        }
      }
    }
  });

  it('refuses staff on every portal route and customers on every staff route', async () => {
    for (const route of Object.keys(probes)) {
      const probe = probes[route]?.(mine);
      for (const url of probe?.urls ?? []) {
        const answer = await t.call(probe?.method ?? 'GET', url, { token: t.clinic.token, body: {} });
        expect(answer.statusCode, `${route} as staff`).toBe(403);
      }
    }
    const staffRoutes = t.app.apiRoutes.filter(
      (route) => !['public', 'authenticated', 'portal.use', 'profile.manage'].includes(route.permission),
    );
    expect(staffRoutes.length).toBeGreaterThan(100);
    for (const route of staffRoutes) {
      for (const method of route.method.split(',').filter((method) => method !== 'HEAD')) {
        const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
        const answer = await t.call(method as 'GET', url, { token: mine.token, body: {} });
        expect(answer.statusCode, `${method} ${route.url} as a customer`).toBe(403);
      }
    }
  });

  it("refuses another patient's rows in the database itself, inside the customer's transaction", async () => {
    const tables = ['patients', 'appointments', 'health_certificates', 'commercial_documents', 'customers'];
    const counts = await t.db.withPatient(t.clinic.accountId, mine.patientId, async (tx) => {
      const result: Record<string, number> = {};
      for (const table of tables) {
        const { rows } = await tx.execute<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.raw(table === 'patients' ? 'id' : 'patient_id')} = ${neighbour.patientId}::uuid`,
        );
        result[table] = rows[0]?.n ?? -1;
      }
      const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from document_lines`);
      result.own_lines = rows[0]?.n ?? 0;
      return result;
    });
    expect(counts).toMatchObject({
      patients: 0,
      appointments: 0,
      health_certificates: 0,
      commercial_documents: 0,
      customers: 0,
    });
    expect(counts.own_lines).toBe(1);
    // Writing another patient's row is refused too (no row is visible to change).
    const changed = await t.db.withPatient(t.clinic.accountId, mine.patientId, (tx) =>
      tx.execute(sql`update appointments set reason = 'x' where id = ${neighbour.appointments[0]}::uuid returning id`),
    );
    expect(changed.rows).toEqual([]);
    await expect(
      t.db.withPatient(t.clinic.accountId, mine.patientId, (tx) =>
        tx.execute(
          sql`update appointments set patient_id = ${neighbour.patientId}::uuid where id = ${mine.appointments[0]}::uuid`,
        ),
      ),
    ).rejects.toThrow();
  });
});
