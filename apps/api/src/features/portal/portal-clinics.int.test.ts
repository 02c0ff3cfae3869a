import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../test/clinics.ts';
import { bookAppointment, hoursFromNow } from '../../../test/reminders.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * The patient at two clinics (issue 37): one e-mail, a patient membership in each of two clinics
 * and a staff membership in a third. The portal's sign-in and its list of clinics never name the
 * staff one; each session answers only the chosen clinic's patient; switching keeps the portal's
 * side (a clinic without a patient membership, or the staff one, answers 404 as staff switching
 * does); a portal session never reaches a staff route. The link of a clinic enters that clinic.
 */

const password = 'Una contraseña del portal 2026';

interface Side {
  clinic: TestClinic;
  patientId: string;
  appointmentId: string;
}

describe.each(availableBackends())('a patient at two clinics on %s', (backend) => {
  const t = useTestClinic(backend);
  let email: string;
  let first: Side;
  let second: Side;
  let staffClinic: TestClinic;
  let nobody: TestClinic;

  async function patientAt(clinic: TestClinic, hours: number): Promise<Side> {
    const patientId = await t.newPatient(clinic.token, { email });
    expectAnswer(await t.call('POST', `/api/patients/${patientId}/portal-access`, { token: clinic.token }), 200, {
      data: { state: 'invited' },
    });
    const appointmentId = await bookAppointment(t.db, {
      accountId: clinic.accountId,
      patientId,
      professionalId: clinic.userId,
      startsAt: hoursFromNow(hours),
      plan: false,
    });
    return { clinic, patientId, appointmentId };
  }

  const portalSignIn = (body: { email: string; password: string }) =>
    t.call('POST', '/api/public/portal-sign-in', { token: null, body });
  const switchTo = (token: string, accountId: string) =>
    t.call('POST', '/api/auth/switch', { token, body: { accountId } });

  /** What a portal session answers about its patient: the patient, the clinic's slug and the appointments. */
  async function seenBy(token: string) {
    const me = await t.call('GET', '/api/portal/me', { token });
    expect(me.statusCode, me.body).toBe(200);
    const appointments = await t.call('GET', '/api/portal/appointments', { token });
    expect(appointments.statusCode, appointments.body).toBe(200);
    const { upcoming, past } = appointments.json().data as { upcoming: { id: string }[]; past: { id: string }[] };
    return {
      patientId: me.json().data.patient.id as string,
      clinics: me.json().data.clinics as { id: string; current: boolean; slug: string; name: string }[],
      appointments: [...upcoming, ...past].map((row) => row.id),
    };
  }

  /** Every answer of the session's own data names nothing of the other clinic's patient. */
  async function expectNothingOf(token: string, other: Side) {
    for (const url of ['/api/portal/me', '/api/portal/appointments', '/api/portal/documents', '/api/portal/balance']) {
      const answer = await t.call('GET', url, { token });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      expect(answer.body, url).not.toContain(other.patientId);
      expect(answer.body, url).not.toContain(other.appointmentId);
    }
  }

  beforeAll(async () => {
    email = `dos.clinicas.${Date.now().toString(36)}@example.com`;
    first = await patientAt(t.clinic, 48);
    second = await patientAt(t.other, 72);
    // The same person is a supervisor of a third clinic.
    staffClinic = await t.newClinic();
    const invited = await t.call('POST', '/api/users', {
      token: staffClinic.token,
      body: { completeName: 'Lucía Paz', email, level: 'supervisor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    nobody = await t.newClinic();
  });

  /** The first clinic's link, then the first password (the link proved the mailbox). */
  async function enterByFirstLinkAndSetPassword(): Promise<string> {
    await t.call('POST', `/api/patients/${first.patientId}/portal-access`, { token: first.clinic.token });
    const opened = await t.call('POST', `/api/public/portal-links/${t.mailer.tokenFor(email)}`, { token: null });
    expect(opened.statusCode, opened.body).toBe(200);
    const token = opened.json().data.token as string;
    const set = await t.call('PUT', '/api/portal/password', {
      token,
      body: { password, passwordConfirmation: password },
    });
    expect(set.statusCode, set.body).toBe(200);
    return token;
  }

  it("enters the link's own clinic, lists both portal clinics (never the staff one) and answers that clinic's patient only", async () => {
    const token = await enterByFirstLinkAndSetPassword();
    const seen = await seenBy(token);
    expect(seen.patientId).toBe(first.patientId);
    expect(seen.appointments).toEqual([first.appointmentId]);
    await expectNothingOf(token, second);
    expect(seen.clinics.map((clinic) => clinic.id).sort()).toEqual(
      [first.clinic.accountId, second.clinic.accountId].sort(),
    );
    expect(seen.clinics.find((clinic) => clinic.current)?.id).toBe(first.clinic.accountId);
    expect(seen.clinics.every((clinic) => clinic.slug && clinic.name)).toBe(true);
    const me = (await t.call('GET', '/api/portal/me', { token })).json().data;
    expect(me.signIn).toEqual({ email, hasPassword: true });
    const profile = (await t.call('GET', '/api/auth/system/me', { token })).json().data;
    expect(profile.clinics.map((clinic: { level: string }) => clinic.level)).toEqual(['customer', 'customer']);
  });

  it("signs in to the portal's clinic last entered, switches to the other (the old session ends) and back", async () => {
    const signedIn = await portalSignIn({ email, password });
    expectAnswer(signedIn, 200, { code: 'login_success', data: { user: { level: 'customer' } } });
    const { token, user } = signedIn.json().data;
    expect(user.account.id).toBe(first.clinic.accountId);
    expect(user.clinics.map((clinic: { id: string }) => clinic.id).sort()).toEqual(
      [first.clinic.accountId, second.clinic.accountId].sort(),
    );

    const switched = await switchTo(token, second.clinic.accountId);
    expectAnswer(switched, 200, { code: 'clinic_switched', data: { user: { level: 'customer' } } });
    const there = switched.json().data.token as string;
    expect((await t.call('GET', '/api/portal/me', { token })).statusCode).toBe(401);
    const seen = await seenBy(there);
    expect(seen.patientId).toBe(second.patientId);
    expect(seen.appointments).toEqual([second.appointmentId]);
    await expectNothingOf(there, first);
    expect(seen.clinics.find((clinic) => clinic.current)?.id).toBe(second.clinic.accountId);
    // The first clinic's patient and appointment are not this session's: 404 as any other patient's.
    const other = await t.call('POST', `/api/portal/appointments/${first.appointmentId}/confirm`, { token: there });
    expect(other.statusCode, other.body).toBe(404);
    expect((await t.auditEvents('clinic_switched_in', second.clinic)).length).toBeGreaterThan(0);

    // The next sign-in opens the clinic entered last; switching back works the same way.
    const again = (await portalSignIn({ email, password })).json().data;
    expect(again.user.account.id).toBe(second.clinic.accountId);
    const back = await switchTo(again.token, first.clinic.accountId);
    expect(back.statusCode, back.body).toBe(200);
    expect((await seenBy(back.json().data.token)).patientId).toBe(first.patientId);
  });

  it('never lets a portal session reach the staff membership or a clinic without a patient membership', async () => {
    const { token } = (await portalSignIn({ email, password })).json().data;
    // The staff membership's clinic, a clinic where the person is nobody, a clinic that does not exist.
    for (const accountId of [staffClinic.accountId, nobody.accountId, '00000000-0000-4000-8000-000000000000']) {
      expectAnswer(await switchTo(token, accountId), 404, { code: 'clinic_not_found' });
    }
    // Still signed in to the portal, and still no staff member.
    expect((await t.call('GET', '/api/portal/me', { token })).statusCode).toBe(200);
    for (const url of ['/api/patients', '/api/users', '/api/settings/clinic']) {
      expect((await t.call('GET', url, { token })).statusCode, url).toBe(403);
    }
  });

  it("keeps the staff's sign-in on the staff side: it opens the staff clinic and lists and switches to no portal clinic", async () => {
    // The portal was entered last; the staff's sign-in still opens the staff membership.
    await portalSignIn({ email, password });
    const staff = await t.call('POST', '/api/auth/sign-in', { token: null, body: { email, password } });
    expectAnswer(staff, 200, { data: { user: { level: 'supervisor' } } });
    const { token, user } = staff.json().data;
    expect(user.account.id).toBe(staffClinic.accountId);
    expect(user.clinics.map((clinic: { id: string }) => clinic.id)).toEqual([staffClinic.accountId]);
    expectAnswer(await switchTo(token, first.clinic.accountId), 404, { code: 'clinic_not_found' });
    expect((await t.call('GET', '/api/portal/me', { token })).statusCode).toBe(403);
  });

  it('answers 403 portal_access_none to a person with no patient membership to enter', async () => {
    expectAnswer(await portalSignIn({ email: t.clinic.email, password: 'muelas-de-gato-azul-42' }), 403, {
      code: 'portal_access_none',
    });
    expectAnswer(await portalSignIn({ email: t.clinic.email, password: 'otra cosa cualquiera' }), 401, {
      code: 'invalid_credentials',
    });
  });

  it('drops a clinic whose access was revoked from the list and from the switch', async () => {
    const revoked = await t.call('DELETE', `/api/patients/${second.patientId}/portal-access`, {
      token: second.clinic.token,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const signedIn = (await portalSignIn({ email, password })).json().data;
    expect(signedIn.user.account.id).toBe(first.clinic.accountId);
    expect(signedIn.user.clinics.map((clinic: { id: string }) => clinic.id)).toEqual([first.clinic.accountId]);
    const seen = await seenBy(signedIn.token);
    expect(seen.clinics.map((clinic) => clinic.id)).toEqual([first.clinic.accountId]);
    expectAnswer(await switchTo(signedIn.token, second.clinic.accountId), 404, { code: 'clinic_not_found' });
  });
});
