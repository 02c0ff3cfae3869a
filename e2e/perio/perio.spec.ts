import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 41: a full-mouth periodontal exam charted with the keyboard alone, every key counted: one
 * key per single-digit value, no Tab or Enter, the odontogram's missing teeth skipped without a
 * key; then compared with the previous exam, closed, printed; axe in light and dark, screenshots
 * at tablet (1024 px) light and dark and at 390 px.
 */

const sites = ['distobuccal', 'buccal', 'mesiobuccal', 'distolingual', 'lingual', 'mesiolingual'];
const absent = [18, 28, 38];

test('charts a full-mouth perio exam by keyboard alone, compares it and closes it', async ({ page, request }) => {
  test.setTimeout(240_000);
  const patientId = await createPatient(request, {
    firstName: 'Periodonto',
    lastName: `Teclado ${Date.now()}`,
    sex: 'male',
    birthdate: '1968-04-12',
  });
  await apiCreate(request, `api/patients/${patientId}/odontogram/entries`, {
    marks: absent.map((tooth) => ({ tooth, zone: null, status: 'extracted' })),
  });
  const me = (await apiGet<{ data: { id: string } }>(request, 'api/auth/system/me')).data.id;
  // The previous exam (closed), three months before the clinic's today: 3 mm everywhere, no recession.
  const today = demoClinicToday();
  const before = new Date(`${today}T12:00:00Z`);
  before.setUTCDate(before.getUTCDate() - 90);
  const present = (await apiGet<{ data: { present: number[] } }>(request, `api/patients/${patientId}/perio-teeth`)).data
    .present;
  expect(present).toHaveLength(29);
  const previous = await apiCreate<{ id: string; version: number }>(request, `api/patients/${patientId}/perio-exams`, {
    date: before.toISOString().slice(0, 10),
    professionalId: me,
    dentition: 'adult',
    teeth: present.map((tooth) => ({
      tooth,
      sites: Object.fromEntries(sites.map((site) => [site, { depth: 3, margin: 0, bleeding: site === 'buccal' }])),
    })),
  });
  const closed = await request.post(rootServer.url(`api/patients/${patientId}/perio-exams/${previous.id}/close`), {
    headers: await adminHeaders(request),
    data: { version: previous.version },
  });
  expect(closed.status()).toBe(200);

  await page.setViewportSize({ width: 1024, height: 800 });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patientId}/mh?tab=perio`);
  await expect(page.getByTestId('perio-exam')).toHaveAttribute('data-status', 'closed');
  await page.getByTestId('perio-new').click();
  await expect(page.getByTestId('perio-exam')).toHaveAttribute('data-status', 'draft');
  await expect(page.getByTestId('perio-cell')).toHaveCount(29 * 6);

  // Every key the page receives, counted in the page itself.
  await page.evaluate(() => {
    const keys: string[] = [];
    (window as unknown as { perioKeys: string[] }).perioKeys = keys;
    window.addEventListener('keydown', (event) => keys.push(event.key), { capture: true });
  });
  const typed: string[] = [];
  const press = async (key: string) => {
    typed.push(key);
    await page.keyboard.press(key);
  };
  const grid = page.getByTestId('perio-grid');
  await grid.focus();
  await expect(page.getByTestId('perio-cursor')).toContainText('pieza 17 distovestibular');

  // Depths: 174 sites; the lower molars 5 mm and bleeding, 36's mesiobuccal 11 mm ('.' '1'), the rest 2–3 mm.
  const walk: { tooth: number; site: string }[] = [];
  const order = (teeth: number[], siteOrder: (tooth: number) => string[]) => {
    for (const tooth of teeth)
      if (!absent.includes(tooth)) for (const site of siteOrder(tooth)) walk.push({ tooth, site });
  };
  const right = (tooth: number) => [1, 4].includes(Math.floor(tooth / 10));
  const upper = [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28];
  const lower = [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38];
  order(upper, (tooth) => (right(tooth) ? sites.slice(0, 3) : sites.slice(0, 3).reverse()));
  order([...upper].reverse(), (tooth) => (right(tooth) ? sites.slice(3).reverse() : sites.slice(3)));
  order(lower, (tooth) => (right(tooth) ? sites.slice(0, 3) : sites.slice(0, 3).reverse()));
  order([...lower].reverse(), (tooth) => (right(tooth) ? sites.slice(3).reverse() : sites.slice(3)));
  expect(walk).toHaveLength(174);
  const depthOf = (step: { tooth: number; site: string }) =>
    step.tooth === 36 && step.site === 'mesiobuccal'
      ? 11
      : [36, 37, 46, 47].includes(step.tooth)
        ? 5
        : step.site === 'buccal' || step.site === 'lingual'
          ? 2
          : 3;
  let bleedingKeys = 0;
  for (const step of walk) {
    const depth = depthOf(step);
    if (depth >= 10) {
      await press('.');
      await press(String(depth - 10));
    } else await press(String(depth));
    if (depth >= 5) {
      await press('b');
      bleedingKeys += 1;
    }
  }
  // Margins: a second pass from the start, 1 mm of recession on the lower molars, 0 elsewhere.
  await press('g');
  await press('Home');
  for (const step of walk) await press([36, 37, 46, 47].includes(step.tooth) ? '1' : '0');
  // The arrows move freely: along the lower lingual strip from 48's distolingual.
  for (let step = 0; step < 2; step += 1) await press('ArrowRight');
  await expect(page.getByTestId('perio-cursor')).toContainText('pieza 48 mesiolingual');

  const received = await page.evaluate(() => (window as unknown as { perioKeys: string[] }).perioKeys);
  const valueKeys = typed.filter((key) => /^[0-9]$/.test(key)).length;
  const keyCount = {
    total: typed.length,
    digits: valueKeys,
    twoDigitPrefix: typed.filter((key) => key === '.').length,
    bleeding: bleedingKeys,
    other: typed.filter((key) => !/^[0-9.b]$/.test(key)).length,
  };
  console.log(`perio keyboard charting: ${JSON.stringify(keyCount)} for ${walk.length} sites × 2 values`);
  expect(received).toEqual(typed);
  expect(received.filter((key) => key === 'Tab' || key === 'Enter')).toEqual([]);
  // One key per single-digit value: 174 depths (one of them two digits: '.' + 1) and 174 margins.
  expect(valueKeys).toBe(174 * 2);
  expect(keyCount.twoDigitPrefix).toBe(1);
  expect(typed.length).toBe(174 * 2 + 1 + bleedingKeys + 2 + 2);

  await expect(page.getByTestId('perio-save-state')).toHaveText('Guardado', { timeout: 15_000 });
  const newest = (await apiGet<{ data: { id: string }[] }>(request, `api/patients/${patientId}/perio-exams?pageSize=1`))
    .data[0]?.id;
  const saved = (
    await apiGet<{
      data: {
        teeth: {
          tooth: number;
          sites: Record<string, { depth: number | null; margin: number | null; attachment: number; bleeding: boolean }>;
        }[];
        indices: { depth4Sites: number; depth6Sites: number; bleedingPercent: number };
      };
    }>(request, `api/patients/${patientId}/perio-exams/${newest}`)
  ).data;
  expect(saved.teeth.map((tooth) => tooth.tooth)).not.toContain(18);
  expect(saved.teeth).toHaveLength(29);
  for (const step of walk) {
    const site = saved.teeth.find((tooth) => tooth.tooth === step.tooth)?.sites[step.site];
    expect(site?.depth, `${step.tooth} ${step.site}`).toBe(depthOf(step));
  }
  const t46 = saved.teeth.find((tooth) => tooth.tooth === 46);
  expect(t46?.sites.buccal).toMatchObject({ depth: 5, margin: -1, attachment: 6, bleeding: true });
  // 4 molars × 6 sites ≥ 4 mm (5 mm and 36's 11 mm), one of them ≥ 6; 24 of 174 bleed.
  expect(saved.indices).toMatchObject({ depth4Sites: 24, depth6Sites: 1, bleedingPercent: 13.8 });
  await expect(page.getByTestId('perio-bleeding')).toHaveText('13,8 %');
  await expect(page.getByTestId('perio-depth4')).toHaveText('24');

  // Compared with the previous exam: the molars went deeper, the rest is the same or shallower.
  await page.getByTestId('perio-compare').selectOption(previous.id);
  const comparison = page.getByTestId('perio-comparison');
  await expect(comparison).toBeVisible();
  await expect(page.getByTestId('perio-deeper')).toHaveText('24 sitios más profundos');
  await expect(page.getByTestId('perio-significant')).toContainText('24 cambios de 2 mm o más');
  await expect(page.locator('[data-testid="perio-cell"].perio-change-worse')).toHaveCount(24);
  await grid.focus();
  await settle(page);
  await expectNoAxeViolations(page, 'perio chart compared (light)');
  await saveScreenshot(page, 'perio-compare-1024-light');
  await page.goto(themed(`/patients/${patientId}/mh?tab=perio`, 'dark'));
  await expect(page.getByTestId('perio-exam')).toBeVisible();
  await page.getByTestId('perio-compare').selectOption(previous.id);
  await expect(comparison).toBeVisible();
  await settle(page);
  await expectNoAxeViolations(page, 'perio chart compared (dark)');
  await saveScreenshot(page, 'perio-compare-1024-dark');

  // Closing asks first; a closed exam is read-only.
  await page.goto(themed(`/patients/${patientId}/mh?tab=perio`, 'light'));
  await page.getByTestId('perio-close').click();
  const dialog = page.getByTestId('perio-close-dialog');
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'perio close dialog');
  await dialog.getByTestId('perio-close-confirm').click();
  await expect(page.getByTestId('perio-status')).toHaveText('Cerrado');
  await expect(page.getByTestId('perio-close')).toHaveCount(0);
  await expect(page.getByTestId('perio-history-item')).toHaveCount(2);

  // The PDF for the patient.
  const pdf = await request.get(rootServer.url(`api/patients/${patientId}/perio-exams/${previous.id}/exam.pdf`), {
    headers: await adminHeaders(request),
  });
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await writeFile(path.join(artifactsDir, 'perio-exam.pdf'), await pdf.body());

  // The phone: the page fits 390 px (the grid scrolls inside itself).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(themed(`/patients/${patientId}/mh?tab=perio`, 'light'));
  await expect(page.getByTestId('perio-exam')).toBeVisible();
  await settle(page, { spinners: true });
  await saveScreenshot(page, 'perio-390');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
