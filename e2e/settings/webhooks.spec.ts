import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addDays, instantOfClinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, test } from '../fixtures/test';
import { adminHeaders, apiGet, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoTimeZone, demoUsers, signInPage, weekdayOnOrAfter } from '../support/real-users';
import { checkScreen } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 42, webhooks for integrators, as the demo clinic's administrator: Administración ›
 * Webhooks subscribes a receiver this spec starts on 127.0.0.1 (the e2e servers allow private
 * http), the secret is shown once; an appointment booked in the agenda reaches the receiver signed
 * with it; the delivery log shows it delivered, and "Reenviar" sends the same event again. Each
 * new screen axe clean, in dark and at 390 px.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const verify = (secret: string, received: Received) => {
  const timestamp = String(received.headers['odontia-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
  return received.headers['odontia-signature'] === expected;
};

test('Administración › Webhooks: subscribe, a booking delivered signed, the log, Reenviar', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('recibido');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/odontia-${tag()}`;
  let subscriptionId: string | null = null;
  try {
    const lastName = `Webhook${tag()}`;
    const patientId = await createPatient(request, {
      firstName: 'Lucía',
      lastName,
      sex: 'female',
      birthdate: '1990-04-12',
    });

    await signInPage(page, demoUsers.administrator);
    await page.goto('/settings/webhooks');
    await settle(page, { spinners: true });
    await expect(page.getByTestId('webhooks-page').getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await checkScreen(page, 'Webhooks', 'webhooks-list', { spinners: true });

    await page.getByTestId('webhook-new').click();
    const form = page.getByTestId('webhook-form');
    await form.getByLabel('Dirección (URL)').fill(url);
    await form.getByLabel('Descripción').fill('CRM de prueba');
    await expect(form.getByLabel(/Turno reservado/)).toBeChecked();
    await checkScreen(page, 'Webhooks: new subscription', 'webhooks-form', { fullPage: false });
    // A double click creates one subscription.
    await form.getByTestId('webhook-save').dblclick();
    const secretDialog = page.getByTestId('webhook-secret-dialog');
    await expect(secretDialog).toBeVisible();
    const secret = await secretDialog.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByTestId('webhook-secret-copy').click();
    await expect(secretDialog).toContainText('Copiado.');
    await checkScreen(page, 'Webhooks: the secret shown once', 'webhooks-secret', { fullPage: false });
    await secretDialog.getByTestId('webhook-secret-done').click();

    const list = await apiGet<{ data: { id: string; url: string; secretHint: string }[] }>(
      request,
      'api/settings/webhooks?pageSize=100',
    );
    const mine = list.data.filter((row) => row.url === url);
    expect(mine, 'one subscription for a double click').toHaveLength(1);
    subscriptionId = mine[0]?.id ?? null;
    expect(mine[0]?.secretHint).toBe(secret.slice(-4));
    await expect(page.getByTestId('webhook-row').filter({ hasText: url })).toBeVisible();

    // An appointment booked in the agenda, on a Thursday of its own far from the demo's (and an hour
    // later on a retry, beside the first try's appointment).
    const day = weekdayOnOrAfter(addDays(demoClinicToday(), 60), 4);
    const time = `${String(11 + test.info().retry).padStart(2, '0')}:00`;
    await page.goto(`/calendar?date=${day}&view=week`);
    await settle(page);
    await page.getByTestId('new-appointment').click();
    const dialog = page.getByTestId('booking-dialog');
    const name = `Lucía ${lastName}`;
    await dialog.getByRole('combobox', { name: 'Paciente' }).fill(name);
    await page.getByRole('option', { name: new RegExp(name) }).click();
    const [professional] = (await apiGet<{ data: { id: string }[] }>(request, 'api/professionals')).data;
    await dialog.getByTestId('booking-professional').selectOption(professional?.id ?? '');
    await dialog.getByTestId('booking-date').fill(day);
    await dialog.getByTestId('booking-time').fill(time);
    await dialog.getByTestId('booking-minutes').fill('30');
    await dialog.getByTestId('booking-reason').fill('Control');
    await dialog.getByTestId('booking-save').click();
    await expect(dialog).toHaveCount(0);

    const ours = () =>
      received.filter((one) => {
        const body = JSON.parse(one.body) as { type: string; data: { patientId?: string } };
        return body.type === 'appointment.booked' && body.data.patientId === patientId;
      });
    await expect.poll(() => ours().length, { timeout: 20_000 }).toBe(1);
    const [first] = ours();
    if (!first) throw new Error('not received');
    expect(verify(secret, first)).toBe(true);
    const event = JSON.parse(first.body) as { id: string; data: { startsAt: string } };
    expect(event.data.startsAt).toBe((instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date).toISOString());
    expect(first.headers['odontia-event-id']).toBe(event.id);

    // The delivery log shows it delivered; "Reenviar" sends the same event again.
    await page.goto('/settings/webhooks');
    await settle(page, { spinners: true });
    await page.getByTestId('webhook-row').filter({ hasText: url }).getByTestId('webhook-log').click();
    const log = page.getByTestId('webhook-log-panel');
    const attempt = log.getByTestId('webhook-attempt').filter({ hasText: 'Turno reservado' }).first();
    await expect(attempt.getByTestId('webhook-attempt-status')).toHaveText('Entregado');
    await expect(attempt).toContainText('200');
    await checkScreen(page, 'Webhooks: delivery log', 'webhooks-log', { spinners: true });
    await attempt.getByTestId('webhook-resend').dblclick();
    await expect.poll(() => ours().length, { timeout: 20_000 }).toBe(2);
    expect(ours()[1]?.headers['odontia-event-id']).toBe(event.id);
    expect(verify(secret, ours()[1] as Received)).toBe(true);
    await expect(log.getByText('Reenvío').first()).toBeVisible({ timeout: 10_000 });
    // Two clicks, one resend.
    await page.waitForTimeout(1500);
    expect(ours()).toHaveLength(2);

    await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
    await checkScreen(page, 'Webhooks (dark)', 'webhooks-log-dark', { spinners: true });
    await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
    await page.setViewportSize({ width: 390, height: 844 });
    await checkScreen(page, 'Webhooks at 390 px', 'webhooks-log-390', { spinners: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'fits 390 px').toBeLessThanOrEqual(0);
  } finally {
    // The demo clinic's other specs send no more events to a receiver that is gone.
    if (subscriptionId) {
      await request.delete(rootServer.url(`api/settings/webhooks/${subscriptionId}`), {
        headers: await adminHeaders(request),
      });
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
