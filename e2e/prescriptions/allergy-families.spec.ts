import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { apiSignIn, demoUsers, openAsAdministrator } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Allergy warnings by drug family (issue 14): the demo's patient allergic to "Penicilina" gets a
 * warning for amoxicillin (same family) and for a cephalosporin (cross-reaction), in the
 * prescription form and view and for a medicine an attendance used.
 */

async function headers(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiSignIn(request, demoUsers.administrator)}` };
}

async function penicillinPatient(request: APIRequestContext): Promise<{ id: string }> {
  const response = await request.get(rootServer.url('api/patients?pageSize=100'), { headers: await headers(request) });
  const body = (await response.json()) as { data: { id: string; allergies: string | null }[] };
  const patient = body.data.find((candidate) => candidate.allergies === 'Penicilina');
  expect(patient, 'a demo patient allergic to penicillin').toBeTruthy();
  return { id: patient?.id ?? '' };
}

test('amoxicillin and cephalexin warn a patient allergic to penicillin; paracetamol does not', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const patient = await penicillinPatient(request);
  await openAsAdministrator(page, `/patients/${patient.id}/mh/prescription/new`);
  const form = page.getByTestId('prescription-form');
  const line = form.getByTestId('prescription-line').first();

  await line.getByTestId('line-medicine').fill('Paracetamol 500 mg');
  await expect(line.getByTestId('allergy-warning')).toHaveCount(0);
  await line.getByTestId('line-medicine').fill('Amoxicilina 500 mg');
  await expect(line.getByTestId('allergy-warning')).toHaveText(
    'Atención: es de la familia de las penicilinas y el paciente tiene registrada alergia a «Penicilina». Revisa la indicación antes de guardar.',
  );
  await line.getByTestId('line-medicine').fill('Cefalexina 500 mg');
  await expect(line.getByTestId('allergy-warning')).toContainText('las cefalosporinas pueden dar reacción cruzada');
  await line.getByTestId('line-medicine').press('Escape');
  await saveScreenshot(page, 'prescription-allergy-cross-reaction');

  // On the written prescription and on an attendance that used amoxicillin.
  const auth = await headers(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers: auth })).json()) as {
    data: { id: string };
  };
  const prescription = await request.post(rootServer.url(`api/patients/${patient.id}/prescriptions`), {
    headers: auth,
    data: { date: '2026-11-20', professionalId: me.data.id, lines: [{ medicine: 'Amoxicilina 875 mg' }] },
  });
  expect(prescription.status()).toBe(201);
  const prescriptionId = ((await prescription.json()) as { data: { id: string } }).data.id;
  await page.goto(`/patients/${patient.id}/mh/prescription/show/${prescriptionId}`);
  await expect(page.getByTestId('record-line-allergy')).toHaveText('Alergia registrada: Penicilina (las penicilinas)');

  const catalogue = await request.get(rootServer.url('api/medications?q=Amoxicilina'), { headers: auth });
  const amoxicillin = ((await catalogue.json()) as { data: { id: string; name: string }[] }).data.find(
    (item) => item.name === 'Amoxicilina 500 mg',
  );
  expect(amoxicillin, 'the demo catalogue has amoxicillin').toBeTruthy();
  const attendance = await request.post(rootServer.url(`api/patients/${patient.id}/attendances`), {
    headers: auth,
    data: {
      date: new Date().toISOString(),
      attendanceType: 'checkup_control',
      professionalId: me.data.id,
      titleResume: 'Control con antibiótico',
      medications: [{ itemId: amoxicillin?.id, quantity: 1 }],
    },
  });
  expect(attendance.status(), await attendance.text()).toBe(201);
  const attendanceId = ((await attendance.json()) as { data: { id: string } }).data.id;
  await page.goto(`/patients/${patient.id}/mh/attendance/show/${attendanceId}`);
  await expect(page.getByTestId('record-medication-allergy')).toHaveText(
    'Amoxicilina 500 mg: Alergia registrada: Penicilina (las penicilinas)',
  );
  await page.goto(`/patients/${patient.id}/mh/attendance/edit/${attendanceId}`);
  await expect(page.getByTestId('used-medications').getByTestId('allergy-warning')).toContainText(
    'familia de las penicilinas',
  );
});
