import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { buildApp } from '../../app.ts';
import { loadEnv } from '../../env.ts';
import { refusedUrl } from './webhook-url.ts';

/**
 * Webhooks for integrators (issue 42), against a real receiver on a loopback port: signed
 * deliveries, retries with the same event id, nothing lost across a restart, the clinic's
 * boundaries, levels, resend, paused subscriptions, hostile URLs and a receiver that hangs.
 */

const secretsKey = Buffer.alloc(32, 7).toString('base64');
const appEnv = { WEBHOOKS_ALLOW_PRIVATE_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '700', SECRETS_KEY: secretsKey };

describe.each(availableBackends())('webhooks on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true, env: appEnv });
  let receiver: WebhookReceiver;
  const extraApps: FastifyInstance[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await receiver.close();
  });

  /** Another instance of the application on the same database. */
  async function anotherApp(env: Record<string, string> = appEnv): Promise<FastifyInstance> {
    const app = await buildApp({
      env: loadEnv({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: t.testApp.env.DATA_DIR,
        WEB_DIST_DIR: t.testApp.env.WEB_DIST_DIR,
        JOBS_ENABLED: 'false',
        ...env,
      }),
      db: t.db,
    });
    await app.ready();
    extraApps.push(app);
    return app;
  }

  async function subscribe(body: Record<string, unknown> = {}) {
    const response = await t.call('POST', '/api/settings/webhooks', {
      body: { url: receiver.url, events: ['patient.created', 'appointment.booked'], description: 'CRM', ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json<{ data: { id: string; version: number }; secret: string }>();
    return { id: answer.data.id, version: answer.data.version, secret: answer.secret };
  }

  /** Pauses every other subscription of the clinic, so a test hears only its own. */
  async function only(id: string) {
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(
        sql`update webhook_subscriptions set active = false where account_id = ${t.clinic.accountId} and id <> ${id}`,
      ),
    );
  }

  /** Runs the due jobs; `again` first makes the queued webhook jobs due (their backoff skipped). */
  async function deliver(app: FastifyInstance = t.app, again = false) {
    if (again) {
      await t.db.withSystem((tx) =>
        tx.execute(sql`update jobs set run_at = now() where kind = 'webhook_deliver' and state = 'queued'`),
      );
    }
    await app.jobs.runDue();
  }

  const attemptsOf = async (id: string) =>
    (await t.call('GET', `/api/settings/webhooks/${id}/attempts?pageSize=100`)).json<{
      data: {
        deliveryId: string;
        eventId: string;
        eventType: string;
        statusCode: number | null;
        ok: boolean;
        error: string | null;
        responseExcerpt: string | null;
        deliveryState: string;
        resent: boolean;
        durationMs: number;
      }[];
      total: number;
    }>();

  it('creates a subscription, shows its secret once and never again', async () => {
    const { id, secret } = await subscribe();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const got = await t.call('GET', `/api/settings/webhooks/${id}`);
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(secret);
    expect(got.json().data).toMatchObject({ url: receiver.url, active: true, secretHint: secret.slice(-4) });
    const list = await t.call('GET', '/api/settings/webhooks');
    expect(list.json().data.map((row: { id: string }) => row.id)).toContain(id);
    // Sealed at rest: the table does not hold it in clear.
    const stored = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ secret_sealed: string }>(sql`select secret_sealed from webhook_subscriptions where id = ${id}`),
    );
    expect(stored.rows[0]?.secret_sealed).not.toContain(secret.slice(6));
    expect(stored.rows[0]?.secret_sealed.startsWith('v1.')).toBe(true);
  });

  it('delivers a booked appointment, signed with the secret and the timestamp', async () => {
    const { id, secret } = await subscribe({ events: ['appointment.booked'] });
    await only(id);
    receiver.received.length = 0;
    const booked = await t.created('/api/appointments', {
      body: {
        patientId: t.patientId,
        professionalId: t.clinic.userId,
        startsAt: '2031-03-04T13:00:00.000Z',
        endsAt: '2031-03-04T13:30:00.000Z',
        reason: 'Revisión',
        allowOutsideSchedule: true,
      },
    });
    expect(receiver.received).toHaveLength(0); // Sent by the queue, after the commit.
    await deliver();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    if (!request) throw new Error('nothing received');
    expect(verifySignature(secret, request)).toBe(true);
    expect(verifySignature('whsec_another', request)).toBe(false);
    // A changed body no longer verifies.
    expect(verifySignature(secret, { ...request, body: request.body.replace('scheduled', 'cancelled') })).toBe(false);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      type: 'appointment.booked',
      clinicId: t.clinic.accountId,
      data: {
        appointmentId: booked.id,
        patientId: t.patientId,
        professionalId: t.clinic.userId,
        startsAt: '2031-03-04T13:00:00.000Z',
        endsAt: '2031-03-04T13:30:00.000Z',
        status: 'scheduled',
      },
    });
    expect(request.headers['odontia-event-id']).toBe(body.id);
    expect(request.headers['content-type']).toBe('application/json');
    const log = await attemptsOf(id);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      eventId: body.id,
      eventType: 'appointment.booked',
      statusCode: 200,
      ok: true,
      responseExcerpt: 'ok',
      deliveryState: 'delivered',
    });
    // Delivered: another round sends nothing more.
    await deliver(t.app, true);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends a move, a cancellation and a patient edit with what changed, never the values', async () => {
    const { id } = await subscribe({ events: ['appointment.moved', 'appointment.cancelled', 'patient.updated'] });
    await only(id);
    receiver.received.length = 0;
    const booking = {
      patientId: t.patientId,
      professionalId: t.clinic.userId,
      startsAt: '2031-05-06T13:00:00.000Z',
      endsAt: '2031-05-06T13:30:00.000Z',
      reason: 'Revisión',
      allowOutsideSchedule: true,
    };
    const booked = await t.created('/api/appointments', { body: booking });
    const moved = await t.call('PUT', `/api/appointments/${booked.id}`, {
      body: { ...booking, startsAt: '2031-05-07T14:00:00.000Z', endsAt: '2031-05-07T14:30:00.000Z', version: 1 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const newId = moved.json().data.id as string;
    const cancelled = await t.call('POST', `/api/appointments/${newId}/cancel`, {
      body: { reason: 'patient_request', version: moved.json().data.version },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const patient = (await t.call('GET', `/api/patients/${t.patientId}`)).json().data;
    const edited = await t.call('PUT', `/api/patients/${t.patientId}`, {
      body: { ...patient, address: 'Calle Falsa 123', version: patient.version },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await deliver();
    const bodies = receiver.received.map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type).sort()).toEqual([
      'appointment.cancelled',
      'appointment.moved',
      'patient.updated',
    ]);
    const byType = Object.fromEntries(bodies.map((body) => [body.type, body.data]));
    expect(byType['appointment.moved']).toMatchObject({
      appointmentId: newId,
      previousAppointmentId: booked.id,
      startsAt: '2031-05-07T14:00:00.000Z',
      previousStartsAt: '2031-05-06T13:00:00.000Z',
    });
    expect(byType['appointment.cancelled']).toMatchObject({
      appointmentId: newId,
      status: 'cancelled',
      reason: 'patient_request',
    });
    expect(byType['patient.updated']).toMatchObject({ patientId: t.patientId, changedFields: ['address'] });
    expect(JSON.stringify(byType['patient.updated'])).not.toContain('Falsa');
  });

  it('retries after failures with the same event id: 500, 500, then 200 is one success and 3 attempts', async () => {
    const { id, secret } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    receiver.script = [500, 500];
    const patientId = await t.newPatient();
    await deliver();
    await deliver(t.app, true);
    await deliver(t.app, true);
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((request) => request.headers['odontia-event-id']));
    expect(ids.size).toBe(1);
    for (const request of receiver.received) expect(verifySignature(secret, request)).toBe(true);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}').data).toMatchObject({ patientId });
    const log = await attemptsOf(id);
    expect(log.total).toBe(3);
    expect(log.data.map((attempt) => attempt.statusCode)).toEqual([200, 500, 500]);
    expect(log.data.filter((attempt) => attempt.ok)).toHaveLength(1);
    expect(log.data.every((attempt) => attempt.deliveryState === 'delivered')).toBe(true);
    // The answer's first bytes only.
    expect(log.data[2]?.responseExcerpt?.length).toBeLessThanOrEqual(500);
    expect(log.data[2]?.error).toBe('HTTP 500');
    await deliver(t.app, true);
    expect(receiver.received).toHaveLength(3);
  });

  it('loses no event across a restart: a change made, the app closed, a new instance delivers it', async () => {
    const { id, secret } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    const first = await anotherApp();
    const created = await first.inject({
      method: 'POST',
      url: '/api/patients',
      headers: { authorization: `Bearer ${t.clinic.token}`, 'idempotency-key': `restart-${id}` },
      payload: { firstName: 'Reinicio', lastName: 'Prueba', sex: 'female', birthdate: '1980-04-02' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await first.close();
    extraApps.splice(extraApps.indexOf(first), 1);
    expect(receiver.received).toHaveLength(0);
    const second = await anotherApp();
    await deliver(second);
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature(secret, receiver.received[0] as never)).toBe(true);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}').data.patientId).toBe(created.json().data.id);
  });

  it("answers 404 for another clinic's subscription, log and delivery", async () => {
    const { id } = await subscribe({ events: ['patient.created'] });
    const token = t.other.token;
    for (const [method, url] of [
      ['GET', `/api/settings/webhooks/${id}`],
      ['GET', `/api/settings/webhooks/${id}/attempts`],
      ['POST', `/api/settings/webhooks/${id}/rotate-secret`],
      ['DELETE', `/api/settings/webhooks/${id}`],
      ['POST', `/api/settings/webhooks/${id}/deliveries/${id}/resend`],
    ] as const) {
      const response = await t.call(method, url, { token });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('webhook_not_found');
    }
    const put = await t.call('PUT', `/api/settings/webhooks/${id}`, {
      token,
      body: { url: receiver.url, events: ['patient.created'], active: true, version: 1 },
    });
    expect(put.statusCode).toBe(404);
    const list = await t.call('GET', '/api/settings/webhooks', { token });
    expect(list.json().data).toEqual([]);
    // A delivery of another subscription of the same clinic: 404 too.
    const unknown = await t.call('POST', `/api/settings/webhooks/${id}/deliveries/${id}/resend`);
    expect(unknown.json().code).toBe('webhook_delivery_not_found');
  });

  it('is for administrators: supervisors and users get 403', async () => {
    const { id } = await subscribe();
    for (const level of ['supervisor', 'user'] as const) {
      await t.asLevel(level, async () => {
        expect((await t.call('GET', '/api/settings/webhooks')).statusCode).toBe(403);
        expect((await t.call('GET', `/api/settings/webhooks/${id}/attempts`)).statusCode).toBe(403);
        const created = await t.call('POST', '/api/settings/webhooks', {
          body: { url: receiver.url, events: ['patient.created'] },
        });
        expect(created.statusCode).toBe(403);
      });
    }
  });

  it('resends an event with the same id; the same Idempotency-Key resends once', async () => {
    const { id, secret } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    await t.newPatient();
    await deliver();
    expect(receiver.received).toHaveLength(1);
    const [attempt] = (await attemptsOf(id)).data;
    if (!attempt) throw new Error('no attempt');
    const url = `/api/settings/webhooks/${id}/deliveries/${attempt.deliveryId}/resend`;
    const noKey = await t.call('POST', url, { idempotencyKey: null });
    expect(noKey.statusCode).toBe(400);
    const resent = await t.call('POST', url, { idempotencyKey: `resend-${id}` });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ code: 'webhook_resend_queued', data: { eventId: attempt.eventId } });
    const again = await t.call('POST', url, { idempotencyKey: `resend-${id}` });
    expect(again.json()).toEqual(resent.json());
    await deliver();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.headers['odontia-event-id']).toBe(attempt.eventId);
    expect(verifySignature(secret, receiver.received[1] as never)).toBe(true);
    const log = await attemptsOf(id);
    expect(log.data.map((row) => row.resent)).toEqual([true, false]);
    expect((await t.auditEvents('webhook_resent')).some((event) => event.entityId === id)).toBe(true);
  });

  it('sends nothing to a paused subscription, also for events queued before the pause', async () => {
    const { id, version } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    await t.newPatient(); // queued while active
    const paused = await t.call('PUT', `/api/settings/webhooks/${id}`, {
      body: { url: receiver.url, events: ['patient.created'], active: false, version },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ code: 'webhook_updated', data: { active: false, version: version + 1 } });
    await t.newPatient(); // not even recorded
    await deliver();
    expect(receiver.received).toHaveLength(0);
    const log = await attemptsOf(id);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ ok: false, error: 'subscription paused', deliveryState: 'failed' });
    const stale = await t.call('PUT', `/api/settings/webhooks/${id}`, {
      body: { url: receiver.url, events: ['patient.created'], active: true, version },
    });
    expect(stale.statusCode).toBe(409);
  });

  it('refuses hostile URLs: other schemes, credentials, and private hosts without the setting', async () => {
    for (const url of [
      'ftp://127.0.0.1/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pw@example.com/',
    ]) {
      const response = await t.call('POST', '/api/settings/webhooks', { body: { url, events: ['patient.created'] } });
      expect(response.statusCode, url).toBe(400);
    }
    const publicHttp = await t.call('POST', '/api/settings/webhooks', {
      body: { url: 'http://example.com/hook', events: ['patient.created'] },
    });
    expect(publicHttp.json().code).toBe('webhook_url_refused');
    const strict = await anotherApp({ SECRETS_KEY: secretsKey });
    const hosts = [
      receiver.url,
      'https://10.0.0.8/x',
      'https://localhost/x',
      'https://[::1]/x',
      'https://192.168.1.1/',
    ];
    for (const [index, url] of hosts.entries()) {
      const response = await strict.inject({
        method: 'POST',
        url: '/api/settings/webhooks',
        headers: { authorization: `Bearer ${t.clinic.token}`, 'idempotency-key': `strict-${index}-${Date.now()}` },
        payload: { url, events: ['patient.created'] },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe('webhook_url_refused');
    }
    expect(refusedUrl('https://hooks.example.com/odontia', { allowPrivate: false })).toBeNull();
    expect(refusedUrl('https://172.20.0.1/', { allowPrivate: false })).not.toBeNull();
    expect(refusedUrl('https://169.254.169.254/latest', { allowPrivate: false })).not.toBeNull();
    expect(refusedUrl('https://[::ffff:127.0.0.1]/', { allowPrivate: false })).not.toBeNull();
    // Hostile text and absurd sizes: field codes, never a 500.
    const long = await t.call('POST', '/api/settings/webhooks', {
      body: { url: `https://example.com/${'a'.repeat(3000)}`, events: ['nope'], description: 'x\u0000' },
    });
    expect(long.statusCode).toBe(400);
  });

  it('records a timeout when the receiver hangs, and answers the screens meanwhile', async () => {
    const { id } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    receiver.hang = 3000;
    try {
      await t.newPatient();
      await deliver();
    } finally {
      receiver.hang = 0;
    }
    const log = await attemptsOf(id);
    expect(log.data[0]).toMatchObject({ ok: false, statusCode: null, deliveryState: 'pending' });
    expect(log.data[0]?.error).toContain('timeout');
    expect(log.data[0]?.durationMs).toBeLessThan(2500);
  });

  it('rotates the secret: the next delivery is signed with the new one', async () => {
    const { id, secret } = await subscribe({ events: ['patient.created'] });
    await only(id);
    receiver.received.length = 0;
    const rotated = await t.call('POST', `/api/settings/webhooks/${id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<{ secret: string }>().secret;
    expect(fresh).not.toBe(secret);
    await t.newPatient();
    await deliver();
    expect(verifySignature(fresh, receiver.received[0] as never)).toBe(true);
    expect(verifySignature(secret, receiver.received[0] as never)).toBe(false);
    const removed = await t.call('DELETE', `/api/settings/webhooks/${id}`);
    expect(removed.json()).toEqual({ code: 'webhook_deleted' });
    expect((await t.call('GET', `/api/settings/webhooks/${id}`)).statusCode).toBe(404);
  });
});
